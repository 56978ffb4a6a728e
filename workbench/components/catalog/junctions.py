"""Catalog entries of the junctions: where the branches of a circuit meet.

A junction has no through streams (``streams=()``): each connected port ends or starts a
branch with a mass flow of its own (:mod:`workbench.scenario.branches`). The equations are in
the family modules (``mixer.py``, ``splitter.py``, ``flash_tank.py``,
``injection_compressor.py``) and ``docs/components.md``.
"""

from __future__ import annotations

from workbench.components.catalog.types import (
    ISENTROPIC_EFFICIENCY,
    ComponentSpec,
    ParamSpec,
    factor_params,
)

__all__ = ["FLASH_TANK", "INJECTION_COMPRESSOR", "JUNCTION_TYPES", "MIXER", "SPLITTER"]

MIXER = ComponentSpec(
    type_name="Mixer",
    description=(
        "Mixer: two or more branches join (adiabatic); every port at one pressure, the outlet "
        "at the mass-weighted mean enthalpy"
    ),
    ports=("inlet_1", "inlet_2", "outlet"),
    params=(),
    outputs=("massFlowRate", "pressure", "temperature"),
    factors=(),
    streams=(),
    numbered=("inlet",),
)

SPLITTER = ComponentSpec(
    type_name="Splitter",
    description=(
        "Splitter: one stream divides into two or more branches of the same state; the split "
        "follows from the branches (their valves, evaporators) or from fraction_1 / fractions"
    ),
    ports=("inlet", "outlet_1", "outlet_2"),
    params=(
        ParamSpec(
            "fraction_1",
            "number",
            "",
            "share of the inlet mass flow leaving through outlet_1",
            exclusive_minimum=0.0,
            exclusive_maximum=1.0,
        ),
        ParamSpec(
            "fractions",
            "number_list",
            "",
            "shares of the inlet mass flow leaving through outlet_1, outlet_2, ... (at most one "
            "fewer than the outlets; the last outlet takes the rest)",
        ),
    ),
    outputs=("massFlowRate", "pressure", "temperature"),
    factors=(),
    alternatives=(("fraction_1", "fractions"),),
    streams=(),
    numbered=("outlet",),
)

FLASH_TANK = ComponentSpec(
    type_name="FlashTank",
    description=(
        "Flash tank (separator): a two-phase inlet leaves as saturated vapour and saturated "
        "liquid at the tank pressure; fixed pressure_pa, or a pressure that follows from the flows"
    ),
    ports=("inlet", "vapour_outlet", "liquid_outlet"),
    params=(
        ParamSpec(
            "pressure_pa",
            "number",
            "Pa",
            "fixed tank pressure (absent: the flows of the circuit set it)",
            exclusive_minimum=0.0,
        ),
    ),
    outputs=("massFlowRate", "pressure", "temperature"),
    factors=(),
    streams=(),
)

INJECTION_COMPRESSOR = ComponentSpec(
    type_name="InjectionCompressor",
    description=(
        "Compressor with a vapour-injection port: two stages of one isentropic efficiency, the "
        "injected vapour (at the injection port's pressure) mixing in between"
    ),
    ports=("inlet", "injection_inlet", "outlet"),
    params=(
        ISENTROPIC_EFFICIENCY,
        ParamSpec(
            "mass_flow_kg_s", "number", "kg/s", "fixed suction mass flow", exclusive_minimum=0.0
        ),
        ParamSpec(
            "displacement_m3",
            "number",
            "m3",
            "swept volume per revolution (suction flow)",
            exclusive_minimum=0.0,
        ),
        ParamSpec("speed_hz", "number", "1/s", "shaft speed", exclusive_minimum=0.0, default=50.0),
        ParamSpec(
            "volumetric_efficiency",
            "number",
            "",
            "volumetric efficiency of the suction stage",
            exclusive_minimum=0.0,
            maximum=1.0,
            default=0.9,
        ),
        *factor_params(("z_flow", "z_etav", "z_power")),
    ),
    outputs=("power", "massFlowRate", "pressure", "temperature"),
    factors=("z_flow", "z_etav", "z_power"),
    alternatives=(("mass_flow_kg_s", "displacement_m3"),),
    streams=(),
)

JUNCTION_TYPES = (MIXER, SPLITTER, FLASH_TANK, INJECTION_COMPRESSOR)
"""The junction types, in catalog order."""
