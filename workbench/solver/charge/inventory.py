"""The refrigerant inventory of a solved (or trial) state: the items of every circuit summed.

Who reads it: the result assembly (``result.charge``, ``summary.charge_kg``:
:mod:`workbench.solver.charge.results`) and the charge residual of a circuit with a fixed
charge (:mod:`workbench.solver.charge.block`). What one component or edge holds is the
components' physics (:mod:`workbench.components.inventory.items`); this module walks the
system and sums it::

    m_circuit = sum_components m_item + sum_edges V_edge rho(p, h)      [kg]

For the charge residual the same sum is also given term by term (:func:`circuit_terms`): each
term knows the unknowns its item reads, so the residual's Jacobian differentiates one item per
column instead of the whole circuit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from workbench.components.exchangers.coils.component import Coil
from workbench.components.inventory.coil_gradient import coil_charge_gradient, linearised_root
from workbench.components.inventory.density import point_density
from workbench.components.inventory.items import (
    ChargeItem,
    component_item,
    edge_item,
    holds_refrigerant,
    item_columns,
    void_fraction_model,
)
from workbench.components.inventory.void_fraction import (
    DEFAULT_VOID_FRACTION,
    Premoli,
    VoidFraction,
)

if TYPE_CHECKING:
    from workbench.solver.system import System

Gradient = Callable[[np.ndarray, float, Callable[[int, float], float]], dict[int, float]]
"""``gradient(x, kg0, step)`` of a :class:`ChargeTerm` (column -> d kg / d x)."""

__all__ = [
    "ChargeTerm",
    "Inventory",
    "circuit_charge",
    "circuit_terms",
    "has_volumes",
    "inventory",
    "model_of",
]


@dataclass
class Inventory:
    """The charge of a state.

    Attributes
    ----------
    items : list of ChargeItem
        Every component and edge that holds refrigerant (a volume was given).
    void_fraction : str
        The void fraction model used.
    """

    items: list[ChargeItem] = field(default_factory=list)
    void_fraction: str = DEFAULT_VOID_FRACTION

    @property
    def total_kg(self) -> float:
        """Charge of every circuit [kg]."""
        return float(sum(i.kg for i in self.items))

    def circuit_kg(self, circuit: int) -> float:
        """Charge of one circuit [kg]."""
        return float(sum(i.kg for i in self.items if i.circuit == circuit))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``total_kg``, ``void_fraction``, ``circuits`` and ``items``."""
        circuits = sorted({i.circuit for i in self.items})
        return {
            "total_kg": self.total_kg,
            "void_fraction": self.void_fraction,
            "circuits": [{"circuit": c, "kg": self.circuit_kg(c)} for c in circuits],
            "items": [i.to_dict() for i in self.items],
        }


def model_of(system: System) -> tuple[str, VoidFraction | Premoli]:
    """The void fraction model named by the scenario's ``charge`` block (or the default)."""
    return void_fraction_model(getattr(system.flat, "charge", None))


def has_volumes(system: System) -> bool:
    """True when any component or edge of the system has a refrigerant volume."""
    if any(getattr(e, "volume_m3", None) for e in system.flat.edges):
        return True
    return any(holds_refrigerant(c) for c in system.components.values())


def inventory(system: System, x: np.ndarray, circuit: int | None = None) -> Inventory:
    """The refrigerant in every component and edge with a volume, at the state ``x``.

    Parameters
    ----------
    system : System
        The assembled system (its flat scenario gives the volumes and the ``charge`` block).
    x : ndarray
        Unknowns [SI].
    circuit : int, optional
        Only this circuit.

    Returns
    -------
    Inventory
        One item per component and edge that holds refrigerant, in document order.

    Raises
    ------
    FluidPropertyError
        A property call failed at the state.
    """
    name, model = model_of(system)
    inv = Inventory(void_fraction=name)
    flat = system.flat
    for comp in system.components.values():
        cid = flat.components[comp.name].circuit
        if circuit is not None and cid != circuit:
            continue
        item = component_item(comp, x, model, cid)
        if item is not None:
            inv.items.append(item)
    for i, edge in enumerate(flat.edges):
        volume = getattr(edge, "volume_m3", None)
        if not volume or (circuit is not None and edge.circuit != circuit):
            continue
        v = system.topology.edge_vars[i]
        label = f"{edge.source} -> {edge.target}"
        inv.items.append(
            edge_item(
                label,
                edge.circuit,
                float(volume),
                system.fluid_of(edge.circuit),
                float(x[v.p]),
                float(x[v.h]),
                model,
            )
        )
    return inv


def circuit_charge(system: System, x: np.ndarray, circuit: int) -> float:
    """Charge of one circuit at ``x`` [kg] (the sum of :func:`inventory`'s items)."""
    return inventory(system, x, circuit).total_kg


@dataclass(frozen=True)
class ChargeTerm:
    """One item of a circuit's charge as a function of the state.

    Attributes
    ----------
    name : str
        Component name or edge label.
    cols : tuple of int
        The unknowns the item reads (its mass does not change with any other).
    kg : callable
        ``kg(x)``: the item's mass at the state ``x`` [kg].
    gradient : callable or None
        ``gradient(x, kg0, step)``: its forward differences over ``cols`` (column ->
        derivative) when the item has a cheaper way than re-evaluating ``kg`` per column (a
        UA coil: :func:`~workbench.components.inventory.coil_gradient.coil_charge_gradient`).
    """

    name: str
    cols: tuple[int, ...]
    kg: Callable[[np.ndarray], float]
    gradient: Gradient | None = None


def circuit_terms(system: System, circuit: int) -> list[ChargeTerm]:
    """The items of one circuit's charge, each with the unknowns it reads.

    ``sum(t.kg(x) for t in circuit_terms(...))`` is :func:`circuit_charge` (the same items in
    the same order); the charge residual differentiates each term over its own columns.

    Parameters
    ----------
    system : System
        The assembled system.
    circuit : int
        Circuit id.

    Returns
    -------
    list of ChargeTerm
        Components first, then edges, as :func:`inventory` lists them.
    """
    _name, model = model_of(system)
    flat = system.flat
    terms: list[ChargeTerm] = []
    for comp in system.components.values():
        if flat.components[comp.name].circuit != circuit or not holds_refrigerant(comp):
            continue

        def comp_kg(x: np.ndarray, comp: Any = comp) -> float:
            item = component_item(comp, x, model, circuit)
            return item.kg if item is not None else 0.0

        gradient = None
        if isinstance(comp, Coil) and comp.params.get("internal_volume_m3"):
            gradient = _coil_gradient(comp, model, circuit) if linearised_root(comp) else None
        terms.append(ChargeTerm(comp.name, tuple(item_columns(comp)), comp_kg, gradient))
    fluid = system.fluid_of(circuit)
    for i, edge in enumerate(flat.edges):
        volume = getattr(edge, "volume_m3", None)
        if not volume or edge.circuit != circuit:
            continue
        v = system.topology.edge_vars[i]
        label = f"{edge.source} -> {edge.target}"

        def edge_kg(x: np.ndarray, p: int = v.p, h: int = v.h, vol: float = float(volume)) -> float:
            return vol * point_density(fluid, float(x[p]), float(x[h]), model)

        terms.append(ChargeTerm(label, (v.p, v.h), edge_kg))
    return terms


def _coil_gradient(comp: Coil, model: VoidFraction | Premoli, circuit: int) -> Gradient:
    """The :attr:`ChargeTerm.gradient` of a UA coil (the zone model's root linearised)."""

    def gradient(
        x: np.ndarray, kg0: float, step: Callable[[int, float], float]
    ) -> dict[int, float]:
        return coil_charge_gradient(comp, x, model, circuit, kg0, step)

    return gradient
