"""A 10,000-point sweep on a Dask ``LocalCluster`` with 1 and 2 worker processes.

Usage::

    python -m benchmarks.bench_sweep_dask [--points 100] [--workers 1 2] [--no-write]

The case is the R410A split unit with UA coils and a superheat control loop
(``split_unit_r410a(superheat_loop=True)``), swept over a grid of the indoor (evaporator) and
outdoor (condenser) air temperatures, ``--points`` values each (100 x 100 = 10,000 cases).
For each worker count a fresh ``LocalCluster(n_workers=N, threads_per_worker=1,
processes=True)`` is started (not timed), one solve on every worker pays the imports and
CoolProp's set-up of the fluid (not timed), and then the whole grid runs through
``workbench.sweep(..., client=client)``: wall time from the call to the returned frame.
Reported: points per second, the scaling from one worker to two (ideal 2.0), cases that did
not converge, and the largest relative difference in COP between the runs (other chunk
boundaries, other warm starts: equal to the solver's tolerance). The same grid in the calling
process (``processes=1``) is the reference rate without Dask.

The machine is shared with other jobs: the load average at the start and the end is printed
with the table, which is written into ``docs/benchmarks.md`` between the ``bench:sweep-dask``
markers (``--no-write`` only prints).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

from benchmarks.bench_docs import machine_line, write_section
from workbench.scenario.reference_cases import split_unit_r410a
from workbench.sweep import sweep

INDOOR, OUTDOOR = "evap.air_inlet_temp_c", "cond.air_inlet_temp_c"


def grid(points: int) -> dict[str, list[float]]:
    """Indoor air 20-32 C and outdoor air 25-45 C, ``points`` values each [degC], by sweep path."""
    return {
        INDOOR: [float(v) for v in np.linspace(20.0, 32.0, points)],
        OUTDOOR: [float(v) for v in np.linspace(25.0, 45.0, points)],
    }


def load() -> str:
    """The load average over 1, 5 and 15 minutes, or ``?`` where the platform has none."""
    return ", ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def _warm_up(doc: dict[str, Any]) -> bool:
    from workbench.solver import solve

    return bool(solve(doc).converged)


def run_cluster(workers: int, doc: dict[str, Any], cases: dict[str, list[float]]) -> dict:
    """Time the grid on a fresh LocalCluster of ``workers`` single-threaded processes."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(_warm_up, doc)  # every worker: imports, CoolProp's set-up of the fluid
        cpu0 = client.run(time.process_time)
        t0 = time.perf_counter()
        frame = sweep(doc, cases, client=client, progress=False)
        elapsed = time.perf_counter() - t0
        cpu1 = client.run(time.process_time)
    cpu = sum(cpu1[w] - cpu0[w] for w in cpu0)
    return {"frame": frame, "seconds": elapsed, "cpu": cpu}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table and (unless ``--no-write``) update the docs.

    Parameters
    ----------
    argv : list of str, optional
        Command-line arguments (default ``sys.argv[1:]``); ``--help`` lists them.

    Returns
    -------
    int
        Exit status: 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=100, help="values per path (grid side)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    doc = split_unit_r410a(superheat_loop=True)
    cases = grid(args.points)
    n = args.points**2
    info = machine_line()
    load_start = load()
    sweep(doc, {k: v[:1] for k, v in cases.items()}, processes=1, progress=False)  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    local = sweep(doc, cases, processes=1, progress=False)
    local_s, local_cpu = time.perf_counter() - t0, time.process_time() - c0
    runs = {w: run_cluster(w, doc, cases) for w in args.workers}
    load_end = load()
    ref = local["cop_cooling"].to_numpy()
    rows = [
        "| run | workers | seconds | points/s | scaling | worker CPU [s] | cores used | "
        "points per CPU second | not converged | max rel. COP diff |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| in-process (`processes=1`) | 1 | {local_s:.1f} | {n / local_s:.0f} | | "
        f"{local_cpu:.1f} | {local_cpu / local_s:.2f} | {n / local_cpu:.0f} | "
        f"{int((~local['converged']).sum())} | 0 |",
    ]
    base_rate = None
    for workers, run in runs.items():
        frame, seconds = run["frame"], run["seconds"]
        rate = n / seconds
        base_rate = base_rate or rate
        diff = float(np.max(np.abs(frame["cop_cooling"].to_numpy() / ref - 1.0)))
        cpu = run["cpu"]
        rows.append(
            f"| LocalCluster | {workers} | {seconds:.1f} | {rate:.0f} | {rate / base_rate:.2f} | "
            f"{cpu:.1f} | {cpu / seconds:.2f} | {n / cpu:.0f} | "
            f"{int((~frame['converged']).sum())} | {diff:.1e} |"
        )
    section = "\n".join(
        [
            "## Sweeps on a Dask cluster (`benchmarks/bench_sweep_dask.py`)",
            "",
            f"{info}; load average {load_start} at the start, {load_end} at the end (the "
            "machine is shared with other jobs, so the two workers compete with them for two "
            "cores).",
            "",
            f"`split_unit_r410a(superheat_loop=True)` (R410A, UA coils against air, superheat "
            f"held by a control loop on an orifice valve) over {args.points} indoor x "
            f"{args.points} outdoor air temperatures (20-32 C x 25-45 C) = {n:,} cases, through "
            "`workbench.sweep(doc, grid, client=Client(LocalCluster(n_workers=N, "
            "threads_per_worker=1, processes=True)))`: two chunks of neighbouring cases per "
            "worker, each worker solving its chunks on one prepared system, warm-started along "
            "the grid. Wall time from the call to the frame (cluster start and one solve on "
            "every worker, which pays the imports and CoolProp's set-up of the fluid, not "
            "timed). Scaling = points/s against one worker. Worker CPU = process time the "
            "workers used during the sweep (`time.process_time` on each, through `client.run`); "
            "cores used = worker CPU / wall time: on a machine whose two cores other jobs also "
            "use, two workers get less than two cores, and the scaling shows that, not the "
            "sweep; points per CPU second shows the work itself.",
            "",
            *rows,
        ]
    )
    print(section)
    if not args.no_write:
        write_section("sweep-dask", section)
        print("\nwritten to docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
