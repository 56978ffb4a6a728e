"""The refrigerant inventory of a solved (or trial) state: the items of every circuit summed.

Who reads it: the result assembly (``result.charge``, ``summary.charge_kg``:
:mod:`workbench.solver.charge_results`) and the charge residual of a circuit with a fixed
charge (:mod:`workbench.solver.charge_block`). What one component or edge holds is the
components' physics (:mod:`workbench.components.inventory.items`); this module walks the
system and sums it::

    m_circuit = sum_components m_item + sum_edges V_edge rho(p, h)      [kg]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from workbench.components.inventory.items import (
    ChargeItem,
    component_item,
    edge_item,
    holds_refrigerant,
    void_fraction_model,
)
from workbench.components.inventory.void_fraction import (
    DEFAULT_VOID_FRACTION,
    Premoli,
    VoidFraction,
)

if TYPE_CHECKING:
    from workbench.solver.system import System

__all__ = ["Inventory", "circuit_charge", "has_volumes", "inventory", "model_of"]


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
