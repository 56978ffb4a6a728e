"""Component types: the catalog (ports, parameters, outputs) and the equations per family.

The catalog is light and imported by scenario validation; the model classes (which need the
fluid backends) live in :mod:`workbench.components.models`, one module per family.
"""

from workbench.components.catalog.specs import (
    CALIBRATION_FACTORS,
    COMPONENT_TYPES,
    CONTROL_OUTPUTS,
    ComponentSpec,
    ParamSpec,
    get_spec,
    normalise_factor,
)

__all__ = [
    "CALIBRATION_FACTORS",
    "COMPONENT_TYPES",
    "CONTROL_OUTPUTS",
    "ComponentSpec",
    "ParamSpec",
    "get_spec",
    "normalise_factor",
]
