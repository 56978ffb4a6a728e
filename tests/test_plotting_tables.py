"""Styled results tables and the sweep plot."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from workbench.plotting import plot_sweep, results_tables, style_results, style_table
from workbench.plotting.sweeps import refusal_reason, sweep_outcomes
from workbench.scenario import load_scenario
from workbench.solver import solve
from workbench.sweep import sweep


@pytest.fixture(scope="module")
def split_result():
    result = solve(load_scenario("examples/scenarios/split_units_v2.json"))
    assert result.converged
    return result


def test_style_results_edges_shade_phases_and_caption_the_outcome(split_result):
    html = style_results(split_result).to_html()
    assert "split air conditioners" in html
    assert "converged" in html
    assert "two-phase" in html
    assert "#eeeeee" in html  # two-phase cells shaded grey
    assert "#fbe3d6" in html  # vapour cells shaded
    # four significant digits of the first pressure
    p0 = split_result.edges["p_bar"].iloc[0]
    assert f"{p0:.4g}" in html


def test_style_results_summary_and_components(split_result):
    tables = results_tables(split_result)
    assert list(tables["summary"].index)[:3] == [
        "cooling_capacity_w",
        "heating_capacity_w",
        "compressor_power_w",
    ]
    assert tables["components"].loc["unit_a.compressor", "type"] == "Compressor"
    summary_html = style_results(split_result, "summary").to_html()
    assert "#b00020" not in summary_html  # balance closes: not highlighted
    kw = split_result.summary["cooling_capacity_w"] / 1e3
    assert "cooling capacity [kW]" in summary_html
    assert f">{kw:.4g}<" in summary_html
    with pytest.raises(ValueError, match="unknown table 'nope'"):
        style_results(split_result, "nope")


def test_plot_sweep_draws_the_frame_and_marks_refused_values_with_their_reason():
    values = [0.4, 0.7, 1.0, 1.3]  # 1.3 is out of range for fan_speed: a refused row
    df = sweep(
        "examples/scenarios/split_units_v2.json",
        {"unit_a.evaporator.fan_speed": values},
        processes=1,
        progress=False,
    )
    assert df["converged"].tolist() == [True, True, True, False]
    fig, ax = plot_sweep(df, "unit_a.evaporator.fan_speed")
    cop = next(ln for ln in ax.get_lines() if ln.get_gid() == "cop_cooling")
    assert list(cop.get_xdata()) == values[:3]
    assert cop.get_ydata() == pytest.approx(df["cop_cooling"].iloc[:3].to_numpy())
    right = next(a for a in fig.axes if a is not ax)
    cap = next(ln for ln in right.get_lines() if ln.get_gid() == "cooling_capacity_w")
    assert cap.get_ydata() == pytest.approx(df["cooling_capacity_w"].iloc[:3].to_numpy() / 1e3)
    refused = next(ln for ln in ax.get_lines() if ln.get_gid() == "refused")
    assert list(refused.get_xdata()) == [1.3]
    assert not [ln for ln in ax.get_lines() if ln.get_gid() == "failed"]
    notes = [t.get_text() for t in ax.texts]
    assert notes == ["1.3 is out of range: expected a number in [0, 1]"]
    with pytest.raises(KeyError, match="not in the sweep frame"):
        plot_sweep(df, "unit_b.evaporator.fan_speed")


def test_sweep_outcomes_tell_a_refused_value_from_a_solve_that_did_not_converge():
    df = pd.DataFrame(
        {
            "x": [0.0, 0.5, 3.0],
            "converged": [False, True, False],
            "iterations": [40, 12, 0],
            "cop_cooling": [None, 3.1, None],
            "error": [
                "float division by zero",
                None,
                "ScenarioError: sweep: 1 error in scenario; - circuits[0].components[3]."
                "fan_speed: 3.0 is out of range: expected a number in [0, 1]",
            ],
        }
    )
    assert sweep_outcomes(df).tolist() == ["not converged", "converged", "refused"]
    assert refusal_reason(df["error"][2]) == "3.0 is out of range: expected a number in [0, 1]"
    _fig, ax = plot_sweep(df, "x")
    lines = {ln.get_gid(): list(ln.get_xdata()) for ln in ax.get_lines()}
    assert lines["failed"] == [0.0]
    assert lines["refused"] == [3.0]
    labels = ax.get_legend().get_texts()
    assert {"not converged", "refused (value not allowed)"} <= {t.get_text() for t in labels}


def test_plot_sweep_by_draws_one_line_per_group():
    df = pd.DataFrame(
        {
            "a": [1.0, 2.0, 1.0, 2.0],
            "b": [10, 10, 20, 20],
            "converged": [True] * 4,
            "cop_cooling": [3.0, 3.5, 2.5, 3.0],
            "cop_heating": np.nan,
        }
    )
    _fig, ax = plot_sweep(df, "a", by="b", powers=())
    lines = [ln for ln in ax.get_lines() if ln.get_gid() == "cop_cooling"]
    assert [list(ln.get_ydata()) for ln in lines] == [[3.0, 3.5], [2.5, 3.0]]
    assert {ln.get_linestyle() for ln in lines} == {"-", "--"}


def test_style_results_edges_show_round_off_as_zero(split_result):
    import copy

    result = copy.deepcopy(split_result)
    result.edge_rows[2]["t_c"] = -7.96e-10  # a state at 0 degC after Newton's round-off
    result.__dict__.pop("_edges_frame", None)
    html = style_results(result).to_html()
    assert "e-10" not in html
    assert "-0<" not in html
    assert ">0<" in html


def test_tables_a_person_reads_are_in_engineering_units_with_units_in_headers(split_result):
    edges = style_results(split_result, "edges").data
    assert list(edges.columns[2:]) == [
        "m [kg/s]",
        "p [bar]",
        "h [kJ/kg]",
        "T [°C]",
        "quality [-]",
        "phase",
        "s [kJ/(kg K)]",
    ]
    comps = style_results(split_result, "components").data
    raw = results_tables(split_result)["components"]
    row = "unit_a.compressor"
    assert comps.loc[row, "p [bar]"] == pytest.approx(raw.loc[row, "pressure"] / 1e5)
    assert comps.loc[row, "T [°C]"] == pytest.approx(raw.loc[row, "temperature"] - 273.15)
    assert comps.loc[row, "power [kW]"] == pytest.approx(raw.loc[row, "power"] / 1e3)
    assert not [c for c in comps.columns if any(ch.isupper() for ch in c.split(" [")[0][1:])]
    html = style_results(split_result, "components").to_html()
    p_bar = raw.loc[row, "pressure"] / 1e5
    assert f">{p_bar:.4g}<" in html  # 4 significant figures, not "3.2e+05"
    assert "e+05" not in html


def test_style_table_converts_sweep_columns():
    df = pd.DataFrame(
        {"flash.pressure_pa": [3.2e5], "compressor_power_w": [1234.5], "cop_cooling": [2.71828]}
    )
    shown = style_table(df).data
    assert list(shown.columns) == [
        "flash.pressure [bar]",
        "compressor power [kW]",
        "COP cooling [-]",
    ]
    assert shown.iloc[0].tolist() == pytest.approx([3.2, 1.2345, 2.71828])
    assert ">2.718<" in style_table(df).to_html()
