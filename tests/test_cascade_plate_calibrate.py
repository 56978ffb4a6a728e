"""Sweep and calibration paths of a thermal coupling: ``ua``, its plates, its correlation factors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from workbench import solve, sweep
from workbench.calibrate import calibrate
from workbench.errors import ScenarioError
from workbench.scenario import load_flat
from workbench.sweep.paths import case_document, coupling_value, resolve_path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "scenarios"


def _doc(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return doc


def test_coupling_paths_resolve_and_set_the_document():
    flat = load_flat(_doc("cascade_plate_v2"))
    path = resolve_path(flat, "thermal_couplings[0].geometry.correlation_factors.refrigerant_side")
    assert (path.kind, path.owner, path.key) == (
        "coupling",
        "0",
        "geometry.correlation_factors.refrigerant_side",
    )
    assert coupling_value(flat, path) is None  # not given: the factor is 1
    plates = resolve_path(flat, "thermal_couplings[0].geometry.plates")
    assert plates.integer
    assert coupling_value(flat, plates) == 34
    doc = case_document(flat.to_dict(), [path, plates], (1.2, 40.0))
    geometry = doc["thermal_couplings"][0]["geometry"]
    assert geometry["correlation_factors"] == {"refrigerant_side": 1.2}
    assert geometry["plates"] == 40
    assert isinstance(geometry["plates"], int)
    assert flat.thermal_couplings[0].geometry["plates"] == 34  # the base is not changed
    with pytest.raises(ScenarioError, match="built from its geometry: it has no ua"):
        resolve_path(flat, "thermal_couplings[0].ua")
    with pytest.raises(ScenarioError, match="takes one of"):
        resolve_path(flat, "thermal_couplings[0].geometry.fins_per_m")
    with pytest.raises(ScenarioError, match="1 thermal coupling"):
        resolve_path(flat, "thermal_couplings[3].efficiency")


def test_sweep_over_plates_and_over_a_ua_coupling_agrees_with_solving_each_document():
    plate = sweep(_doc("cascade_plate_v2"), {"thermal_couplings[0].geometry.plates": [20, 34, 60]})
    assert plate["converged"].all()
    assert list(plate["thermal_couplings[0].geometry.plates"]) == [20, 34, 60]
    ua = sweep(_doc("cascade_v2"), {"thermal_couplings[0].ua": [800.0, 1200.0, 2400.0]})
    assert ua["converged"].all()
    for frame, key, values, name in (
        (plate, "plates", (20, 60), "cascade_plate_v2"),
        (ua, "ua", (800.0, 2400.0), "cascade_v2"),
    ):
        for value in values:
            doc = _doc(name)
            if key == "plates":
                doc["thermal_couplings"][0]["geometry"]["plates"] = value
            else:
                doc["thermal_couplings"][0]["ua"] = value
            alone = solve(doc)
            column = frame.columns[0]
            row = frame[frame[column] == value].iloc[0]
            assert row["cop_cooling"] == pytest.approx(alone.summary["cop_cooling"], rel=1e-7)
    # more plates, more conductance: a better COP
    assert list(plate["cop_cooling"]) == sorted(plate["cop_cooling"])
    assert list(ua["cop_cooling"]) == sorted(ua["cop_cooling"])


def _with_factor(doc: dict[str, Any], value: float) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out["thermal_couplings"][0]["geometry"]["correlation_factors"] = {"refrigerant_side": value}
    return out


def _with_air(doc: dict[str, Any], t_air: float) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    for comp in out["circuits"][0]["components"]:
        if comp["name"] == "lt_evaporator":
            comp["air_inlet_temp_c"] = t_air
    return out


def test_calibrate_recovers_the_hot_film_factor_of_the_cascade_plates():
    doc = _doc("cascade_plate_v2")
    truth = 1.3
    rows = []
    for t_air in (-25.0, -20.0, -15.0):
        r = solve(_with_air(_with_factor(doc, truth), t_air))
        assert r.converged
        rows.append(
            {
                "lt_evaporator.air_inlet_temp_c": t_air,
                "lt_condenser.saturationTemperature": r.components["lt_condenser"][
                    "saturationTemperature"
                ],
            }
        )
    free = "thermal_couplings[0].geometry.correlation_factors.refrigerant_side"
    fit = calibrate(doc, pd.DataFrame(rows), [free])
    assert fit.success
    assert fit.values[free] == pytest.approx(truth, rel=2e-3)
    geometry = fit.scenario["thermal_couplings"][0]["geometry"]
    assert geometry["correlation_factors"]["refrigerant_side"] == pytest.approx(truth, rel=2e-3)
