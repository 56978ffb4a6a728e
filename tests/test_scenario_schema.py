"""The JSON Schema for editors, and the catalog section of docs/scenario-format.md."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
from scenario_docs import EXAMPLES, example, heat_pump, split_units

from workbench.components.catalog.specs import COMPONENT_TYPES
from workbench.scenario import flatten, load_scenario, scenario_json_schema
from workbench.scenario.catalog_doc import END, START, render_catalog_markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "scenario-format.md"


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = scenario_json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.json")))
def test_schema_accepts_examples_and_their_flat_form(validator, name) -> None:
    doc = example(name)
    assert list(validator.iter_errors(doc)) == []
    flat_doc = flatten(load_scenario(doc)).to_dict()
    assert list(validator.iter_errors(flat_doc)) == []


def test_schema_component_type_enum_is_the_catalog(validator) -> None:
    schema = scenario_json_schema()
    component = schema["$defs"]["ComponentConfig"]
    assert component["properties"]["type"]["enum"] == list(COMPONENT_TYPES)
    doc = heat_pump()
    doc["circuits"][0]["components"][2]["type"] = "Valve"
    assert not validator.is_valid(doc)


@pytest.mark.parametrize(
    ("k", "key", "value"),
    [
        (0, "fan_speed", 0.5),  # not a Compressor parameter
        (3, "fan_speed", "fast"),  # wrong kind
        (3, "fan_speed", 1.5),  # out of range
        (0, "mass_flow_map_kg_s", [1.0] * 9),  # wrong length
    ],
)
def test_schema_rejects_bad_parameters(validator, k, key, value) -> None:
    doc = heat_pump()
    doc["circuits"][0]["components"][k][key] = value
    assert not validator.is_valid(doc)


def test_schema_accepts_param_refs_and_legacy_factors_in_templates(validator) -> None:
    doc = split_units()
    doc["subsystems"]["split_unit"]["components"][2]["f_flow"] = "$valve_flow"
    doc["subsystems"]["split_unit"]["params"]["valve_flow"] = 1.1
    assert list(validator.iter_errors(doc)) == []
    load_scenario(doc)


def test_schema_docs_catalog_section_matches_catalog() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(START), text.index(END) + len(END)
    assert text[start:end] == render_catalog_markdown(), (
        "docs/scenario-format.md is out of date; run "
        "python -m workbench.scenario.catalog_doc docs/scenario-format.md"
    )
    for type_name, spec in COMPONENT_TYPES.items():
        assert f"### {type_name}" in text
        for param in spec.params:
            assert f"| `{param.name}` |" in text
