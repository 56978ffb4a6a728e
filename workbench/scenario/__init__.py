"""Scenario documents: models, loading, validation, flattening and the JSON Schema.

::

    load_scenario(path | json str | dict) -> ScenarioConfig   (structure + semantic checks)
    expand(ScenarioConfig) -> Expansion                       (builds the flat graph, records
                                                               what it cannot build)
    check_expansion(ScenarioConfig, Expansion) -> issues      (reports, never builds)
    flatten(ScenarioConfig) -> FlatScenario                   (expand -> check -> raise)
    FlatScenario.to_dict() / to_scenario()                    (back to a flat document)
    scenario_json_schema() -> dict                            (for editors)
"""

from workbench.scenario.compile import check_scenario, flatten, validate_scenario
from workbench.scenario.expand import Expansion, expand
from workbench.scenario.flat import FlatComponent, FlatEdge, FlatScenario
from workbench.scenario.load import as_flat, load_flat, load_scenario, parse_scenario, read_json
from workbench.scenario.models import (
    ActuatorConfig,
    CircuitConfig,
    ComponentConfig,
    CondenserBankConfig,
    ControlConfig,
    EdgeConfig,
    InitialStateConfig,
    InstanceConfig,
    MeasureConfig,
    ScenarioConfig,
    SolverConfig,
    SubsystemTemplate,
    ThermalCouplingConfig,
)
from workbench.scenario.schema import scenario_json_schema
from workbench.scenario.types import ScenarioLike
from workbench.scenario.validate import check_expansion

__all__ = [
    "ActuatorConfig",
    "CircuitConfig",
    "ComponentConfig",
    "CondenserBankConfig",
    "ControlConfig",
    "EdgeConfig",
    "Expansion",
    "FlatComponent",
    "FlatEdge",
    "FlatScenario",
    "InitialStateConfig",
    "InstanceConfig",
    "MeasureConfig",
    "ScenarioConfig",
    "ScenarioLike",
    "SolverConfig",
    "SubsystemTemplate",
    "ThermalCouplingConfig",
    "as_flat",
    "check_expansion",
    "check_scenario",
    "expand",
    "flatten",
    "load_flat",
    "load_scenario",
    "parse_scenario",
    "read_json",
    "scenario_json_schema",
    "validate_scenario",
]
