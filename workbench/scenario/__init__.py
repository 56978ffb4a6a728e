"""Scenario documents: models, loading, validation, flattening and the JSON Schema.

::

    load_scenario(path | json str | dict) -> ScenarioConfig   (structure + semantic checks)
    flatten(ScenarioConfig) -> FlatScenario                   (templates expanded)
    FlatScenario.to_dict() / to_scenario()                    (back to a flat document)
    scenario_json_schema() -> dict                            (for editors)
"""

from workbench.scenario.flat import FlatComponent, FlatEdge, FlatScenario
from workbench.scenario.flatten import flatten
from workbench.scenario.load import load_flat, load_scenario, parse_scenario, read_json
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
from workbench.scenario.validate import check_scenario, validate_scenario

__all__ = [
    "ActuatorConfig",
    "CircuitConfig",
    "ComponentConfig",
    "CondenserBankConfig",
    "ControlConfig",
    "EdgeConfig",
    "FlatComponent",
    "FlatEdge",
    "load_flat",
    "FlatScenario",
    "InitialStateConfig",
    "InstanceConfig",
    "MeasureConfig",
    "ScenarioConfig",
    "SolverConfig",
    "SubsystemTemplate",
    "ThermalCouplingConfig",
    "check_scenario",
    "flatten",
    "load_scenario",
    "parse_scenario",
    "read_json",
    "scenario_json_schema",
    "validate_scenario",
]
