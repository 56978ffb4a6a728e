"""Catalog entries of the vessels that hold a refrigerant reserve: receiver and accumulator.

The equations are in :mod:`workbench.components.junctions.vessel` and ``docs/charge.md``.
"""

from __future__ import annotations

from workbench.components.catalog.types import ComponentSpec, ParamSpec

__all__ = ["ACCUMULATOR", "RECEIVER", "VESSEL_TYPES"]

_VESSEL_PARAMS = (
    ParamSpec(
        "internal_volume_m3",
        "number",
        "m3",
        "internal volume of the vessel",
        exclusive_minimum=0.0,
    ),
    ParamSpec(
        "liquid_level",
        "number",
        "",
        "liquid share of the volume (with a fixed circuit charge it is solved for instead)",
        minimum=0.0,
        maximum=1.0,
        default=0.5,
    ),
)

RECEIVER = ComponentSpec(
    type_name="Receiver",
    description=(
        "Liquid receiver after the condenser: saturated liquid leaves it; holds a liquid "
        "reserve (its level is what a fixed charge sets)"
    ),
    ports=("inlet", "outlet"),
    params=_VESSEL_PARAMS,
    outputs=("massFlowRate", "pressure", "temperature"),
    factors=(),
)

ACCUMULATOR = ComponentSpec(
    type_name="Accumulator",
    description=(
        "Suction accumulator before the compressor: saturated vapour leaves it; holds a liquid "
        "reserve (its level is what a fixed charge sets)"
    ),
    ports=("inlet", "outlet"),
    params=_VESSEL_PARAMS,
    outputs=("massFlowRate", "pressure", "temperature"),
    factors=(),
)

VESSEL_TYPES = (RECEIVER, ACCUMULATOR)
"""The vessel types, in catalog order."""
