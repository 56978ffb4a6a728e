"""Enthalpy bounds of a Newton step, evaluated only near the bounds.

:func:`workbench.solver.newton.limit_step` keeps every enthalpy of a trial point between the
backend's ``h_min(p)`` and ``h_max(p)`` at the trial pressure. Each of those is a flash at a
new pressure, for every state and every iteration, although a refrigerant cycle's enthalpies
stay far inside them (``h_min`` is the liquid at the fluid's lowest temperature, ``h_max`` the
gas at its highest). :class:`EnthalpyBounds` remembers the bounds at the pressures it was asked
for (probes) and answers "clear of the bounds" for an enthalpy that lies inside a probe's band
shrunk by :data:`MARGIN` of its width, when the probe's pressure is within a factor
:data:`PRESSURE_RATIO` of the trial pressure; only other enthalpies need the exact bounds.

The shrinking covers the bounds' change with pressure over that factor: ``h_min`` rises by the
liquid's ``v (1 - beta T) dp``, about 1 kJ/kg per MPa, and ``h_max`` falls by less, against a
band of several hundred kJ/kg. The check only saves work: an enthalpy wrongly judged clear is
evaluated by the trial's residuals, whose property failure halves the step as before.
"""

from __future__ import annotations

from workbench.fluids import FluidBackend

__all__ = ["MARGIN", "PRESSURE_RATIO", "EnthalpyBounds"]

MARGIN = 0.1
"""Share of a probe's band ``h_max - h_min`` kept clear at each end [-]."""

PRESSURE_RATIO = 1.5
"""A probe serves trial pressures within this factor of its own [-]."""

_MAX_PROBES = 32
"""Probes kept per backend (a solve visits a few pressure levels per circuit)."""


class EnthalpyBounds:
    """``h_min``/``h_max`` of each backend at the pressures a solve visited (see module docstring)."""

    __slots__ = ("_probes",)

    def __init__(self) -> None:
        self._probes: dict[int, list[tuple[float, float, float]]] = {}

    def clear_of(self, fluid: FluidBackend, p: float, h: float) -> bool:
        """Whether enthalpy ``h`` [J/kg] at pressure ``p`` [Pa] is well inside the bounds.

        True only when a probe within :data:`PRESSURE_RATIO` of ``p`` has ``h`` inside its band
        shrunk by :data:`MARGIN`; False means "evaluate the exact bounds".
        """
        for p_probe, lo, hi in self._probes.get(id(fluid), ()):
            if p_probe <= p * PRESSURE_RATIO and p <= p_probe * PRESSURE_RATIO:
                margin = MARGIN * (hi - lo)
                return lo + margin <= h <= hi - margin
        return False

    def exact(self, fluid: FluidBackend, p: float) -> tuple[float, float]:
        """``(h_min(p), h_max(p))`` [J/kg], remembered as a probe.

        Raises
        ------
        FluidPropertyError
            The backend knows no bound at ``p``.
        """
        lo, hi = float(fluid.h_min(p)), float(fluid.h_max(p))
        probes = self._probes.setdefault(id(fluid), [])
        if len(probes) >= _MAX_PROBES:
            probes.pop(0)
        probes.append((p, lo, hi))
        return lo, hi
