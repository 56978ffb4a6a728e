"""Expansion valve: isenthalpic, ideal or with an orifice flow equation.

Equations (SI)::

    0 = h_out - h_in                                                  (isenthalpic)
    0 = m - z_flow * CdA * sign(dp) * sqrt(2 * rho_in * |dp|)         (orifice; dp = p_in - p_out)

The orifice equation is present only when ``flow_coefficient_m2`` (CdA [m2]) is given; an
ideal valve takes whatever pressure drop the rest of the circuit imposes.
"""

from __future__ import annotations

import math

import numpy as np

from workbench.components.base import Component, Equation, register_component

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
