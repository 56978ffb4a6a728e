"""What a refrigeration engineer reads on the charts.

Plain pressure ticks, labels inside the axes that never overlap, the whole dome, named
reference lines, a legend clear of the data.
"""

from __future__ import annotations

import copy
import itertools
import json
import re

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI
from matplotlib.backends.backend_agg import FigureCanvasAgg
from solver_cases import solved_examples

from workbench.plotting import plot_ph, plot_sweep, plot_ts
from workbench.plotting.diagram import PressureLocator
from workbench.plotting.dome import nice_levels
from workbench.plotting.labels import format_celsius
from workbench.solver import solve

EXAMPLES = [
    "heat_pump_v1",
    "split_units_v2",
    "cascade_v2",
    "superheat_control_v2",
    "r744_heat_pump_v2",
    "r744_transcritical_fixed_v1",
]


def _doc(name: str) -> dict:
    with open(f"examples/scenarios/{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="module")
def solved():
    return solved_examples(EXAMPLES)


def _rendered(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def _label_boxes(ax, renderer):
    texts = [
        t for t in ax.texts if re.match(r"(number|isotherm-label|isobar-label)-", t.get_gid() or "")
    ]
    return [(t.get_text(), t.get_window_extent(renderer)) for t in texts]


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("plot", [plot_ph, plot_ts])
def test_labels_are_inside_the_axes_and_never_overlap(solved, name, plot):
    scenario, result = solved[name]
    fig, ax = plot(result, scenario=scenario)
    renderer = _rendered(fig)
    frame = ax.get_window_extent(renderer)
    boxes = _label_boxes(ax, renderer)
    assert len(boxes) >= len(result.edge_states)  # every state numbered, reference lines named
    for text, box in boxes:
        assert frame.x0 - 1 <= box.x0, text
        assert box.x1 <= frame.x1 + 1, text
        assert frame.y0 - 1 <= box.y0, text
        assert box.y1 <= frame.y1 + 1, text
        assert "-0 °C" not in text
    for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), f"{ta!r} overlaps {tb!r}"


@pytest.mark.parametrize("name", EXAMPLES)
def test_ph_pressure_ticks_are_plain_numbers_of_a_refrigeration_chart(solved, name):
    scenario, result = solved[name]
    fig, ax = plot_ph(result, scenario=scenario)
    _rendered(fig)
    lo, hi = ax.get_ylim()
    ticks = [t for t in ax.yaxis.get_majorticklabels() if lo <= t.get_position()[1] <= hi]
    labels = [t.get_text() for t in ticks]
    assert len(labels) >= 3, labels
    for text, tick in zip(labels, ticks):
        assert re.fullmatch(r"\d+(\.\d+)?", text), labels  # no 2x10^0, no mathtext
        assert float(text) == pytest.approx(tick.get_position()[1])
        mantissa = float(text) / 10 ** np.floor(np.log10(float(text)))
        assert round(mantissa, 6) in {1, 1.5, 2, 3, 4, 5, 6, 7, 8}


def test_pressure_locator_prefers_1_2_5_and_refines_a_narrow_range():
    assert PressureLocator().tick_values(0.8, 25) == [1, 2, 5, 10, 20]
    narrow = PressureLocator().tick_values(2.5, 9)
    assert len(narrow) >= 4
    assert narrow[0] >= 2.5
    assert narrow[-1] <= 9


def test_no_negative_zero_anywhere():
    levels = nice_levels(-0.02, 41.0, 5)
    assert levels[0] == 0.0
    assert np.copysign(1.0, levels[0]) == 1.0
    assert format_celsius(-0.0) == "0 °C"
    assert format_celsius(-1e-12) == "0 °C"
    assert format_celsius(-20) == "-20 °C"


def test_ph_isotherms_are_named_in_the_legend_and_inline(solved):
    scenario, result = solved["split_units_v2"]
    fig, ax = plot_ph(result, scenario=scenario, isotherms_c=[-0.0, 20.0, 40.0])
    _rendered(fig)
    gids = {ln.get_gid() for ln in ax.get_lines()}
    assert {"isotherm-0C", "isotherm-20C", "isotherm-40C"} <= gids
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("isotherms") for t in legend)
    inline = {t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("isotherm-label")}
    assert {"20 °C", "40 °C"} <= inline  # both plateaus are in view


def test_ts_shows_the_top_of_the_dome_and_names_the_isobars(solved):
    scenario, result = solved["cascade_v2"]
    _fig, ax = plot_ts(result, scenario=scenario)
    t_crit_c = PropsSI("Tcrit", "R134a") - 273.15
    assert ax.get_ylim()[1] > t_crit_c  # not clipped
    s_top, t_top = next(ln for ln in ax.get_lines() if ln.get_gid() == "dome-top").get_data()
    assert ax.get_xlim()[0] < min(s_top)
    assert max(s_top) < ax.get_xlim()[1]
    assert t_top[0] == pytest.approx(t_crit_c, abs=1.0)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(t.startswith("isobars") for t in legend)
    inline = [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("isobar-label")]
    assert len(inline) == len([ln for ln in ax.get_lines() if ln.get_gid().startswith("isobar-")])


def test_coinciding_states_of_two_circuits_share_one_label():
    doc = _doc("split_units_v2")
    doc["instances"][1]["params"] = {}  # two identical units: states 1..4 = states 5..8
    result = solve(doc)
    assert result.converged
    fig, ax = plot_ph(result, scenario=doc)
    _rendered(fig)
    numbers = sorted(t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("number-"))
    assert numbers == ["1/5", "2/6", "3/7", "4/8"]


def test_ph_range_holds_both_saturation_lines_with_a_wet_suction():
    doc = _doc("superheat_control_v2")
    doc["controls"] = []
    doc["circuits"][0]["components"][2]["flow_coefficient_m2"] = 6e-7  # floods the evaporator
    result = solve(doc)
    assert result.converged
    assert any("suction is two-phase" in w for w in result.warnings)
    _fig, ax = plot_ph(result, scenario=doc)
    lo, hi = ax.get_xlim()
    for p_pa in (min(s.p_pa for s in result.edge_states), max(s.p_pa for s in result.edge_states)):
        for q in (0, 1):
            h_kj = PropsSI("H", "P", p_pa, "Q", q, "R134a") / 1e3
            assert lo < h_kj < hi, (p_pa, q, lo, hi)


def test_sweep_legend_does_not_cover_the_data():
    import pandas as pd

    df = pd.DataFrame(
        {
            "x": [0.5, 0.75, 1.0],
            "converged": [True, True, True],
            "cop_cooling": [3.9, 4.0, 4.1],
            "cop_heating": [4.9, 5.0, 5.1],
            "cooling_capacity_w": [8400.0, 9100.0, 9500.0],
            "heating_capacity_w": [10600.0, 11300.0, 11800.0],
            "compressor_power_w": [2150.0, 2250.0, 2300.0],
        }
    )
    fig, ax = plot_sweep(df, "x")
    renderer = _rendered(fig)
    legend = ax.get_legend().get_window_extent(renderer)
    for axes in fig.axes:
        assert not legend.overlaps(axes.get_window_extent(renderer))
    assert len(ax.get_legend().get_texts()) == 5


def test_diagrams_do_not_change_the_result(solved):
    scenario, result = solved["heat_pump_v1"]
    before = copy.deepcopy(result.edge_rows)
    plot_ph(result, scenario=scenario)
    plot_ts(result, scenario=scenario)
    assert result.edge_rows == before


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
