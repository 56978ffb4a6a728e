"""Declarations as certificates give them: bivalent point, per-point Cd, duplicates, off modes.

Every figure is checked against a bin-by-bin hand calculation written out here (plain Python,
the standard's equations), on constructed declarations, consistent and inconsistent.
"""

from __future__ import annotations

import pytest

from workbench.seasonal import matched_convention, scop_from_declared, seer_from_declared
from workbench.seasonal.en14825 import CLIMATES, COOLING

AVERAGE = CLIMATES["average"]


def _line(t, pts):
    """The value at t on the line of the two neighbouring points (the nearest two beyond)."""
    pts = sorted(pts)
    if t <= pts[0][0]:
        (t0, y0), (t1, y1) = pts[0], pts[1]
    elif t >= pts[-1][0]:
        (t0, y0), (t1, y1) = pts[-2], pts[-1]
    else:
        k = max(i for i, (tp, _) in enumerate(pts) if tp <= t)
        (t0, y0), (t1, y1) = pts[k], pts[k + 1]
    return y0 + (y1 - y0) * (t - t0) / (t1 - t0)


def _hand(points, pdesign, cd, tol=None, biv=None, season=AVERAGE):
    """SCOPon and SCOPnet bin by bin; points are (t, capacity, cop, own cd or None)."""
    copbin, caps = [], []
    for t, cap, cop, own in points:
        c = cd if own is None else own
        load = pdesign * (t - 16) / (season.design_c - 16)
        cr = min(1.0, load / cap)
        copbin.append((t, cop * cr / (c * cr + 1 - c) if cr < 1 else cop))
        caps.append((t, cap))
    heat = elec = backup_kwh = 0.0
    for t, h in season.bins:
        load = pdesign * (t - 16) / (season.design_c - 16)
        heat += h * load
        if tol is not None and t < tol:
            elec += h * load
            backup_kwh += h * load
            continue
        cap = _line(t, caps)
        elbu = max(0.0, load - cap)
        if biv is not None and t >= biv:
            elbu = 0.0
        elec += h * ((load - elbu) / _line(t, copbin) + elbu)
        backup_kwh += h * elbu
    return heat / elec, (heat - backup_kwh) / (elec - backup_kwh)


PDESIGN = 10.0
LOAD_A = PDESIGN * (-7 - 16) / (-10 - 16)  # 8.846 kW at A


def _declaration(short_a=0.01, cop=3.0):
    """E at TOL -10 short by design, A 1 % short of its load, B..D with capacity to spare."""
    return [
        {"name": "E", "t_c": -10, "capacity_kw": 6.0, "cop": cop},
        {"name": "A", "t_c": -7, "capacity_kw": LOAD_A * (1 - short_a), "cop": cop},
        {"name": "B", "t_c": 2, "capacity_kw": 14.0, "cop": cop},
        {"name": "C", "t_c": 7, "capacity_kw": 10.0, "cop": cop},
        {"name": "D", "t_c": 12, "capacity_kw": 6.0, "cop": cop},
    ]


def _tuples(points):
    return [(p["t_c"], p["capacity_kw"], p["cop"], p.get("cd")) for p in points]


def test_declared_bivalent_covers_the_load_at_and_above_tbiv():
    pts = _declaration()
    with_biv = scop_from_declared(pts, PDESIGN, operation_limit_c=-10, cd=1.0, bivalent_c=-7)
    without = scop_from_declared(pts, PDESIGN, operation_limit_c=-10, cd=1.0)
    on, net = _hand(_tuples(pts), PDESIGN, 1.0, tol=-10, biv=-7)
    assert with_biv.scop_on == pytest.approx(on, rel=1e-12)
    assert with_biv.scop_net == pytest.approx(net, rel=1e-12)
    # Cd 1 and COP 3 everywhere: without Tbiv, bin -7 (24 h) is charged 1 % of its load as
    # back-up at COP 1 instead of COP 3: (1 - 1/3) x 24 h x 0.0885 kW more electricity
    extra = 24 * LOAD_A * 0.01 * (1 - 1 / 3)
    heat = float(with_biv.bins["heat_kwh"].sum())
    assert heat / without.scop_on - heat / with_biv.scop_on == pytest.approx(extra, rel=1e-9)
    bins = with_biv.bins.set_index("t_c")
    assert (bins.loc[-7.0:, "backup_kw"] == 0).all()
    assert bins.loc[-10.0, "backup_kw"] == pytest.approx(PDESIGN - 6.0)
    assert bins.loc[-8.0, "backup_kw"] > 0  # below Tbiv the shortfall is back-up heat


def test_declared_shortfall_above_tbiv_is_reported_not_charged():
    r = scop_from_declared(_declaration(0.03), PDESIGN, operation_limit_c=-10, bivalent_c=-7)
    (issue,) = r.inconsistencies
    assert issue.kind == "capacity_below_load"
    assert issue.where == "A"
    assert issue.value == pytest.approx(0.03, rel=1e-9)
    assert "3.00 % short" in issue.message
    consistent = scop_from_declared(
        _declaration(0.0), PDESIGN, operation_limit_c=-10, bivalent_c=-7
    )
    assert consistent.inconsistencies == []
    # E at -10 is below Tbiv: its shortfall is back-up heat, not an inconsistency
    assert all(i.where != "E" for i in r.inconsistencies)


def test_declared_per_point_cd_matches_hand_calculation():
    pts = _declaration(0.0)
    pts[2] = {**pts[2], "cop": 4.0, "cd": 0.75}
    pts[3] = {**pts[3], "cop": 4.8, "cd": 0.95}
    r = scop_from_declared(pts, PDESIGN, operation_limit_c=-10, cd=0.9)
    on, net = _hand(_tuples(pts), PDESIGN, 0.9, tol=-10)
    assert r.scop_on == pytest.approx(on, rel=1e-12)
    assert r.scop_net == pytest.approx(net, rel=1e-12)
    b = r.points.set_index("name").loc["B"]
    cr = PDESIGN * (2 - 16) / (-26) / 14.0
    assert b["cd"] == 0.75
    assert b["cop_bin"] == pytest.approx(4.0 * cr / (0.75 * cr + 0.25), rel=1e-12)
    same = [{**p, "cd": 0.9} for p in _declaration(0.0)]
    assert scop_from_declared(same, PDESIGN, operation_limit_c=-10).scop_on == pytest.approx(
        scop_from_declared(_declaration(0.0), PDESIGN, operation_limit_c=-10).scop_on, rel=1e-15
    )


def test_declared_points_at_one_temperature_keep_the_standard_point():
    base = _declaration(0.0)
    f = {"name": "F", "t_c": -7, "capacity_kw": base[1]["capacity_kw"] - 0.04, "cop": 3.1}
    for order in ([*base, f], [f, *base]):
        r = scop_from_declared(order, PDESIGN, operation_limit_c=-10, bivalent_c=-7)
        ref = scop_from_declared(base, PDESIGN, operation_limit_c=-10, bivalent_c=-7)
        assert r.scop_on == ref.scop_on  # A's values kept, whatever the order
        assert "A/F" in list(r.points["name"])
        (dup,) = [i for i in r.inconsistencies if i.kind == "duplicate"]
        assert dup.where == "A/F"
        assert dup.value == pytest.approx(0.1 / 3.0, rel=1e-9)  # the COP differs most
    same = scop_from_declared([*base, {**base[1], "name": "F"}], PDESIGN, bivalent_c=-7)
    assert [i.kind for i in same.inconsistencies] == []


def test_declared_placeholder_point_is_flagged_and_used():
    pts = _declaration(0.0)
    pts[0] = {"name": "E", "t_c": -10, "capacity_kw": 0.01, "cop": 1.0}
    r = scop_from_declared(pts, PDESIGN, operation_limit_c=-10, cd=1.0, bivalent_c=-7)
    (issue,) = r.inconsistencies
    assert (issue.kind, issue.where, issue.value) == ("placeholder", "E", 0.01)
    on, _ = _hand(_tuples(pts), PDESIGN, 1.0, tol=-10, biv=-7)
    assert r.scop_on == pytest.approx(on, rel=1e-12)


def test_declared_off_mode_conventions_are_both_visible():
    off = {"to": 0.02, "sb": 0.0, "ck": 0.01, "off": 0.01}
    r = scop_from_declared(_declaration(0.0), PDESIGN, operation_limit_c=-10, off_mode_kw=off)
    qh = PDESIGN * 2066
    off_kwh = 179 * 0.02 + 3851 * 0.01 + 3672 * 0.01
    assert r.off_mode_kwh == pytest.approx(off_kwh, rel=1e-12)
    assert r.annual_energy_kwh == pytest.approx(qh / r.scop_on + off_kwh, rel=1e-12)
    assert r.scop == pytest.approx(qh / r.annual_energy_kwh, rel=1e-12)
    assert r.scop < r.scop_on
    assert r.convention(round(r.scop_on, 2)) == "without_off_mode"
    assert r.convention(round(r.scop, 2)) == "with_off_mode"
    assert r.convention(r.scop_on + 0.3) == "neither"
    plain = scop_from_declared(_declaration(0.0), PDESIGN, operation_limit_c=-10)
    assert plain.convention(round(plain.scop, 2)) == "both"
    assert matched_convention(3.50, 3.496, 3.40) == "with_off_mode"
    assert matched_convention(3.50, 3.49, 3.40) == "neither"


def test_declared_seer_per_point_cd_and_duplicates_by_hand():
    pts = [
        {"name": "A", "t_c": 35, "capacity_kw": 10.0, "eer": 3.0, "cd": 0.2},
        {"name": "D", "t_c": 20, "capacity_kw": 8.0, "eer": 5.0, "cd": 0.3},
        {"name": "D2", "t_c": 20, "capacity_kw": 8.1, "eer": 5.0},
    ]
    r = seer_from_declared(pts, 9.0, cd=0.25)
    eerbin = {}
    for t, cap, eer, c in ((35, 10.0, 3.0, 0.2), (20, 8.0, 5.0, 0.3)):
        cr = min(1.0, 9.0 * (t - 16) / 19 / cap)
        eerbin[t] = eer * cr / (c * cr + 1 - c)
    num = den = 0.0
    for t, h in COOLING.bins:
        load = 9.0 * (t - 16) / 19
        e = eerbin[20] + (eerbin[35] - eerbin[20]) * (t - 20) / 15
        num += h * load
        den += h * load / e
    assert r.seer_on == pytest.approx(num / den, rel=1e-12)
    assert [i.kind for i in r.inconsistencies] == ["duplicate"]
    assert r.convention(round(r.seer_on, 2)) == "both"
