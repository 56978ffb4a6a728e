"""One-way compilation: expand builds the whole flat scenario, checks only report, flatten raises."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest
from scenario_docs import example, split_units

from workbench.errors import ScenarioError
from workbench.scenario import (
    check_expansion,
    check_scenario,
    expand,
    flatten,
    load_scenario,
    parse_scenario,
)

SCENARIO_DIR = Path(__file__).resolve().parent.parent / "workbench" / "scenario"


def _imports(module: str) -> set[str]:
    tree = ast.parse((SCENARIO_DIR / f"{module}.py").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_flatten_function_hides_no_module() -> None:
    import importlib.util

    import workbench
    import workbench.scenario

    assert importlib.util.find_spec("workbench.scenario.flatten") is None
    assert callable(workbench.scenario.flatten)
    assert workbench.flatten is flatten


def test_expand_and_validate_do_not_import_each_other_or_compile() -> None:
    assert "workbench.scenario.validate" not in _imports("expand")
    assert "workbench.scenario.compile" not in _imports("expand")
    assert "workbench.scenario.compile" not in _imports("validate")


def test_expand_alone_builds_the_controls_with_normalised_factors() -> None:
    doc = example("superheat_control_v2")
    doc["controls"][0]["actuator"]["factor"] = "f_flow"
    scenario = parse_scenario(doc)
    expansion = expand(scenario)
    assert expansion.issues == []
    assert [c.id for c in expansion.flat.controls] == [c.id for c in scenario.controls]
    assert expansion.flat.controls[0].actuator.factor == "z_flow"
    # the scenario as written is not touched
    assert scenario.controls[0].actuator.factor == "f_flow"


def test_checks_do_not_change_the_expansion() -> None:
    scenario = load_scenario(split_units())
    expansion = expand(scenario)
    before = copy.deepcopy(expansion.flat.to_dict())
    assert check_expansion(scenario, expansion) == []
    assert expansion.flat.to_dict() == before


def test_flatten_is_expand_then_check() -> None:
    scenario = load_scenario(example("superheat_control_v2"))
    assert flatten(scenario).to_dict() == expand(scenario).flat.to_dict()


def test_flatten_raises_with_expansion_and_check_issues_together() -> None:
    doc = split_units()
    doc["instances"][1]["of"] = "no_such_template"  # an expansion issue
    doc["solver"] = {"strategy": "newton"}
    doc["instances"][0].setdefault("params", {})["no_such_param"] = 1  # a check issue
    scenario = parse_scenario(doc)
    expansion = expand(scenario)
    assert next(i.path for i in expansion.issues) == "instances[1].of"
    with pytest.raises(ScenarioError) as info:
        flatten(scenario)
    paths = [i.path for i in info.value.issues]
    assert "instances[1].of" in paths
    assert "instances[0].params.no_such_param" in paths
    _, issues = check_scenario(scenario)
    assert [i.path for i in issues] == paths
