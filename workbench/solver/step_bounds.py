"""Enthalpy bounds of a Newton step, evaluated only near the bounds.

:func:`workbench.solver.newton.limit_step` keeps every enthalpy of a trial point between the
backend's ``h_min(p)`` and ``h_max(p)`` at the trial pressure. Each of those is a flash at a
new pressure, for every state and every iteration, although a refrigerant cycle's enthalpies
stay far inside them (``h_min`` is the liquid at the fluid's lowest temperature, ``h_max`` the
gas at its highest). :class:`EnthalpyBounds` remembers the bounds at the pressures it was asked
for (probes) and answers "clear of the bounds" for an enthalpy that lies inside a probe's band
shrunk at each end by the most the bounds can move between the probe's pressure and the trial
pressure, when the probe's pressure is within a factor :data:`PRESSURE_RATIO` of the trial
pressure; only other enthalpies need the exact bounds.

The bounds move with pressure by ``(dh/dp)_T = v (1 - beta T)`` of their states: the liquid at
the lowest temperature (about 1 kJ/kg per MPa) and the gas at the highest (less). The margin is
``MARGIN_FLOOR + MAX_SLOPE |p - p_probe|`` (:data:`MAX_SLOPE` about three times the largest
slope of the refrigerants' bounds over their pressures). A margin of 10 % of the band (before
2026-11-26) was both too wide and too narrow: CO2's band runs to 2,000 K (2.6 MJ/kg wide), so
every liquid state of a CO2 cycle (100 kJ/kg above ``h_min``) was "near the bound" and each
iteration flashed CO2 at 216 K and 2,000 K for each of them (r744_r717_cascade_v2: 15 probes,
1.2 ms of a 15 ms solve), while R1234ze(E)'s ``h_max`` (the gas at 420 K, just above its
critical temperature) moves by 39 kJ/kg between 44 and 66 bar, more than 10 % of its band.
The check only saves work: an enthalpy wrongly judged clear is evaluated by the trial's
residuals, whose property failure halves the step as before.
"""

from __future__ import annotations

from workbench.fluids import FluidBackend

__all__ = ["MARGIN_FLOOR", "MAX_SLOPE", "PRESSURE_RATIO", "EnthalpyBounds"]

MARGIN_FLOOR = 1e3
"""Margin kept clear at each end of a probe's band at the probe's own pressure [J/kg]."""

MAX_SLOPE = 0.05
"""Bound on ``|d h_min / dp|`` and ``|d h_max / dp|`` [J/kg per Pa = m3/kg]: about three times
the largest secant of R134a, R290, R744, R717, R32, R410A, R407C, R454B, R600a, R1234yf and
R1234ze(E) between twice their lowest pressure and 20 MPa (0.018, R1234ze(E)'s ``h_max``)."""

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
        shrunk by the margin (see the module docstring); False means "evaluate the exact
        bounds".
        """
        for p_probe, lo, hi in self._probes.get(id(fluid), ()):
            if p_probe <= p * PRESSURE_RATIO and p <= p_probe * PRESSURE_RATIO:
                margin = MARGIN_FLOOR + MAX_SLOPE * abs(p - p_probe)
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
