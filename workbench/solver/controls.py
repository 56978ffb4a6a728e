"""Saturated PI control loops with anti-windup, as blocks of the plant's Newton system.

A loop has one unknown, its integrator state ``u`` [unit of the actuator factor], and one
residual. The actuator factor applied to the plant is the saturated state ``a = sat(u)``
clamped to ``[min, max]``. The loop is the steady state of a PI controller with
back-calculation anti-windup::

    du/dt = K e - (u - sat(u)) / Q,        e = target - measured

so at steady state (the residual, divided by ``|K|`` and the measure's scale)::

    0 = K e - (u - sat(u)) / Q

* Inside the bounds ``sat(u) = u`` and the error is zero: the output meets the target.
* On a bound the state winds past it by ``u - sat(u) = Q K e``: the band ``Q`` > 0 is how far
  the integrator may sit beyond the bound per unit of ``K e``, a finite wind-up that keeps the
  system square and smooth. The sign of ``u - sat(u)`` equals the sign of ``K e``, which is the
  anti-windup condition: a loop sits on its upper bound only while the error asks for more.
* ``gain`` K must have the sign of d(measured)/d(actuator); at the solution that sensitivity
  is computed from the full Jacobian (the loop opened, the implicit-function theorem gives the
  plant's response to the actuator; no second solve), and a mismatch is reported (the loop
  would drive away from its target in operation).

``smooth_eps`` null: hard clamp ``sat(u) = min(max(u, lo), hi)`` (a kink at each bound: Newton
may step back and forth across it; the ``fallback`` strategy's Picard sweeps settle it).
``smooth_eps`` = eps: ``sat(u) = lo + s(u - lo) - s(u - hi)`` with
``s(z) = (z + sqrt(z^2 + eps^2)) / 2``, which is C-infinity, within ``eps / 2`` of the clamp
and strictly monotonic, so Newton sees continuous derivatives.
"""

from __future__ import annotations

import math

import numpy as np

from workbench.components.base import RESIDUAL_SCALES, Component, Equation, StepFunction
from workbench.scenario.models import ControlConfig

__all__ = ["MEASURE_KINDS", "ControlLoop", "saturate"]

MEASURE_KINDS = {
    "capacity": "power",
    "heatTransferRate": "power",
    "superheat": "temperature",
    "subcooling": "temperature",
    "saturationTemperature": "temperature",
    "temperature": "temperature",
    "massFlowRate": "mass",
    "pressure": "pressure",
}
"""Residual kind (and so scale) of each measurable output."""


def _softplus(z: float, eps: float) -> float:
    return 0.5 * (z + math.sqrt(z * z + eps * eps))


def saturate(u: float, lo: float, hi: float, eps: float | None) -> float:
    """Saturated actuator value [unit of the factor]: hard clamp, or smooth with ``eps``."""
    if eps is None:
        return min(max(u, lo), hi)
    return lo + _softplus(u - lo, eps) - _softplus(u - hi, eps)


class ControlLoop:
    """One SaturatedController as a block of the Newton system.

    Parameters
    ----------
    config : ControlConfig
        The loop as written in the scenario (factor already normalised to ``z_``).
    measured : Component
        Component whose output is measured.
    actuated : Component
        Component whose calibration factor is driven.
    index : int
        Index of the loop state ``u`` in the solver vector.
    """

    def __init__(
        self, config: ControlConfig, measured: Component, actuated: Component, index: int
    ) -> None:
        self.config = config
        self.name = f"controls.{config.id}"
        self.measured = measured
        self.actuated = actuated
        self.index = index
        act = config.actuator
        self.lo, self.hi = float(act.min), float(act.max)
        self.eps = config.smooth_eps
        self.kind = MEASURE_KINDS[config.measure.output]
        self.scale = RESIDUAL_SCALES[self.kind]
        self.fixed: float | None = None  # when set, the loop is opened at this state value
        self.linear = False  # when True, the actuator is the state itself (no saturation)
        actuated.drive_factor(act.factor, index, self.actuator)
        self.local_vars = sorted(set(measured.local_vars) | set(actuated.local_vars) | {index})

    def actuator(self, x: np.ndarray) -> float:
        """Saturated actuator value at ``x``."""
        if self.linear:
            return float(x[self.index])
        return saturate(float(x[self.index]), self.lo, self.hi, self.eps)

    def equations(self) -> tuple[Equation, ...]:
        """One equation, the loop's steady state (scaled by ``|K|`` and the measure's scale)."""
        return (Equation("steady_state", "control"),)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """The steady-state residual ``(K e - (u - sat(u)) / Q) / (|K| scale)`` [-].

        See the module docstring. An opened loop (:attr:`fixed` set) holds its state instead:
        ``u - fixed`` [unit of the factor].
        """
        u = float(x[self.index])
        if self.fixed is not None:
            return np.array([u - self.fixed])
        cfg = self.config
        error = cfg.target - self.measured.measure(x, cfg.measure.output)
        wind = (u - self.actuator(x)) / cfg.band
        return np.array([(cfg.gain * error - wind) / (abs(cfg.gain) * self.scale)])

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Forward differences over the loop's unknowns (as a component's default)."""
        return Component.jacobian(self, x, f0, step)  # type: ignore[arg-type]

    @property
    def _local(self) -> list[int]:  # used by Component.jacobian
        return self.local_vars

    def saturated(self, x: np.ndarray) -> str | None:
        """``"low"``, ``"high"`` or None: whether the state sits beyond a bound."""
        u = float(x[self.index])
        margin = 1e-9 * max(1.0, abs(self.hi - self.lo))
        if u < self.lo - margin:
            return "low"
        if u > self.hi + margin:
            return "high"
        return None

    def result(self, x: np.ndarray) -> dict[str, object]:
        """The loop's entry of ``SolveResult.controls``."""
        cfg = self.config
        measured = self.measured.measure(x, cfg.measure.output)
        return {
            "id": cfg.id,
            "target": cfg.target,
            "measured": measured,
            "error": cfg.target - measured,
            "actuator": self.actuator(x),
            "saturated": self.saturated(x),
            "state": float(x[self.index]),
            "component": cfg.actuator.component,
            "factor": cfg.actuator.factor,
        }
