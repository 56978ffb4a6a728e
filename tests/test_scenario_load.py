"""Loading scenarios: sources, JSON syntax errors, and the structural (pydantic) round."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from scenario_docs import EXAMPLES, heat_pump, issues_of, split_units

from workbench.errors import ScenarioError
from workbench.scenario import ScenarioConfig, load_scenario, parse_scenario


def test_load_scenario_from_path_string_and_dict_agree() -> None:
    path = EXAMPLES / "heat_pump_v1.json"
    from_path = load_scenario(path)
    from_str_path = load_scenario(str(path))
    from_text = load_scenario(path.read_text())
    from_dict = load_scenario(json.loads(path.read_text()))
    assert isinstance(from_path, ScenarioConfig)
    assert from_path == from_str_path == from_text == from_dict
    assert from_path.fluid == "R134a"
    assert from_path.schema_version == "1"
    evaporator = from_path.circuits[0].components[3]
    assert evaporator.fan_speed == 1.0
    assert evaporator.parameters["superheat_k"] == 5


def test_load_scenario_defaults_of_the_contract() -> None:
    # structure only: a lone valve is an open circuit, which the full checks refuse
    sc = parse_scenario(
        {"fluid": "R134a", "circuits": [{"components": [{"name": "v", "type": "ExpansionValve"}]}]}
    )
    assert sc.schema_version == "1"
    assert sc.fluid_backend is None
    assert sc.name is None
    assert sc.metadata is None
    assert sc.circuits[0].id == 0
    assert sc.circuits[0].edges == []
    assert sc.circuits[0].initial_state is None
    assert (sc.solver.strategy, sc.solver.max_iterations, sc.solver.tolerance) == (
        "fallback",
        100,
        1e-6,
    )
    assert (sc.solver.timeout_ms, sc.solver.verbose) == (0, False)
    assert sc.controls == []
    assert sc.instances == []
    assert sc.connections == []
    assert sc.subsystems == {}


def test_load_scenario_component_extra_keys_are_parameters_in_document_order() -> None:
    sc = load_scenario(heat_pump())
    condenser = sc.circuits[0].components[1]
    assert list(condenser.parameters) == [
        "ua",
        "secondary_fluid",
        "secondary_inlet_temp_k",
        "secondary_mass_flow_kg_s",
        "subcooling_k",
    ]


def test_load_scenario_invalid_json_reports_line_and_column(tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "fluid": "R134a",\n  "circuits": [,]\n}\n')
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    (issue,) = info.value.issues
    assert "line 3, column 16" in issue.message
    assert info.value.source == str(path)
    assert str(path) in str(info.value)


def test_load_scenario_missing_file_is_a_scenario_error(tmp_path) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario(tmp_path / "nope.json")
    assert "cannot read" in info.value.issues[0].message


def test_load_scenario_root_must_be_an_object() -> None:
    (issue,) = issues_of("[1, 2]")
    assert issue.path == ""
    assert "JSON object" in issue.message
    assert "list" in issue.message


def _set(path: list[Any], value: Any) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        target = doc
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return mutate


def _delete(path: list[Any]) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        target = doc
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return mutate


STRUCTURE_CASES = [
    ("missing_fluid", heat_pump, _delete(["fluid"]), "fluid", "required field 'fluid'"),
    ("unknown_root_key", heat_pump, _set(["circuit"], []), "circuit", "did you mean 'circuits'"),
    ("fluid_not_string", heat_pump, _set(["fluid"], 134), "fluid", "valid string"),
    ("schema_version_3", heat_pump, _set(["schema_version"], "3"), "schema_version", "'1' or '2'"),
    (
        "strategy",
        heat_pump,
        _set(["solver", "strategy"], "fast"),
        "solver.strategy",
        "'newton', 'picard' or 'fallback'",
    ),
    (
        "max_iterations_str",
        heat_pump,
        _set(["solver", "max_iterations"], "many"),
        "solver.max_iterations",
        "valid integer",
    ),
    (
        "timeout_negative",
        heat_pump,
        _set(["solver", "timeout_ms"], -1),
        "solver.timeout_ms",
        "greater than or equal to 0",
    ),
    (
        "tolerance_zero",
        heat_pump,
        _set(["solver", "tolerance"], 0),
        "solver.tolerance",
        "greater than 0",
    ),
    (
        "verbose_not_bool",
        heat_pump,
        _set(["solver", "verbose"], "yes"),
        "solver.verbose",
        "valid boolean",
    ),
    (
        "circuit_id_negative",
        heat_pump,
        _set(["circuits", 0, "id"], -1),
        "circuits[0].id",
        "greater than or equal to 0",
    ),
    (
        "components_missing",
        heat_pump,
        _delete(["circuits", 0, "components"]),
        "circuits[0].components",
        "required field 'components'",
    ),
    (
        "component_name_missing",
        heat_pump,
        _delete(["circuits", 0, "components", 2, "name"]),
        "circuits[0].components[2].name",
        "required field 'name'",
    ),
    (
        "edge_to_missing",
        heat_pump,
        _delete(["circuits", 0, "edges", 1, "to"]),
        "circuits[0].edges[1].to",
        "required field 'to'",
    ),
    (
        "edge_unknown_key",
        heat_pump,
        _set(["circuits", 0, "edges", 1, "port"], "x"),
        "circuits[0].edges[1].port",
        "allowed keys: from, to",
    ),
    (
        "initial_state_unknown",
        heat_pump,
        _set(["circuits", 0, "initial_state"], {"pressure_pa": 1e5}),
        "circuits[0].initial_state.pressure_pa",
        "did you mean 'pressure_bar'",
    ),
    ("circuits_not_list", heat_pump, _set(["circuits"], {}), "circuits", "JSON array"),
    (
        "instance_circuit_negative",
        split_units,
        _set(["instances", 0, "circuit"], -2),
        "instances[0].circuit",
        "greater than or equal to 0",
    ),
    (
        "template_components_missing",
        split_units,
        _delete(["subsystems", "split_unit", "components"]),
        "subsystems.split_unit.components",
        "required field",
    ),
    (
        "ports_not_strings",
        split_units,
        _set(["subsystems", "split_unit", "ports", "suction_in"], 3),
        "subsystems.split_unit.ports.suction_in",
        "valid string",
    ),
]


@pytest.mark.parametrize(
    ("base", "mutate", "path", "fragment"),
    [case[1:] for case in STRUCTURE_CASES],
    ids=[case[0] for case in STRUCTURE_CASES],
)
def test_load_scenario_structure_error(base, mutate, path, fragment) -> None:
    doc = base()
    mutate(doc)
    issues = issues_of(doc)
    assert [i.path for i in issues] == [path], issues
    assert fragment in issues[0].message


def test_load_scenario_thermal_coupling_ranges() -> None:
    doc = heat_pump()
    doc["thermal_couplings"] = [
        {"hot_circuit": 0, "cold_circuit": 1, "ua": 0, "efficiency": 1.5},
        {"hot_circuit": -1, "cold_circuit": 1, "ua": 10},
    ]
    issues = {i.path: i.message for i in issues_of(doc)}
    assert set(issues) == {
        "thermal_couplings[0].ua",
        "thermal_couplings[0].efficiency",
        "thermal_couplings[1].hot_circuit",
    }
    assert "less than or equal to 1" in issues["thermal_couplings[0].efficiency"]


def test_load_scenario_control_structure() -> None:
    doc = split_units()
    doc["controls"] = [
        {
            "id": "sh",
            "type": "PID",
            "measure": {"component": "unit_a.evaporator"},
            "actuator": {"component": "unit_a.valve", "factor": "z_flow", "min": 0.5, "max": 2},
            "target": 5,
            "band": 0,
            "smooth_eps": -1,
        }
    ]
    issues = {i.path: i.message for i in issues_of(doc)}
    assert set(issues) == {
        "controls[0].type",
        "controls[0].measure.output",
        "controls[0].band",
        "controls[0].smooth_eps",
    }
    assert "SaturatedController" in issues["controls[0].type"]
    assert "greater than 0" in issues["controls[0].band"]


def test_load_scenario_reports_every_structure_error_at_once() -> None:
    doc = heat_pump()
    del doc["fluid"]
    doc["solver"]["strategy"] = "fast"
    doc["circuits"][0]["edges"][0]["form"] = doc["circuits"][0]["edges"][0].pop("from")
    paths = {i.path for i in issues_of(doc)}
    assert {
        "fluid",
        "solver.strategy",
        "circuits[0].edges[0].from",
        "circuits[0].edges[0].form",
    } <= paths


def test_load_scenario_rejects_nan_and_infinity() -> None:
    doc = heat_pump()
    doc["solver"]["tolerance"] = float("nan")
    doc["circuits"][0]["components"][0]["speed_hz"] = float("inf")
    text = json.dumps(doc)  # Python writes NaN / Infinity, which json.loads accepts
    (issue,) = issues_of(text)
    assert issue.path == "solver.tolerance"
    assert "finite" in issue.message
    doc["solver"]["tolerance"] = 1e-6
    (issue,) = issues_of(json.dumps(doc))
    assert issue.path == "circuits[0].components[0].speed_hz"
    assert "got Infinity" in issue.message


def test_load_scenario_schema_version_as_number_gets_a_hint() -> None:
    doc = heat_pump()
    doc["schema_version"] = 2
    (issue,) = issues_of(doc)
    assert issue.path == "schema_version"
    assert 'write it as a string: "2"' in issue.message
