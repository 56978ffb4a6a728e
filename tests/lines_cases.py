"""The split unit with a line set (examples/scenarios/split_unit_lines_v2.json) and variants."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples" / "scenarios" / "split_unit_lines_v2.json"
)
SUCTION_EDGE = 3
"""Index of the suction line's edge (evaporator:outlet -> compressor:inlet) in circuits[0]."""


def split_unit(**suction: Any) -> dict[str, Any]:
    """The example as a dict, with the suction line's keys replaced by ``suction``."""
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text())
    doc = copy.deepcopy(doc)
    doc["circuits"][0]["edges"][SUCTION_EDGE]["line"].update(suction)
    return doc
