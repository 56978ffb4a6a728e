"""Solving a chunk of neighbouring sweep cases on one prepared system, each warm-started.

This module is what worker processes (local or Dask) import: :func:`run_chunk` takes only
plain, picklable arguments and returns plain rows. Each thread of a worker keeps its own
prepared system (:mod:`workbench.sweep.prepared`), so threads of one process (a threaded Dask
worker) run chunks side by side without sharing or locking anything.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from workbench.solver import SUMMARY_KEYS, SolveResult, solve
from workbench.sweep.paths import SweepPath, case_document, read_output
from workbench.sweep.prepared import Prepared, StructureChanged, current_value, prepared_for

__all__ = ["RESULT_COLUMNS", "run_chunk", "solve_case"]

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
        if "charge_kg" in result.summary:  # a scenario with volumes: its charge (docs/charge.md)
            row["charge_kg"] = float(result.summary["charge_kg"])  # type: ignore[arg-type]
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
    """Solve neighbouring cases in order on one prepared system, each warm-started.

    The calling thread's prepared system of ``base_doc`` is reused
    (:func:`~workbench.sweep.prepared.prepared_for`): each case's values are set on it and the
    solve starts from a prediction (the last converged solutions extrapolated along the sweep
    by a polynomial through up to :data:`PREDICTOR_POINTS` of them, when the case continues
    their steps in the same single path; else the last converged solution). A start that does not converge is retried from the last converged solution,
    then from the scenario's own initial guess, and the best result kept.

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
    try:
        prep: Prepared | None = prepared_for(base_doc, tabular)
    except Exception:  # every case then reports its own error
        prep = None
    rows: list[tuple[int, dict[str, Any]]] = []
    previous: SolveResult | None = None
    history: list[tuple[tuple[Any, ...], np.ndarray]] = []
    for index, values in cases:
        if prep is None:
            result, error = solve_case(base_doc, specs, values, previous, tabular)
        else:
            result, error = _solve_prepared(
                prep, base_doc, specs, values, previous, _predict(history, values), tabular
            )
        row = {spec.path: value for spec, value in zip(specs, values)}
        row.update(_row(result, error))
        for out in outputs:
            row[out.path] = read_output(result, out) if result is not None else None
        rows.append((index, row))
        if result is not None and result.converged:
            previous = result
            history = [*history[-(PREDICTOR_POINTS - 1) :], (values, result.x)]
        if on_case is not None:
            on_case()
    return rows


def _solve_prepared(
    prep: Prepared,
    base_doc: dict[str, Any],
    specs: list[SweepPath],
    values: tuple[Any, ...],
    previous: SolveResult | None,
    predicted: np.ndarray | None,
    tabular: bool,
) -> tuple[SolveResult | None, str | None]:
    """One case on the prepared system; never raises (see :func:`run_chunk`)."""
    error = prep.check(specs, values)
    if error is not None:
        return None, error
    if predicted is None and previous is not None and previous.converged:
        predicted = _tangent(prep, specs, previous, values)
    try:
        prep.apply(specs, values)
    except StructureChanged:
        return solve_case(base_doc, specs, values, previous, tabular)
    system = prep.system
    try:
        starts: list[SolveResult | np.ndarray | None] = []
        if predicted is not None:
            starts.append(predicted)
        if previous is not None:
            starts.append(previous)
        starts.append(None)  # the scenario's own initial guess
        best: SolveResult | None = None
        for start in starts:
            result = solve(base_doc, system=system, initial=start)
            if (
                best is None
                or (result.converged and not best.converged)
                or (
                    result.converged == best.converged and result.residual_norm < best.residual_norm
                )
            ):
                best = result
            if result.converged:
                break
        return best, None
    except Exception as exc:  # a failed point is recorded, not raised
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        return None, f"{type(exc).__name__}: {'; '.join(lines)}"


def _tangent(
    prep: Prepared, specs: list[SweepPath], previous: SolveResult, values: tuple[Any, ...]
) -> np.ndarray | None:
    """The last solution moved along its tangent to ``values``, or None.

    When one path changed since the last converged case (its values are the system's current
    ones), the solution's derivative with respect to that value follows from the implicit
    function theorem at the solution: ``dx/dv = -J^-1 dF/dv``, ``dF/dv`` a forward difference
    of the residuals at the solution (the value moved by 1e-6 of itself) and ``J`` the last
    Newton step's Jacobian. A neighbour's solution is a poor start where the new value puts the
    old state near a pinch (a Newton step from there overshoots); the tangent is taken at the
    solution, before the pinch is approached. Used where the polynomial predictor has too few
    points: the second case of a chunk, and where a grid row turns.
    """
    system = prep.system
    jac = system.last_jacobian
    olds = tuple(_current(prep, s) for s in specs)
    try:
        moved = [k for k, (a, b) in enumerate(zip(olds, values)) if float(a) != float(b)]
    except (TypeError, ValueError):
        return None
    if len(moved) != 1 or not isinstance(jac, np.ndarray) or previous.x.size != system.n_vars:
        return None
    k = moved[0]
    v0, v1 = float(olds[k]), float(values[k])
    step = 1e-6 * max(abs(v0), 1.0) * (1.0 if v1 > v0 else -1.0)
    bumped = list(olds)
    bumped[k] = v0 + step
    x = previous.x
    try:
        f0 = system.residuals(x)
        prep.apply(specs, tuple(bumped))
        f1 = system.residuals(x)
        dz = np.linalg.solve(jac, -(f1 - f0) / step)
    except Exception:  # no tangent: the caller starts from the last solution
        return None
    finally:
        prep.apply(specs, olds)
    predicted: np.ndarray = x + dz * system.var_scale * (v1 - v0)
    return predicted if np.all(np.isfinite(predicted)) else None


def _current(prep: Prepared, spec: SweepPath) -> Any:
    """The value a path has on the prepared system now."""
    return current_value(prep.system, spec)


PREDICTOR_POINTS = 3
"""Converged neighbours the start of a case is extrapolated from (quadratic with three)."""


def _predict(
    history: list[tuple[tuple[Any, ...], np.ndarray]], values: tuple[Any, ...]
) -> np.ndarray | None:
    """Polynomial extrapolation of the last converged solutions to ``values``, or None.

    Only when the last cases and this one differ in the same single path, ordered along it
    (a row of a grid in snake order, or a list sweep of one path), and this case is at most
    twice the last step beyond the last one. Three points give a quadratic predictor (the
    start's residual is then of the order of the step cubed, one Newton iteration fewer than
    from the last solution), two a linear one.
    """
    if len(history) < 2:
        return None
    try:
        points = [tuple(float(v) for v in vals) for vals, _x in history]
        target = tuple(float(v) for v in values)
    except (TypeError, ValueError):
        return None
    moving = {k for k in range(len(target)) if any(p[k] != target[k] for p in points)}
    if len(moving) != 1:
        return None
    k = moving.pop()
    ts = [p[k] for p in points]
    step = ts[-1] - ts[-2]
    ahead = target[k] - ts[-1]
    diffs = [b - a for a, b in itertools.pairwise(ts)]
    if step == 0.0 or not 0.0 < ahead / step <= 2.0 or any(d * step <= 0.0 for d in diffs):
        return None
    xs = [x for _vals, x in history]
    if any(x.shape != xs[-1].shape for x in xs):
        return None
    predicted = np.zeros_like(xs[-1])
    for i, (ti, xi) in enumerate(zip(ts, xs)):
        weight = 1.0
        for j, tj in enumerate(ts):
            if j != i:
                weight *= (target[k] - tj) / (ti - tj)
        predicted += weight * xi
    return predicted
