"""The inputs of a cycle calibration, checked: measurement columns, free parameters, sigmas.

Each bad input is refused before anything is solved, with a message naming the column or path
(a :class:`~workbench.errors.ScenarioError` whose issue path is ``measurements['<column>']``,
``free['<path>']`` or ``sigma['<column>']``): the command line turns it into exit code 2.

Who reads it: :func:`workbench.calibrate.calibrate`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.calibrate.quantities import Quantity, resolve_quantity
from workbench.components.catalog.specs import OBJECT_NUMBER_KEYS, get_spec
from workbench.errors import CalibrationError, ScenarioError, ScenarioIssue
from workbench.scenario import load_scenario
from workbench.sweep.paths import (
    CONTROL_FIELDS,
    SweepPath,
    case_document,
    coupling_value,
    param_value,
    resolve_path,
)

__all__ = [
    "RESERVED_COLUMNS",
    "check_start",
    "default_sigma",
    "free_parameters",
    "free_path_names",
    "invalid_points",
    "issue",
    "numbers",
    "read_measurements",
    "split_columns",
]

RESERVED_COLUMNS = ("point",)
"""Measurement columns that are neither conditions nor quantities (``point``: a row label)."""


def issue(where: str, message: str) -> ScenarioError:
    """A ScenarioError with one issue at ``where`` (source ``calibrate``)."""
    return ScenarioError([ScenarioIssue(where, message)], source="calibrate")


def read_measurements(measurements: Any) -> pd.DataFrame:
    """The measurement table: a DataFrame as given, a CSV path read, a mapping of columns.

    Raises
    ------
    CalibrationError
        The CSV cannot be read or parsed.
    """
    if isinstance(measurements, pd.DataFrame):
        return measurements.reset_index(drop=True)
    if isinstance(measurements, str | Path):
        try:
            return pd.read_csv(measurements)
        except (OSError, ValueError) as exc:
            raise CalibrationError(f"measurements {str(measurements)!r}: {exc}") from None
    return pd.DataFrame(measurements)


def split_columns(
    flat: Any, frame: pd.DataFrame, free: Sequence[str]
) -> tuple[list[SweepPath], list[Quantity]]:
    """Condition and measured-quantity columns (each resolved; bad ones name the column)."""
    conditions: list[SweepPath] = []
    quantities: list[Quantity] = []
    for column in map(str, frame.columns):
        if column in RESERVED_COLUMNS:
            continue
        try:
            spec = resolve_path(flat, column)
        except ScenarioError:
            quantities.append(resolve_quantity(flat, column))
            continue
        if spec.kind == "solver":
            raise issue(f"measurements[{column!r}]", "a solver setting is not a condition")
        if column in free:
            raise issue(
                f"measurements[{column!r}]",
                "is a free parameter and a condition column at once; drop one",
            )
        conditions.append(spec)
    if not quantities:
        raise issue(
            "measurements",
            "no measured column: name result quantities such as summary.heating_capacity_w, "
            "compressor.power or edges.compressor:outlet.t_c",
        )
    return conditions, quantities


def numbers(frame: pd.DataFrame, column: str, allow_missing: bool) -> np.ndarray:
    """A column as floats [its units]; empty cells are NaN where ``allow_missing``.

    Raises
    ------
    ScenarioError
        A cell that is not a number (or empty where not allowed), naming column and row.
    """
    values = pd.to_numeric(frame[column], errors="coerce")
    bad = values.isna() & (frame[column].notna() | (not allow_missing))
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise issue(
            f"measurements[{column!r}]", f"row {row}: {frame[column].iloc[row]!r} is not a number"
        )
    out: np.ndarray = values.to_numpy(dtype=float)
    return out


def _bounds(flat: Any, spec: SweepPath, start: float, given: Any) -> tuple[float, float]:
    if given is not None:
        low, high = (float(v) if v is not None else None for v in given)
        return (-np.inf if low is None else low, np.inf if high is None else high)
    low, high = -np.inf, np.inf
    if spec.kind == "component" and spec.key.partition(".")[0] in OBJECT_NUMBER_KEYS:
        return 1e-6, np.inf  # a correlation factor or a geometry entry: positive
    if spec.kind == "coupling":  # ua, a geometry number or a correlation factor: positive
        return (1e-6, 1.0) if spec.key == "efficiency" else (1e-6, np.inf)
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


def free_parameters(
    flat: Any,
    free: Sequence[str],
    start: Mapping[str, float] | None,
    bounds: Mapping[str, Any] | None,
) -> tuple[list[SweepPath], np.ndarray, list[tuple[float, float]]]:
    """The free paths resolved, their start values and bounds.

    Start: ``start[path]``, else the scenario's value, else the catalog default (a calibration
    factor starts at 1). Bounds: ``bounds[path]`` (None for open), else the catalog range.

    Raises
    ------
    ScenarioError
        No free path, an unknown path, a solver setting, no start value, a start outside the
        bounds, a start or bound given for a path that is not free.
    """
    if not free:
        raise issue("free", "name at least one free parameter (e.g. condenser.ua)")
    specs, theta0, limits = [], [], []
    for path in free:
        try:
            spec = resolve_path(flat, path)
        except ScenarioError as exc:
            known = free_path_names(flat)
            close = [] if path in known else difflib.get_close_matches(path, known, 3, 0.75)
            reason = (
                f"no such parameter; did you mean {' or '.join(close)}?"
                if close
                else "; ".join(i.message for i in exc.issues)
            )
            raise issue(f"free[{path!r}]", reason) from None
        if spec.kind == "solver":
            raise issue(f"free[{path!r}]", "a solver setting cannot be calibrated")
        value: Any = (start or {}).get(path)
        if value is None and spec.kind == "component":
            value = param_value(flat.components[spec.owner].params, spec.key)
            comp_spec = get_spec(flat.components[spec.owner].type)
            param = comp_spec.param(spec.key) if comp_spec else None
            if value is None and param is not None:
                value = param.default  # a calibration factor starts at 1
            if value is None and spec.key.startswith("correlation_factors."):
                value = 1.0  # a correlation factor starts at 1
        elif value is None and spec.kind == "coupling":
            value = coupling_value(flat, spec)
            if value is None and ".correlation_factors." in spec.key:
                value = 1.0  # a correlation factor starts at 1
        elif value is None:
            loop = next(c for c in flat.controls if c.id == spec.owner)
            value = getattr(loop, spec.key)
        if value is None:
            raise issue(
                f"free[{path!r}]",
                f"{spec.owner!r} has no {spec.key!r} to start from: give it in the scenario or "
                "in start=",
            )
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise issue(f"free[{path!r}]", f"start value {value!r} is not a number") from None
        low, high = _bounds(flat, spec, value, (bounds or {}).get(path))
        if not low <= value <= high:
            raise issue(
                f"free[{path!r}]", f"start value {value:g} is outside bounds ({low:g}, {high:g})"
            )
        specs.append(spec)
        theta0.append(value)
        limits.append((low, high))
    unknown = sorted(set(start or {}) - set(free)) + sorted(set(bounds or {}) - set(free))
    if unknown:
        raise issue(f"free[{unknown[0]!r}]", "has a start value or bounds but is not free")
    return specs, np.array(theta0), limits


def free_path_names(flat: Any) -> list[str]:
    """Every ``<component>.<parameter>`` and ``controls.<id>.<field>`` path of a flat scenario.

    The parameters a component sets and those its catalog entry offers; what a misspelt free
    path (``condensor.ua``) is compared with to suggest the one meant (``condenser.ua``).
    """
    names = []
    for name, comp in flat.components.items():
        spec = get_spec(comp.type)
        keys = dict.fromkeys([*comp.params, *(spec.param_names if spec else ())])
        names += [f"{name}.{key}" for key in keys]
    for loop in flat.controls:
        names += [f"controls.{loop.id}.{field}" for field in CONTROL_FIELDS]
    return names


def check_start(base: dict[str, Any], specs: list[SweepPath], theta: np.ndarray) -> None:
    """The scenario with each start value set passes the scenario checks (a clear error if not)."""
    for spec, value in zip(specs, theta):
        try:
            load_scenario(case_document(base, [spec], (float(value),)))
        except ScenarioError as exc:
            raise issue(
                f"free[{spec.path!r}]",
                "the scenario with this parameter set is invalid: "
                + "; ".join(str(i) for i in exc.issues),
            ) from None


def default_sigma(quantity: Quantity, values: np.ndarray) -> float:
    """The standard uncertainty of a quantity given none [its units].

    0.1 K for a temperature, else 1 % of the RMS of its measured values (1 when all are zero).
    """
    if quantity.is_temperature:
        return 0.1
    finite = values[np.isfinite(values)]
    rms = float(np.sqrt(np.mean(finite**2))) if finite.size else 0.0
    return 0.01 * rms if rms > 0 else 1.0


def invalid_points(
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
