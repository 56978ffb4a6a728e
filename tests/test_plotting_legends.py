"""What a P-h / T-s chart names: the fluid it was solved with, each unit, the critical point."""

from __future__ import annotations

import json

import matplotlib

matplotlib.use("Agg")

import pytest

from workbench.plotting import plot_ph, plot_ts
from workbench.scenario import load_scenario
from workbench.solver import solve


def _solved(name: str, **changes):
    with open(f"examples/scenarios/{name}.json", encoding="utf-8") as fh:
        doc = json.load(fh)
    doc.update(changes)
    scenario = load_scenario(doc)
    result = solve(scenario)
    assert result.converged
    return result, scenario


@pytest.fixture(scope="module")
def split_units():
    return _solved("split_units_v2")


def _legend(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


@pytest.mark.parametrize("plot", [plot_ph, plot_ts])
def test_split_units_legend_names_the_instances(split_units, plot):
    _fig, ax = plot(*split_units)
    assert "unit_a" in _legend(ax)
    assert "unit_b" in _legend(ax)
    assert not any(label.startswith("circuit ") for label in _legend(ax))


def test_title_is_the_solved_fluid_with_the_name_beside_it():
    result, scenario = _solved("heat_pump_v1", fluid="R32")  # the name still says R134a
    _fig, ax = plot_ph(result, scenario)
    assert ax.get_title(loc="left") == "R32"
    assert ax.get_title(loc="right") == "Air-to-water heat pump, R134a"
    _fig, ax = plot_ph(result, scenario, title="my title")  # an explicit title is kept
    assert ax.get_title() == "my title"


def test_critical_point_only_when_it_is_on_the_chart(split_units):
    _fig, ax = plot_ph(*split_units)  # R134a below 20 bar: the critical point (40.6 bar) is off
    (y0, y1) = ax.get_ylim()
    assert y1 < 40.59
    assert not [ln for ln in ax.get_lines() if ln.get_gid() == "critical-point"]
    assert not [label for label in _legend(ax) if "critical point" in label]
    _fig, ax = plot_ts(*split_units)  # T-s: the dome's top is drawn
    on_chart = [ln for ln in ax.get_lines() if ln.get_gid() == "critical-point"]
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    for line in on_chart:
        x, y = (float(v[0]) for v in line.get_data())
        assert x0 <= x <= x1
        assert y0 <= y <= y1
    assert bool(on_chart) == any("critical point" in label for label in _legend(ax))


def test_isotherm_labels_keep_clear_of_the_frame(split_units):
    fig, ax = plot_ph(*split_units)
    fig.canvas.draw()
    frame = ax.get_window_extent()
    labels = [t for t in ax.texts if (t.get_gid() or "").startswith("isotherm-label-")]
    assert labels
    for text in labels:
        box = text.get_window_extent()
        assert box.y1 < frame.y1 - 4, text.get_text()
        assert box.y0 > frame.y0 + 2, text.get_text()
        assert box.x0 > frame.x0 + 2, text.get_text()
        assert box.x1 < frame.x1 - 2, text.get_text()
