"""Measured points of the calibration tests: the example heat pump solved with known UA values.

Each point is solved on its own with :func:`workbench.solve` from a document with the
conditions set (not with the calibration's prepared system), so the calibration is checked
against an independent path.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

import pandas as pd

from workbench import solve
from workbench.calibrate import read_quantity, resolve_quantity
from workbench.scenario import as_flat

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "scenarios" / "heat_pump_v1.json"
TRUE = {"condenser.ua": 1500.0, "evaporator.ua_nominal_kw_k": 1.2}
WRONG_START = {"condenser.ua": 1500.0 * 1.3, "evaporator.ua_nominal_kw_k": 1.2 * 0.7}
MEASURED = ("summary.heating_capacity_w", "summary.compressor_power_w", "compressor.temperature")


def heat_pump_doc() -> dict:
    """The example heat pump's document with the true UA values set (a new copy).

    The true values are pinned here, so the tests do not follow design changes of the example.
    """
    doc = json.loads(EXAMPLE.read_text())
    for path, value in TRUE.items():
        set_parameter(doc, path, value)
    return doc


def set_parameter(doc: dict, path: str, value: float) -> None:
    """Set ``<component>.<parameter>`` in a one-circuit document."""
    name, key = path.split(".", 1)
    comp = next(c for c in doc["circuits"][0]["components"] if c["name"] == name)
    comp[key] = value


@cache
def _points(air_c: tuple[float, ...], water_k: tuple[float, ...]) -> pd.DataFrame:
    base = heat_pump_doc()
    flat = as_flat(base)
    quantities = [resolve_quantity(flat, q) for q in MEASURED]
    rows = []
    for air in air_c:
        for water in water_k:
            doc = copy.deepcopy(base)
            set_parameter(doc, "evaporator.air_inlet_temp_c", air)
            set_parameter(doc, "condenser.secondary_inlet_temp_k", water)
            result = solve(doc).raise_for_convergence()
            row = {"evaporator.air_inlet_temp_c": air, "condenser.secondary_inlet_temp_k": water}
            row.update({q.path: read_quantity(result, q) for q in quantities})
            rows.append(row)
    return pd.DataFrame(rows)


def heat_pump_points(air_c: tuple[float, ...], water_k: tuple[float, ...]) -> pd.DataFrame:
    """The measured points at every air and water inlet temperature [degC, K] (a new copy)."""
    return _points(tuple(air_c), tuple(water_k)).copy()
