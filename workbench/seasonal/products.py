"""A real product as a model: a scenario fitted to a certificate's declared points.

Who reads it: the user who has a product's EN 14825 declaration (capacity and COP at A..F, at a
35 degC water outlet) and wants what was not measured (the 55 degC declaration, another
climate, a part-load sweep); ``workbench seasonal fit`` (:mod:`workbench.seasonal.product_table`)
fits many products. It is an analysis above the solver: each declared point is solved with the
part-load machinery (:class:`workbench.seasonal.partload.CapacitySolver`: the outdoor air at
``t_c``, the water held at its outlet ``supply_c``, the compressor speed found so the capacity
equals the declared ``capacity_kw``), and the calibration's statistics
(:func:`workbench.calibrate.statistics.parameter_statistics`) turn the fit into a
:class:`workbench.calibrate.CalibrationResult`.

The fit: weighted least squares (:func:`scipy.optimize.least_squares`, trust region, bounds)
over the free parameters, each scaled by its start value, with two residuals per point::

    r_cop = (COP_model - COP_declared) / (0.01 COP_declared)            (sigma: 1 % of COP)
    r_cap = (Q_model - Q_declared) / (0.01 Q_declared)                   (0 unless at a limit)

The capacity residual is zero while the speed found lies in the compressor's range; at full
speed (``limit: max``, the model unit too small) or at minimum speed (``limit: min``, the model
unit too large to run that slowly) it measures how far the model misses the declared capacity.
That is what ties the unit's size (``compressor.displacement_m3``) to the declaration beyond the
efficiency's dependence on speed.

The compressor description: isentropic efficiency as a function of speed,
``eta_s(n) = eta_s,rated (c0 + c1 r + c2 r^2)`` with ``r = n / n_rated`` and
``c0 = 1 - c1 - c2`` (1 at the rated speed; :mod:`workbench.components.machines.compressor`). Across a
declaration the speed runs from the minimum (D, cycling) to near the maximum (E), so the fall of
efficiency away from the rated speed shapes the COP line as much as the rated efficiency does;
the pressure ratio enters through the isentropic enthalpy rise.

Default free set (:data:`DEFAULT_FREE`): the compressor's displacement (the unit's size), its
isentropic efficiency at the rated speed and the curve's shape c2 (:data:`SPEED_SHAPE`), the
condenser's UA and the evaporator's nominal UA: five parameters for the five or six points of a
declaration (ten residuals with the capacities). The volumetric efficiency and its curve,
superheat, subcooling and water flow stay at the base scenario's values.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import least_squares

from workbench.calibrate.inputs import free_parameters
from workbench.calibrate.result import CalibrationResult
from workbench.calibrate.statistics import parameter_statistics
from workbench.scenario import (
    ScenarioLike,
    as_flat,
    flatten,
)
from workbench.seasonal.product_points import (
    Paths,
    Points,
    as_config,
    checked_points,
    issue,
    with_block,
)
from workbench.sweep.paths import SweepPath, case_document, resolve_path

__all__ = [
    "DEFAULT_FREE",
    "PREDICTION_COLUMNS",
    "fit_declared",
    "predict_declared",
]

SPEED_SHAPE = "compressor.isentropic_speed_curve[2]"
"""The free path of the speed curve's shape: its quadratic coefficient c2, with c0 following as
``1 - c1 - c2`` so that the curve stays 1 at the rated speed (c1 stays the base's)."""

DEFAULT_FREE = (
    "compressor.displacement_m3",
    "compressor.isentropic_efficiency",
    SPEED_SHAPE,
    "condenser.ua",
    "evaporator.ua_nominal_kw_k",
)
"""Free parameters of :func:`fit_declared` when ``free`` is None: the unit's size, the
compressor's efficiency at its rated speed and how it falls off away from it, and the two
exchangers' conductances."""

CURVE_FLOOR = 0.05
"""Lowest speed factor the shape may give anywhere in the speed range [-] (bounds on c2)."""

DEFAULT_RANGE = {
    "compressor.displacement_m3": (0.2, 5.0),
    "compressor.isentropic_efficiency": (0.3, 0.95),
    "condenser.ua": (0.1, 10.0),
    "evaporator.ua_nominal_kw_k": (0.1, 10.0),
}
"""Bounds of the default free parameters: factors on the start value, except the isentropic
efficiency's absolute range [-]."""

PREDICTION_COLUMNS = ("t_c", "supply_c", "capacity_kw", "cop", "speed_hz", "converged", "limit")
"""Columns of :func:`predict_declared`."""

SIGMA_RELATIVE = 0.01
"""Standard uncertainty of a declared COP and capacity, relative [-] (only ratios matter)."""

FAILED_RESIDUAL = 1.0e3
"""Residual of a point that does not solve at a trial step [-]."""

DIFF_STEP = 1.0e-4
"""Relative finite-difference step on the scaled parameters [-] (the speed search settles the
capacity to 1e-9, far inside it)."""


class _SpeedShape:
    """The speed curve's shape c2 as a free parameter (:data:`SPEED_SHAPE`)."""

    def __init__(
        self,
        flat: Any,
        start: float | None,
        bounds: tuple[float | None, float | None] | None,
    ) -> None:
        owner = resolve_path(flat, "compressor.isentropic_efficiency").owner
        key = "isentropic_speed_curve"
        self.spec = SweepPath(f"{owner}.{key}", "component", owner, key)
        params = flat.components[self.spec.owner].params
        curve = params.get("isentropic_speed_curve") or [1.0, 0.0, 0.0]
        self.c1 = float(curve[1])
        self.start = float(curve[2]) if start is None else float(start)
        rated = float(params.get("rated_speed_hz", 50.0))
        lo_r = float(params.get("min_speed_hz", rated)) / rated
        hi_r = float(params.get("max_speed_hz", rated)) / rated
        low, high = -math.inf, math.inf
        for r in (lo_r, hi_r):  # (1 - c1) + c1 r + c2 (r^2 - 1) >= CURVE_FLOOR
            rest = (1.0 - self.c1) + self.c1 * r - CURVE_FLOOR
            if r < 1.0:
                high = min(high, rest / (1.0 - r * r))
            elif r > 1.0:
                low = max(low, -rest / (r * r - 1.0))
        given = bounds or (None, None)
        self.bounds = (
            low if given[0] is None else float(given[0]),
            high if given[1] is None else float(given[1]),
        )
        if not self.bounds[0] <= self.start <= self.bounds[1]:
            raise issue(
                f"free[{SPEED_SHAPE!r}]",
                f"start {self.start:g} outside the bounds {self.bounds} (the curve must stay "
                f">= {CURVE_FLOOR} over the speed range)",
            )

    def curve(self, c2: float) -> list[float]:
        """``[c0, c1, c2]`` with the curve 1 at the rated speed."""
        return [1.0 - self.c1 - c2, self.c1, c2]


def predict_declared(
    scenario: ScenarioLike, points: Sequence[Mapping[str, Any]] | pd.DataFrame
) -> pd.DataFrame:
    """What a scenario says at declared conditions: each point solved for its capacity.

    Parameters
    ----------
    scenario : ScenarioConfig, dict, str or path
        The (fitted) scenario. Its ``seasonal`` block, if any, names the outdoor, water and
        control paths; without one: ``evaporator.air_inlet_temp_c``,
        ``condenser.secondary_inlet_temp_k`` (held at the outlet), ``compressor.speed_hz`` and
        ``condenser.capacity``.
    points : sequence of mapping or pandas.DataFrame
        ``t_c`` outdoor air [degC], ``supply_c`` water outlet [degC], ``capacity_kw`` [kW]
        (``cop`` is not needed).

    Returns
    -------
    pandas.DataFrame
        One row per point, in the given order (:data:`PREDICTION_COLUMNS`): the capacity reached
        [kW] (the declared one unless at a speed limit), the model's COP [-], the speed found
        [Hz], ``converged`` and ``limit`` (``max``, ``min`` or None).

    Raises
    ------
    ScenarioError
        Invalid scenario, a point without a needed value, or no speed range.
    """
    config = as_config(scenario)
    frame = checked_points(points, need_cop=False)
    rows = Points(flatten(config).to_dict(), Paths(config), frame).solve()
    return pd.DataFrame(rows, columns=list(PREDICTION_COLUMNS))


def _residuals(rows: list[dict[str, Any]], frame: pd.DataFrame) -> np.ndarray:
    out = []
    for row, (_, declared) in zip(rows, frame.iterrows()):
        if not row["converged"]:
            out += [FAILED_RESIDUAL, FAILED_RESIDUAL]
            continue
        out.append((row["cop"] / declared["cop"] - 1.0) / SIGMA_RELATIVE)
        out.append((row["capacity_kw"] / declared["capacity_kw"] - 1.0) / SIGMA_RELATIVE)
    return np.array(out)


def _residual_table(rows: list[dict[str, Any]], frame: pd.DataFrame) -> pd.DataFrame:
    table = []
    for k, (row, (_, declared)) in enumerate(zip(rows, frame.iterrows())):
        label = str(declared.get("name", f"{declared['t_c']:g}/{declared['supply_c']:g}"))
        if "name" not in frame.columns:
            label = f"points[{k}] {declared['t_c']:g}/{declared['supply_c']:g} degC"
        for quantity in ("cop", "capacity_kw"):
            measured = float(declared[quantity])
            model = float(row[quantity]) if row["converged"] else math.nan
            sigma = SIGMA_RELATIVE * measured
            table.append(
                {
                    "point": label,
                    "quantity": quantity,
                    "measured": measured,
                    "model": model,
                    "residual": model - measured,
                    "sigma": sigma,
                    "weighted": (model - measured) / sigma,
                    "outlier": False,
                }
            )
    return pd.DataFrame(table)


def fit_declared(
    scenario: ScenarioLike,
    points: Sequence[Mapping[str, Any]] | pd.DataFrame,
    free: Sequence[str] | None = None,
    *,
    start: Mapping[str, float] | None = None,
    bounds: Mapping[str, tuple[float | None, float | None]] | None = None,
    max_evaluations: int = 60,
) -> CalibrationResult:
    """Fit a scenario to a product's declared points (module docstring: method, free set).

    Parameters
    ----------
    scenario : ScenarioConfig, dict, str or path
        The base scenario (refrigerant, circuit; its values are the start). Paths as for
        :func:`predict_declared`.
    points : sequence of mapping or pandas.DataFrame
        ``t_c`` [degC], ``supply_c`` water outlet [degC], ``capacity_kw`` [kW], ``cop`` [-]
        (optional ``name``).
    free : sequence of str, optional
        Free paths; None: :data:`DEFAULT_FREE` (which includes the unit's size).
    start : mapping, optional
        Start values in place of the scenario's [their units].
    bounds : mapping, optional
        Path -> (low, high) in place of :data:`DEFAULT_RANGE` or the calibration's catalog.
    max_evaluations : int
        Evaluations of all points the optimiser may spend (finite differences included).

    Returns
    -------
    CalibrationResult
        ``values``, ``intervals``, ``std_errors``, ``unidentifiable``, ``residuals`` (``cop``
        and ``capacity_kw`` per point), ``failed`` and ``scenario`` (the fitted document).

    Raises
    ------
    ScenarioError
        Invalid scenario or points, an unknown free path, a start outside its bounds.
    """
    t0 = time.perf_counter()
    config = as_config(scenario)
    frame = checked_points(points, need_cop=True)
    base = flatten(config).to_dict()
    flat = as_flat(base)
    names = list(free) if free is not None else list(DEFAULT_FREE)
    given = dict(bounds or {})
    for path in names:
        if path in DEFAULT_RANGE and path not in given and (start or {}).get(path) is None:
            owner = resolve_path(flat, path).owner
            value = float(flat.components[owner].params[path.split(".", 1)[1]])
            lo, hi = DEFAULT_RANGE[path]
            absolute = path.endswith("isentropic_efficiency")
            given[path] = (lo, hi) if absolute else (lo * value, hi * value)
    regular = [p for p in names if p != SPEED_SHAPE]
    specs, theta_r, limits_r = (
        free_parameters(flat, regular, start, {k: v for k, v in given.items() if k != SPEED_SHAPE})
        if regular
        else ([], np.zeros(0), [])
    )
    shape = (
        _SpeedShape(flat, (start or {}).get(SPEED_SHAPE), given.get(SPEED_SHAPE))
        if SPEED_SHAPE in names
        else None
    )
    order = {p: k for k, p in enumerate(names)}
    theta0 = np.zeros(len(names))
    limits: list[tuple[float, float]] = [(0.0, 0.0)] * len(names)
    for p, v, lim in zip(regular, theta_r, limits_r):
        theta0[order[p]], limits[order[p]] = v, lim
    if shape is not None:
        theta0[order[SPEED_SHAPE]], limits[order[SPEED_SHAPE]] = shape.start, shape.bounds
    scale = np.where(np.abs(theta0) > 0, np.abs(theta0), 1.0)
    problem = Points(base, Paths(config), frame)
    calls = {"evaluations": 0}

    def set_values(theta: np.ndarray) -> tuple[list[SweepPath], tuple[Any, ...]]:
        out_specs = list(specs)
        out_values: list[Any] = [float(theta[order[p]]) for p in regular]
        if shape is not None:
            out_specs.append(shape.spec)
            out_values.append(shape.curve(float(theta[order[SPEED_SHAPE]])))
        return out_specs, tuple(out_values)

    def rows_at(u: np.ndarray) -> list[dict[str, Any]]:
        calls["evaluations"] += 1
        return problem.solve(*set_values(u * scale))

    def fun(u: np.ndarray) -> np.ndarray:
        return _residuals(rows_at(u), frame)

    lower = np.array([lo for lo, _ in limits]) / scale
    upper = np.array([hi for _, hi in limits]) / scale
    fit = least_squares(
        fun,
        theta0 / scale,
        bounds=(lower, upper),
        diff_step=DIFF_STEP,
        x_scale=1.0,
        max_nfev=max_evaluations,
        ftol=1e-8,
        xtol=1e-8,
    )
    theta = fit.x * scale
    final = rows_at(fit.x)
    r = _residuals(final, frame)
    # statistics on the COP rows and the capacity rows of points held at a speed limit
    keep = [2 * k for k in range(len(final))]
    keep += [2 * k + 1 for k, row in enumerate(final) if row["limit"] is not None]
    keep.sort()
    jac_theta = fit.jac[keep] / scale
    found = parameter_statistics(jac_theta, r[keep], theta, names)
    values = {p: float(v) for p, v in zip(names, theta)}
    intervals = {}
    for k, p in enumerate(names):
        if k in found.reasons:
            intervals[p] = limits[k]
        else:
            h = found.half_widths[k]
            intervals[p] = (max(theta[k] - h, limits[k][0]), min(theta[k] + h, limits[k][1]))
    residuals = _residual_table(final, frame)
    failed = [
        {"point": f"points[{k}]", "error": row["hint"]}
        for k, row in enumerate(final)
        if not row["converged"]
    ]
    return CalibrationResult(
        values=values,
        std_errors={p: float(found.std_errors[k]) for k, p in enumerate(names)},
        intervals=intervals,
        unidentifiable={names[k]: why for k, why in sorted(found.reasons.items())},
        residuals=residuals,
        outliers=residuals[residuals["outlier"]].reset_index(drop=True),
        failed=pd.DataFrame(failed, columns=["point", "error"]),
        scenario=with_block(case_document(base, *set_values(theta)), config),
        start={p: float(v) for p, v in zip(names, theta0)},
        bounds=dict(zip(names, limits)),
        correlation=pd.DataFrame(found.correlation, index=names, columns=names),
        success=bool(fit.success),
        message=str(fit.message),
        cost=float(0.5 * r @ r),
        residual_sigma=found.sigma,
        evaluations=calls["evaluations"],
        solves=problem.solver.solves,
        elapsed_s=time.perf_counter() - t0,
        conditions=["t_c", "supply_c", "capacity_kw"],
        quantities=["cop", "capacity_kw"],
    )
