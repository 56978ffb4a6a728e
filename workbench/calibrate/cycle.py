"""Cycle calibration: free scenario parameters fitted to measured operating points.

Weighted least squares over the free parameters ``theta`` (bounded)::

    min_theta  sum_points sum_quantities  rho( ((y_model(theta, point) - y_measured) / sigma_q)^2 )

``rho`` the identity (``loss="linear"``) or a robust loss of
:func:`scipy.optimize.least_squares` (``"soft_l1"``, ``"huber"``, ``"cauchy"``, ``"arctan"``,
with ``f_scale`` in units of sigma). Each evaluation solves every point
(:class:`~workbench.calibrate.points.PointSolver`: one prepared system, warm starts); the
Jacobian is a forward difference per parameter (relative step :data:`DIFF_STEP`), each point
restarted from its solution at the unperturbed parameters. The uncertainty and identifiability
of the result come from that Jacobian at the solution (:mod:`workbench.calibrate.statistics`).

Measurement columns: conditions are sweep paths (:mod:`workbench.sweep.paths`), measured
quantities are :mod:`workbench.calibrate.quantities` paths; an optional ``point`` column labels
the rows. ``sigma`` (the standard uncertainty of each quantity, in its units) sets the
weights; without it a quantity's sigma is 0.1 K for a temperature and 1 % of the RMS of its
measured values otherwise. Only the ratios of the sigmas matter for the values and intervals
(the covariance is scaled by the fit's own residual variance).

A point that fails to solve at the start parameters is left out of the fit and reported
(:attr:`CalibrationResult.failed`); one that fails at a trial step during the fit makes that
step's residuals large (:data:`FAILED_RESIDUAL`), so the trust region steps back.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import least_squares

from workbench.calibrate.inputs import (
    check_start,
    default_sigma,
    free_parameters,
    invalid_points,
    issue,
    numbers,
    read_measurements,
    split_columns,
)
from workbench.calibrate.points import PointSolver
from workbench.calibrate.quantities import Quantity, read_quantity
from workbench.calibrate.result import CalibrationResult
from workbench.calibrate.statistics import parameter_statistics
from workbench.errors import CalibrationError
from workbench.scenario import ScenarioLike, as_flat
from workbench.solver import SolveResult
from workbench.sweep.paths import case_document

__all__ = [
    "DIFF_STEP",
    "FAILED_RESIDUAL",
    "OUTLIER_LIMIT",
    "TOLERANCE",
    "CalibrationResult",
    "calibrate",
]

DIFF_STEP = 1.0e-5
"""Relative step of the finite-difference Jacobian [-] (times ``max(|theta|, scale)``)."""

FAILED_RESIDUAL = 1.0e3
"""Weighted residual given to every quantity of a point that fails at a trial step [-]."""

OUTLIER_LIMIT = 3.5
"""A measurement is an outlier when its weighted residual exceeds this many times the robust
spread of its quantity's residuals (1.4826 times their median absolute value, at least 0.1):
the modified z-score of Iglewicz and Hoaglin (1993) [-]."""

TOLERANCE = 1.0e-6
"""``ftol`` and ``xtol`` of the optimiser [-]: parameters to about 1e-6 of their value, far
inside any interval real data give."""


@dataclass
class _Problem:
    solver: PointSolver
    quantities: list[Quantity]
    measured: np.ndarray  # points x quantities (nan: not measured)
    sigma: np.ndarray  # quantities
    points: list[int]  # points in the fit
    evaluations: int = 0

    def weighted(self, results: Mapping[int, SolveResult | str]) -> tuple[np.ndarray, list[int]]:
        """Weighted residuals of the fitted points (failed ones at FAILED_RESIDUAL)."""
        out, failed = [], []
        for i in self.points:
            result = results.get(i)
            ok = isinstance(result, SolveResult) and result.converged
            for q, quantity in enumerate(self.quantities):
                if np.isnan(self.measured[i, q]):
                    continue
                model = read_quantity(result, quantity) if ok else None  # type: ignore[arg-type]
                if model is None:
                    out.append(FAILED_RESIDUAL)
                else:
                    out.append((model - self.measured[i, q]) / self.sigma[q])
            if not ok:
                failed.append(i)
        return np.array(out), failed

    last: tuple[np.ndarray, np.ndarray] | None = None  # theta and residuals of the last evaluation

    def residuals(self, theta: np.ndarray) -> np.ndarray:
        self.evaluations += 1
        r = self.weighted(self.solver.solve_all(theta, self.points))[0]
        self.last = (theta.copy(), r)
        return r

    def jacobian(self, theta: np.ndarray, base: np.ndarray | None = None) -> np.ndarray:
        """Forward differences; each perturbed point restarts from its solution at ``theta``."""
        if base is not None:
            r0 = base
        elif self.last is not None and np.array_equal(self.last[0], theta):
            r0 = self.last[1]  # the optimiser evaluated theta just before: its solutions stand
        else:
            r0 = self.residuals(theta)
        solver = self.solver
        saved = list(solver.solutions), list(solver.jacobians), list(solver.solved_at)
        columns = []
        for k in range(len(theta)):
            step = DIFF_STEP * max(abs(theta[k]), 1e-3)
            bumped = theta.copy()
            bumped[k] += step
            columns.append((self.residuals(bumped) - r0) / step)
            solver.solutions, solver.jacobians, solver.solved_at = (list(v) for v in saved)
        return np.column_stack(columns)


def calibrate(
    scenario: ScenarioLike,
    measurements: pd.DataFrame | str | Path,
    free: Sequence[str],
    *,
    start: Mapping[str, float] | None = None,
    bounds: Mapping[str, tuple[float | None, float | None]] | None = None,
    sigma: Mapping[str, float] | None = None,
    loss: str = "linear",
    f_scale: float = 1.0,
    max_evaluations: int = 100,
) -> CalibrationResult:
    """Fit free scenario parameters to measured operating points (see the module docstring).

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        The scenario to calibrate.
    measurements : pandas.DataFrame, str or path
        One row per operating point (a CSV path is read): condition columns (sweep paths, e.g.
        ``evaporator.air_inlet_temp_c``), measured columns (``summary.heating_capacity_w``,
        ``compressor.power``, ``edges.compressor:outlet.t_c`` ...; an empty cell is a value
        not measured) and optionally ``point`` (a label).
    free : sequence of str
        Parameter paths to fit (``condenser.ua``, ``evaporator.ua_nominal_kw_k``,
        ``compressor.isentropic_efficiency``, ``evaporator.z_ua`` ...).
    start : mapping, optional
        Path -> start value (default: the scenario's value).
    bounds : mapping, optional
        Path -> (low, high) (None for open); default: the parameter's range in the catalog.
    sigma : mapping, optional
        Quantity column -> standard uncertainty [its units] (see the module docstring).
    loss : str
        ``"linear"`` (least squares) or a robust loss of :func:`scipy.optimize.least_squares`.
    f_scale : float
        Soft margin of a robust loss [units of sigma].
    max_evaluations : int
        Most evaluations of the residuals (each solves every point) the optimiser may make.

    Returns
    -------
    CalibrationResult
        Values, standard errors, 95 % intervals, unidentifiable parameters, residuals per point
        and quantity, outliers, failed points and the calibrated scenario.

    Raises
    ------
    ScenarioError
        A column that is neither a condition nor a measured quantity, a bad free path or
        start value, a scenario made invalid by a start value (the message names the column or
        path).
    CalibrationError
        Unreadable measurements, no point that solves at the start, a measured quantity the
        results do not have.
    """
    t0 = time.perf_counter()
    flat = as_flat(scenario)
    frame = read_measurements(measurements)
    if frame.empty:
        raise CalibrationError("measurements: no rows")
    conditions, quantities = split_columns(flat, frame, free)
    specs, theta0, limits = free_parameters(flat, free, start, bounds)
    base = flat.to_dict()
    check_start(base, specs, theta0)
    cond = np.column_stack(
        [numbers(frame, s.path, False) for s in conditions] or [np.zeros((len(frame), 0))]
    )
    measured = np.column_stack([numbers(frame, q.path, True) for q in quantities])
    labels = [str(v) for v in frame["point"]] if "point" in frame else [str(i) for i in frame.index]
    sig = np.array(
        [
            float((sigma or {}).get(q.path) or default_sigma(q, measured[:, k]))
            for k, q in enumerate(quantities)
        ]
    )
    unknown_sigma = sorted(set(sigma or {}) - {q.path for q in quantities})
    if unknown_sigma:
        raise issue(f"sigma[{unknown_sigma[0]!r}]", "is not a measured column")
    invalid = invalid_points(base, conditions, cond)
    solver = PointSolver(flat, conditions, cond, specs)
    first = solver.solve_all(theta0, [i for i in range(len(frame)) if i not in invalid])
    start_failures = {**invalid, **{i: w for i, r in first.items() if (w := _why(r)) is not None}}
    points = [i for i in range(len(frame)) if i not in start_failures]
    if not points:
        raise CalibrationError(
            "no point solves at the start values: "
            + "; ".join(f"point {labels[i]}: {e}" for i, e in start_failures.items())
        )
    for q in quantities:
        if all(read_quantity(first[i], q) is None for i in points):  # type: ignore[arg-type]
            raise CalibrationError(_missing_message(q, first[points[0]]))  # type: ignore[arg-type]
    problem = _Problem(solver, quantities, measured, sig, points)
    scale = np.where(np.abs(theta0) > 0, np.abs(theta0), 1.0)
    lo = np.array([a for a, _b in limits]) / scale
    hi = np.array([b for _a, b in limits]) / scale

    def fun(u: np.ndarray) -> np.ndarray:
        return problem.residuals(u * scale)

    def jac(u: np.ndarray) -> np.ndarray:
        return problem.jacobian(u * scale) * scale

    fit = least_squares(
        fun,
        theta0 / scale,
        jac=jac,
        bounds=(lo, hi),
        loss=loss,
        f_scale=f_scale,
        max_nfev=max_evaluations,
        x_scale=1.0,
        ftol=TOLERANCE,
        xtol=TOLERANCE,
    )
    theta = fit.x * scale
    final = solver.solve_all(theta, points)
    # a point that fails at the fitted values is reported, and left out of the statistics
    problem.points = [i for i in points if _why(final[i]) is None] or points
    r, _failed = problem.weighted(final)
    jac_theta = problem.jacobian(theta, r)
    names = [s.path for s in specs]
    found = parameter_statistics(jac_theta, r, theta, names)
    residuals = _residual_table(problem, final, labels, theta)
    failed = {**start_failures, **{i: _why(final[i]) for i in points if _why(final[i])}}
    values = {p: float(v) for p, v in zip(names, theta)}
    intervals = {}
    for k, p in enumerate(names):
        if k in found.reasons:
            intervals[p] = limits[k]
        else:
            h = found.half_widths[k]
            intervals[p] = (max(theta[k] - h, limits[k][0]), min(theta[k] + h, limits[k][1]))
    return CalibrationResult(
        values=values,
        std_errors={p: float(found.std_errors[k]) for k, p in enumerate(names)},
        intervals=intervals,
        unidentifiable={names[k]: why for k, why in sorted(found.reasons.items())},
        residuals=residuals,
        outliers=residuals[residuals["outlier"]].reset_index(drop=True),
        failed=pd.DataFrame(
            [{"point": labels[i], "error": e} for i, e in sorted(failed.items())],
            columns=["point", "error"],
        ),
        scenario=case_document(base, specs, tuple(values.values())),
        start={p: float(v) for p, v in zip(names, theta0)},
        bounds=dict(zip(names, limits)),
        correlation=pd.DataFrame(found.correlation, index=names, columns=names),
        success=bool(fit.success),
        message=str(fit.message),
        cost=float(0.5 * r @ r),
        residual_sigma=found.sigma,
        evaluations=problem.evaluations,
        solves=solver.solves,
        elapsed_s=time.perf_counter() - t0,
        conditions=[s.path for s in conditions],
        quantities=[q.path for q in quantities],
    )


def _why(result: SolveResult | str | None) -> str | None:
    """Why a point failed (None when it converged)."""
    if isinstance(result, str):
        return result
    if result is None:
        return "not solved"
    if result.converged:
        return None
    return f"not converged ({result.stop_reason}): {result.hint or result.message}"


def _missing_message(quantity: Quantity, result: SolveResult) -> str:
    if quantity.kind == "component":
        have = ", ".join(k for k in result.components.get(quantity.owner, {}) if k != "type")
        return (
            f"measurements[{quantity.path!r}]: component {quantity.owner!r} has no output "
            f"{quantity.key!r} (nor a parameter of that name, for a condition column); "
            f"outputs: {have}"
        )
    return f"measurements[{quantity.path!r}]: the results have no value for it"


def _residual_table(
    problem: _Problem,
    results: Mapping[int, SolveResult | str],
    labels: list[str],
    theta: np.ndarray,
) -> pd.DataFrame:
    rows = []
    for i in problem.points:
        result = results.get(i)
        ok = isinstance(result, SolveResult) and result.converged
        for q, quantity in enumerate(problem.quantities):
            if np.isnan(problem.measured[i, q]):
                continue
            model = read_quantity(result, quantity) if ok else None  # type: ignore[arg-type]
            residual = None if model is None else model - problem.measured[i, q]
            rows.append(
                {
                    "point": labels[i],
                    "quantity": quantity.path,
                    "measured": problem.measured[i, q],
                    "model": model,
                    "residual": residual,
                    "sigma": problem.sigma[q],
                    "weighted": None if residual is None else residual / problem.sigma[q],
                }
            )
    table = pd.DataFrame(
        rows, columns=["point", "quantity", "measured", "model", "residual", "sigma", "weighted"]
    )
    w = table["weighted"].astype(float)
    mad = (1.4826 * w.abs().groupby(table["quantity"]).transform("median")).clip(lower=0.1)
    table["outlier"] = (w.abs() > OUTLIER_LIMIT * mad).fillna(False).astype(bool)
    return table
