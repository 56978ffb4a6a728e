"""Running sweeps: in-process, on local processes and on a Dask cluster."""

from __future__ import annotations

import copy
import json
import sys

import numpy as np
import pandas as pd
import pytest
from control_cases import superheat_loop

import workbench
from workbench.errors import ScenarioError
from workbench.solver import solve
from workbench.sweep import RESULT_COLUMNS, sweep

SPLIT = "examples/scenarios/split_units_v2.json"
FAN = "unit_a.evaporator.fan_speed"
OUTDOOR = "unit_b.condenser.air_inlet_temp_c"


def _flat_doc() -> dict:
    from workbench.scenario import flatten, load_scenario

    return flatten(load_scenario(SPLIT)).to_dict()


def _cold_solve(fan: float, outdoor: float):
    doc = copy.deepcopy(_flat_doc())
    for circuit in doc["circuits"]:
        for comp in circuit["components"]:
            if comp["name"] == "unit_a.evaporator":
                comp["fan_speed"] = fan
            if comp["name"] == "unit_b.condenser":
                comp["air_inlet_temp_c"] = outdoor
    return solve(doc)


@pytest.fixture(scope="module")
def grid_frame():
    return sweep(SPLIT, {FAN: [0.5, 0.75, 1.0], OUTDOOR: [25.0, 35.0]}, processes=1, progress=False)


def test_grid_frame_has_the_contract_columns_in_natural_order(grid_frame):
    assert list(grid_frame.columns) == [FAN, OUTDOOR, *RESULT_COLUMNS]
    assert grid_frame[FAN].tolist() == [0.5, 0.5, 0.75, 0.75, 1.0, 1.0]
    assert grid_frame[OUTDOOR].tolist() == [25.0, 35.0] * 3
    assert grid_frame["converged"].all()
    assert grid_frame["error"].isna().all()


def test_warm_started_cases_match_independent_cold_solves(grid_frame):
    for _, row in grid_frame.iterrows():
        cold = _cold_solve(row[FAN], row[OUTDOOR])
        assert cold.converged
        for key in ("cop_cooling", "cooling_capacity_w", "compressor_power_w"):
            assert row[key] == pytest.approx(cold.summary[key], rel=1e-6)


def test_physics_along_the_sweep(grid_frame):
    # more evaporator air (fan speed) -> more cooling in unit A; a hotter outdoor coil
    # -> less COP in unit B; the energy balance closes at every point
    for outdoor in (25.0, 35.0):
        sub = grid_frame[grid_frame[OUTDOOR] == outdoor]
        assert np.all(np.diff(sub["cooling_capacity_w"]) > 0)
    for fan in (0.5, 0.75, 1.0):
        sub = grid_frame[grid_frame[FAN] == fan].sort_values(OUTDOOR)
        assert sub["cop_cooling"].iloc[1] < sub["cop_cooling"].iloc[0]
    rel = grid_frame["energy_balance_w"].abs() / grid_frame["compressor_power_w"]
    assert (rel < 1e-6).all()


def test_failed_points_are_rows_not_exceptions():
    df = sweep(
        SPLIT,
        {FAN: [0.8, 1.5, 0.9], "solver.tolerance": [1e-6, 1e-6, 1e-300]},
        mode="list",
        processes=1,
        progress=False,
    )
    assert df["converged"].tolist() == [True, False, False]
    assert "fan_speed: 1.5 is out of range" in df["error"].iloc[1]
    assert df["cop_cooling"].isna().iloc[1]
    assert df["error"].iloc[2]  # an unreachable tolerance: not converged, with the reason
    assert pd.isna(df["error"].iloc[0])


def test_bad_paths_raise_before_any_solve():
    with pytest.raises(ScenarioError, match="no parameter 'speed'"):
        sweep(SPLIT, {"unit_a.compressor.speed": [1]}, processes=1, progress=False)


def test_local_processes_give_the_same_numbers(grid_frame):
    df = sweep(SPLIT, {FAN: [0.5, 0.75, 1.0], OUTDOOR: [25.0, 35.0]}, processes=2, progress=False)
    assert df[[FAN, OUTDOOR]].equals(grid_frame[[FAN, OUTDOOR]])
    assert df["cop_cooling"].to_numpy() == pytest.approx(grid_frame["cop_cooling"], rel=1e-7)


def test_control_target_sweep_holds_each_target():
    targets = [4.0, 6.0, 8.0]
    df = sweep(
        superheat_loop(),
        {"controls.superheat.target": targets},
        processes=1,
        progress=False,
        outputs=["evap.superheat", "controls.superheat.actuator"],
    )
    assert df["converged"].all(), df["error"].tolist()
    assert df["evap.superheat"].to_numpy() == pytest.approx(targets, abs=1e-5)
    # more superheat needs a more closed valve
    assert np.all(np.diff(df["controls.superheat.actuator"]) < 0)


def test_workbench_sweep_is_a_plain_function_after_importing_the_package():
    import types

    from workbench.sweep import runner  # importing the package's modules keeps the function

    package = sys.modules["workbench.sweep"]
    assert isinstance(workbench.sweep, types.FunctionType)
    assert type(package) is types.ModuleType  # no class swapped in
    assert runner.run_chunk is package.run_chunk
    df = workbench.sweep(SPLIT, {FAN: [0.6]}, progress=False)
    assert df["converged"].iloc[0]
    json.dumps(df.to_dict(orient="records"))  # plain values


def test_non_interactive_progress_is_a_few_lines(capsys):
    sweep(SPLIT, {FAN: [0.5, 0.6, 0.7, 0.8, 0.9]}, processes=1, progress=True)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "sweep: 5 cases"
    assert lines[-1].startswith("sweep: 5/5 cases done")
    assert len(lines) <= 5
    assert not any("\r" in line for line in lines)


def test_dask_client_gives_the_same_numbers(grid_frame):
    distributed = pytest.importorskip("distributed", reason="part of the notebooks extra")

    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2) as client:
        df = sweep(
            SPLIT, {FAN: [0.5, 0.75, 1.0], OUTDOOR: [25.0, 35.0]}, client=client, progress=False
        )
    assert df[[FAN, OUTDOOR]].equals(grid_frame[[FAN, OUTDOOR]])
    assert df["converged"].all()
    assert df["cooling_capacity_w"].to_numpy() == pytest.approx(
        grid_frame["cooling_capacity_w"], rel=1e-7
    )


def test_tabular_sweep_matches_the_heos_sweep():
    from solver_cases import textbook_r134a

    doc = textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0)
    grid = {"evap.t_evap_k": [255.0, 258.0, 261.0]}
    heos = sweep(doc, grid, processes=1, progress=False)
    table = sweep(doc, grid, processes=1, progress=False, tabular=True)
    assert table["converged"].all()
    np.testing.assert_allclose(table["cop_cooling"], heos["cop_cooling"], rtol=1e-4)
    np.testing.assert_allclose(table["cooling_capacity_w"], heos["cooling_capacity_w"], rtol=1e-4)
