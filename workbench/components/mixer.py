"""Mixer: two or more branches join into one (adiabatic, no pressure drop).

Ports ``inlet_1``, ``inlet_2`` (more as ``inlet_3``, ``inlet_4``, ...) and ``outlet``.
Equations (SI), with the sums over the inlets::

    0 = sum(m_in) - m_out                                       (mass; see junction.py)
    0 = h_out - sum(m_in * h_in) / sum(m_in)                    (energy)
    0 = p_in,k - p_out            for every inlet k             (pressure_inlet_<k>)

Every port is at one pressure (as TESPy's ``Merge``): the branches must arrive at the mixing
pressure. A branch that comes from a higher pressure (an evaporator held warmer by an
evaporator pressure regulator) passes a valve first; the valve takes up the difference.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Equation, register_component
from workbench.components.junction import Junction

__all__ = ["Mixer"]


@register_component
class Mixer(Junction):
    """Mixer model (see module docstring)."""

    type_name = "Mixer"

    def equations(self) -> tuple[Equation, ...]:
        """The mass balance (when kept), ``energy``, and one pressure equation per inlet."""
        return (
            *self.mass_equations(),
            Equation("energy", "enthalpy"),
            *(Equation(f"pressure_{port}", "pressure") for port in self.inlets),
        )

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Mass [kg/s], energy [J/kg] and inlet pressure [Pa] residuals.

        In the order of :meth:`equations`; each is a ``0 = ...`` line of the module docstring.
        """
        ins, out = self.states(x, self.inlets), self.port(x, "outlet")
        m_in = sum(s.m for s in ins)
        res = self.mass_residual(x)
        res.append(out.h - sum(s.m * s.h for s in ins) / m_in)
        res.extend(s.p - out.p for s in ins)
        return np.array(res)

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Outlet flow and state, the number of inlets, each inlet's flow, the balances.

        ``massFlowRate`` [kg/s], ``pressure`` [Pa], ``temperature`` [K], ``inlets``,
        ``<inlet>_mass_flow`` [kg/s], ``mass_balance_kg_s`` and ``energy_balance_w``.
        """
        out = self.port(x, "outlet")
        result: dict[str, float | None] = {
            "massFlowRate": out.m,
            "pressure": out.p,
            "temperature": self.fluid.T_ph(out.p, out.h),
            "inlets": float(len(self.inlets)),
        }
        for port in self.inlets:
            result[f"{port}_mass_flow"] = self.port(x, port).m
        result.update(self.balance_outputs(x))
        return result
