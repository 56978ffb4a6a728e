"""Splitter: one stream divides into two or more branches of the same state.

Ports ``inlet``, ``outlet_1``, ``outlet_2`` (more as ``outlet_3``, ...). Equations (SI)::

    0 = m_in - sum(m_out)                                       (mass; see junction.py)
    0 = p_out,k - p_in            for every outlet k            (pressure_outlet_<k>)
    0 = h_out,k - h_in            for every outlet k            (enthalpy_outlet_<k>)
    0 = m_out,k - f_k * m_in      for each given share f_k      (fraction_outlet_<k>)

The split is set either by the branches themselves (an orifice valve, an evaporator holding
its superheat with an ideal valve, a compressor's flow model) or by the shares: ``fraction_1``
(outlet_1's share) or ``fractions`` (the shares of outlet_1, outlet_2, ...; at most one fewer
than the outlets, the last outlet takes the rest).
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Equation, StepFunction, register_component
from workbench.components.junctions.junction import Junction

__all__ = ["Splitter"]


@register_component
class Splitter(Junction):
    """Splitter model (see module docstring)."""

    type_name = "Splitter"

    def configure(self) -> None:
        """Junction set-up, and the given outlet shares (``fraction_1`` or ``fractions``) [-]."""
        super().configure()
        if self.has("fraction_1"):
            self.shares = [float(self.params["fraction_1"])]
        else:
            self.shares = [float(f) for f in self.params.get("fractions", [])]

    def equations(self) -> tuple[Equation, ...]:
        """The mass balance (when kept), each outlet's pressure and enthalpy, each share."""
        eqs = list(self.mass_equations())
        for port in self.outlets:
            eqs += [
                Equation(f"pressure_{port}", "pressure"),
                Equation(f"enthalpy_{port}", "enthalpy"),
            ]
        eqs += [Equation(f"fraction_{port}", "mass") for port in self.outlets[: len(self.shares)]]
        return tuple(eqs)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Mass [kg/s], outlet pressure [Pa] and enthalpy [J/kg], share [kg/s] residuals.

        In the order of :meth:`equations`; each is a ``0 = ...`` line of the module docstring.
        """
        inlet = self.port(x, "inlet")
        res = self.mass_residual(x)
        outs = self.states(x, self.outlets)
        for s in outs:
            res += [s.p - inlet.p, s.h - inlet.h]
        res += [s.m - f * inlet.m for s, f in zip(outs, self.shares, strict=False)]
        return np.array(res)

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Analytic entries: every row is linear (+-1), a share row ``m_out,k - f_k * m_in``."""
        pin = self.ports["inlet"]
        entries = self.mass_entries()
        row = 1 if self.balances_mass else 0
        for port in self.outlets:
            pv = self.ports[port]
            entries += [(row, pv.p, 1.0), (row, pin.p, -1.0)]
            entries += [(row + 1, pv.h, 1.0), (row + 1, pin.h, -1.0)]
            row += 2
        for port, f in zip(self.outlets, self.shares, strict=False):
            entries += [(row, self.ports[port].m, 1.0), (row, pin.m, -f)]
            row += 1
        return self.linear_jacobian(x, f0, step, entries)

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Inlet flow and state, the number of outlets, each outlet's flow and share, the balances.

        ``massFlowRate`` [kg/s], ``pressure`` [Pa], ``temperature`` [K], ``outlets``,
        ``<outlet>_mass_flow`` [kg/s] and ``<outlet>_fraction`` [-], ``mass_balance_kg_s`` and
        ``energy_balance_w``.
        """
        inlet = self.port(x, "inlet")
        result: dict[str, float | None] = {
            "massFlowRate": inlet.m,
            "pressure": inlet.p,
            "temperature": self.fluid.T_ph(inlet.p, inlet.h),
            "outlets": float(len(self.outlets)),
        }
        for port in self.outlets:
            m = self.port(x, port).m
            result[f"{port}_mass_flow"] = m
            result[f"{port}_fraction"] = m / inlet.m if inlet.m else None
        result.update(self.balance_outputs(x))
        return result
