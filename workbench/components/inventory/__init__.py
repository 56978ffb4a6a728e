"""The refrigerant one component or edge holds: void fraction, zone density, kg per item.

- :mod:`~workbench.components.inventory.void_fraction`: void fraction models (homogeneous,
  Zivi, Smith, Lockhart-Martinelli, Premoli) with their references.
- :mod:`~workbench.components.inventory.density`: mean density of single-phase and two-phase
  zones (integrated over enthalpy and quality).
- :mod:`~workbench.components.inventory.items`: kg per zone of a coil, HX side or vessel, and
  per edge with a volume.

Who reads it: the components (a vessel's liquid and vapour zones) and the solver, which sums
the items of a circuit (:mod:`workbench.solver.charge.inventory`) for ``result.charge`` and
for the charge equation of a circuit with a fixed charge. Nothing here reads the system.
The function ``void_fraction`` is not re-exported: its name is the submodule's.
"""

from workbench.components.inventory.density import (
    ZoneDensity,
    path_zones,
    point_density,
    single_phase_density,
    two_phase_density,
)
from workbench.components.inventory.items import (
    VOLUME_PARAMS,
    ChargeItem,
    ZoneCharge,
    component_item,
    edge_item,
    holds_refrigerant,
    void_fraction_model,
)
from workbench.components.inventory.void_fraction import (
    DEFAULT_VOID_FRACTION,
    VOID_FRACTION_MODELS,
)

__all__ = [
    "DEFAULT_VOID_FRACTION",
    "VOID_FRACTION_MODELS",
    "VOLUME_PARAMS",
    "ChargeItem",
    "ZoneCharge",
    "ZoneDensity",
    "component_item",
    "edge_item",
    "holds_refrigerant",
    "path_zones",
    "point_density",
    "single_phase_density",
    "two_phase_density",
    "void_fraction_model",
]
