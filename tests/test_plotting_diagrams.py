"""P-h and T-s diagrams, checked against CoolProp's PropsSI and the solver's own tables."""

from __future__ import annotations

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from solver_cases import textbook_r134a, ua_heat_pump

from workbench.plotting import plot_convergence, plot_ph, plot_ts
from workbench.scenario import load_scenario
from workbench.solver import solve


@pytest.fixture(scope="module")
def heat_pump():
    scenario = load_scenario("examples/scenarios/heat_pump_v1.json")
    result = solve(scenario)
    assert result.converged, result.report()
    return scenario, result


def _line(ax: Axes, gid: str):
    lines = [ln for ln in ax.get_lines() if ln.get_gid() == gid]
    assert lines, f"no line with gid {gid!r}; gids: {[ln.get_gid() for ln in ax.get_lines()]}"
    return lines[0]


def test_ph_dome_matches_propssi_saturation(heat_pump):
    scenario, result = heat_pump
    fig, ax = plot_ph(result, scenario=scenario)
    assert isinstance(fig, Figure)
    assert isinstance(ax, Axes)
    assert ax.get_yscale() == "log"
    for gid, q in (("dome-liquid", 0), ("dome-vapour", 1)):
        h_kj, p_bar = _line(ax, gid).get_data()
        ok = np.isfinite(h_kj)
        assert ok.sum() > 40
        for h, p in list(zip(h_kj[ok], p_bar[ok]))[::10]:
            assert h == pytest.approx(PropsSI("H", "P", p * 1e5, "Q", q, "R134a") / 1e3, rel=1e-6)
        # the dome reaches close to the critical point
        assert np.nanmax(p_bar) > 0.99 * PropsSI("Pcrit", "R134a") / 1e5


def test_ph_isotherms_are_at_their_temperature(heat_pump):
    scenario, result = heat_pump
    _fig, ax = plot_ph(result, scenario=scenario, isotherms_c=[20.0, 60.0])
    for t_c in (20.0, 60.0):
        h_kj, p_bar = _line(ax, f"isotherm-{t_c:g}C").get_data()
        ok = np.isfinite(h_kj)
        p_sat = PropsSI("P", "T", t_c + 273.15, "Q", 1, "R134a")
        vapour = ok & (p_bar * 1e5 < 0.95 * p_sat)
        assert vapour.sum() > 5
        for h, p in zip(h_kj[vapour][::5], p_bar[vapour][::5]):
            t = PropsSI("T", "P", p * 1e5, "H", h * 1e3, "R134a")
            assert t - 273.15 == pytest.approx(t_c, abs=1e-3)


def test_ph_cycle_passes_through_every_solved_state_in_flow_order(heat_pump):
    scenario, result = heat_pump
    _fig, ax = plot_ph(result, scenario=scenario)
    h_states, p_states = _line(ax, "states-0").get_data()
    e = result.edges.set_index("edge")
    order = [
        "evaporator:outlet -> compressor:inlet",
        "compressor:outlet -> condenser:inlet",
        "condenser:outlet -> valve:inlet",
        "valve:outlet -> evaporator:inlet",
    ]
    assert h_states == pytest.approx(e.loc[order, "h_kj_kg"].to_numpy())
    assert p_states == pytest.approx(e.loc[order, "p_bar"].to_numpy())
    path_h, path_p = _line(ax, "cycle-0").get_data()
    for h, p in zip(h_states, p_states):
        assert np.min(np.hypot(path_h - h, (path_p - p) * 10)) < 1e-9
    numbers = [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("number-")]
    assert numbers == ["1", "2", "3", "4"]
    assert "circuit 0" in ax.get_legend_handles_labels()[1]


def test_ts_condensing_path_sits_at_the_saturation_temperature(heat_pump):
    scenario, result = heat_pump
    _fig, ax = plot_ts(result, scenario=scenario)
    s_kj, t_c = _line(ax, "cycle-0").get_data()
    p_cond = result.edges.set_index("edge").loc["compressor:outlet -> condenser:inlet", "p_bar"]
    t_sat_c = PropsSI("T", "P", p_cond * 1e5, "Q", 0.5, "R134a") - 273.15
    s_l = PropsSI("S", "P", p_cond * 1e5, "Q", 0, "R134a") / 1e3
    s_v = PropsSI("S", "P", p_cond * 1e5, "Q", 1, "R134a") / 1e3
    in_dome = (np.abs(t_c - t_sat_c) < 1e-6) & (s_kj > s_l) & (s_kj < s_v)
    assert in_dome.sum() >= 5  # the condenser path runs along the isobar through the dome
    s_states, t_states = _line(ax, "states-0").get_data()
    assert sorted(s_states) == pytest.approx(sorted(result.edges["s"]))
    assert sorted(t_states) == pytest.approx(sorted(result.edges["t_c"]))
    _h, s_liq_line = _line(ax, "dome-liquid").get_data()[::-1]  # (s, T) -> (T, s)
    assert np.isfinite(s_liq_line).sum() > 40


def test_two_circuits_get_two_colours():
    scenario = load_scenario("examples/scenarios/split_units_v2.json")
    result = solve(scenario)
    _fig, ax = plot_ph(result, scenario=scenario)
    c0, c1 = _line(ax, "cycle-0").get_color(), _line(ax, "cycle-1").get_color()
    assert c0 != c1
    assert _line(ax, "states-1").get_color() == c1


def test_plot_without_scenario_draws_only_the_cycle_and_reuses_given_axes():
    result = solve(textbook_r134a(backend="Test"))
    fig0, ax0 = plot_ts(result)
    fig, ax = plot_ph(result, ax=ax0)
    assert ax is ax0
    assert fig is fig0
    gids = {ln.get_gid() for ln in ax.get_lines()}
    assert "cycle-0" in gids
    assert "dome-liquid" not in gids


def test_a_failed_solve_is_drawn_and_labelled():
    doc = ua_heat_pump(backend="Test")
    doc["solver"] = {"strategy": "newton", "max_iterations": 1}
    result = solve(doc)
    assert not result.converged
    _fig, ax = plot_ph(result, scenario=doc)
    assert "NOT converged" in ax.get_title(loc="left")


def test_convergence_plot_shows_the_residual_history(heat_pump):
    scenario, result = heat_pump
    _fig, ax = plot_convergence(result, tolerance=scenario.solver.tolerance)
    it, res = _line(ax, "residual").get_data()
    assert list(it) == list(range(len(result.residual_history)))
    assert res == pytest.approx(result.residual_history)
    assert _line(ax, "tolerance").get_ydata()[0] == pytest.approx(1e-6)
    assert ax.get_yscale() == "log"
    assert ax.get_title().startswith("converged")


def test_cli_solve_writes_the_ph_png(tmp_path):
    from workbench.cli.main import main

    png = tmp_path / "ph.png"
    code = main(["solve", "examples/scenarios/split_units_v2.json", "--plot", str(png)])
    assert code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10_000
