"""Solving a chunk of neighbouring sweep cases, each warm-started from the previous one.

This module is what worker processes (local or Dask) import: :func:`run_chunk` takes only
plain, picklable arguments and returns plain rows. Threads of one worker (a threaded Dask
worker) run chunks side by side: each solve is lent a fluid backend of its own
(:func:`workbench.fluids.lease_backend`), so nothing here is shared or locked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from workbench.solver import SUMMARY_KEYS, SolveResult, solve
from workbench.sweep.paths import SweepPath, case_document, read_output

__all__ = ["run_chunk", "solve_case", "RESULT_COLUMNS"]

RESULT_COLUMNS = (
    "converged",
    "iterations",
    "residual_norm",
    "cop_cooling",
    "cop_heating",
    "cooling_capacity_w",
    "heating_capacity_w",
    "compressor_power_w",
    "energy_balance_w",
    "error",
)
"""Columns every sweep row has after the swept values."""


def _row(result: SolveResult | None, error: str | None) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(RESULT_COLUMNS)
    if result is not None:
        row["converged"] = bool(result.converged)
        row["iterations"] = int(result.iterations)
        row["residual_norm"] = float(result.residual_norm)
        for key in SUMMARY_KEYS:
            value = result.summary.get(key)
            row[key] = None if value is None else float(value)
        if not result.converged:
            error = error or (result.hint or result.message)
    else:
        row["converged"] = False
        row["iterations"] = 0
    row["error"] = error
    return row


def solve_case(
    base_doc: dict[str, Any],
    specs: list[SweepPath],
    values: tuple[Any, ...],
    previous: SolveResult | None,
    tabular: bool = False,
) -> tuple[SolveResult | None, str | None]:
    """Solve one case; never raises for a bad value or a failed solve.

    A warm start that does not converge is retried from the scenario's own initial guess.

    Returns
    -------
    (SolveResult or None, str or None)
        The result (None when the case could not be built) and an error message.
    """
    from workbench.scenario import load_scenario

    try:
        scenario = load_scenario(case_document(base_doc, specs, values))
        result = solve(scenario, initial=previous, tabular=tabular)
        if not result.converged and previous is not None:
            cold = solve(scenario, tabular=tabular)
            if cold.converged or cold.residual_norm < result.residual_norm:
                result = cold
        return result, None
    except Exception as exc:  # a failed point is recorded, not raised
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        return None, f"{type(exc).__name__}: {'; '.join(lines)}"


def run_chunk(
    base_doc: dict[str, Any],
    specs: list[SweepPath],
    cases: Sequence[tuple[int, tuple[Any, ...]]],
    outputs: Sequence[SweepPath] = (),
    on_case: Callable[[], None] | None = None,
    tabular: bool = False,
) -> list[tuple[int, dict[str, Any]]]:
    """Solve neighbouring cases in order, each warm-started from the last converged one.

    Parameters
    ----------
    base_doc : dict
        The flat scenario document (``FlatScenario.to_dict()``).
    specs : list of SweepPath
        The swept paths.
    cases : sequence of (int, tuple)
        Case index and the values of the swept paths.
    outputs : sequence of SweepPath
        Extra output columns to read from each result.
    on_case : callable, optional
        Called after each case (progress).
    tabular : bool
        Use CoolProp's tabular BICUBIC&HEOS backend (see :func:`workbench.solver.solve`).

    Returns
    -------
    list of (int, dict)
        Case index and its row (swept values, :data:`RESULT_COLUMNS`, outputs).
    """
    rows: list[tuple[int, dict[str, Any]]] = []
    previous: SolveResult | None = None
    for index, values in cases:
        result, error = solve_case(base_doc, specs, values, previous, tabular)
        row = {spec.path: value for spec, value in zip(specs, values)}
        row.update(_row(result, error))
        for out in outputs:
            row[out.path] = read_output(result, out) if result is not None else None
        rows.append((index, row))
        if result is not None and result.converged:
            previous = result
        if on_case is not None:
            on_case()
    return rows
