"""The scenario document of a run: any form a solve accepts, as the JSON object to store.

A run note keeps the document that was solved, not the flat graph the solver made of it: the
templates, instances and ``$parameters`` an engineer wrote stay as written, so the document read
back from the note opens in the builder (and in an editor) as the one it was. Every document is
loaded and checked before it is stored; an invalid one is refused with its issues.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario import FlatScenario, ScenarioConfig, load_scenario, read_json

__all__ = ["document_changes", "document_text", "json_path", "scenario_document"]


def scenario_document(scenario: Any) -> dict[str, Any]:
    """The JSON document of a scenario, checked; a new object the caller may keep.

    Parameters
    ----------
    scenario : dict, str, path, ScenarioConfig or FlatScenario
        A decoded document, a JSON string or the path of a JSON file (as written), a loaded
        scenario (the fields its document set), or a flat scenario (its flat document).

    Raises
    ------
    ScenarioError
        The document is invalid (every issue with its JSON path) or cannot be read.
    """
    if isinstance(scenario, FlatScenario):
        doc: Any = scenario.to_dict()
    elif isinstance(scenario, ScenarioConfig):
        doc = scenario.model_dump(mode="json", by_alias=True, exclude_unset=True)
    elif isinstance(scenario, Mapping):
        doc = copy.deepcopy(dict(scenario))
    elif isinstance(scenario, str | os.PathLike):
        doc, _label = read_json(scenario if isinstance(scenario, str) else Path(scenario))
    else:
        raise ScenarioError(
            [ScenarioIssue("", f"expected a scenario document, got {type(scenario).__name__}")],
            source="run log",
        )
    if not isinstance(doc, dict):
        raise ScenarioError(
            [ScenarioIssue("", "a scenario document is a JSON object")], source="run log"
        )
    load_scenario(copy.deepcopy(doc))  # raises ScenarioError with every issue
    return doc


def document_text(doc: Mapping[str, Any]) -> str:
    """The document as stored and written back: JSON, two-space indents, key order kept."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def json_path(parts: tuple[str | int, ...]) -> str:
    """``("circuits", 0, "components", 3, "ua")`` -> ``circuits[0].components[3].ua``."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _label(doc: Any, parts: tuple[str | int, ...]) -> str:
    """A change's place as the builder and the sweep paths name it.

    ``circuits[0].components[3].fan_speed`` -> ``evaporator.fan_speed``,
    ``subsystems.split.components[1].ua`` -> ``split.evaporator.ua``,
    ``instances[1].params.speed_hz`` -> ``unit_b.speed_hz``; other places as JSON paths
    (``solver.strategy``, ``controls[0].target``).
    """
    node: Any = doc
    names: list[str | None] = []
    for part in parts:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
        name = node.get("name") if isinstance(node, dict) else None
        names.append(name if isinstance(name, str) else None)
    head = parts[:3]
    if len(parts) > 3 and head[0] == "circuits" and head[2] == "components" and names[3]:
        return json_path((str(names[3]), *parts[4:]))
    if len(parts) > 3 and head[0] == "subsystems" and head[2] == "components" and names[3]:
        return json_path((f"{parts[1]}.{names[3]}", *parts[4:]))
    if len(parts) > 2 and head[0] == "instances" and head[2] == "params" and names[1]:
        return json_path((str(names[1]), *parts[3:]))
    return json_path(parts)


def _walk(
    base: Any, doc: Any, parts: tuple[str | int, ...], out: list[tuple[tuple, Any, Any]]
) -> None:
    if isinstance(base, dict) and isinstance(doc, dict):
        for key in list(base) + [k for k in doc if k not in base]:
            if key not in doc and isinstance(base[key], dict):
                _walk(base[key], {}, (*parts, key), out)  # each removed value
            elif key not in doc:
                out.append(((*parts, key), base[key], None))
            elif key not in base and isinstance(doc[key], dict):
                _walk({}, doc[key], (*parts, key), out)  # each added value
            elif key not in base:
                out.append(((*parts, key), None, doc[key]))
            else:
                _walk(base[key], doc[key], (*parts, key), out)
        return
    if (
        isinstance(base, list)
        and isinstance(doc, list)
        and len(base) == len(doc)
        and not all(isinstance(v, int | float) for v in base + doc)
    ):
        for i, (a, b) in enumerate(zip(base, doc)):
            _walk(a, b, (*parts, i), out)
        return
    if base == doc and (type(base) is type(doc) or _same_number(base, doc)):
        return
    out.append((parts, base, doc))


def _same_number(a: Any, b: Any) -> bool:
    numbers = (int, float)
    return (
        isinstance(a, numbers)
        and isinstance(b, numbers)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
        and a == b
    )


def document_changes(base: Mapping[str, Any], doc: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """What changed from ``base`` to ``doc``: ``(path, old, new)`` per value, in document order.

    Objects are compared key by key and lists of objects item by item; a component is named as
    the builder names it (``evaporator.fan_speed``, ``split_unit.evaporator.ua`` in a
    template), an instance's parameter as ``unit_b.speed_hz``; a list of numbers (a compressor
    map) is one value. ``old`` is None for an added value,
    ``new`` None for a removed one. ``5`` and ``5.0`` are the same value.
    """
    out: list[tuple[tuple, Any, Any]] = []
    _walk(dict(base), dict(doc), (), out)
    return [(_label(doc, parts), old, new) for parts, old, new in out]
