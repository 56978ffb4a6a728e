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

from workbench.components.base import Equation, StepFunction, register_component
from workbench.components.junctions.junction import Junction

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

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Analytic entries, with ``M = sum(m_in)`` and ``h_mix = sum(m_in * h_in) / M``.

        d energy / d h_out = 1, d energy / d h_in,k = -m_k / M,
        d energy / d m_in,k = -(h_in,k - h_mix) / M; the mass and pressure rows are +-1.
        """
        ins = self.states(x, self.inlets)
        m_tot = sum(s.m for s in ins)
        h_mix = sum(s.m * s.h for s in ins) / m_tot
        entries = self.mass_entries()
        row = 1 if self.balances_mass else 0
        out = self.ports["outlet"]
        entries.append((row, out.h, 1.0))
        for port, s in zip(self.inlets, ins, strict=True):
            pv = self.ports[port]
            entries += [(row, pv.m, -(s.h - h_mix) / m_tot), (row, pv.h, -s.m / m_tot)]
        for k, port in enumerate(self.inlets, start=row + 1):
            entries += [(k, self.ports[port].p, 1.0), (k, out.p, -1.0)]
        return self.linear_jacobian(x, f0, step, entries)

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
