"""Sweeps on a real Dask cluster (worker processes), and the prepared system each worker reuses."""

from __future__ import annotations

import copy
import threading

import numpy as np
import pandas as pd
import pytest

from workbench.cli.main import main
from workbench.scenario.reference_cases import split_unit_r410a, textbook_r134a
from workbench.solver import solve
from workbench.sweep import sweep
from workbench.sweep.paths import resolve_path
from workbench.sweep.prepared import prepared_for
from workbench.sweep.runner import run_chunk

distributed = pytest.importorskip("distributed", reason="the dask extra")

GRID = {"evap.air_inlet_temp_c": [22.0, 25.0, 28.0], "cond.air_inlet_temp_c": [30.0, 35.0]}
COLUMNS = ["cooling_capacity_w", "compressor_power_w", "cop_cooling", "heating_capacity_w"]


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each (processes=True: no shared interpreter)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def serial():
    return sweep(split_unit_r410a(superheat_loop=True), GRID, processes=1, progress=False)


def _assert_same(frame: pd.DataFrame, reference: pd.DataFrame) -> None:
    assert frame[list(GRID)].equals(reference[list(GRID)])
    assert frame["converged"].all(), frame["error"].tolist()
    for column in COLUMNS:
        # other chunks, other warm starts: equal to the solver's tolerance
        np.testing.assert_allclose(frame[column], reference[column], rtol=1e-7)


def test_sweep_on_a_local_cluster_of_processes_equals_the_serial_sweep(cluster, serial):
    assert serial["converged"].all(), serial["error"].tolist()
    with distributed.Client(cluster) as client:
        workers = client.scheduler_info()["workers"]
        assert len(workers) == 2
        frame = sweep(
            split_unit_r410a(superheat_loop=True),
            GRID,
            client=client,
            progress=False,
            outputs=["controls.superheat.actuator"],
        )
        # the chunks ran in the worker processes, not here
        pids = client.run(lambda: __import__("os").getpid())
    assert len(set(pids.values())) == 2
    _assert_same(frame, serial)
    assert frame["controls.superheat.actuator"].between(0.2, 5.0).all()


def test_cli_sweep_on_a_scheduler_address(cluster, serial, tmp_path):
    scenario = tmp_path / "split.json"
    import json

    scenario.write_text(json.dumps(split_unit_r410a(superheat_loop=True)))
    out = tmp_path / "out.csv"
    argv = ["sweep", str(scenario), "--scheduler", cluster.scheduler_address, "-o", str(out)]
    for path, values in GRID.items():
        argv += ["--set", f"{path}={','.join(str(v) for v in values)}"]
    assert main([*argv, "--no-progress"]) == 0
    _assert_same(pd.read_csv(out), serial)


def test_cli_sweep_with_an_unreachable_scheduler_exits_2(tmp_path, capsys, monkeypatch):
    import json

    from workbench.cli import sweep_commands

    monkeypatch.setattr(sweep_commands, "SCHEDULER_TIMEOUT_S", 1)
    scenario = tmp_path / "split.json"
    scenario.write_text(json.dumps(split_unit_r410a()))
    code = main(
        [
            "sweep",
            str(scenario),
            "--set",
            "evap.air_inlet_temp_c=25",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--no-progress",
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "--scheduler 'tcp://127.0.0.1:9': no Dask scheduler reachable" in err


def _specs(doc, paths):
    from workbench.scenario import as_flat

    flat = as_flat(doc)
    return flat.to_dict(), [resolve_path(flat, p) for p in paths]


def test_a_worker_thread_reuses_its_prepared_system_and_starts_each_chunk_from_the_base():
    doc = split_unit_r410a()
    base, specs = _specs(doc, ["evap.air_inlet_temp_c"])
    first = prepared_for(base)
    run_chunk(base, specs, [(0, (22.0,)), (1, (23.0,))])
    assert prepared_for(base) is first  # one system per thread and base document
    # what a chunk set is put back: the base value, and a case solves like a fresh system
    assert first.system.components["evap"].params["air_inlet_temp_c"] == 27.0
    base2, specs2 = _specs(doc, ["cond.air_inlet_temp_c"])
    rows = dict(run_chunk(base2, specs2, [(0, (33.0,))]))
    fresh = solve(split_unit_r410a(**{"cond.air_inlet_temp_c": 33.0}))
    assert rows[0]["cooling_capacity_w"] == pytest.approx(
        fresh.summary["cooling_capacity_w"], rel=1e-8
    )


def test_threads_of_one_process_each_get_their_own_system_without_a_lock():
    doc = split_unit_r410a()
    base, specs = _specs(doc, ["evap.air_inlet_temp_c"])
    cases = [(k, (t,)) for k, t in enumerate([22.0, 24.0, 26.0])]
    serial_rows = dict(run_chunk(copy.deepcopy(base), specs, cases))
    systems, results = {}, {}

    def work(name):
        systems[name] = prepared_for(base).system
        results[name] = dict(run_chunk(base, specs, cases))

    threads = [threading.Thread(target=work, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert systems["a"] is not systems["b"]
    assert systems["a"].fluid is not systems["b"].fluid
    for rows in results.values():
        for k, row in rows.items():
            assert row["cop_cooling"] == pytest.approx(serial_rows[k]["cop_cooling"], rel=1e-8)


def test_a_value_that_changes_the_equations_fails_its_row_not_the_sweep():
    # an ideal-mode condenser given a UA gets a heat-transfer equation: the prepared system
    # cannot take it, the case is built from its own document and reports the over-spec
    doc = textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0)
    frame = sweep(doc, {"cond.ua": [800.0]}, processes=1, progress=False)
    assert not frame["converged"].iloc[0]
    assert "SpecificationError" in frame["error"].iloc[0]


def test_a_bad_value_fails_only_its_rows_with_the_check_message():
    frame = sweep(
        split_unit_r410a(),
        {"evap.secondary_mass_flow_kg_s": [0.45, -1.0]},
        processes=1,
        progress=False,
    )
    assert frame["converged"].tolist() == [True, False]
    assert "secondary_mass_flow_kg_s" in frame["error"].iloc[1]


@pytest.mark.parametrize(
    ("doc", "path", "values"),
    [
        # a junction: its inlets, outlets and mass balance are set when the system is built
        ("two_stage_flash", "flash.pressure_pa", [2.4e5, 3.8e5, 5.0e5]),
        # a coupled coil of a cascade: its role in the coupling is set when the system is built
        ("cascade", "lt_condenser.subcooling_k", [1.0, 3.0]),
        ("cascade", "ht_evaporator.superheat_k", [3.0, 8.0]),
        # a component a control loop drives: its factor source is set when the loop is attached
        ("superheat_loop", "valve.flow_coefficient_m2", [1.8e-7, 2.4e-7]),
    ],
)
def test_values_set_on_a_prepared_system_solve_like_their_own_documents(doc, path, values):
    import json

    from workbench.scenario.reference_cases import two_stage_flash_r134a
    from workbench.sweep.paths import case_document

    if doc == "two_stage_flash":
        doc = two_stage_flash_r134a()
    elif doc == "cascade":
        with open("examples/scenarios/cascade_v2.json") as fh:
            doc = json.load(fh)
    else:
        with open("examples/scenarios/superheat_control_v2.json") as fh:
            doc = json.load(fh)
    frame = sweep(doc, {path: values}, processes=1, progress=False)
    assert frame["converged"].all(), frame["error"].tolist()
    from workbench.scenario import as_flat

    flat = as_flat(doc)
    base = flat.to_dict()
    spec = resolve_path(flat, path)
    for k, value in enumerate(values):
        own = solve(case_document(base, [spec], (value,)))
        assert own.converged, own.report()
        for key in ("cooling_capacity_w", "compressor_power_w"):
            assert frame[key].iloc[k] == pytest.approx(own.summary[key], rel=1e-7)
