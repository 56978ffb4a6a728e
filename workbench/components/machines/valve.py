"""Expansion valve: isenthalpic, ideal or with an orifice flow equation.

Equations (SI)::

    0 = h_out - h_in                                                  (isenthalpic)
    0 = m - z_flow * CdA * sign(dp) * sqrt(2 * rho_in * |dp|)         (orifice; dp = p_in - p_out)

The orifice equation is present only when ``flow_coefficient_m2`` (CdA [m2]) is given; an
ideal valve takes whatever pressure drop the rest of the circuit imposes.

**Jacobian** (analytic): with ``F`` the orifice flow, ``dF/drho = F / (2 rho)`` and
``dF/d(dp) = F / (2 dp)``, the inlet density's derivatives ``(drho/dp)_h`` and ``(drho/dh)_p``
from the fluid backend; the unknown of a control loop that drives ``z_flow`` by a difference
(the density is unchanged along it).
"""

from __future__ import annotations

import math

import numpy as np

from workbench.components.base import (
    Component,
    Equation,
    StepFunction,
    difference_columns,
    register_component,
)

__all__ = ["ExpansionValve"]


@register_component
class ExpansionValve(Component):
    """Expansion valve model (see module docstring)."""

    type_name = "ExpansionValve"

    def configure(self) -> None:
        """An orifice valve when ``flow_coefficient_m2`` is given, else an ideal one."""
        self.orifice = self.has("flow_coefficient_m2")

    def equations(self) -> tuple[Equation, ...]:
        """``isenthalpic``, and ``flow`` for an orifice valve."""
        if self.orifice:
            return (Equation("isenthalpic", "enthalpy"), Equation("flow", "mass"))
        return (Equation("isenthalpic", "enthalpy"),)

    def orifice_flow(self, x: np.ndarray) -> float:
        """Mass flow through the orifice [kg/s]."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        dp = inlet.p - outlet.p
        rho = self.fluid.rho_ph(inlet.p, inlet.h)
        cda = self.params["flow_coefficient_m2"] * self.factor(x, "z_flow")
        return math.copysign(cda * math.sqrt(2.0 * rho * abs(dp)), dp)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Enthalpy [J/kg] and, for an orifice valve, flow [kg/s] residuals (module docstring)."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        if not self.orifice:
            return np.array([outlet.h - inlet.h])
        return np.array([outlet.h - inlet.h, inlet.m - self.orifice_flow(x)])

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Analytic entries (module docstring); differences over a loop's unknown only.

        Falls back to differences over every column at zero pressure difference (where
        ``sqrt(|dp|)`` has no derivative).
        """
        pin, pout = self.ports["inlet"], self.ports["outlet"]
        entries = [(0, pout.h, 1.0), (0, pin.h, -1.0)]
        if not self.orifice:
            return entries
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        dp = inlet.p - outlet.p
        if dp == 0.0:
            return super().jacobian(x, f0, step)
        fl = self.fluid
        rho = float(fl.rho_ph(inlet.p, inlet.h))
        flow = self.orifice_flow(x)
        half_rho = flow / (2.0 * rho)
        entries += [
            (1, pin.m, 1.0),
            (1, pin.p, -half_rho * float(fl.drho_dp_h(inlet.p, inlet.h)) - flow / (2.0 * dp)),
            (1, pout.p, flow / (2.0 * dp)),
            (1, pin.h, -half_rho * float(fl.drho_dh_p(inlet.p, inlet.h))),
        ]
        ports = {i for pv in (pin, pout) for i in (pv.m, pv.p, pv.h)}
        others = [col for col in self._local if col not in ports]
        return entries + difference_columns(self.residuals, x, f0, step, others)

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Flow, outlet state and pressure drop.

        ``massFlowRate`` [kg/s], outlet ``pressure`` [Pa] and ``temperature`` [K], ``pressure_drop``
        [Pa], ``outlet_quality`` [-] (None outside the dome).
        """
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        return {
            "massFlowRate": inlet.m,
            "pressure": outlet.p,
            "temperature": self.fluid.T_ph(outlet.p, outlet.h),
            "pressure_drop": inlet.p - outlet.p,
            "outlet_quality": self.fluid.quality_ph(outlet.p, outlet.h),
        }

    def check(self, x: np.ndarray) -> list[str]:
        """An outlet pressure above the inlet pressure: flow would run backwards."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        if outlet.p > inlet.p:
            return [
                f"ExpansionValve {self.name!r}: outlet pressure {outlet.p / 1e5:.3f} bar is above "
                f"inlet pressure {inlet.p / 1e5:.3f} bar (flow would run backwards)"
            ]
        return []
