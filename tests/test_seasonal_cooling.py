"""The cooling chain: an air-to-water chiller rated to EN 14825 SEER from its seasonal block."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import workbench
from workbench.cli.main import main
from workbench.errors import ScenarioError
from workbench.seasonal import rate, seer_from_declared

CHILLER = Path(__file__).parent.parent / "examples/scenarios/air_water_chiller_seasonal_v2.json"


def _doc():
    return json.loads(CHILLER.read_text())


@pytest.fixture(scope="module")
def rating():
    return rate(CHILLER)


def test_cooling_rating_is_complete_with_the_four_points(rating):
    assert rating.complete
    assert list(rating.test_points["name"]) == ["D", "C", "B", "A"]
    assert list(rating.test_points["t_c"]) == [20.0, 25.0, 30.0, 35.0]
    assert rating.scop is None
    pts = rating.test_points[["t_c", "capacity_kw", "cop"]].rename(columns={"cop": "eer"})
    expected = seer_from_declared(
        pts.to_dict(orient="records"), 8.0, cd=0.9, off_mode_kw={"to": 0.015, "sb": 0.010}
    )
    assert rating.seer == pytest.approx(expected.seer, rel=1e-12)
    assert rating.seer_on == pytest.approx(expected.seer_on, rel=1e-12)
    assert rating.seer < rating.seer_on  # off-mode power counts


def test_cooling_each_point_resolves_to_its_capacity_and_eer(rating):
    for point, row in zip(rating.points, rating.test_points.itertuples()):
        doc = _doc()
        for path, value in point.values.items():
            comp, key = path.rsplit(".", 1)
            next(c for c in doc["circuits"][0]["components"] if c["name"] == comp)[key] = value
        result = workbench.solve(doc)
        assert result.converged
        assert result.summary["cooling_capacity_w"] / 1e3 == pytest.approx(
            row.capacity_kw, rel=1e-6
        )
        assert result.summary["cop_cooling"] == pytest.approx(row.cop, rel=1e-6)
        t_out = result.components["evaporator"]["secondary_outlet_temperature"] - 273.15
        assert t_out == pytest.approx(7.0, abs=1e-6)  # fan-coil application: 7 C chilled water
        assert row.part_load == pytest.approx((row.t_c - 16) / (35 - 16))
        if pd.isna(row.limit):
            assert row.capacity_kw == pytest.approx(row.load_kw, rel=1e-6)


def test_cooling_sensitivity_and_cli(rating, capsys):
    sens = rating.sensitivity()
    assert "seer" in sens.columns
    assert rating.limiting_point == sens.loc[0, "name"]
    assert main(["seasonal", str(CHILLER), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mode"] == "cooling"
    assert out["seer"] == pytest.approx(rating.seer, rel=1e-9)
    assert out["hspf2_indicative"] is None
    assert sum(b["hours"] for b in out["bins"]) == 2602


def test_cooling_application_must_fit_the_mode():
    doc = _doc()
    doc["seasonal"]["application"] = "low"
    with pytest.raises(ScenarioError, match="does not fit mode 'cooling'"):
        workbench.load_scenario(doc)
    heating = json.loads((CHILLER.parent / "air_water_heat_pump_seasonal_v2.json").read_text())
    del heating["seasonal"]["bivalent_c"]
    with pytest.raises(ScenarioError, match="bivalent_c is required"):
        workbench.load_scenario(heating)
