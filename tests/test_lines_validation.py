"""Bad ``line`` input: every problem named by its JSON path (and ``workbench validate`` exits 2)."""

from __future__ import annotations

import json

import pytest
from lines_cases import split_unit

from workbench.cli.main import EXIT_BAD_INPUT, main
from workbench.errors import ScenarioError
from workbench.scenario import load_scenario

LINE = "circuits[0].edges[3].line"


def _issues(doc) -> dict[str, str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(doc)
    return {issue.path: issue.message for issue in caught.value.issues}


def test_lines_validation_outer_diameter_must_exceed_inner() -> None:
    issues = _issues(split_unit(outer_diameter_m=0.015))
    assert issues == {
        f"{LINE}.outer_diameter_m": "must exceed inner_diameter_m (0.016916 m), got 0.015 m"
    }


def test_lines_validation_unknown_fitting_kind_with_a_suggestion() -> None:
    issues = _issues(split_unit(fittings={"elbow90": 2, "ball_valve": -1}))
    assert "did you mean 'elbow_90'?" in issues[f"{LINE}.fittings.elbow90"]
    assert issues[f"{LINE}.fittings.ball_valve"] == "count must be >= 0, got -1"


def test_lines_validation_structure_errors_name_the_key() -> None:
    doc = split_unit(length_m=-1.0, roughness_m="smooth")
    del doc["circuits"][0]["edges"][3]["line"]["inner_diameter_m"]
    doc["circuits"][0]["edges"][3]["line"]["colour"] = "red"
    issues = _issues(doc)
    assert set(issues) == {
        f"{LINE}.length_m",
        f"{LINE}.roughness_m",
        f"{LINE}.inner_diameter_m",
        f"{LINE}.colour",
    }
    assert "greater than 0" in issues[f"{LINE}.length_m"]


def test_lines_validation_ambient_needs_the_outer_diameter() -> None:
    doc = split_unit()
    del doc["circuits"][0]["edges"][3]["line"]["outer_diameter_m"]
    issues = _issues(doc)
    assert "required with ambient_temp_c" in issues[f"{LINE}.outer_diameter_m"]


def test_lines_validation_volume_and_line_on_one_edge() -> None:
    doc = split_unit()
    doc["circuits"][0]["edges"][3]["volume_m3"] = 0.001
    issues = _issues(doc)
    assert "give volume_m3 or line, not both" in issues["circuits[0].edges[3].volume_m3"]


def test_lines_validation_the_internal_type_is_not_for_scenarios() -> None:
    doc = split_unit()
    doc["circuits"][0]["components"].append({"name": "pipe", "type": "RefrigerantLine"})
    issues = _issues(doc)
    assert "unknown component type 'RefrigerantLine'" in issues["circuits[0].components[4].type"]


def test_lines_validation_cli_exits_2_naming_the_path(tmp_path, capsys) -> None:
    path = tmp_path / "bad_line.json"
    path.write_text(json.dumps(split_unit(fittings={"elbow_99": 1})))
    assert main(["validate", str(path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"{LINE}.fittings.elbow_99: unknown fitting kind 'elbow_99'" in err


def test_lines_validation_the_example_is_valid(capsys) -> None:
    from lines_cases import EXAMPLE

    assert main(["validate", str(EXAMPLE)]) == 0
    assert "ok" in capsys.readouterr().out


def test_lines_validation_lines_need_coolprop() -> None:
    doc = split_unit()
    doc["fluid"], doc["fluid_backend"] = "R134a", "Test"
    issues = _issues(doc)
    assert 'set "fluid_backend": "CoolProp"' in issues[LINE]
    assert 'set "fluid_backend": "CoolProp"' in issues["circuits[0].edges[0].line"]
