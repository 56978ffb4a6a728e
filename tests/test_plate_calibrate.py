"""Sweep and calibration paths of a brazed plate exchanger's ``correlation_factors``.

The plates accept their own entries (``secondary_side`` ...), the fin-and-tube coils theirs
(``air_side`` ...): ``object_entries`` picks the list by ``geometry.kind``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from workbench import solve
from workbench.calibrate import calibrate
from workbench.components.catalog.specs import CORRELATION_FACTORS_BY_KIND, object_entries
from workbench.components.exchangers.plate.spec import CORRELATION_FACTORS
from workbench.errors import ScenarioError
from workbench.scenario import load_flat
from workbench.sweep.paths import resolve_path

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples/scenarios/brine_water_heat_pump_plate_v2.json"
)


def _doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return doc


def _with(doc: dict[str, Any], name: str, **params: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    comp = next(c for c in out["circuits"][0]["components"] if c["name"] == name)
    comp.update(params)
    return out


def test_plate_correlation_factor_entries_follow_the_geometry_kind():
    assert CORRELATION_FACTORS_BY_KIND["brazed_plate"] == CORRELATION_FACTORS
    plate = {"geometry": {"kind": "brazed_plate"}}
    coil = {"geometry": {"kind": "fin_tube"}}
    assert "secondary_side" in object_entries("correlation_factors", plate)
    assert "air_side" not in object_entries("correlation_factors", plate)
    assert "air_side" in object_entries("correlation_factors", coil)
    assert "secondary_side" not in object_entries("correlation_factors", coil)


def test_plate_sweep_path_accepts_secondary_side_and_refuses_air_side():
    flat = load_flat(_doc())
    path = resolve_path(flat, "condenser.correlation_factors.secondary_side")
    assert (path.owner, path.key) == ("condenser", "correlation_factors.secondary_side")
    with pytest.raises(ScenarioError, match="no entry 'air_side'; entries: refrigerant_side"):
        resolve_path(flat, "condenser.correlation_factors.air_side")


def test_calibrate_recovers_the_secondary_side_factor_of_the_plate_condenser():
    doc = _doc()
    truth = 1.25
    measured_doc = _with(doc, "condenser", correlation_factors={"secondary_side": truth})
    rows = []
    for t_water in (298.15, 303.15, 308.15):
        point = _with(measured_doc, "condenser", secondary_inlet_temp_k=t_water)
        r = solve(point)
        assert r.converged
        rows.append(
            {
                "condenser.secondary_inlet_temp_k": t_water,
                "condenser.capacity": r.components["condenser"]["capacity"],
                "condenser.saturationTemperature": r.components["condenser"][
                    "saturationTemperature"
                ],
            }
        )
    fit = calibrate(doc, pd.DataFrame(rows), ["condenser.correlation_factors.secondary_side"])
    assert fit.success
    value = fit.values["condenser.correlation_factors.secondary_side"]
    assert value == pytest.approx(truth, rel=1e-3)
    comp = next(c for c in fit.scenario["circuits"][0]["components"] if c["name"] == "condenser")
    assert comp["correlation_factors"]["secondary_side"] == pytest.approx(truth, rel=1e-3)
