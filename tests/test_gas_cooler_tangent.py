"""The gas cooler's pressure tangents: a level's nodes moved to first order in the pressure.

:mod:`workbench.components.exchangers.gas_cooler.isobar` carries ``dh_j/dp`` and ``dT_j/dp`` through the
steps of an isobaric level and serves a pressure within ``SHIFT_REACH`` of it (the Jacobian's
pressure column) by moving the nodes instead of stepping new isobars. These tests check the
backend's slopes against CoolProp differences, the nodes' derivatives against levels stepped
at ``p +- dp``, the moved table and heat flow against freshly stepped ones, and that a solve
with the shifted levels gives the same results as one without.
"""

from __future__ import annotations

import json
from pathlib import Path

import CoolProp.CoolProp as CP
import numpy as np
import pytest

import workbench.components.exchangers.gas_cooler.isobar as isobar
import workbench.components.exchangers.gas_cooler.model as model
from workbench.components.exchangers.gas_cooler.levels import ShiftedLevel, TableCache
from workbench.fluids import get_backend
from workbench.solver import solve
from workbench.solver.solve import prepare

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "scenarios" / "r744_heat_pump_v2.json"
P, M, T_SEC, C_SEC, UA = 9e6, 0.02, 288.15, 80.0, 900.0


@pytest.fixture(scope="module")
def co2():
    return get_backend("R744", "CoolProp")


@pytest.mark.parametrize("t", [290.0, 305.0, 313.0, 340.0, 400.0])
def test_h_pt_slopes_are_coolprops_derivatives(co2, t):
    h, cp, h_p = co2.h_pT_slopes(P, t)
    assert h == co2.h_pT(P, t)
    # independent: CoolProp's PropsSI by central differences
    dt, dp = 1e-4, 10.0
    cp_ref = (
        CP.PropsSI("H", "P", P, "T", t + dt, "CO2") - CP.PropsSI("H", "P", P, "T", t - dt, "CO2")
    ) / (2 * dt)
    hp_ref = (
        CP.PropsSI("H", "P", P + dp, "T", t, "CO2") - CP.PropsSI("H", "P", P - dp, "T", t, "CO2")
    ) / (2 * dp)
    assert cp == pytest.approx(cp_ref, rel=1e-5)
    assert h_p == pytest.approx(hp_ref, rel=1e-5, abs=1e-9)
    # a remembered state (no Newton run for it) gives the same slopes from a (p, T) update
    co2._pt_last = None
    h2, cp2, h_p2 = co2.h_pT_slopes(P, t)
    assert (h2, cp2, h_p2) == pytest.approx((h, cp, h_p), rel=1e-6)


def test_h_pt_slopes_below_the_critical_pressure_is_none(co2):
    assert co2.h_pT_slopes(5e6, 300.0) is None


def _level(fluid, p: float, h_in: float) -> isobar.IsobarLevel:
    cache = TableCache()
    model.gas_cooler_heat_flow(fluid, p, 0.0, h_in, M, T_SEC, C_SEC, UA, tables=cache)
    return cache.levels[0]


def test_node_derivatives_match_levels_stepped_at_other_pressures(co2):
    h_in = 520e3
    base = _level(co2, P, h_in)
    assert base.outlet.h_p is not None
    d = 1e-4 * P
    hi, lo = _level(co2, P + d, h_in), _level(co2, P - d, h_in)
    n = len(base.outlet.h)
    assert len(hi.outlet.h) == len(lo.outlet.h) == n  # no step decision flips
    for j in range(n):
        dh_dp = (hi.outlet.h[j] - lo.outlet.h[j]) / (2 * d)
        dt_dp = (hi.outlet.t[j] - lo.outlet.t[j]) / (2 * d)
        # second-order error of the central difference over 1e-4 p, and the node's scale
        assert base.outlet.h_p[j] == pytest.approx(dh_dp, rel=1e-5, abs=1e-12), j
        assert base.outlet.t_p[j] == pytest.approx(dt_dp, rel=1e-4, abs=1e-14), j


@pytest.mark.parametrize("h_in", [470e3, 520e3])
@pytest.mark.parametrize(("rel", "tol"), [(1e-7, 1e-13), (1e-6, 1e-11)])
def test_a_shifted_level_is_a_fresh_level_to_second_order(co2, h_in, rel, tol):
    cache = TableCache()
    base = model.gas_cooler_heat_flow(co2, P, 0.0, h_in, M, T_SEC, C_SEC, UA, tables=cache)
    p2 = P * (1 + rel)
    shifted = model.gas_cooler_heat_flow(co2, p2, 0.0, h_in, M, T_SEC, C_SEC, UA, tables=cache)
    assert cache.levels_built == 1
    assert cache.levels_shifted == 1
    assert isinstance(cache.shifted[0], ShiftedLevel)
    fresh_cache = TableCache()
    fresh = model.gas_cooler_heat_flow(co2, p2, 0.0, h_in, M, T_SEC, C_SEC, UA, tables=fresh_cache)
    assert fresh_cache.levels_shifted == 0
    t_shifted = model.table_of(co2, p2, 0.0, h_in, M, T_SEC, C_SEC, 40, cache)
    t_fresh = model.table_of(co2, p2, 0.0, h_in, M, T_SEC, C_SEC, 40, fresh_cache)
    assert t_shifted is not None
    assert t_fresh is not None
    assert len(t_shifted.h) == len(t_fresh.h)
    np.testing.assert_allclose(t_shifted.h, t_fresh.h, rtol=tol, atol=0.0)
    np.testing.assert_allclose(t_shifted.t_in, t_fresh.t_in, rtol=tol, atol=0.0)
    assert shifted.q == pytest.approx(fresh.q, rel=tol)
    # the pressure moved the heat flow by far more than the shift's error
    assert abs(fresh.q - base.q) > 1e4 * tol * fresh.q


def test_no_shift_beyond_the_reach_or_with_a_pressure_drop(co2):
    cache = TableCache()
    model.gas_cooler_heat_flow(co2, P, 0.0, 500e3, M, T_SEC, C_SEC, UA, tables=cache)
    model.gas_cooler_heat_flow(
        co2, P * (1 + 3 * isobar.SHIFT_REACH), 0.0, 500e3, M, T_SEC, C_SEC, UA, tables=cache
    )
    assert cache.levels_built == 2
    assert cache.levels_shifted == 0
    dropped = TableCache()
    model.gas_cooler_heat_flow(co2, P, 2e5, 500e3, M, T_SEC, C_SEC, UA, tables=dropped)
    model.gas_cooler_heat_flow(co2, P * (1 + 1e-7), 2e5, 500e3, M, T_SEC, C_SEC, UA, tables=dropped)
    assert dropped.levels_built == 2
    assert dropped.levels_shifted == 0


def _flatten(value, prefix=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flatten(v, f"{prefix}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _flatten(v, f"{prefix}[{i}]")
    elif isinstance(value, float):
        yield prefix, value


def test_a_solve_with_shifted_levels_gives_the_same_results(monkeypatch):
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    system = prepare(doc)
    result = solve(doc, system=system)
    assert result.converged
    cache = system.components["gas_cooler"]._tables
    assert cache.levels_shifted >= 1  # the Jacobian's pressure column stepped no isobar
    monkeypatch.setattr(isobar, "SHIFT_REACH", 0.0)
    plain_system = prepare(doc)
    plain = solve(doc, system=plain_system)
    assert plain_system.components["gas_cooler"]._tables.levels_shifted == 0
    assert plain.iterations == result.iterations
    # the two solves differ by what each root leaves (its estimated error below 1e-12 Q_max)
    np.testing.assert_allclose(result.x, plain.x, rtol=1e-10)
    ours, theirs = dict(_flatten(result.to_dict())), dict(_flatten(plain.to_dict()))
    skip = ("residual", "time", "elapsed", "sensitivity", "energy_balance", "property_calls")
    checked = 0
    for key, value in theirs.items():
        if any(s in key for s in skip) or abs(value) < 1e-6:
            continue
        # (the approach temperature is read on the root's last evaluation: 1e-9 of it)
        assert ours[key] == pytest.approx(value, rel=1e-9), key
        checked += 1
    assert checked > 50


def test_a_shifted_level_steps_its_own_isobar_when_a_slope_fails(co2, monkeypatch):
    cache = TableCache()
    model.gas_cooler_heat_flow(co2, P, 0.0, 470e3, M, T_SEC, C_SEC, UA, tables=cache)
    monkeypatch.setattr(co2, "h_pT_slopes", lambda p, t: None)
    p2 = P * (1 + 1e-7)
    # the base isobar must be extended for this inlet, without slopes now
    moved = model.gas_cooler_heat_flow(co2, p2, 0.0, 520e3, M, T_SEC, C_SEC, UA, tables=cache)
    assert cache.levels_shifted == 1
    assert cache.levels[0].outlet.h_p is None
    fresh = model.gas_cooler_heat_flow(co2, p2, 0.0, 520e3, M, T_SEC, C_SEC, UA)
    assert moved.q == fresh.q
