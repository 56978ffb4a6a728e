"""A transcritical R744 heat pump whose gas cooler is a fin-and-tube coil against air."""

from __future__ import annotations

import copy
import json

import pytest
from CoolProp.CoolProp import PropsSI
from fin_tube_cases import assert_air_balances

from workbench import solve
from workbench.main_job import REPO_ROOT

GEOMETRY = {
    "kind": "fin_tube",
    "tubes_per_bank": 16,
    "banks": 3,
    "circuits": 2,
    "tube_length_m": 0.6,
    "tube_outer_diameter_m": 0.00794,
    "tube_inner_diameter_m": 0.0069,
    "transverse_pitch_m": 0.0254,
    "longitudinal_pitch_m": 0.022,
    "fins_per_m": 500,
    "fin_thickness_m": 0.0001,
    "fin_type": "wavy",
    "wave_depth_m": 0.0015,
    "wave_half_length_m": 0.0055,
}


def _doc(segments: int | None = None) -> dict:
    doc = json.loads((REPO_ROOT / "examples/scenarios/r744_heat_pump_v2.json").read_text())
    gc = doc["circuits"][0]["components"][1]
    for key in ("ua", "secondary_fluid", "secondary_inlet_temp_k", "secondary_mass_flow_kg_s"):
        gc.pop(key)
    geometry = copy.deepcopy(GEOMETRY)
    if segments:
        geometry["segments"] = segments
    gc.update({"air_inlet_temp_c": 30.0, "air_volume_flow_m3_s": 0.4, "geometry": geometry})
    return doc


def test_gas_cooler_from_geometry_converges_above_the_critical_pressure_and_balances():
    doc = _doc()
    result = solve(doc)
    assert result.converged, result.report()
    assert_air_balances(result, doc)
    gc = result.components["gas_cooler"]
    assert gc["pressure"] == pytest.approx(9.0e6, rel=1e-6)  # held by the loop
    assert gc["pressure"] > PropsSI("Pcrit", "CO2")
    assert 0.0 < gc["approach_temperature"] < 10.0
    assert gc["min_temperature_difference"] == pytest.approx(gc["approach_temperature"], abs=0.05)
    assert gc["refrigerant_pressure_drop"] > 0.0
    assert gc["air_outlet_temperature"] > 303.15
    assert {
        z["zone"] for z in {i["name"]: i for i in result.charge["items"]}["gas_cooler"]["zones"]
    }
    assert not any("critical" in w for w in result.warnings)


def test_gas_cooler_heat_does_not_depend_on_the_segment_count():
    coarse, fine = solve(_doc(20)), solve(_doc(80))
    assert coarse.converged
    assert fine.converged
    assert coarse.summary["heating_capacity_w"] == pytest.approx(
        fine.summary["heating_capacity_w"], rel=3e-3
    )
    assert coarse.components["gas_cooler"]["temperature"] == pytest.approx(
        fine.components["gas_cooler"]["temperature"], abs=0.1
    )
