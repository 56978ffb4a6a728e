"""The scenario document as the builder edits it: fields by JSON path, units, safe saving.

No widgets here: :class:`~workbench.notebook_ui.builder.ScenarioBuilder` shows one text field per
:class:`Field`, and everything a field needs (where its value lives in the document, its unit
and description from the component catalog, what an empty field means) is computed here so it
can be tested without a browser.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.components.catalog.specs import CONTROL_OUTPUT_UNITS, ParamSpec, get_spec
from workbench.notebook_ui.run import parse_parameter

__all__ = [
    "CONTROL_OUTPUT_UNITS",
    "Field",
    "JsonPath",
    "component_fields",
    "component_path",
    "control_fields",
    "display_unit",
    "family_value",
    "field_text",
    "get_at",
    "instance_index",
    "instance_param_fields",
    "json_path",
    "parse_field",
    "pop_at",
    "set_at",
    "template_param_fields",
    "template_param_units",
    "write_json_atomic",
]

JsonPath = tuple[str | int, ...]
"""Keys and list indices from the document root, e.g. ``("circuits", 0, "components", 3, "ua")``."""


_PRETTY_UNITS = {"degC": "°C", "m3": "m³", "m2": "m²", "1/s": "Hz", "": "–"}


@dataclass(frozen=True)
class Field:
    """One editable value of the document.

    Attributes
    ----------
    path : JsonPath
        Where the value lives in the document.
    key : str
        Its name (the last element of ``path``), shown as the field's label.
    unit : str
        Display unit (``°C``, ``kW/K``, ``–`` for dimensionless, ``""`` when unknown).
    description : str
        One line from the catalog (the field's tooltip).
    kind : str
        The catalog's kind (``number``, ``string``, ...; ``any`` when unknown).
    empty_means : str
        What an empty field does: ``"missing"`` (an issue: type a value or remove the
        parameter) or ``"default"`` (the value is removed, the default applies).
    placeholder : str
        Shown in an empty field.
    removable : bool
        The field has a remove button (component parameters).
    """

    path: JsonPath
    key: str
    unit: str = ""
    description: str = ""
    kind: str = "any"
    empty_means: str = "missing"
    placeholder: str = ""
    removable: bool = False


def get_at(doc: Any, path: JsonPath, default: Any = None) -> Any:
    """The value at ``path`` (``default`` when any step is missing)."""
    node = doc
    for step in path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return default
    return node


def set_at(doc: dict[str, Any], path: JsonPath, value: Any) -> None:
    """Set the value at ``path``, creating missing dicts on the way."""
    node: Any = doc
    for step in path[:-1]:
        if isinstance(node, dict) and step not in node:
            node[step] = {}
        node = node[step]
    node[path[-1]] = value


def pop_at(doc: dict[str, Any], path: JsonPath) -> None:
    """Remove the value at ``path`` if present."""
    parent = get_at(doc, path[:-1])
    if isinstance(parent, dict):
        parent.pop(path[-1], None)


def json_path(path: JsonPath) -> str:
    """``("circuits", 0, "components", 3, "ua")`` -> ``"circuits[0].components[3].ua"``."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += ("." if out else "") + str(step)
    return out


def display_unit(unit: str | None) -> str:
    """A catalog unit as shown beside a field (``degC`` -> ``°C``, dimensionless -> ``–``)."""
    if unit is None:
        return ""
    return _PRETTY_UNITS.get(unit, unit)


def family_value(key: str, unit: str, value: Any) -> str:
    """The value in the unit family the form reads in, when the document's unit differs.

    The document keeps its own key and unit (``secondary_inlet_temp_k`` in K, ``ua`` in
    W/K); beside the field the same value reads as the evaporator's does: temperatures in °C,
    conductances in kW/K, heat flows in kW, pressures in bar. Empty when there is nothing to
    add (already in that unit, not a number, or a temperature difference such as
    ``superheat_k``).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    absolute = key.endswith("temp_k") or (key.startswith("t_") and key.endswith("_k"))
    if unit == "K" and absolute:
        return f"{value - 273.15:.4g} °C"
    if unit == "W/K":
        return f"{value / 1e3:.4g} kW/K"
    if unit == "W":
        return f"{value / 1e3:.4g} kW"
    if unit == "Pa":
        return f"{value / 1e5:.4g} bar"
    return ""


def field_text(value: Any) -> str:
    """The text a field shows for a document value (strings as they are, the rest as JSON)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value)


def parse_field(text: str, kind: str = "any") -> Any:
    """The document value of a field's text (None for an empty field).

    A ``string`` parameter keeps the text as typed; anything else is read as JSON when it
    parses (``35`` -> 35, ``[1, 2]``), else kept as a string (``$speed_hz``, or a typo that
    validation then reports with its path).
    """
    text = text.strip()
    if not text:
        return None
    if kind == "string":
        return text
    return parse_parameter(text)


def _param_field(path: JsonPath, key: str, spec: ParamSpec | None, removable: bool) -> Field:
    if spec is None:
        return Field(path, key, removable=removable, placeholder="type a value")
    # an empty component field is an issue, so its placeholder never reads like a value
    hint = "type a value" + (
        "" if spec.default is None else f" (or ✕: the default {field_text(spec.default)})"
    )
    return Field(
        path,
        key,
        unit=display_unit(spec.unit),
        description=spec.description,
        kind=spec.kind,
        placeholder=hint,
        removable=removable,
    )


def component_fields(component: dict[str, Any], base: JsonPath) -> list[Field]:
    """One field per parameter a component sets (``name`` and ``type`` are not fields)."""
    spec = get_spec(str(component.get("type", "")))
    return [
        _param_field((*base, key), key, spec.param(key) if spec else None, removable=True)
        for key in component
        if key not in ("name", "type")
    ]


def template_param_units(template: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Unit and description of each ``$name`` a template uses, from where it is used.

    ``"speed_hz": "$speed_hz"`` on a Compressor gives ``{"speed_hz": ("Hz", "...")}``; a
    name used for parameters of different units gets the first one.
    """
    out: dict[str, tuple[str, str]] = {}
    for comp in template.get("components", []):
        spec = get_spec(str(comp.get("type", "")))
        for key, value in comp.items():
            if isinstance(value, str) and value.startswith("$") and spec is not None:
                pspec = spec.param(key)
                if pspec is not None:
                    out.setdefault(value[1:], (display_unit(pspec.unit), pspec.description))
    return out


def template_param_fields(name: str, template: dict[str, Any]) -> list[Field]:
    """The defaults of a template's parameters (``subsystems.<name>.params``)."""
    units = template_param_units(template)
    keys = list(template.get("params", {})) + [
        k for k in units if k not in template.get("params", {})
    ]
    return [
        Field(
            ("subsystems", name, "params", key),
            key,
            unit=units.get(key, ("", ""))[0],
            description=units.get(key, ("", ""))[1] or f"default of ${key} in {name}",
            empty_means="default",
            placeholder="no default: every instance sets it",
        )
        for key in keys
    ]


def instance_param_fields(index: int, instance: dict[str, Any], doc: dict[str, Any]) -> list[Field]:
    """One field per parameter of the instance's template (empty: the template default)."""
    template = get_at(doc, ("subsystems", instance.get("of", "")), {}) or {}
    units = template_param_units(template)
    defaults = template.get("params", {}) or {}
    keys = list(defaults) + [k for k in units if k not in defaults]
    keys += [k for k in instance.get("params", {}) or {} if k not in keys]
    return [
        Field(
            ("instances", index, "params", key),
            key,
            unit=units.get(key, ("", ""))[0],
            description=units.get(key, ("", ""))[1] or f"${key} of this instance",
            empty_means="default",
            placeholder=(
                f"template: {field_text(defaults[key])}" if key in defaults else "required"
            ),
        )
        for key in keys
    ]


def control_fields(index: int, loop: dict[str, Any]) -> list[Field]:
    """``target`` (in the measured output's SI unit), ``gain`` and ``band`` of a loop."""
    unit = CONTROL_OUTPUT_UNITS.get(str(get_at(loop, ("measure", "output"), "")), "")
    base = ("controls", index)
    return [
        Field(
            (*base, "target"),
            "target",
            unit or "",
            "target of the measured output (SI)",
            placeholder="type a value",
        ),
        Field(
            (*base, "gain"),
            "gain",
            f"1/{unit}" if unit else "",
            "loop gain; its sign must match d(output)/d(actuator)",
            kind="number",
            empty_means="default",
            placeholder="default 1",
        ),
        Field(
            (*base, "band"),
            "band",
            "–",
            "saturation band half-width of the actuator factor (> 0)",
            kind="number",
            empty_means="default",
            placeholder="default 1",
        ),
    ]


def write_json_atomic(path: str | Path, document: Any) -> Path:
    """Write ``document`` as indented JSON, atomically, readable like any file the user saves.

    The file is written next to ``path`` and renamed over it. It is created with mode
    ``0o666`` minus the process umask (``rw-r--r--`` under the usual umask 022), as
    :func:`open` would; replacing an existing file keeps that file's mode.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(document, fh, indent=2)
            fh.write("\n")
        if path.exists():
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def component_path(doc: dict[str, Any], component: str) -> JsonPath:
    """Where a component lives: a circuit component's name, or ``<template>.<component>``.

    Raises
    ------
    KeyError
        No such component (the message lists the components and the instances).
    """
    for i, circuit in enumerate(doc.get("circuits", []) or []):
        for k, comp in enumerate(circuit.get("components", []) or []):
            if comp.get("name") == component:
                return ("circuits", i, "components", k)
    template, _dot, local = component.partition(".")
    for k, comp in enumerate(get_at(doc, ("subsystems", template, "components"), []) or []):
        if local and comp.get("name") == local:
            return ("subsystems", template, "components", k)
    names = [c.get("name") for circ in doc.get("circuits", []) or [] for c in circ["components"]]
    names += [
        f"{t}.{c.get('name')}"
        for t, tpl in (doc.get("subsystems") or {}).items()
        for c in tpl.get("components", [])
    ]
    instances = [i.get("name") for i in doc.get("instances", []) or []]
    raise KeyError(
        f"no component {component!r}; components: {', '.join(map(str, names)) or 'none'}"
        + (f"; instances (their $parameters): {', '.join(instances)}" if instances else "")
    )


def instance_index(doc: dict[str, Any], instance: str) -> int | None:
    """The index of an instance in ``instances`` (None when there is none of that name)."""
    for i, inst in enumerate(doc.get("instances", []) or []):
        if inst.get("name") == instance:
            return i
    return None
