"""Scenario documents shared by the scenario tests (fresh deep copies of the examples)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "scenarios"

_CACHE: dict[str, dict[str, Any]] = {}


def example(name: str) -> dict[str, Any]:
    """A fresh deep copy of ``examples/scenarios/<name>.json``."""
    if name not in _CACHE:
        _CACHE[name] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return copy.deepcopy(_CACHE[name])


def heat_pump() -> dict[str, Any]:
    return example("heat_pump_v1")


def split_units() -> dict[str, Any]:
    return example("split_units_v2")


def cascade() -> dict[str, Any]:
    return example("cascade_v2")


def issues_of(doc: Any) -> list[ScenarioIssue]:
    """The issues ``load_scenario`` reports for ``doc`` (fails the test when it loads)."""
    with pytest.raises(ScenarioError) as info:
        load_scenario(doc)
    return info.value.issues
