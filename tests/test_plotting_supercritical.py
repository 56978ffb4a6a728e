"""Diagrams of transcritical cycles: the critical point, supercritical isotherms, the ranges."""

from __future__ import annotations

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI

from workbench.fluids import get_backend
from workbench.plotting import plot_ph, plot_ts
from workbench.plotting.dome import critical_point, isotherm_ph
from workbench.scenario import load_scenario
from workbench.solver import solve

T_C, P_C = PropsSI("Tcrit", "CO2"), PropsSI("pcrit", "CO2")
H_C = PropsSI("H", "T", T_C, "Dmass", PropsSI("rhocrit", "CO2"), "CO2")
S_C = PropsSI("S", "T", T_C, "Dmass", PropsSI("rhocrit", "CO2"), "CO2")


@pytest.fixture(scope="module")
def heat_pump():
    scenario = load_scenario("examples/scenarios/r744_heat_pump_v2.json")
    result = solve(scenario)
    assert result.converged, result.report()
    return scenario, result


def _line(ax, gid):
    return next(ln for ln in ax.get_lines() if ln.get_gid() == gid)


def test_ph_marks_the_critical_point_where_the_dome_closes(heat_pump):
    scenario, result = heat_pump
    _fig, ax = plot_ph(result, scenario=scenario)
    h, p = _line(ax, "critical-point").get_data()
    assert h[0] == pytest.approx(H_C / 1e3, rel=1e-6)
    assert p[0] == pytest.approx(P_C / 1e5, rel=1e-9)
    h_top, p_top = _line(ax, "dome-top").get_data()
    assert max(p_top) == pytest.approx(P_C / 1e5)
    assert H_C / 1e3 in list(h_top)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("critical point 30.98 °C, 73.77 bar") for t in legend)


def test_ph_range_covers_the_gas_cooler_with_supercritical_isotherms(heat_pump):
    scenario, result = heat_pump
    _fig, ax = plot_ph(result, scenario=scenario)
    p_gc = result.components["gas_cooler"]["pressure"] / 1e5
    lo, hi = ax.get_ylim()
    assert lo < 30.0
    assert hi > 1.2 * p_gc
    above = []
    for line in ax.get_lines():
        gid = line.get_gid() or ""
        if gid.startswith("isotherm-") and float(gid[len("isotherm-") : -1]) + 273.15 > T_C:
            h_kj, p_bar = (np.asarray(v, dtype=float) for v in line.get_data())
            ok = np.isfinite(h_kj)
            assert p_bar[ok].max() > hi
            assert p_bar[ok].min() < lo  # through the whole chart
            assert not np.any(np.isclose(p_bar[ok][:-1], p_bar[ok][1:]))  # no plateau
            above.append(gid)
    assert len(above) >= 2, above


def test_supercritical_isotherm_follows_propssi_through_the_pseudo_critical_bend():
    backend = get_backend("CO2", "CoolProp")
    t = T_C + 2.0  # just above critical: the sharpest bend
    h, p = isotherm_ph(backend, t, 30e5, 200e5)
    ok = np.isfinite(h)
    assert np.all(np.diff(p[ok]) > 0)
    steps = np.abs(np.diff(h[ok]))
    assert steps.max() < (h[ok].max() - h[ok].min()) / 20.0  # refined where it bends
    for k in range(0, ok.sum(), 7):
        assert h[ok][k] == pytest.approx(PropsSI("H", "P", p[ok][k], "T", t, "CO2"), rel=1e-9)


def test_ts_draws_the_critical_isobar_and_the_gas_cooler_above_the_dome(heat_pump):
    scenario, result = heat_pump
    _fig, ax = plot_ts(result, scenario=scenario)
    s, t = _line(ax, "critical-point").get_data()
    assert s[0] == pytest.approx(S_C / 1e3, rel=1e-6)
    assert t[0] == pytest.approx(T_C - 273.15)
    gids = {ln.get_gid() for ln in ax.get_lines()}
    assert f"isobar-{round(P_C / 1e5, 2):g}bar" in gids
    assert "isobar-90bar" in gids
    s90, t90 = (np.asarray(v, dtype=float) for v in _line(ax, "isobar-90bar").get_data())
    near = np.isfinite(s90) & (np.abs(s90 - S_C / 1e3) < 0.05)
    assert np.all(t90[near] > T_C - 273.15)  # the gas-cooler isobar passes above the dome
    assert ax.get_ylim()[1] > result.components["gas_cooler"]["inlet_temperature"] - 273.15


def test_no_critical_point_on_a_subcritical_only_backend():
    assert critical_point(get_backend("CO2")) is None  # the Test backend ends below it
    cp = critical_point(get_backend("CO2", "CoolProp"))
    assert cp is not None
    assert cp.h_j_kg == pytest.approx(H_C, rel=1e-9)
