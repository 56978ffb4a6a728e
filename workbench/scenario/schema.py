"""JSON Schema of a scenario document, for editors' validation and autocompletion.

Built from the pydantic models, then completed from the component catalog: the ``type`` of a
component is an enum of the catalog's types, and for each type an ``if``/``then`` clause lists
its parameters with kinds, bounds, units and defaults.
"""

from __future__ import annotations

from typing import Any

from workbench.components.catalog.specs import COMPONENT_TYPES, ParamSpec
from workbench.scenario.models import PARAM_REF_PATTERN, CondenserBankConfig, ScenarioConfig

__all__ = ["param_json_schema", "scenario_json_schema"]

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def param_json_schema(spec: ParamSpec) -> dict[str, Any]:
    """JSON Schema of one catalog parameter (a ``$name`` reference is also accepted)."""
    schema: dict[str, Any]
    if spec.kind in ("number", "integer"):
        schema = {"type": spec.kind}
        for attr, word in (
            ("minimum", "minimum"),
            ("maximum", "maximum"),
            ("exclusive_minimum", "exclusiveMinimum"),
            ("exclusive_maximum", "exclusiveMaximum"),
        ):
            value = getattr(spec, attr)
            if value is not None:
                schema[word] = value
    elif spec.kind == "string":
        schema = {"type": "string"}
        if spec.choices:
            schema["enum"] = list(spec.choices)
    elif spec.kind == "number_list":
        schema = {"type": "array", "items": {"type": "number"}}
        if spec.length is not None:
            schema["minItems"] = schema["maxItems"] = spec.length
    elif spec.name == "condenser_bank":
        schema = CondenserBankConfig.model_json_schema()
    else:
        schema = {"type": "object"}
    unit = f" [{spec.unit}]" if spec.unit else ""
    out: dict[str, Any] = {
        "anyOf": [schema, {"type": "string", "pattern": PARAM_REF_PATTERN}],
        "description": f"{spec.description}{unit}",
    }
    if spec.default is not None:
        out["default"] = spec.default
    return out


def scenario_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a scenario document."""
    schema = ScenarioConfig.model_json_schema(by_alias=True)
    schema["$schema"] = SCHEMA_DIALECT
    schema["title"] = "Thermal Workbench scenario"
    component = schema["$defs"]["ComponentConfig"]
    component["properties"]["type"]["enum"] = list(COMPONENT_TYPES)
    clauses = []
    for type_name, spec in COMPONENT_TYPES.items():
        properties: dict[str, Any] = {"name": {}, "type": {}}
        for param in spec.params:
            properties[param.name] = param_json_schema(param)
        for factor in spec.factors:
            legacy = "f_" + factor[2:]
            properties[legacy] = param_json_schema(spec.param(factor))  # type: ignore[arg-type]
        clauses.append(
            {
                "if": {"properties": {"type": {"const": type_name}}, "required": ["type"]},
                "then": {
                    "description": spec.description,
                    "properties": properties,
                    "additionalProperties": False,
                },
            }
        )
    component["allOf"] = clauses
    return schema
