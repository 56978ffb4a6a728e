"""What every junction shares: ports that each carry a flow of their own, and mass balances.

A junction (``Mixer``, ``Splitter``, ``FlashTank``) has no through streams: each connected
port ends or starts a branch, and every branch has its own mass flow unknown. The junction
adds the equations that tie them together, among them its mass balance::

    0 = sum(m_in) - sum(m_out)                                     (mass)

In each connected group of junctions one mass balance follows from the others (every branch
leaves one junction and enters another), so the solver switches off the mass balance of the
group's first junction (:attr:`Junction.balances_mass`); it still holds at the solution and
the results report it (``mass_balance_kg_s``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from workbench.components.base import Component, Equation, PortState, PortVars, StepFunction
from workbench.components.catalog.specs import port_role

__all__ = ["Junction"]


class Junction(Component):
    """Base class of components where branches meet (see module docstring).

    Attributes
    ----------
    inlets, outlets : tuple of str
        The connected inlet and outlet ports in order (``inlet_1``, ``inlet_2``, ...), set when
        the solver binds the ports.
    balances_mass : bool
        False for the junction whose mass balance the others imply (set by the topology).
    """

    streams = ()

    def configure(self) -> None:
        """Start without bound ports, balancing mass until the topology says otherwise."""
        self.inlets: tuple[str, ...] = ()
        self.outlets: tuple[str, ...] = ()
        self.balances_mass = True

    def bind(self, ports: Mapping[str, PortVars]) -> None:
        """Attach the ports' unknowns; their order (listed, then numbered) is kept."""
        super().bind(ports)
        self.inlets = tuple(p for p in ports if port_role(p) == "inlet")
        self.outlets = tuple(p for p in ports if port_role(p) == "outlet")

    def mass_equations(self) -> tuple[Equation, ...]:
        """The mass balance, unless another junction's balances imply it."""
        return (Equation("mass", "mass"),) if self.balances_mass else ()

    def states(self, x: np.ndarray, ports: tuple[str, ...]) -> list[PortState]:
        """States of ``ports`` at ``x``."""
        return [self.port(x, p) for p in ports]

    def mass_residual(self, x: np.ndarray) -> list[float]:
        """``[sum(m_in) - sum(m_out)]`` when this junction balances mass, else ``[]``."""
        if not self.balances_mass:
            return []
        m_in = sum(s.m for s in self.states(x, self.inlets))
        return [m_in - sum(s.m for s in self.states(x, self.outlets))]

    def port_columns(self) -> set[int]:
        """Solver indices of every port unknown (mass flow, pressure, enthalpy)."""
        return {i for pv in self.ports.values() for i in (pv.m, pv.p, pv.h)}

    def mass_entries(self) -> list[tuple[int, int, float]]:
        """Jacobian entries of the mass balance (row 0 when kept): +1 per inlet, -1 per outlet."""
        if not self.balances_mass:
            return []
        return [(0, self.ports[p].m, 1.0) for p in self.inlets] + [
            (0, self.ports[p].m, -1.0) for p in self.outlets
        ]

    def linear_jacobian(
        self,
        x: np.ndarray,
        f0: np.ndarray,
        step: StepFunction,
        entries: list[tuple[int, int, float]],
    ) -> list[tuple[int, int, float]]:
        """The analytic ``entries`` without exact zeros, or differences if an unknown is not a port's.

        Junction residuals read nothing but their ports; should a control loop drive one of
        their unknowns, the default finite differences (which see every local unknown) apply.
        """
        if not set(self._local) <= self.port_columns():
            return super().jacobian(x, f0, step)
        return [(r, c, v) for r, c, v in entries if v != 0.0]

    def balance_outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Mass [kg/s] and energy [W] in minus out: zero (to the solver's tolerance) when solved."""
        ins, outs = self.states(x, self.inlets), self.states(x, self.outlets)
        return {
            "mass_balance_kg_s": sum(s.m for s in ins) - sum(s.m for s in outs),
            "energy_balance_w": sum(s.m * s.h for s in ins) - sum(s.m * s.h for s in outs),
        }

    def check(self, x: np.ndarray) -> list[str]:
        """A port carrying a negative mass flow: a branch that would run backwards."""
        problems = []
        for port in (*self.inlets, *self.outlets):
            m = self.port(x, port).m
            if m < -1e-9:
                problems.append(
                    f"{self.type_name} {self.name!r}: port '{port}' carries a negative mass flow "
                    f"({m:.4g} kg/s): the branch would run backwards"
                )
        return problems
