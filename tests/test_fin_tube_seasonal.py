"""An EN 14825 rating whose outdoor evaporator is a fin-and-tube coil: the test's humidity reaches it."""

from __future__ import annotations

import json

import pytest

from workbench.main_job import REPO_ROOT
from workbench.seasonal import rate
from workbench.seasonal.humidity import en14825_outdoor_rh

OUTDOOR_COIL = {
    "kind": "fin_tube",
    "tubes_per_bank": 28,
    "banks": 2,
    "circuits": 6,
    "tube_length_m": 0.9,
    "tube_outer_diameter_m": 0.00952,
    "tube_inner_diameter_m": 0.0088,
    "transverse_pitch_m": 0.0254,
    "longitudinal_pitch_m": 0.022,
    "fins_per_m": 480,
    "fin_thickness_m": 0.00012,
    "fin_type": "wavy",
    "wave_depth_m": 0.0015,
    "wave_half_length_m": 0.0055,
}


def test_rating_gives_the_geometric_evaporator_the_standards_humidity():
    doc = json.loads(
        (REPO_ROOT / "examples/scenarios/air_water_heat_pump_seasonal_v2.json").read_text()
    )
    evaporator = doc["circuits"][0]["components"][3]
    for key in ("ua_nominal_kw_k", "n_air_exponent"):
        evaporator.pop(key)
    evaporator["geometry"] = OUTDOOR_COIL
    rating = rate(doc)
    assert rating.complete
    assert 2.0 < rating.scop < 8.0
    for point in rating.points:
        result = point.result
        assert result.converged
        ev = result.components["evaporator"]
        t_c = ev["secondary_inlet_temperature"] - 273.15
        assert ev["air_inlet_rh"] == pytest.approx(en14825_outdoor_rh(round(t_c, 6), "heating"))
        assert ev["condensate_kg_s"] > 0.0  # 1 K wet-bulb depression: the coil is wet
        frost = [w for w in result.warnings if "frosts" in w]
        assert bool(frost) == (ev["min_surface_temperature"] < 273.15)
    coldest = min(
        rating.points, key=lambda p: p.result.components["evaporator"]["air_outlet_temperature"]
    )
    assert any("frosts" in w for w in coldest.result.warnings)
