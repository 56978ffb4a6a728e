"""The sweep driver: cases -> chunks -> workers (in-process, local processes or Dask) -> frame.

Cases run in neighbouring order and each is warm-started from the previous converged one
(continuation). Work is cut into chunks of neighbouring cases; chunks run in-process, on
local processes (:class:`concurrent.futures.ProcessPoolExecutor`) or on a Dask cluster
(``distributed.Client``). A case that fails is a row with ``converged`` False and an
``error`` message, never an exception.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import pandas as pd

from workbench.progress import Progress
from workbench.scenario import ScenarioLike, as_flat
from workbench.sweep.cases import build_cases, split_chunks
from workbench.sweep.paths import SweepPath, resolve_output, resolve_path
from workbench.sweep.runner import RESULT_COLUMNS, run_chunk

__all__ = ["MIN_CASES_PER_PROCESS", "sweep"]

MIN_CASES_PER_PROCESS = 1000
"""With ``processes=None`` no worker gets fewer cases than this: a worker process costs seconds to
start (the forkserver with the solver and CoolProp preloaded, then CoolProp's set-up of the fluid
in each worker: 1.5 to 4 s on the 2-core test machine) while a warm-started case of a UA cycle
costs 2 to 5 ms (docs/sweeps.md gives the figures), so sweeps of fewer than two thousand cases
run faster in the calling process."""


def _context() -> multiprocessing.context.BaseContext:
    """The multiprocessing start method: ``forkserver`` where available, else ``spawn``.

    ``forkserver`` is safe with threads and cheap per worker: the solver, the CoolProp backend
    and the scenario checks are imported once, before the workers fork.
    """
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(
            [
                "workbench.sweep.runner",
                "workbench.fluids.coolprop.backend",
                "workbench.scenario.physical",
            ]
        )
        return ctx
    return multiprocessing.get_context("spawn")


def sweep(
    scenario: ScenarioLike,
    grid: Mapping[str, Sequence[Any]],
    mode: str = "grid",
    client: Any = None,
    processes: int | None = None,
    progress: bool = True,
    *,
    outputs: Sequence[str] = (),
    chunks: int | None = None,
    tabular: bool = False,
) -> pd.DataFrame:
    """Solve ``scenario`` for every combination (or list) of parameter values.

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        The base scenario.
    grid : mapping
        Path -> values. Paths: ``<component>.<parameter>`` (flat component names; the longest
        matching name wins), ``controls.<id>.target`` (or ``gain``, ``band``,
        ``smooth_eps``), ``solver.<field>``. Values in the units of the scenario document.
    mode : str
        ``"grid"`` (every combination) or ``"list"`` (k-th values together; equal lengths).
    client : distributed.Client, optional
        Run the chunks on this Dask cluster (``client.map``) instead of local processes.
    processes : int, optional
        Local worker processes. ``None``: one per CPU, at most one per
        :data:`MIN_CASES_PER_PROCESS` cases; ``1`` runs in this process.
    progress : bool
        Show progress on standard error: a tqdm bar on a terminal or in a notebook, a few
        summary lines in a non-interactive log.
    outputs : sequence of str, keyword-only
        Extra columns read from each result: ``<component>.<output>`` (e.g.
        ``evap.superheat``) or ``controls.<id>.<key>`` (e.g. ``controls.sh.actuator``).
    chunks : int, optional
        Number of chunks of neighbouring cases (continuation restarts at each chunk's first
        case). Default: two per worker (one when in-process).
    tabular : bool, keyword-only
        Use CoolProp's tabular BICUBIC&HEOS backend: faster per case, within 2e-7 (relative) of
        HEOS on the textbook cycle (both measured in docs/benchmarks.md). No effect on the
        ``Test`` backend.

    Returns
    -------
    pandas.DataFrame
        One row per case in natural order (grid: the first path varies slowest): a column
        per swept path, then ``converged``, ``iterations``, ``residual_norm``, ``cop_cooling``,
        ``cop_heating``, ``cooling_capacity_w``, ``heating_capacity_w``,
        ``compressor_power_w``, ``energy_balance_w`` [W, -], ``error`` (None when the case
        converged), then the ``outputs``.

    Raises
    ------
    ScenarioError
        The scenario is invalid, or a path names no component parameter, control field or
        solver field (bad *values* only fail their own rows).
    ValueError
        Bad ``mode``, empty values, or unequal lengths in list mode.
    """
    flat = as_flat(scenario)
    specs: list[SweepPath] = [resolve_path(flat, p) for p in grid]
    out_specs = [resolve_output(flat, p) for p in outputs]
    cases, n = build_cases(grid, mode)
    base = flat.to_dict()
    if client is not None:
        workers = max(1, sum(client.nthreads().values()))
    elif processes is None:
        workers = max(1, min(os.cpu_count() or 1, n // MIN_CASES_PER_PROCESS))
    else:
        workers = max(1, int(processes))
    n_chunks = chunks if chunks is not None else (1 if workers == 1 else 2 * workers)
    parts = split_chunks(cases, n_chunks)
    rows: dict[int, dict[str, Any]] = {}
    with Progress(n, "sweep", "case", enabled=progress) as bar:
        if client is not None:
            rows.update(_run_dask(client, base, specs, parts, out_specs, bar, tabular))
        elif workers == 1:
            for part in parts:
                rows.update(
                    run_chunk(
                        base, specs, part, out_specs, on_case=lambda: bar.update(1), tabular=tabular
                    )
                )
        else:
            with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
                futures = {
                    pool.submit(run_chunk, base, specs, part, out_specs, None, tabular): len(part)
                    for part in parts
                }
                for future in as_completed(futures):
                    rows.update(future.result())
                    bar.update(futures[future])
    columns = [s.path for s in specs] + list(RESULT_COLUMNS) + [o.path for o in out_specs]
    if any("charge_kg" in rows[k] for k in range(n)):  # a scenario with volumes (docs/charge.md)
        columns.append("charge_kg")
    frame = pd.DataFrame([rows[k] for k in range(n)], columns=columns)
    frame["converged"] = frame["converged"].astype(bool)
    return frame


def _run_dask(
    client: Any,
    base: dict[str, Any],
    specs: list[SweepPath],
    parts: list[list[Any]],
    out_specs: list[SweepPath],
    bar: Progress,
    tabular: bool = False,
) -> dict[int, dict[str, Any]]:
    from distributed import as_completed as dask_completed

    k = len(parts)
    futures = client.map(
        run_chunk,
        [base] * k,
        [specs] * k,
        parts,
        [out_specs] * k,
        [None] * k,
        [tabular] * k,
        pure=False,
    )
    sizes = {f.key: len(p) for f, p in zip(futures, parts)}
    rows: dict[int, dict[str, Any]] = {}
    for future in dask_completed(futures):  # type: ignore[no-untyped-call]
        rows.update(future.result())
        bar.update(sizes[future.key])
    return rows
