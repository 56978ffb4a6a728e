"""What a coil remembers of its zone model between evaluations: results, derivatives, a start.

Who reads it: :class:`workbench.components.exchangers.coils.component.Coil` (its ``zones`` and ``zone_sensitivity``),
hence the coil's residual, its Jacobian (:mod:`workbench.components.exchangers.coils.jacobian`) and a fixed
charge's row (:mod:`workbench.components.inventory.coil_gradient`). The zone model
(:func:`workbench.components.exchangers.zones.heat_flow.coil_heat_flow`) is a root-find; during a solve it is asked
for the same inputs several times (residual, Jacobian, charge, results) and for inputs one
Newton step apart. Kept, keyed by the exact inputs ``(p, h_in, m, t_sec_in, c_sec, ua)``:

- the last :data:`ZONES_KEPT` results (a Jacobian that perturbs one input and comes back finds
  the base state still there);
- the derivatives ``dQ/dx`` at the last Jacobian's state
  (:func:`~workbench.components.exchangers.zones.heat_flow.coil_heat_flow_sensitivity`) and the heat flow there;
- the start of the next root-find: the heat flow those derivatives predict for the new inputs,
  ``Q_s + sum_i dQ/dx_i (x_i - x_i,s)`` (within the square of the move of the root), then the
  last solution's share of the pinch limit, then the last heat flow.

A result is a function of the inputs alone (the root to 1e-8 of ``Q_max``, the last step
applied), so what is kept only saves work.
"""

from __future__ import annotations

from workbench.components.exchangers.zones.heat_flow import (
    CoilSensitivity,
    ZoneResult,
    coil_heat_flow,
    coil_heat_flow_sensitivity,
)
from workbench.fluids import FluidBackend

__all__ = ["ZONES_KEPT", "ZoneInputs", "ZoneMemory"]

ZONES_KEPT = 4
"""Zone-model results a coil keeps, keyed by their inputs."""

ZoneInputs = tuple[float, float, float, float, float, float]
"""``(p [Pa], h_in [J/kg], m [kg/s], t_sec_in [K], c_sec [W/K], ua [W/K])`` of the zone model."""


class ZoneMemory:
    """The zone-model results and derivatives of one coil (see the module docstring).

    Parameters
    ----------
    fluid : FluidBackend
        The coil's refrigerant.
    refrigerant_is_hot : bool
        True for a condenser, False for an evaporator.
    """

    def __init__(self, fluid: FluidBackend, refrigerant_is_hot: bool) -> None:
        self.fluid, self.hot = fluid, refrigerant_is_hot
        self._results: dict[ZoneInputs, ZoneResult] = {}
        self._q_last: float | None = None  # last heat flow, to start the next root-find
        self._share_last: float | None = None  # and its share of the pinch limit
        self._sens: tuple[ZoneInputs, CoilSensitivity, float] | None = None

    def result(self, key: ZoneInputs) -> ZoneResult:
        """The zone model's result at the inputs ``key`` (kept, or solved and kept)."""
        hit = self._results.get(key)
        if hit is not None:
            return hit
        p, h_in, m, t_sec, c_sec, ua = key
        result = coil_heat_flow(
            self.fluid,
            p,
            h_in,
            m,
            t_sec,
            c_sec,
            ua,
            self.hot,
            q_guess=self._q_last,
            share_guess=self._share_last,
            q_predicted=self.predicted_q(key),
        )
        self._q_last = result.q or None
        self._share_last = result.q / result.q_max if result.q > 0.0 else None
        if len(self._results) >= ZONES_KEPT:
            del self._results[next(iter(self._results))]  # the oldest
        self._results[key] = result
        return result

    def predicted_q(self, key: ZoneInputs) -> float | None:
        """Heat flow [W] at ``key`` to first order from the kept derivatives, or None.

        None without derivatives, at another secondary inlet temperature, or when the kept
        state exchanged no heat.
        """
        if self._sens is None:
            return None
        (p, h_in, m, t_sec, c_sec, ua), sens, q = self._sens
        if key[3] != t_sec or q <= 0.0:
            return None
        return (
            q
            + sens.p * (key[0] - p)
            + sens.h_in * (key[1] - h_in)
            + sens.m * (key[2] - m)
            + sens.c_sec * (key[4] - c_sec)
            + sens.ua * (key[5] - ua)
        )

    def sensitivity(self, key: ZoneInputs) -> CoilSensitivity:
        """``dQ/dx`` at the inputs ``key`` (kept for that state; it predicts the next start)."""
        if self._sens is not None and self._sens[0] == key:
            return self._sens[1]
        q = self.result(key).q
        sens = coil_heat_flow_sensitivity(self.fluid, *key, self.hot, q)
        self._sens = (key, sens, q)
        return sens
