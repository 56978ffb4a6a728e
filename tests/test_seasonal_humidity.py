"""The rating standards' humidity: wet bulbs to relative humidity, set on the outdoor coil."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from CoolProp.HumidAirProp import HAPropsSI

from workbench.correlations import humid_air
from workbench.seasonal.humidity import (
    AHRI_CONDITIONS,
    en14825_outdoor_rh,
    relative_humidity_from_wet_bulb,
)
from workbench.seasonal.rating import rate

EXAMPLE = Path(__file__).resolve().parents[1] / (
    "examples/scenarios/air_water_heat_pump_seasonal_v2.json"
)


@pytest.mark.parametrize(("dry", "wet"), [(-7.0, -8.0), (2.0, 1.0), (7.0, 6.0), (26.67, 19.44)])
def test_rh_from_wet_bulb_matches_coolprop(dry: float, wet: float) -> None:
    ref = HAPropsSI("R", "T", dry + 273.15, "B", wet + 273.15, "P", 101325.0)
    assert relative_humidity_from_wet_bulb(dry, wet) == pytest.approx(ref, abs=3e-3)


def test_ahri_a_indoor_is_the_usual_half_saturated_air() -> None:
    assert AHRI_CONDITIONS["A"]["indoor"].rh() == pytest.approx(0.51, abs=0.01)
    with pytest.raises(ValueError, match="above the dry bulb"):
        relative_humidity_from_wet_bulb(20.0, 21.0)


def test_en14825_cooling_sets_no_outdoor_humidity() -> None:
    assert en14825_outdoor_rh(35.0, "cooling") is None
    assert en14825_outdoor_rh(-7.0, "heating") == pytest.approx(
        HAPropsSI("R", "T", 266.15, "B", 265.15, "P", 101325.0), abs=3e-3
    )


def test_rating_sets_each_points_humidity_on_a_humid_outdoor_coil() -> None:
    doc = json.loads(EXAMPLE.read_text())
    evap = next(c for c in doc["circuits"][0]["components"] if c["name"] == "evaporator")
    del evap["secondary_mass_flow_kg_s"]
    evap["air_volume_flow_m3_s"] = 0.85
    evap["air_inlet_rh"] = 0.5
    rating = rate(doc)
    assert rating.complete
    table = rating.test_points
    for _, row in table.iterrows():
        assert row["outdoor_rh"] == pytest.approx(en14825_outdoor_rh(row["t_c"], "heating"))
    # the point's air mass follows its temperature and humidity (volume flow fixed)
    coldest = rating.points[0].result
    assert coldest is not None
    t_k = float(table["t_c"].iloc[0]) + 273.15
    w = humid_air.humidity_ratio(t_k, float(table["outdoor_rh"].iloc[0]))
    m = coldest.components["evaporator"]["secondary_heat_flow"] / (
        coldest.components["evaporator"]["secondary_inlet_temperature"]
        - coldest.components["evaporator"]["secondary_outlet_temperature"]
    )
    cp_air = m / (0.85 * humid_air.density(t_k, w))
    assert 1000.0 < cp_air < 1010.0  # C_sec / (V rho) is the air's cp: the mass came from V rho


def test_ua_outdoor_coil_without_humidity_stays_dry() -> None:
    rating = rate(EXAMPLE)
    assert rating.test_points["outdoor_rh"].isna().all()
