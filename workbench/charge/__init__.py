"""The refrigerant charge: inventory per component, edge and zone, and a fixed circuit charge.

- :mod:`~workbench.components.inventory.void_fraction`: void fraction models (homogeneous, Zivi, Smith,
  Lockhart-Martinelli) with their references.
- :mod:`~workbench.components.inventory.density`: mean density of single-phase and two-phase zones
  (integrated over enthalpy and quality).
- :mod:`~workbench.components.inventory.items`: kg per component, edge and zone of a state.
- :mod:`~workbench.solver.charge_block`: the charge residual of a circuit with ``charge_kg``.
- :mod:`~workbench.solver.charge_results`: ``result.charge``, ``summary.charge_kg`` and the safety
  verdict.
- :mod:`~workbench.charge.curve`: the charge curve (subcooling and COP against charge) by a
  sweep over ``circuits[i].charge_kg``.

The inventory reads only components and states; the solver calls it (a fixed charge is one of
its equations) and nothing here calls the solver except :mod:`~workbench.charge.curve`.
"""

from __future__ import annotations

from workbench.charge.curve import charge_curve
from workbench.components.inventory.density import path_zones, single_phase_density, two_phase_density
from workbench.components.inventory.items import ChargeItem, Inventory, ZoneCharge, inventory
from workbench.solver.charge_results import charge_table
from workbench.components.inventory.void_fraction import (
    DEFAULT_VOID_FRACTION,
    VOID_FRACTION_MODELS,
    void_fraction,
)

__all__ = [
    "DEFAULT_VOID_FRACTION",
    "VOID_FRACTION_MODELS",
    "ChargeItem",
    "Inventory",
    "ZoneCharge",
    "charge_curve",
    "charge_table",
    "inventory",
    "path_zones",
    "single_phase_density",
    "two_phase_density",
    "void_fraction",
]
