"""The charge residual of a circuit whose refrigerant charge is fixed (``circuits[i].charge_kg``).

Who reads it: the solver attaches one :class:`CircuitCharge` block per circuit with a charge
(:func:`attach_charges`), so the charge closes the circuit in the same Newton system as the
components. Equation::

    0 = sum_items m_item(x) - charge_kg                           (charge) [kg]

with ``m_item`` what each component and edge holds (:mod:`workbench.components.inventory.items`),
summed over the circuit by :mod:`workbench.solver.charge.inventory`. What becomes free in
exchange: the circuit's condenser no longer holds a subcooling (its ``subcooling`` equation is
dropped), so the subcooling is what the charge sets: more charge, more liquid backed up in the
condenser, more subcooling (or, with a ``Receiver``, its liquid level, an unknown of its own).
The Jacobian row is a forward difference (relative step :data:`FD_STEP`) over the unknowns the
inventory reads (the ports of every component and edge holding refrigerant); the inventory is
a smooth function of them (fixed-node quadratures, :mod:`workbench.components.inventory.density`).
The sum is differentiated term by term (:func:`workbench.solver.charge.inventory.circuit_terms`):
a column moves only the items that read it, so each item is re-evaluated once per column it
reads, and the unperturbed items' masses are those the residual computed at the same state
(kept with the state they belong to, from the residual just before). The row is the same forward difference of the whole
charge (the items the column does not touch cancel exactly), for a fraction of the cost: the
R290 example's inventory items are evaluated about 20 times per Jacobian instead of 60.

A fixed charge is one of the solver's equations, like a control loop or a thermal coupling:
:mod:`workbench.solver.extensions` attaches it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from workbench.components.base import Equation, StepFunction
from workbench.components.exchangers.coils.component import Coil
from workbench.errors import ScenarioError, ScenarioIssue
from workbench.solver.charge.inventory import (
    ChargeTerm,
    circuit_charge,
    circuit_terms,
    has_volumes,
)

if TYPE_CHECKING:
    from workbench.solver.system import System

__all__ = ["FD_STEP", "CircuitCharge", "attach_charges"]

FD_STEP = 1e-5
"""Relative forward-difference step of the charge row. Larger than the components' 1e-7: a
coil's zone shares come from its zone model, converged to 1e-8 of its heat flow, and that
noise divided by a 1e-7 step would spoil the derivative (Newton then converges linearly)."""


class CircuitCharge:
    """The charge residual of one circuit (see module docstring).

    Parameters
    ----------
    system : System
        The assembled system.
    circuit : int
        Circuit id.
    charge_kg : float
        The circuit's fixed charge [kg].
    path : str
        JSON path of ``charge_kg`` (for messages).
    freed : str
        What the charge sets (``condenser.subcooling`` or ``receiver.level``).
    """

    def __init__(
        self, system: System, circuit: int, charge_kg: float, path: str, freed: str
    ) -> None:
        self.system, self.circuit, self.charge_kg = system, circuit, float(charge_kg)
        self.path, self.freed = path, freed
        self.name = f"circuit[{circuit}]"
        self._local: list[int] | None = None
        self._terms: list[ChargeTerm] | None = None
        self._last: tuple[np.ndarray, list[float]] | None = None  # state and its item masses

    @property
    def local_vars(self) -> list[int]:
        """Every unknown the circuit's inventory reads (ports, driven factors, levels)."""
        if self._local is None:
            system, cols = self.system, set()
            for comp in system.components.values():
                if system.flat.components[comp.name].circuit == self.circuit:
                    cols.update(comp.local_vars)
            for i, edge in enumerate(system.flat.edges):
                if edge.circuit == self.circuit:
                    v = system.topology.edge_vars[i]
                    cols.update((v.m, v.p, v.h))
            self._local = sorted(cols)
        return self._local

    def equations(self) -> tuple[Equation, ...]:
        """One equation, ``charge`` (kind ``charge``, in kg)."""
        return (Equation("charge", "charge"),)

    @property
    def terms(self) -> list[ChargeTerm]:
        """The circuit's charge items, each with the unknowns it reads."""
        if self._terms is None:
            self._terms = circuit_terms(self.system, self.circuit)
        return self._terms

    def item_masses(self, x: np.ndarray) -> list[float]:
        """Mass of every item at ``x`` [kg], computed afresh and kept for the Jacobian.

        Always computed (a sweep may change a volume in place between solves at the same
        state); the Jacobian at the same state reuses them (:meth:`_masses_at`).
        """
        masses = [t.kg(x) for t in self.terms]
        self._last = (x.copy(), masses)
        return masses

    def _masses_at(self, x: np.ndarray) -> list[float]:
        """The masses the residual just computed at ``x``, or computed now."""
        if self._last is not None and np.array_equal(self._last[0], x):
            return self._last[1]
        return self.item_masses(x)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Computed minus fixed charge [kg]."""
        return np.array([float(sum(self.item_masses(x))) - self.charge_kg])

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Forward differences of the charge over :attr:`local_vars` [kg per unit of x].

        Term by term: a column re-evaluates only the items that read it (module docstring).
        """
        del step, f0  # the inventory wants a larger step than the components (module docstring)
        scale = self.system.var_scale
        base = self._masses_at(x)
        deriv: dict[int, float] = {}

        def fd_step(col: int, xi: float) -> float:
            return FD_STEP * max(abs(xi), 0.01 * float(scale[col]))

        for term, m0 in zip(self.terms, base, strict=True):
            if term.gradient is not None:
                for col, d in term.gradient(x, m0, fd_step).items():
                    deriv[col] = deriv.get(col, 0.0) + d
                continue
            for col in term.cols:
                xi = float(x[col])
                dx = fd_step(col, xi)
                x[col] = xi + dx
                try:
                    m1 = term.kg(x)
                finally:
                    x[col] = xi
                deriv[col] = deriv.get(col, 0.0) + (m1 - m0) / dx
        return [(0, col, d) for col, d in sorted(deriv.items()) if d != 0.0]

    def result(self, x: np.ndarray) -> dict[str, Any]:
        """``circuit``, ``charge_kg`` (fixed), ``computed_kg`` and what the charge sets."""
        return {
            "circuit": self.circuit,
            "charge_kg": self.charge_kg,
            "computed_kg": circuit_charge(self.system, x, self.circuit),
            "sets": self.freed,
        }


def attach_charges(system: System) -> dict[int, int]:
    """Attach a :class:`CircuitCharge` block for every circuit with ``charge_kg``.

    The circuit's condenser gives up its subcooling equation (or a receiver's level becomes an
    unknown); the block adds the charge equation.

    Returns
    -------
    dict
        Extra equations per circuit beyond its components' (1 where a condenser gave up its
        subcooling; 0 with a receiver, whose level unknown and the charge equation cancel).

    Raises
    ------
    ScenarioError
        The circuit has nothing whose state the charge can set (no condenser or receiver, or
        several condensers), or holds no volume at all; the issue names ``charge_kg``'s path.
    """
    flat = system.flat
    extra: dict[int, int] = {}
    for cid, kg in flat.charge_kg.items():
        path = flat.charge_paths.get(cid, f"circuit {cid}.charge_kg")
        comps = [c for c in system.components.values() if flat.components[c.name].circuit == cid]
        vessels = [c for c in comps if hasattr(c, "free_level")]
        condensers = [c for c in comps if isinstance(c, Coil) and c.refrigerant_is_hot]
        if not has_volumes(system):
            raise ScenarioError(
                [
                    ScenarioIssue(
                        path,
                        "a fixed charge needs volumes: give internal_volume_m3 "
                        "on the coils or volume_m3 on the edges",
                    )
                ]
            )
        if len(vessels) == 1:
            vessels[0].free_level(system.add_variable(f"level[{vessels[0].name}]", "z"))
            freed = f"{vessels[0].name}.level"  # one unknown and one equation: they cancel
        elif len(condensers) == 1:
            condensers[0].outlet_spec_given = False
            freed = f"{condensers[0].name}.subcooling"
            extra[cid] = extra.get(cid, 0) + 1  # the charge equation replaces the subcooling
        else:
            raise ScenarioError(
                [
                    ScenarioIssue(
                        path,
                        "a fixed charge sets the subcooling of the circuit's one "
                        f"Condenser or the level of its one Receiver; circuit {cid} has "
                        f"{len(condensers)} condensers and {len(vessels)} receivers",
                    )
                ]
            )
        system.blocks.append(CircuitCharge(system, cid, kg, path, freed))
    return extra
