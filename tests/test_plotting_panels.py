"""Diagrams of a multi-fluid cascade: each circuit's states on its own fluid's dome."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI

from workbench.plotting import plot_fluid_panels, plot_ph, plot_ts
from workbench.plotting.common import circuit_colour, fluid_groups
from workbench.scenario import load_scenario
from workbench.solver import solve

CASCADE = "examples/scenarios/r744_r290_cascade_v2.json"


@pytest.fixture(scope="module")
def cascade():
    scenario = load_scenario(CASCADE)
    result = solve(scenario)
    assert result.converged, result.report()
    return scenario, result


def _lines(ax, prefix):
    return {ln.get_gid(): ln for ln in ax.get_lines() if (ln.get_gid() or "").startswith(prefix)}


def _dome_h_at(ax, p_bar):
    """Vapour-line enthalpy [kJ/kg] of the panel's dome at ``p_bar``, interpolated."""
    line = _lines(ax, "dome-vapour")["dome-vapour"]
    h, p = (np.asarray(v, dtype=float) for v in line.get_data())
    order = np.argsort(p)
    return float(np.interp(p_bar, p[order], h[order]))


def test_fluid_groups_of_the_cascade():
    assert fluid_groups(CASCADE) == [("R744", "CoolProp", [0]), ("R290", "CoolProp", [1])]
    assert len(fluid_groups("examples/scenarios/heat_pump_v1.json")) == 1


@pytest.mark.parametrize("diagram", ["P-h", "T-s"])
def test_cascade_panels_draw_each_circuit_on_its_own_fluid(cascade, diagram):
    scenario, result = cascade
    fig, axes = plot_fluid_panels(result, scenario, diagram)
    assert len(axes) == 2
    assert [ax.get_title(loc="left") for ax in axes] == ["CO2", "R290"]
    assert set(_lines(axes[0], "cycle-")) == {"cycle-0"}
    assert set(_lines(axes[1], "cycle-")) == {"cycle-1"}
    # a circuit keeps its colour (and legend name) on its panel
    assert _lines(axes[1], "cycle-")["cycle-1"].get_color() == circuit_colour(1)
    labels = [t.get_text() for t in axes[1].get_legend().get_texts()]
    assert "circuit 1" in labels
    assert "circuit 0" not in labels
    fig.canvas.draw()


def test_cascade_ph_domes_are_the_circuits_fluids(cascade):
    scenario, result = cascade
    _fig, axes = plot_fluid_panels(result, scenario, "P-h")
    for ax, fluid in zip(axes, ("CO2", "R290")):
        p_bar = float(np.sqrt(np.prod(ax.get_ylim())))  # mid-chart on the log axis
        h_ref = PropsSI("H", "P", p_bar * 1e5, "Q", 1, fluid) / 1e3
        assert _dome_h_at(ax, p_bar) == pytest.approx(h_ref, rel=2e-3)
        # the circuit's evaporator outlet (lowest pressure, largest enthalpy there) is vapour
        # of its own fluid: right of (or on) that fluid's dew line
        states = next(iter(_lines(ax, "states-").values()))
        h, p = (np.asarray(v, dtype=float) for v in states.get_data())
        low = p <= p.min() * (1 + 1e-9)
        h_out = h[low].max()
        assert h_out >= PropsSI("H", "P", p.min() * 1e5, "Q", 1, fluid) / 1e3 - 0.5


def test_plot_ph_of_a_cascade_never_draws_a_circuit_on_another_fluid(cascade):
    scenario, result = cascade
    _fig, ax = plot_ph(result, scenario=scenario)
    assert ax.get_title(loc="left") == "CO2"
    assert set(_lines(ax, "cycle-")) == {"cycle-0"}
    _fig, ax = plot_ts(result, scenario=scenario, circuits=[1])
    assert ax.get_title(loc="left") == "R290"
    assert set(_lines(ax, "cycle-")) == {"cycle-1"}


def test_one_fluid_panels_equal_the_plain_diagram():
    scenario = load_scenario("examples/scenarios/heat_pump_v1.json")
    result = solve(scenario)
    _fig, axes = plot_fluid_panels(result, scenario, "P-h")
    _fig2, ax = plot_ph(result, scenario=scenario)
    assert len(axes) == 1
    one, plain = _lines(axes[0], "cycle-"), _lines(ax, "cycle-")
    assert set(one) == set(plain)
    for gid in one:
        np.testing.assert_allclose(one[gid].get_xydata(), plain[gid].get_xydata())


def test_main_job_draws_the_cascade_in_two_panels(tmp_path, cascade):
    from matplotlib.image import imread

    from workbench.main_job import _solve_examples

    failures = _solve_examples([Path(CASCADE)], tmp_path)
    assert failures == 0
    for kind in ("ph", "ts"):
        image = imread(tmp_path / "figures" / f"r744_r290_cascade_v2_{kind}.png")
        height, width = image.shape[:2]
        assert width > 1.8 * height  # two panels side by side
