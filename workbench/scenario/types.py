"""The forms a scenario may take at the public entry points (``solve``, ``prepare``, ``sweep``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypeAlias

from workbench.scenario.flat import FlatScenario
from workbench.scenario.models import ScenarioConfig

__all__ = ["ScenarioLike"]

ScenarioLike: TypeAlias = ScenarioConfig | FlatScenario | Mapping[str, Any] | str | os.PathLike[str]
"""A scenario as loaded (:class:`ScenarioConfig`), flattened (:class:`FlatScenario`), a decoded
JSON document (a mapping), a JSON string, or the path of a JSON file."""
