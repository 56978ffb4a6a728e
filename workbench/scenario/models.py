"""Pydantic v2 models of the scenario document (the "model IR").

One model per object of the scenario contract, with every field, default and range. Field names keep
the scenario contract's unit suffixes (``_bar``, ``_kj_kg``, ``_k``, ``_c``, ``_kw_k``); conversion to SI
happens in the solver through :mod:`workbench.units`.

The models check structure only (types, required fields, the scenario contract's own ranges). Checks
that need the component catalog or cross references (parameters per component type, edges,
controls, couplings, templates) live in :mod:`workbench.scenario.validate`.

Component parameters are kept loose here on purpose: the scenario contract's typed component fields
(``fan_speed``, ``ua_nominal_kw_k`` ...) and the extra keys may hold a ``"$name"`` reference inside
a subsystem template, and their kinds and bounds come from
:mod:`workbench.components.catalog.specs`, the single source of truth for parameters.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, WithJsonSchema, model_validator

from workbench.scenario.seasonal import SeasonalConfig

__all__ = [
    "COMPONENT_CONTRACT_FIELDS",
    "PARAM_REF_PATTERN",
    "V2_ONLY_FIELDS",
    "VOID_FRACTION_NAMES",
    "ActuatorConfig",
    "ChargeConfig",
    "CircuitConfig",
    "ComponentConfig",
    "CondenserBankConfig",
    "ControlConfig",
    "EdgeConfig",
    "InitialStateConfig",
    "InstanceConfig",
    "LineConfig",
    "MeasureConfig",
    "SafetyConfig",
    "ScenarioConfig",
    "SolverConfig",
    "StrictModel",
    "SubsystemTemplate",
    "ThermalCouplingConfig",
]

PARAM_REF_PATTERN = r"^\$[A-Za-z_][A-Za-z0-9_]*$"
"""A string value of this shape inside a template is replaced by the named parameter."""

_REF_SCHEMA: dict[str, Any] = {
    "type": "string",
    "pattern": PARAM_REF_PATTERN,
    "description": "reference to a template parameter (only inside subsystems)",
}

UINT64_MAX = 2**64 - 1


class StrictModel(BaseModel):
    """Base of the scenario contract objects: no type coercion, unknown keys are errors."""

    model_config = ConfigDict(
        strict=True, extra="forbid", populate_by_name=True, allow_inf_nan=False
    )


def _loose(schema: dict[str, Any], description: str) -> WithJsonSchema:
    """The JSON Schema of a component field checked against the catalog later.

    The scenario contract's type, a ``$name`` reference, or null.
    """
    return WithJsonSchema(
        {"anyOf": [schema, _REF_SCHEMA, {"type": "null"}], "description": description}
    )


class CondenserBankConfig(StrictModel):
    """Identical coils in parallel: ``circuits`` x ``coils_per_circuit``."""

    circuits: int = Field(ge=0, le=UINT64_MAX, description="number of refrigerant circuits")
    coils_per_circuit: int = Field(ge=0, le=UINT64_MAX, description="coils per circuit")


_UaNominalKwK: TypeAlias = Annotated[
    Any, _loose({"type": "number", "exclusiveMinimum": 0}, "nominal UA [kW/K]")
]
_AirInletTempC: TypeAlias = Annotated[
    Any, _loose({"type": "number"}, "air inlet temperature [degC]")
]
_FanSpeed: TypeAlias = Annotated[
    Any,
    _loose({"type": "number", "minimum": 0.0, "maximum": 1.0}, "fan speed ratio, 0.0 to 1.0"),
]
_NAirExponent: TypeAlias = Annotated[
    Any, _loose({"type": "number"}, "air-side heat transfer exponent")
]
_CondenserBank: TypeAlias = Annotated[
    Any,
    _loose(CondenserBankConfig.model_json_schema(), "condenser bank (identical coils in parallel)"),
]


class ComponentConfig(BaseModel):
    """One component. Keys beyond the listed ones are component parameters.

    The parameters a type accepts (with kinds, bounds and defaults) are listed in
    :data:`workbench.components.catalog.specs.COMPONENT_TYPES`.
    """

    model_config = ConfigDict(
        strict=True, extra="allow", populate_by_name=True, allow_inf_nan=False
    )

    name: str = Field(description="component name, used in edges")
    type: str = Field(description="component type, e.g. Compressor, Condenser, Evaporator")
    ua_nominal_kw_k: _UaNominalKwK = None
    air_inlet_temp_c: _AirInletTempC = None
    fan_speed: _FanSpeed = None
    n_air_exponent: _NAirExponent = None
    condenser_bank: _CondenserBank = None

    _key_order: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _remember_key_order(cls, data: Any, handler: Any) -> ComponentConfig:
        model: ComponentConfig = handler(data)
        if isinstance(data, dict):
            model._key_order = tuple(data)
        return model

    @property
    def parameters(self) -> dict[str, Any]:
        """Every parameter given (typed fields that are not null, and extra keys), in document order."""
        params: dict[str, Any] = {}
        for key in COMPONENT_CONTRACT_FIELDS:
            value = getattr(self, key)
            if value is not None:
                params[key] = value
        params.update(self.model_extra or {})
        order = {k: i for i, k in enumerate(self._key_order)}
        return dict(sorted(params.items(), key=lambda kv: order.get(kv[0], len(order))))


COMPONENT_CONTRACT_FIELDS: tuple[str, ...] = (
    "ua_nominal_kw_k",
    "air_inlet_temp_c",
    "fan_speed",
    "n_air_exponent",
    "condenser_bank",
)
"""The scenario contract's typed component fields that are parameters (null means absent)."""


class LineConfig(StrictModel):
    """A refrigerant line on an edge: copper tube from its hardware (issue 41, docs/lines.md).

    The solver inserts a line component between the edge's two ports: pressure drop (friction,
    fittings, static head), heat exchanged with the ambient, and the line's charge.
    """

    length_m: float = Field(gt=0, description="straight length of the line [m]")
    inner_diameter_m: float = Field(gt=0, description="inner diameter of the tube [m]")
    outer_diameter_m: float | None = Field(
        None,
        gt=0,
        description="outer diameter of the tube [m]; needed with ambient_temp_c (heat gain)",
    )
    elevation_m: float = Field(
        0.0, description="outlet above inlet [m]: positive for a riser, negative downward"
    )
    roughness_m: float = Field(
        1.5e-6, ge=0, description="absolute roughness of the inner wall [m] (drawn copper 1.5e-6)"
    )
    fittings: dict[str, int] = Field(
        default_factory=dict,
        description='fittings counted by kind, e.g. {"elbow_90": 4, "ball_valve": 1}',
    )
    insulation_thickness_m: float = Field(
        0.0, ge=0, description="insulation thickness [m]; 0 for a bare tube"
    )
    insulation_conductivity_w_m_k: float = Field(
        0.035, gt=0, description="insulation conductivity [W/(m K)] (elastomeric foam 0.035)"
    )
    ambient_temp_c: float | None = Field(
        None,
        description="temperature around the line [degC]; absent: the line exchanges no heat",
    )

    @property
    def volume_m3(self) -> float:
        """Internal volume ``pi D_i^2 L / 4`` [m3]."""
        return 0.25 * math.pi * self.inner_diameter_m**2 * self.length_m


class EdgeConfig(StrictModel):
    """A directed edge ``from`` -> ``to``; endpoints are ``<component>:<port>``.

    In ``connections`` an endpoint may also be ``<instance>.<external_port>``. With ``line`` the
    edge is a refrigerant line (pressure drop, heat gain and charge from its hardware).
    """

    src: str = Field(alias="from", description="source endpoint <component>:<port>")
    dst: str = Field(alias="to", description="target endpoint <component>:<port>")
    volume_m3: float | None = Field(
        None, gt=0, description="refrigerant volume of the line (a line set) [m3], for the charge"
    )
    line: LineConfig | None = Field(
        None, description="a refrigerant line from its hardware (docs/lines.md)"
    )


class InitialStateConfig(StrictModel):
    """Starting values for the edges of a circuit (all optional)."""

    pressure_bar: float | None = Field(None, gt=0, description="pressure [bar]")
    enthalpy_kj_kg: float | None = Field(None, description="specific enthalpy [kJ/kg]")
    temperature_k: float | None = Field(None, gt=0, description="temperature [K]")


class CircuitConfig(StrictModel):
    """A refrigerant circuit: components joined by edges."""

    id: int = Field(0, ge=0, le=UINT64_MAX, description="circuit id")
    components: list[ComponentConfig] = Field(description="components in the circuit")
    edges: list[EdgeConfig] = Field(default_factory=list, description="edges between components")
    initial_state: InitialStateConfig | None = Field(None, description="initial state for edges")
    charge_kg: float | None = Field(
        None,
        gt=0,
        description="fixed refrigerant charge of the circuit [kg]; the condenser's subcooling "
        "(or a receiver's level) becomes an unknown",
    )
    fluid: str | None = Field(
        None, description="working fluid of this circuit, overriding the scenario's (v2)"
    )
    fluid_backend: str | None = Field(
        None, description="property backend of this circuit's fluid (v2; the scenario's if absent)"
    )


class SolverConfig(StrictModel):
    """Solver settings."""

    strategy: Literal["newton", "picard", "fallback"] = Field(
        "fallback", description="newton, picard, or fallback (Newton, Picard, Newton)"
    )
    max_iterations: int = Field(100, ge=0, le=UINT64_MAX, description="maximum iterations")
    tolerance: float = Field(1e-6, gt=0, description="convergence tolerance (scaled residual)")
    timeout_ms: int = Field(0, ge=0, le=UINT64_MAX, description="timeout [ms]; 0 means none")
    verbose: bool = Field(False, description="log every iteration")


class ThermalCouplingConfig(StrictModel):
    """Heat flow from a hot circuit to a cold circuit."""

    hot_circuit: int = Field(ge=0, le=UINT64_MAX, description="hot circuit id")
    cold_circuit: int = Field(ge=0, le=UINT64_MAX, description="cold circuit id")
    ua: float | None = Field(
        None, gt=0, description="thermal conductance [W/K] (exactly one of ua or geometry)"
    )
    efficiency: float = Field(0.95, ge=0.0, le=1.0, description="heat exchanger efficiency")
    geometry: dict[str, Any] | None = Field(
        None,
        description="the exchanger's hardware instead of ua: {'kind': 'brazed_plate', plates, "
        "plate_length_m, ...} (docs/plate_exchangers.md)",
    )


class MeasureConfig(StrictModel):
    """The plant output a control loop regulates."""

    component: str = Field(description="component whose output is measured")
    output: str = Field(
        description="capacity, heatTransferRate, superheat, subcooling, saturationTemperature, "
        "massFlowRate, pressure or temperature (those the component type has)"
    )


class ActuatorConfig(StrictModel):
    """The calibration factor a control loop manipulates."""

    component: str = Field(description="component carrying the actuator")
    factor: str = Field(description="z_flow, z_dp, z_ua, z_power or z_etav (legacy f_ accepted)")
    min: float = Field(description="lower bound")
    max: float = Field(description="upper bound")
    initial: float = Field(1.0, description="initial (nominal) value")


class ControlConfig(StrictModel):
    """A saturated proportional-integral loop with anti-windup."""

    id: str = Field(description="unique id of the loop")
    type: Literal["SaturatedController"] = Field(
        "SaturatedController", description="only SaturatedController"
    )
    measure: MeasureConfig
    actuator: ActuatorConfig
    target: float = Field(description="target of the measured output, SI (W, K, Pa, kg/s)")
    gain: float = Field(1.0, description="loop gain K; sign must match d(output)/d(actuator)")
    band: float = Field(1.0, gt=0, description="saturation band half-width Q (> 0)")
    smooth_eps: float | None = Field(
        None, gt=0, description="C1-smooth saturation eps; null means a hard clamp"
    )


VOID_FRACTION_NAMES = ("zivi", "homogeneous", "smith", "lockhart_martinelli", "premoli")
"""Void fraction models of ``charge.void_fraction`` (see :mod:`workbench.components.inventory.void_fraction`)."""


class ChargeConfig(StrictModel):
    """How the refrigerant inventory is computed (see docs/charge.md)."""

    void_fraction: Literal["zivi", "homogeneous", "smith", "lockhart_martinelli", "premoli"] = (
        Field("zivi", description="void fraction model of two-phase zones (default zivi)")
    )
    mass_flux_kg_m2s: float = Field(
        200.0, gt=0, description="refrigerant mass flux in the tubes [kg/(m2 s)] (premoli only)"
    )
    tube_diameter_m: float = Field(
        0.007, gt=0, description="inner tube diameter [m] (premoli only)"
    )


class SafetyConfig(StrictModel):
    """The room a unit serves, for the charge limits of IEC 60335-2-40 Annex GG."""

    standard: Literal["IEC 60335-2-40:2022", "IEC 60335-2-40:2018"] = Field(
        "IEC 60335-2-40:2022",
        description="the standard applied: edition 7 (2022, the default) or edition 6 (2018)",
    )
    room_area_m2: float = Field(gt=0, description="floor area of the room [m2]")
    release_height: Literal["floor", "window", "wall", "ceiling"] = Field(
        "floor", description="installation: floor 0.6 m, window 1.0, wall 1.8, ceiling 2.2"
    )
    release_height_m: float | None = Field(
        None, gt=0, description="release height h0 [m]; overrides release_height"
    )
    charge_kg: float | None = Field(
        None, ge=0, description="charge to judge [kg]; default: the computed charge"
    )


class SubsystemTemplate(StrictModel):
    """A reusable group of components; names are local to the template."""

    components: list[ComponentConfig] = Field(description="components of the template")
    edges: list[EdgeConfig] = Field(default_factory=list, description="internal edges")
    params: dict[str, Any] = Field(default_factory=dict, description="default parameter values")
    ports: dict[str, str] = Field(
        default_factory=dict, description="external port name -> <component>:<port>"
    )


class InstanceConfig(StrictModel):
    """One instantiation of a template."""

    name: str = Field(description="unique instance name; prefix <name>. of its components")
    of: str = Field(description="key of the template in subsystems")
    circuit: int = Field(0, ge=0, le=UINT64_MAX, description="circuit receiving the components")
    params: dict[str, Any] = Field(default_factory=dict, description="parameter overrides")


class ScenarioConfig(StrictModel):
    """Root object of a scenario document."""

    fluid: str = Field(description="working fluid name")
    fluid_backend: str | None = Field(
        None, description="property backend, e.g. Test or CoolProp (Test when absent)"
    )
    name: str | None = Field(None, description="scenario name")
    saturation_reference: Literal["dew", "mid", "bubble"] = Field(
        "dew",
        description="what t_cond_k / t_evap_k mean for a blend: dew, mid or bubble point",
    )
    schema_version: Literal["1", "2"] = Field("1", description="1 (flat graph) or 2")
    circuits: list[CircuitConfig] = Field(default_factory=list)
    connections: list[EdgeConfig] = Field(
        default_factory=list, description="edges between instance ports or components (v2)"
    )
    controls: list[ControlConfig] = Field(default_factory=list, description="control loops (v2)")
    subsystems: dict[str, SubsystemTemplate] = Field(
        default_factory=dict, description="reusable templates (v2)"
    )
    instances: list[InstanceConfig] = Field(
        default_factory=list, description="instantiations of templates (v2)"
    )
    thermal_couplings: list[ThermalCouplingConfig] = Field(default_factory=list)
    solver: SolverConfig = Field(default_factory=SolverConfig)
    metadata: dict[str, Any] | None = Field(None, description="free metadata")
    charge: ChargeConfig | None = Field(None, description="refrigerant inventory settings")
    safety: SafetyConfig | None = Field(
        None, description="room and release height for the charge limits (IEC 60335-2-40)"
    )
    seasonal: SeasonalConfig | None = Field(
        None, description="seasonal rating settings (v2; read by workbench.seasonal)"
    )


V2_ONLY_FIELDS: tuple[str, ...] = (
    "controls",
    "subsystems",
    "instances",
    "connections",
    "seasonal",
)
"""Root keys accepted only with ``"schema_version": "2"``."""
