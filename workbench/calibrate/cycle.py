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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import least_squares

from workbench.calibrate.points import PointSolver
from workbench.calibrate.quantities import Quantity, read_quantity, resolve_quantity
from workbench.calibrate.statistics import parameter_statistics
from workbench.components.catalog import get_spec
from workbench.errors import CalibrationError, ScenarioError, ScenarioIssue
from workbench.scenario import ScenarioLike, as_flat, load_scenario
from workbench.solver import SolveResult
from workbench.sweep.paths import SweepPath, case_document, resolve_path

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

_RESERVED = ("point",)


@dataclass
class CalibrationResult:
    """The outcome of :func:`calibrate`.

    Attributes
    ----------
    values : dict
        Free path -> fitted value [the document's units].
    std_errors : dict
        Free path -> standard error (inf when unidentifiable).
    intervals : dict
        Free path -> (low, high), the 95 % interval clipped to the bounds (the bounds when
        unidentifiable).
    unidentifiable : dict
        Free path -> why the data cannot determine it (insensitive, correlated, undetermined).
    residuals : pandas.DataFrame
        One row per point and quantity: ``point``, ``quantity``, ``measured``, ``model``,
        ``residual`` (model minus measured), ``sigma``, ``weighted`` (residual / sigma),
        ``outlier`` (bool).
    outliers : pandas.DataFrame
        The rows of ``residuals`` flagged as outliers.
    failed : pandas.DataFrame
        Points that did not solve at the fitted values (or at the start): ``point``,
        ``error``; empty when every point converged.
    scenario : dict
        The calibrated scenario document (flat: templates expanded) with the fitted values.
    start : dict
        Free path -> start value.
    bounds : dict
        Free path -> (low, high) used.
    correlation : pandas.DataFrame
        Correlation of the estimates (free paths as index and columns).
    success : bool
        The optimiser met a convergence criterion (see ``message``).
    message : str
        The optimiser's stop message.
    cost : float
        Half the sum of squared weighted residuals at the fit [-].
    residual_sigma : float
        Root of the residual variance per degree of freedom [-] (1 when the sigmas are right).
    evaluations : int
        Evaluations of all points (the Jacobian's included).
    solves : int
        Point solves.
    elapsed_s : float
        Wall time [s].
    """

    values: dict[str, float]
    std_errors: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    unidentifiable: dict[str, str]
    residuals: pd.DataFrame
    outliers: pd.DataFrame
    failed: pd.DataFrame
    scenario: dict[str, Any]
    start: dict[str, float]
    bounds: dict[str, tuple[float, float]]
    correlation: pd.DataFrame
    success: bool
    message: str
    cost: float
    residual_sigma: float
    evaluations: int = 0
    solves: int = 0
    elapsed_s: float = 0.0
    conditions: list[str] = field(default_factory=list)
    quantities: list[str] = field(default_factory=list)

    def table(self) -> pd.DataFrame:
        """One row per free path: start, value, std_error, low, high, identifiable, reason."""
        rows = [
            {
                "parameter": path,
                "start": self.start[path],
                "value": value,
                "std_error": self.std_errors[path],
                "low": self.intervals[path][0],
                "high": self.intervals[path][1],
                "identifiable": path not in self.unidentifiable,
                "reason": self.unidentifiable.get(path, ""),
            }
            for path, value in self.values.items()
        ]
        return pd.DataFrame(rows).set_index("parameter")

    def report(self) -> str:
        """The fit in a few lines, for people."""
        lines = [
            f"calibration: {len(self.values)} free parameters, "
            f"{self.residuals['point'].nunique() if len(self.residuals) else 0} points, "
            f"{len(self.quantities)} quantities; {self.message} "
            f"({self.evaluations} evaluations, {self.solves} solves, {self.elapsed_s:.1f} s)"
        ]
        for path, value in self.values.items():
            low, high = self.intervals[path]
            if path in self.unidentifiable:
                lines.append(f"  {path} = {value:.6g}  UNIDENTIFIABLE: {self.unidentifiable[path]}")
            else:
                lines.append(
                    f"  {path} = {value:.6g} +/- {self.std_errors[path]:.3g} "
                    f"(95 %: {low:.6g} .. {high:.6g}; start {self.start[path]:.6g})"
                )
        lines.append(f"residual sigma {self.residual_sigma:.3g}; outliers {len(self.outliers)}")
        for _, row in self.failed.iterrows():
            lines.append(f"  point {row['point']} failed: {row['error']}")
        return "\n".join(lines)


def _issue(where: str, message: str) -> ScenarioError:
    return ScenarioError([ScenarioIssue(where, message)], source="calibrate")


def _read_measurements(measurements: Any) -> pd.DataFrame:
    if isinstance(measurements, pd.DataFrame):
        return measurements.reset_index(drop=True)
    if isinstance(measurements, str | Path):
        try:
            return pd.read_csv(measurements)
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"measurements {str(measurements)!r}: {exc}") from None
    return pd.DataFrame(measurements)


def _columns(
    flat: Any, frame: pd.DataFrame, free: Sequence[str]
) -> tuple[list[SweepPath], list[Quantity]]:
    """Condition and measured-quantity columns (each resolved; bad ones name the column)."""
    conditions: list[SweepPath] = []
    quantities: list[Quantity] = []
    for column in map(str, frame.columns):
        if column in _RESERVED:
            continue
        try:
            spec = resolve_path(flat, column)
        except ScenarioError:
            quantities.append(resolve_quantity(flat, column))
            continue
        if spec.kind == "solver":
            raise _issue(f"measurements[{column!r}]", "a solver setting is not a condition")
        if column in free:
            raise _issue(
                f"measurements[{column!r}]",
                "is a free parameter and a condition column at once; drop one",
            )
        conditions.append(spec)
    if not quantities:
        raise _issue(
            "measurements",
            "no measured column: name result quantities such as summary.heating_capacity_w, "
            "compressor.power or edges.compressor:outlet.t_c",
        )
    return conditions, quantities


def _numbers(frame: pd.DataFrame, column: str, allow_missing: bool) -> np.ndarray:
    values = pd.to_numeric(frame[column], errors="coerce")
    bad = values.isna() & (frame[column].notna() | (not allow_missing))
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise _issue(
            f"measurements[{column!r}]", f"row {row}: {frame[column].iloc[row]!r} is not a number"
        )
    out: np.ndarray = values.to_numpy(dtype=float)
    return out


def _bounds(flat: Any, spec: SweepPath, start: float, given: Any) -> tuple[float, float]:
    if given is not None:
        low, high = (float(v) if v is not None else None for v in given)
        return (-np.inf if low is None else low, np.inf if high is None else high)
    low, high = -np.inf, np.inf
    if spec.kind == "component":
        comp_spec = get_spec(flat.components[spec.owner].type)
        param = comp_spec.param(spec.key) if comp_spec else None
        if param is not None:
            margin = 1e-6 * max(abs(start), 1.0)
            if param.minimum is not None:
                low = float(param.minimum)
            if param.exclusive_minimum is not None:
                low = float(param.exclusive_minimum) + margin
            if param.maximum is not None:
                high = float(param.maximum)
            if param.exclusive_maximum is not None:
                high = float(param.exclusive_maximum) - margin
    return low, high


def _free(
    flat: Any,
    free: Sequence[str],
    start: Mapping[str, float] | None,
    bounds: Mapping[str, Any] | None,
) -> tuple[list[SweepPath], np.ndarray, list[tuple[float, float]]]:
    if not free:
        raise _issue("free", "name at least one free parameter (e.g. condenser.ua)")
    specs, theta0, limits = [], [], []
    for path in free:
        try:
            spec = resolve_path(flat, path)
        except ScenarioError as exc:
            raise _issue(f"free[{path!r}]", "; ".join(i.message for i in exc.issues)) from None
        if spec.kind == "solver":
            raise _issue(f"free[{path!r}]", "a solver setting cannot be calibrated")
        value: Any = (start or {}).get(path)
        if value is None and spec.kind == "component":
            value = flat.components[spec.owner].params.get(spec.key)
            comp_spec = get_spec(flat.components[spec.owner].type)
            param = comp_spec.param(spec.key) if comp_spec else None
            if value is None and param is not None:
                value = param.default  # a calibration factor starts at 1
        elif value is None:
            loop = next(c for c in flat.controls if c.id == spec.owner)
            value = getattr(loop, spec.key)
        if value is None:
            raise _issue(
                f"free[{path!r}]",
                f"{spec.owner!r} has no {spec.key!r} to start from: give it in the scenario or "
                "in start=",
            )
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise _issue(f"free[{path!r}]", f"start value {value!r} is not a number") from None
        low, high = _bounds(flat, spec, value, (bounds or {}).get(path))
        if not low <= value <= high:
            raise _issue(
                f"free[{path!r}]", f"start value {value:g} is outside bounds ({low:g}, {high:g})"
            )
        specs.append(spec)
        theta0.append(value)
        limits.append((low, high))
    unknown = sorted(set(start or {}) - set(free)) + sorted(set(bounds or {}) - set(free))
    if unknown:
        raise _issue(f"free[{unknown[0]!r}]", "has a start value or bounds but is not free")
    return specs, np.array(theta0), limits


def _check_start(base: dict[str, Any], specs: list[SweepPath], theta: np.ndarray) -> None:
    """The scenario with each start value set passes the scenario checks (a clear error if not)."""
    for spec, value in zip(specs, theta):
        try:
            load_scenario(case_document(base, [spec], (float(value),)))
        except ScenarioError as exc:
            raise _issue(
                f"free[{spec.path!r}]",
                "the scenario with this parameter set is invalid: "
                + "; ".join(str(i) for i in exc.issues),
            ) from None


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
        saved = list(self.solver.solutions), list(self.solver.jacobians)
        columns = []
        for k in range(len(theta)):
            step = DIFF_STEP * max(abs(theta[k]), 1e-3)
            bumped = theta.copy()
            bumped[k] += step
            columns.append((self.residuals(bumped) - r0) / step)
            self.solver.solutions, self.solver.jacobians = list(saved[0]), list(saved[1])
        return np.column_stack(columns)


def _default_sigma(quantity: Quantity, values: np.ndarray) -> float:
    if quantity.is_temperature:
        return 0.1
    finite = values[np.isfinite(values)]
    rms = float(np.sqrt(np.mean(finite**2))) if finite.size else 0.0
    return 0.01 * rms if rms > 0 else 1.0


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
    frame = _read_measurements(measurements)
    if frame.empty:
        raise CalibrationError("measurements: no rows")
    conditions, quantities = _columns(flat, frame, free)
    specs, theta0, limits = _free(flat, free, start, bounds)
    base = flat.to_dict()
    _check_start(base, specs, theta0)
    cond = np.column_stack(
        [_numbers(frame, s.path, False) for s in conditions] or [np.zeros((len(frame), 0))]
    )
    measured = np.column_stack([_numbers(frame, q.path, True) for q in quantities])
    labels = [str(v) for v in frame["point"]] if "point" in frame else [str(i) for i in frame.index]
    sig = np.array(
        [
            float((sigma or {}).get(q.path) or _default_sigma(q, measured[:, k]))
            for k, q in enumerate(quantities)
        ]
    )
    unknown_sigma = sorted(set(sigma or {}) - {q.path for q in quantities})
    if unknown_sigma:
        raise _issue(f"sigma[{unknown_sigma[0]!r}]", "is not a measured column")
    invalid = _invalid_points(base, conditions, cond)
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


def _invalid_points(
    base: dict[str, Any], conditions: list[SweepPath], values: np.ndarray
) -> dict[int, str]:
    """Points whose conditions fail the scenario checks -> the checks' message."""
    out: dict[int, str] = {}
    for i, row in enumerate(values):
        try:
            load_scenario(case_document(base, conditions, tuple(float(v) for v in row)))
        except ScenarioError as exc:
            out[i] = "invalid conditions: " + "; ".join(str(issue) for issue in exc.issues)
    return out


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
