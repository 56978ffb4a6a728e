"""The refrigerant charge: the analysis, and the user-facing names of the inventory.

The layers (imports only go downward):

- :mod:`workbench.components.inventory`: what one component or edge holds, per zone
  (:mod:`~workbench.components.inventory.void_fraction`: void fraction models with their
  references; :mod:`~workbench.components.inventory.density`: mean density of single-phase and
  two-phase zones; :mod:`~workbench.components.inventory.items`: kg per zone and item).
- the solver: :mod:`workbench.solver.charge.inventory` sums the items of every circuit,
  :mod:`workbench.solver.charge.block` is the charge residual of a circuit with ``charge_kg``
  (one of the solver's equations, like a control loop), :mod:`workbench.solver.charge.results`
  fills ``result.charge``, ``summary.charge_kg`` and the safety verdict.
- here, above the solver and the sweep: :mod:`~workbench.charge.curve`, the charge curve
  (subcooling and COP against charge) by a sweep over ``circuits[i].charge_kg``.

This package re-exports the names of docs/charge.md, so ``from workbench.charge import ...``
serves them all; the solver and the components never import it.
"""

from __future__ import annotations

from workbench.charge.curve import charge_curve
from workbench.components.inventory.density import (
    path_zones,
    single_phase_density,
    two_phase_density,
)
from workbench.components.inventory.items import ChargeItem, ZoneCharge
from workbench.components.inventory.void_fraction import (
    DEFAULT_VOID_FRACTION,
    VOID_FRACTION_MODELS,
    void_fraction,
)
from workbench.solver.charge.inventory import Inventory, inventory
from workbench.solver.charge.results import charge_table

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
