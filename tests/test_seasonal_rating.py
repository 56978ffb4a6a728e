"""The chain scenario -> test points -> bin method, checked by re-solving each reported point."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pandas as pd
import pytest
from CoolProp.CoolProp import PropsSI

import workbench
from workbench.cli.main import main
from workbench.errors import ScenarioError
from workbench.seasonal import rate, scop_from_declared
from workbench.seasonal.rating import rating_conditions

EXAMPLE = Path(__file__).parent.parent / "examples/scenarios/air_water_heat_pump_seasonal_v2.json"


def _doc():
    return json.loads(EXAMPLE.read_text())


def _set(doc, path, value):
    comp, key = path.rsplit(".", 1)
    for c in doc["circuits"][0]["components"]:
        if c["name"] == comp:
            c[key] = value
            return
    raise KeyError(path)


@pytest.fixture(scope="module")
def rating():
    return rate(EXAMPLE)


def test_rating_example_is_complete_with_every_test_point(rating):
    assert rating.complete
    names = list(rating.test_points["name"])
    assert names == ["E", "A/F", "B", "C", "D"]  # TOL -10, Tbiv -7 shares A's temperature
    assert rating.scop == pytest.approx(
        scop_from_declared(
            rating.test_points[["t_c", "capacity_kw", "cop"]].to_dict(orient="records"),
            9.5,
            "average",
            operation_limit_c=-10.0,
            cd=0.9,
            off_mode_kw={"to": 0.015, "sb": 0.010, "ck": 0.0, "off": 0.010},
        ).scop,
        rel=1e-12,
    )
    assert rating.scop < rating.scop_on <= rating.scop_net  # off-mode power and back-up count


def test_rating_resolving_each_test_point_gives_its_capacity_and_cop(rating):
    """Each reported point solved again from the document alone (cold start)."""
    for point, row in zip(rating.points, rating.test_points.itertuples()):
        doc = _doc()
        for path, value in point.values.items():
            _set(doc, path, value)
        result = workbench.solve(doc)
        assert result.converged, row.name
        assert result.summary["heating_capacity_w"] / 1e3 == pytest.approx(
            row.capacity_kw, rel=1e-6
        )
        assert result.summary["cop_heating"] == pytest.approx(row.cop, rel=1e-6)
        # the water outlet is held at the test point's supply temperature
        t_out = result.components["condenser"]["secondary_outlet_temperature"] - 273.15
        assert t_out == pytest.approx(row.supply_c, abs=1e-6)
        assert point.values["evaporator.air_inlet_temp_c"] == row.t_c
        assert point.values["compressor.speed_hz"] == pytest.approx(row.speed_hz)


def test_rating_speed_meets_part_load_or_is_clamped(rating):
    for row in rating.test_points.itertuples():
        assert 20.0 <= row.speed_hz <= 110.0
        if pd.isna(row.limit):
            assert row.capacity_kw == pytest.approx(row.load_kw, rel=1e-6)
        elif row.limit == "max":
            assert row.speed_hz == 110.0
            assert row.capacity_kw < row.load_kw  # the back-up heater covers the rest
        else:
            assert row.speed_hz == 20.0
            assert row.capacity_kw > row.load_kw  # the unit cycles: Cd applies
    assert set(rating.test_points["limit"].dropna()) == {"max", "min"}


def test_rating_part_load_is_the_standards_ratio(rating):
    for row in rating.test_points.itertuples():
        assert row.part_load == pytest.approx((row.t_c - 16) / (-10 - 16))
        assert row.load_kw == pytest.approx(9.5 * row.part_load)


def test_rating_outlet_temperatures_follow_the_standard():
    settings = workbench.load_scenario(EXAMPLE).seasonal
    got = {name: out for name, _t, out in rating_conditions(settings)}
    assert got == {"E": 35.0, "A/F": 34.0, "B": 30.0, "C": 27.0, "D": 24.0}
    medium = settings.model_copy(update={"application": "medium", "bivalent_c": -3.0})
    got = {name: (t, out) for name, t, out in rating_conditions(medium)}
    assert got["A"] == (-7.0, 52.0)
    assert got["F"] == (-3.0, pytest.approx(52.0 + (42.0 - 52.0) * 4 / 9))  # between A and B
    fixed = settings.model_copy(update={"outlet": "fixed"})
    assert {out for _n, _t, out in rating_conditions(fixed)} == {35.0}


def test_rating_not_converged_point_leaves_it_incomplete(tmp_path, capsys):
    doc = _doc()
    doc["solver"]["max_iterations"] = 1
    r = rate(doc)
    assert not r.complete
    assert r.scop is None
    assert r.bins is None
    failed = r.test_points[~r.test_points["converged"]]
    assert "E" in set(failed["name"])
    assert all(isinstance(h, str) and h for h in failed["hint"])
    assert all(math.isnan(c) for c in failed["capacity_kw"])
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    assert main(["seasonal", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["complete"] is False
    assert out["scop"] is None
    assert out["test_points"][0]["converged"] is False


def test_rating_cli_json_has_the_documented_keys(capsys):
    assert main(["seasonal", str(EXAMPLE), "--json", "--climate", "warmer"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"scop", "scop_on", "scop_net", "eta_s", "test_points", "bins"} <= set(out)
    assert out["climate"] == "warmer"
    keys = {"name", "t_c", "supply_c", "capacity_kw", "cop", "part_load", "speed_hz", "converged"}
    assert all(keys <= set(tp) for tp in out["test_points"])
    # TOL and Tbiv lie below the warmer season's design temperature: E and F are solved at +2
    assert [tp["name"] for tp in out["test_points"]] == ["B/E/F", "C", "D"]
    assert out["test_points"][0]["part_load"] == 1.0
    assert {"t_c", "hours", "load_kw", "capacity_kw", "cop", "backup_kw"} <= set(out["bins"][0])
    assert sum(b["hours"] for b in out["bins"]) == 3590


def test_rating_cli_application_override(capsys):
    assert main(["seasonal", str(EXAMPLE), "--json", "--application", "medium"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["application"] == "medium"
    supply = {tp["name"]: tp["supply_c"] for tp in out["test_points"]}
    assert supply == {"E": 55.0, "A/F": 52.0, "B": 42.0, "C": 36.0, "D": 30.0}


def test_rating_cli_tables_name_the_limiting_point(capsys):
    assert main(["seasonal", str(EXAMPLE)]) == 0
    text = capsys.readouterr().out
    assert "SCOP" in text
    assert "limited most by test point B" in text
    assert "lowest COP at E" in text


def test_rating_sensitivity_finds_the_point_that_limits_scop(rating):
    sens = rating.sensitivity(1.1)
    assert list(sens["gain"]) == sorted(sens["gain"], reverse=True)
    assert (sens["gain"] > 0).all()  # a better COP anywhere raises SCOP
    assert rating.limiting_point == sens.loc[0, "name"]
    # by hand: the SCOP with B's COP raised 10 %
    pts = rating.test_points[["t_c", "capacity_kw", "cop"]].to_dict(orient="records")
    pts[2]["cop"] *= 1.1
    again = scop_from_declared(
        pts, 9.5, "average", operation_limit_c=-10.0, cd=0.9,
        off_mode_kw={"to": 0.015, "sb": 0.010, "ck": 0.0, "off": 0.010},
    )  # fmt: skip
    assert sens.set_index("name").loc["B", "scop"] == pytest.approx(again.scop, rel=1e-12)


def test_rating_bad_input_names_the_place(tmp_path, capsys):
    doc = _doc()
    doc["seasonal"]["outdoor"] = "evaporater.air_inlet_temp_c"
    with pytest.raises(ScenarioError, match=r"seasonal\."):
        rate(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    assert main(["seasonal", str(path)]) == 2
    assert "evaporater" in capsys.readouterr().err
    plain = _doc()
    del plain["seasonal"]
    with pytest.raises(ScenarioError, match="no seasonal block"):
        rate(plain)
    v1 = _doc()
    v1["schema_version"] = "1"
    with pytest.raises(ScenarioError, match="schema version 2"):
        workbench.load_scenario(v1)
    low_biv = _doc()
    low_biv["seasonal"]["bivalent_c"] = -12.0
    with pytest.raises(ScenarioError, match=r"seasonal: .*bivalent_c -12\.0 is below"):
        workbench.load_scenario(low_biv)
    no_range = _doc()
    _set(no_range, "compressor.min_speed_hz", None)
    del no_range["circuits"][0]["components"][0]["min_speed_hz"]
    with pytest.raises(ScenarioError, match=r"seasonal\.capacity"):
        rate(no_range)


def test_rating_compressor_speed_curves_against_propssi():
    """Power and flow of the variable-speed compressor rebuilt from the solved states."""
    doc = _doc()
    _set(doc, "compressor.speed_hz", 90.0)
    result = workbench.solve(doc)
    assert result.converged
    edges = result.edges.set_index("edge")
    suction = edges[edges.index.str.endswith("compressor:inlet")].iloc[0]
    discharge = edges[edges.index.str.startswith("compressor:outlet")].iloc[0]
    p1, h1 = suction["p_bar"] * 1e5, suction["h_kj_kg"] * 1e3
    p2 = discharge["p_bar"] * 1e5
    s1 = PropsSI("S", "P", p1, "H", h1, "R290")
    h2s = PropsSI("H", "P", p2, "S", s1, "R290")
    r = 90.0 / 60.0
    eta_s = 0.68 * (0.6 + 0.7 * r - 0.3 * r * r)
    eta_v = 0.92 * (0.94 + 0.06 * r)
    m = 3.6e-5 * 90.0 * eta_v * PropsSI("D", "P", p1, "H", h1, "R290")
    assert suction["m_kg_s"] == pytest.approx(m, rel=1e-6)
    assert result.components["compressor"]["power"] == pytest.approx(
        m * (h2s - h1) / eta_s, rel=1e-6
    )


def test_rating_compressor_speed_range_checked():
    doc = _doc()
    _set(doc, "compressor.min_speed_hz", 120.0)
    with pytest.raises(Exception, match=r"min_speed_hz 120\.0 is above max_speed_hz"):
        workbench.solve(doc)


def test_rating_rating_is_reproducible(rating):
    again = rate(copy.deepcopy(_doc()))
    assert again.scop == pytest.approx(rating.scop, rel=1e-9)


def test_rating_full_speed_line_resolves_and_gives_the_indicative_hspf2(rating):
    from workbench.seasonal import hspf2_from_declared

    for point, row in zip(rating.points, rating.test_points.itertuples()):
        doc = _doc()
        for path, value in point.values.items():
            _set(doc, path, value)
        _set(doc, "compressor.speed_hz", 110.0)
        result = workbench.solve(doc)
        assert result.summary["heating_capacity_w"] / 1e3 == pytest.approx(
            row.full_capacity_kw, rel=1e-6
        )
        assert result.summary["cop_heating"] == pytest.approx(row.full_cop, rel=1e-6)
        assert row.full_capacity_kw >= row.capacity_kw - 1e-9
    pts = [
        {"t_c": r.t_c, "capacity_kw": r.full_capacity_kw, "cop": r.full_cop}
        for r in rating.test_points.itertuples()
    ]
    expected = hspf2_from_declared(pts, region=4, cut_out_c=-10.0)
    assert rating.hspf2().value == pytest.approx(expected.value, rel=1e-12)
    assert rating.to_dict()["hspf2_indicative"] == pytest.approx(expected.value)


def test_rating_meeting_its_bivalent_point_reports_nothing(rating):
    assert rating.settings.bivalent_c == -7.0
    assert rating.inconsistencies == []
    assert rating.to_dict()["inconsistencies"] == []


def test_rating_short_of_the_load_at_tbiv_is_reported_and_charged(capsys, tmp_path):
    """A compressor too small for Tbiv: the shortfall is named, and the back-up heat is paid."""
    doc = _doc()
    _set(doc, "compressor.max_speed_hz", 70)
    r = rate(doc)
    assert r.complete
    short = [i for i in r.inconsistencies if i.kind == "capacity_below_load"]
    assert [i.where for i in short] == ["A/F"]
    row = r.test_points.set_index("name").loc["A/F"]
    assert row["limit"] == "max"
    assert short[0].value == pytest.approx(1.0 - row["capacity_kw"] / row["load_kw"], rel=1e-9)
    assert "-7 degC" in short[0].message
    # charged: the bins at and above Tbiv carry the back-up heat the machine lacks
    bins = r.bins.set_index("t_c")
    assert bins.loc[-7.0, "backup_kw"] == pytest.approx(row["load_kw"] - row["capacity_kw"])
    points = r.test_points[["name", "t_c", "capacity_kw", "cop"]].to_dict(orient="records")
    charged = scop_from_declared(
        points,
        9.5,
        "average",
        operation_limit_c=-10.0,
        cd=0.9,
        off_mode_kw={"to": 0.015, "sb": 0.010, "ck": 0.0, "off": 0.010},
    )
    assert r.scop == pytest.approx(charged.scop, rel=1e-12)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    assert main(["seasonal", str(path)]) == 0
    assert "warning: A/F at -7 degC (at or above Tbiv -7 degC)" in capsys.readouterr().out
