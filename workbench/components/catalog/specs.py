"""Declarative catalog of component types: ports, parameters, measurable outputs, factors.

This is the single source the scenario validator and the solver read. Each parameter carries
its JSON name (with the scenario contract's unit suffix), kind, bounds, default and unit; groups of
alternative parameters (``ua`` in W/K or ``ua_nominal_kw_k``) may not be given together.

The equations behind each parameter are in the component family modules and in
``docs/components.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.components.catalog.junctions import (
    FLASH_TANK,
    INJECTION_COMPRESSOR,
    MIXER,
    SPLITTER,
)
from workbench.components.catalog.lines import REFRIGERANT_LINE
from workbench.components.catalog.types import (
    ISENTROPIC_EFFICIENCY,
    ComponentSpec,
    ParamKind,
    ParamSpec,
    factor_params,
    port_role,
)
from workbench.components.catalog.vessels import ACCUMULATOR, RECEIVER

__all__ = [
    "CALIBRATION_FACTORS",
    "COMPONENT_TYPES",
    "CONTROL_OUTPUTS",
    "CONTROL_OUTPUT_UNITS",
    "CORRELATION_FACTORS_BY_KIND",
    "INTERNAL_TYPES",
    "LEGACY_FACTOR_PREFIX",
    "OBJECT_INTEGER_ENTRIES",
    "OBJECT_NUMBER_KEYS",
    "ComponentSpec",
    "ParamKind",
    "ParamSpec",
    "get_spec",
    "normalise_factor",
    "object_entries",
    "port_role",
]


CONTROL_OUTPUT_UNITS: dict[str, str] = {
    "capacity": "W",
    "heatTransferRate": "W",
    "superheat": "K",
    "subcooling": "K",
    "saturationTemperature": "K",
    "massFlowRate": "kg/s",
    "pressure": "Pa",
    "temperature": "K",
}
"""SI unit of each output a control loop may measure (a loop's ``target`` is in this unit)."""

CONTROL_OUTPUTS: tuple[str, ...] = tuple(CONTROL_OUTPUT_UNITS)
"""Outputs a control loop may measure, in the contract's order."""

CALIBRATION_FACTORS: tuple[str, ...] = ("z_flow", "z_dp", "z_ua", "z_power", "z_etav")
"""Calibration factors of the scenario contract; each multiplies one model quantity (default 1)."""

CORRELATION_FACTORS_BY_KIND: dict[str, tuple[str, ...]] = {
    "fin_tube": ("air_side", "refrigerant_side", "air_pressure_drop", "refrigerant_pressure_drop"),
    "microchannel": (
        "air_side",
        "refrigerant_side",
        "air_pressure_drop",
        "refrigerant_pressure_drop",
    ),
    "brazed_plate": (
        "refrigerant_side",
        "secondary_side",
        "refrigerant_pressure_drop",
        "secondary_pressure_drop",
    ),
}
"""Entries of ``correlation_factors`` each exchanger family accepts, by ``geometry.kind``
(issue 40 for the coils, issue 41 for the plates; docs/components.md)."""

OBJECT_NUMBER_KEYS: dict[str, tuple[str, ...]] = {
    # every family's entries; a component accepts those of its own kind (object_entries)
    "correlation_factors": tuple(
        dict.fromkeys(e for keys in CORRELATION_FACTORS_BY_KIND.values() for e in keys)
    ),
    "geometry": (
        "tubes_per_bank",
        "banks",
        "circuits",
        "segments",
        "tube_length_m",
        "tube_outer_diameter_m",
        "tube_inner_diameter_m",
        "transverse_pitch_m",
        "longitudinal_pitch_m",
        "fins_per_m",
        "fin_thickness_m",
        "wave_depth_m",
        "wave_half_length_m",
        "louver_pitch_m",
        "louver_height_m",
        "fin_conductivity_w_m_k",
        "tube_conductivity_w_m_k",
        "tube_depth_m",
        "tube_height_m",
        "tube_pitch_m",
        "ports_per_tube",
        "port_width_m",
        "port_height_m",
        "louver_angle_deg",
        "louver_length_m",
        "fin_depth_m",
        # brazed plates (docs/components.md, "Brazed plate heat exchangers")
        "plates",
        "plate_length_m",
        "plate_width_m",
        "chevron_angle_deg",
        "corrugation_pitch_m",
        "channel_gap_m",
        "plate_thickness_m",
        "plate_conductivity_w_m_k",
        "port_diameter_m",
    ),
}
"""Object parameters whose numeric entries a sweep or a calibration sets as ``<param>.<entry>``
(``evaporator.correlation_factors.air_side``, ``evaporator.geometry.banks``); every entry is
positive, a correlation factor defaults to 1."""

OBJECT_INTEGER_ENTRIES: tuple[str, ...] = (
    "tubes_per_bank",
    "banks",
    "circuits",
    "segments",
    "ports_per_tube",
    "plates",
)
"""Entries of :data:`OBJECT_NUMBER_KEYS` that take whole numbers."""


def object_entries(head: str, params: Mapping[str, Any]) -> tuple[str, ...]:
    """The numeric entries a component with ``params`` accepts in its object parameter ``head``.

    ``correlation_factors`` depends on the family (:data:`CORRELATION_FACTORS_BY_KIND` by
    ``params["geometry"]["kind"]``; every family's entries when the kind is missing or
    unknown, the component's own check then names the place); every other object takes
    :data:`OBJECT_NUMBER_KEYS` ``[head]``.
    """
    if head == "correlation_factors":
        geometry = params.get("geometry")
        kind = geometry.get("kind") if isinstance(geometry, Mapping) else None
        if isinstance(kind, str) and kind in CORRELATION_FACTORS_BY_KIND:
            return CORRELATION_FACTORS_BY_KIND[kind]
    return OBJECT_NUMBER_KEYS[head]


LEGACY_FACTOR_PREFIX = "f_"
"""Legacy spelling of calibration factors (``f_flow`` is ``z_flow``)."""


def normalise_factor(name: str) -> str:
    """Return the ``z_`` name of a calibration factor given as ``z_...`` or legacy ``f_...``."""
    if name.startswith(LEGACY_FACTOR_PREFIX):
        return "z_" + name[len(LEGACY_FACTOR_PREFIX) :]
    return name


_DP = ParamSpec(
    "dp_pa",
    "number",
    "Pa",
    "refrigerant pressure drop at nominal flow; scales with z_dp and (m / m_nominal)^2",
    minimum=0.0,
    default=0.0,
)
_DP_FLOW = ParamSpec(
    "dp_nominal_mass_flow_kg_s",
    "number",
    "kg/s",
    "mass flow at which dp_pa applies (default: dp_pa applies at the solved flow, no scaling)",
    exclusive_minimum=0.0,
)

_VOLUME = ParamSpec(
    "internal_volume_m3",
    "number",
    "m3",
    "refrigerant-side internal volume, for the charge (docs/charge.md)",
    exclusive_minimum=0.0,
)

_GEOMETRY = ParamSpec(
    "geometry",
    "object",
    "",
    "the exchanger's hardware, {kind, ...} (fin_tube, microchannel, brazed_plate; "
    "docs/components.md): film coefficients, pressure drops and volume from correlations",
)

_SECONDARY = (
    ParamSpec("ua", "number", "W/K", "overall conductance UA", exclusive_minimum=0.0),
    _GEOMETRY,
    ParamSpec("ua_nominal_kw_k", "number", "kW/K", "overall conductance UA", exclusive_minimum=0.0),
    ParamSpec("air_inlet_temp_c", "number", "degC", "secondary (air) inlet temperature"),
    ParamSpec(
        "secondary_inlet_temp_k",
        "number",
        "K",
        "secondary inlet temperature",
        exclusive_minimum=0.0,
    ),
    ParamSpec(
        "secondary_mass_flow_kg_s",
        "number",
        "kg/s",
        "secondary mass flow at fan_speed 1",
        exclusive_minimum=0.0,
    ),
    ParamSpec(
        "air_volume_flow_m3_s",
        "number",
        "m3/s",
        "air volume flow at the inlet state and fan_speed 1 (alternative to "
        "secondary_mass_flow_kg_s; converted with the humid air's inlet density)",
        exclusive_minimum=0.0,
    ),
    ParamSpec(
        "air_inlet_rh",
        "number",
        "",
        "relative humidity of the inlet air, 0-1 (default: dry air); a geometric coil "
        "dehumidifies below the dew point",
        minimum=0.0,
        maximum=1.0,
    ),
    ParamSpec(
        "air_pressure_pa",
        "number",
        "Pa",
        "air (barometric) pressure of the humid-air properties",
        exclusive_minimum=0.0,
        default=101325.0,
    ),
    ParamSpec(
        "fan_power_w",
        "number",
        "W",
        "fan power of this coil (a system COP with the fans beside the cycle COP)",
        minimum=0.0,
    ),
    ParamSpec(
        "fan_efficiency",
        "number",
        "",
        "total fan efficiency of a coil from geometry: without fan_power_w, the fan power is "
        "V_air (air-side pressure drop + fan_external_pressure_pa) / fan_efficiency",
        exclusive_minimum=0.0,
        maximum=1.0,
    ),
    ParamSpec(
        "fan_external_pressure_pa",
        "number",
        "Pa",
        "pressure the fan delivers outside the coil (grilles, ducts, casing), with fan_efficiency",
        minimum=0.0,
        default=0.0,
    ),
    ParamSpec(
        "correlation_factors",
        "object",
        "",
        "multipliers of a geometric exchanger's correlations: air_side, refrigerant_side, "
        "air_pressure_drop, refrigerant_pressure_drop on a fin_tube or microchannel coil; "
        "refrigerant_side, secondary_side, refrigerant_pressure_drop, secondary_pressure_drop "
        "on a brazed_plate (default 1; sweep and calibrate set them by path)",
    ),
    ParamSpec(
        "secondary_cp_j_kgk",
        "number",
        "J/(kg K)",
        "secondary specific heat (default: from secondary_fluid)",
        exclusive_minimum=0.0,
    ),
    ParamSpec(
        "secondary_fluid",
        "string",
        "",
        "secondary fluid for cp when secondary_cp_j_kgk is absent",
        default="air",
    ),
    ParamSpec(
        "fan_speed",
        "number",
        "",
        "fan speed ratio: scales air flow, and UA_air by fan_speed^n_air_exponent",
        minimum=0.0,
        maximum=1.0,
        default=1.0,
    ),
    ParamSpec(
        "n_air_exponent",
        "number",
        "",
        "exponent of the air-side UA on fan speed",
        minimum=0.0,
        default=0.8,
    ),
    ParamSpec(
        "air_side_ua_fraction",
        "number",
        "",
        "fraction of the overall resistance on the air side (for fan-speed scaling of UA)",
        minimum=0.0,
        maximum=1.0,
        default=0.7,
    ),
    ParamSpec(
        "condenser_bank",
        "object",
        "",
        "identical coils in parallel: {circuits, coils_per_circuit}",
    ),
    _DP,
    _DP_FLOW,
    _VOLUME,
)
_SECONDARY_ALTERNATIVES = (
    ("ua", "ua_nominal_kw_k", "geometry"),
    ("air_inlet_temp_c", "secondary_inlet_temp_k"),
    ("secondary_mass_flow_kg_s", "air_volume_flow_m3_s"),
)

_HX_FACTORS = ("z_ua", "z_dp")
_HX_OUTPUTS = (
    "capacity",
    "heatTransferRate",
    "saturationTemperature",
    "massFlowRate",
    "pressure",
    "temperature",
)

_VARIABLE_SPEED = (
    ParamSpec(
        "min_speed_hz",
        "number",
        "1/s",
        "lowest speed of a variable-speed compressor (capacity control; below it the unit cycles)",
        exclusive_minimum=0.0,
    ),
    ParamSpec(
        "max_speed_hz",
        "number",
        "1/s",
        "highest speed of a variable-speed compressor (capacity control)",
        exclusive_minimum=0.0,
    ),
    ParamSpec(
        "rated_speed_hz",
        "number",
        "1/s",
        "speed at which the efficiencies are given (the speed curves are 1 there)",
        exclusive_minimum=0.0,
        default=50.0,
    ),
    ParamSpec(
        "isentropic_speed_curve",
        "number_list",
        "",
        "c0, c1, c2: isentropic efficiency times c0 + c1 r + c2 r^2, r = speed_hz / rated_speed_hz",
        length=3,
    ),
    ParamSpec(
        "volumetric_speed_curve",
        "number_list",
        "",
        "c0, c1, c2: volumetric efficiency times c0 + c1 r + c2 r^2, r = speed_hz / rated_speed_hz",
        length=3,
    ),
)
"""Variable-speed compressor: the speed range and efficiencies that vary with speed."""

COMPRESSOR = ComponentSpec(
    type_name="Compressor",
    description="Compressor: isentropic efficiency with fixed flow, displacement or an AHRI 540-style map",
    ports=("inlet", "outlet"),
    params=(
        ISENTROPIC_EFFICIENCY,
        ParamSpec("mass_flow_kg_s", "number", "kg/s", "fixed mass flow", exclusive_minimum=0.0),
        ParamSpec(
            "displacement_m3", "number", "m3", "swept volume per revolution", exclusive_minimum=0.0
        ),
        ParamSpec("speed_hz", "number", "1/s", "shaft speed", exclusive_minimum=0.0, default=50.0),
        ParamSpec(
            "volumetric_efficiency",
            "number",
            "",
            "volumetric efficiency",
            exclusive_minimum=0.0,
            maximum=1.0,
            default=0.9,
        ),
        ParamSpec(
            "mass_flow_map_kg_s",
            "number_list",
            "kg/s",
            "10 AHRI 540 coefficients of mass flow over saturated suction/discharge temperatures [degC]",
            length=10,
        ),
        *_VARIABLE_SPEED,
        ParamSpec(
            "power_map_w",
            "number_list",
            "W",
            "10 AHRI 540 coefficients of shaft power over saturated suction/discharge temperatures [degC]",
            length=10,
        ),
        ParamSpec(
            "map_rating_superheat_k",
            "number",
            "K",
            "suction superheat at which the map was rated (flow corrected by suction density)",
            minimum=0.0,
        ),
        *factor_params(("z_flow", "z_etav", "z_power")),
    ),
    outputs=("power", "massFlowRate", "pressure", "temperature"),
    factors=("z_flow", "z_etav", "z_power"),
    alternatives=(("mass_flow_kg_s", "displacement_m3", "mass_flow_map_kg_s"),),
)

CONDENSER = ComponentSpec(
    type_name="Condenser",
    description="Condenser: refrigerant against air or water; ideal (t_cond_k) or UA zone model",
    ports=("inlet", "outlet"),
    params=(
        ParamSpec(
            "t_cond_k",
            "number",
            "K",
            "fixed condensing (saturation) temperature",
            exclusive_minimum=0.0,
        ),
        ParamSpec(
            "saturation_reference",
            "string",
            "",
            "what the saturation temperature spec means for a blend: dew, mid or bubble point",
            choices=("dew", "mid", "bubble"),
        ),
        ParamSpec("subcooling_k", "number", "K", "subcooling at the outlet", minimum=0.0),
        *_SECONDARY,
        *factor_params(_HX_FACTORS),
    ),
    outputs=(*_HX_OUTPUTS, "subcooling"),
    factors=_HX_FACTORS,
    alternatives=_SECONDARY_ALTERNATIVES,
)

EVAPORATOR = ComponentSpec(
    type_name="Evaporator",
    description="Evaporator: refrigerant against air or water; ideal (t_evap_k) or UA zone model",
    ports=("inlet", "outlet"),
    params=(
        ParamSpec(
            "t_evap_k",
            "number",
            "K",
            "fixed evaporating (saturation) temperature",
            exclusive_minimum=0.0,
        ),
        ParamSpec(
            "saturation_reference",
            "string",
            "",
            "what the saturation temperature spec means for a blend: dew, mid or bubble point",
            choices=("dew", "mid", "bubble"),
        ),
        ParamSpec("superheat_k", "number", "K", "superheat at the outlet", minimum=0.0),
        *_SECONDARY,
        *factor_params(_HX_FACTORS),
    ),
    outputs=(*_HX_OUTPUTS, "superheat"),
    factors=_HX_FACTORS,
    alternatives=_SECONDARY_ALTERNATIVES,
)

EXPANSION_VALVE = ComponentSpec(
    type_name="ExpansionValve",
    description="Isenthalpic expansion valve: ideal, or an orifice flow equation",
    ports=("inlet", "outlet"),
    params=(
        ParamSpec(
            "flow_coefficient_m2",
            "number",
            "m2",
            "orifice CdA: m = z_flow * CdA * sqrt(2 rho_in (p_in - p_out))",
            exclusive_minimum=0.0,
        ),
        *factor_params(("z_flow",)),
    ),
    outputs=("massFlowRate", "pressure", "temperature"),
    factors=("z_flow",),
)

HEAT_EXCHANGER = ComponentSpec(
    type_name="HeatExchanger",
    description="Two-stream counterflow heat exchanger (epsilon-NTU), e.g. an internal suction-line HX",
    ports=("hot_inlet", "hot_outlet", "cold_inlet", "cold_outlet"),
    params=(
        ParamSpec("ua", "number", "W/K", "overall conductance UA", exclusive_minimum=0.0),
        ParamSpec(
            "ua_nominal_kw_k", "number", "kW/K", "overall conductance UA", exclusive_minimum=0.0
        ),
        ParamSpec(
            "effectiveness",
            "number",
            "",
            "fixed effectiveness epsilon = Q / Q_max",
            minimum=0.0,
            maximum=1.0,
        ),
        _DP,
        _DP_FLOW,
        ParamSpec(
            "hot_internal_volume_m3",
            "number",
            "m3",
            "hot-side internal volume, for the charge",
            exclusive_minimum=0.0,
        ),
        ParamSpec(
            "cold_internal_volume_m3",
            "number",
            "m3",
            "cold-side internal volume, for the charge",
            exclusive_minimum=0.0,
        ),
        *factor_params(_HX_FACTORS),
    ),
    outputs=("capacity", "heatTransferRate", "massFlowRate", "pressure", "temperature"),
    factors=_HX_FACTORS,
    alternatives=(("ua", "ua_nominal_kw_k", "effectiveness"),),
    streams=(("hot_inlet", "hot_outlet"), ("cold_inlet", "cold_outlet")),
)

GAS_COOLER = ComponentSpec(
    type_name="GasCooler",
    description=(
        "Gas cooler: heat rejection above the critical pressure (transcritical R744); fixed "
        "(pressure_pa, outlet_temp_k) or UA against a secondary stream, the profile "
        "discretised along the refrigerant enthalpy"
    ),
    ports=("inlet", "outlet"),
    params=(
        ParamSpec(
            "pressure_pa",
            "number",
            "Pa",
            "fixed high-side (inlet) pressure; absent: pressure_control, outlet_temp_k (UA "
            "mode) or the circuit (an orifice valve, a control loop) sets it",
            exclusive_minimum=0.0,
        ),
        ParamSpec(
            "outlet_temp_k",
            "number",
            "K",
            "refrigerant outlet temperature (required in fixed mode; in UA mode a spec that "
            "sets the pressure)",
            exclusive_minimum=0.0,
        ),
        ParamSpec(
            "pressure_control",
            "string",
            "",
            "high-side pressure from an optimal-pressure correlation: liao2000 (Liao, Zhao, "
            "Jakobsen 2000, R744)",
            choices=("liao2000",),
        ),
        ParamSpec(
            "profile_segments",
            "integer",
            "",
            "equal enthalpy segments of the UA model's temperature profile",
            minimum=20,
            maximum=400,
            default=40,
        ),
        *(p for p in _SECONDARY if p.name != "condenser_bank"),
        *factor_params(_HX_FACTORS),
    ),
    outputs=("capacity", "heatTransferRate", "massFlowRate", "pressure", "temperature"),
    factors=_HX_FACTORS,
    alternatives=(*_SECONDARY_ALTERNATIVES, ("pressure_pa", "pressure_control")),
)

COMPONENT_TYPES: dict[str, ComponentSpec] = {
    spec.type_name: spec
    for spec in (
        COMPRESSOR,
        CONDENSER,
        EVAPORATOR,
        GAS_COOLER,
        EXPANSION_VALVE,
        HEAT_EXCHANGER,
        MIXER,
        SPLITTER,
        FLASH_TANK,
        INJECTION_COMPRESSOR,
        RECEIVER,
        ACCUMULATOR,
    )
}
"""Registry of component types by their ``type`` name."""


INTERNAL_TYPES: dict[str, ComponentSpec] = {REFRIGERANT_LINE.type_name: REFRIGERANT_LINE}
"""Types the solver inserts itself (the line of an edge); a scenario cannot name them."""


def get_spec(type_name: str) -> ComponentSpec | None:
    """Return the spec of a component type (public or internal), or None when it is unknown."""
    return COMPONENT_TYPES.get(type_name) or INTERNAL_TYPES.get(type_name)
