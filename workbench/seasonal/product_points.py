"""Declared points solved on a scenario: the conditions, the speed found, warm starts per point.

Who reads it: :mod:`workbench.seasonal.products` (``fit_declared`` evaluates a product's points
here at every trial of its free parameters; ``predict_declared`` once). Each point is solved with
:class:`workbench.seasonal.partload.CapacitySolver` at its outdoor air temperature ``t_c``
[degC], the water held at its outlet ``supply_c`` [degC] and the compressor speed found so that
the capacity equals ``capacity_kw`` [kW], clamped to the speed range. Between evaluations each
point keeps its speed, water inlet and Newton solution (:class:`Points`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario import FlatScenario, ScenarioConfig, ScenarioLike, as_flat, load_scenario
from workbench.seasonal.partload import CapacitySolver
from workbench.solver import SolveResult
from workbench.sweep.paths import SweepPath, resolve_path
from workbench.sweep.prepared import apply_values
from workbench.units import ZERO_CELSIUS_K

__all__ = ["Paths", "Points", "as_config", "checked_points", "issue", "with_block"]


_POINT_KEYS = ("t_c", "supply_c", "capacity_kw")


def as_config(scenario: ScenarioLike) -> ScenarioConfig:
    """A scenario given any way (document, path, flat scenario) as a checked config."""
    if isinstance(scenario, ScenarioConfig):
        return scenario
    if isinstance(scenario, FlatScenario):
        return load_scenario(scenario.to_dict())
    if isinstance(scenario, os.PathLike):
        return load_scenario(Path(scenario))
    return load_scenario(scenario)


def with_block(doc: dict[str, Any], config: ScenarioConfig) -> dict[str, Any]:
    """The flat document with the base's ``seasonal`` block back (flattening drops it)."""
    if config.seasonal is not None:
        doc["seasonal"] = config.seasonal.model_dump(mode="json", exclude_none=True)
    return doc


def issue(path: str, message: str) -> ScenarioError:
    """A ScenarioError about declared points, naming ``path`` (``points[1].cop``)."""
    return ScenarioError([ScenarioIssue(path, message)], source="declared points")


def checked_points(
    points: Sequence[Mapping[str, Any]] | pd.DataFrame, need_cop: bool
) -> pd.DataFrame:
    """Declared points as a frame, ``t_c``, ``supply_c``, ``capacity_kw`` (and ``cop``) checked.

    Raises
    ------
    ScenarioError
        A missing column, or a value that is not finite (or not > 0 for capacity and COP).
    """
    frame = pd.DataFrame(points) if not isinstance(points, pd.DataFrame) else points.copy()
    keys = (*_POINT_KEYS, "cop") if need_cop else _POINT_KEYS
    for key in keys:
        if key not in frame.columns:
            raise issue(f"points.{key}", "missing: points need t_c, supply_c, capacity_kw, cop")
        values = pd.to_numeric(frame[key], errors="coerce")
        bad = ~np.isfinite(values.to_numpy(float))
        if key in ("capacity_kw", "cop"):
            bad |= values.to_numpy(float) <= 0
        if bad.any():
            i = int(np.argmax(bad))
            raise issue(
                f"points[{i}].{key}",
                f"must be a finite number > 0 here, got {frame[key].iloc[i]!r}",
            )
        frame[key] = values.astype(float)
    if frame.empty:
        raise issue("points", "no declared points")
    return frame.reset_index(drop=True)


class Paths:
    """The paths a declared point is set through: from the ``seasonal`` block, or the defaults."""

    def __init__(self, config: ScenarioConfig) -> None:
        s = config.seasonal
        self.outdoor = s.outdoor if s is not None else "evaporator.air_inlet_temp_c"
        self.water = s.water.parameter if s is not None else "condenser.secondary_inlet_temp_k"
        self.control = s.capacity.parameter if s is not None else "compressor.speed_hz"
        self.output = s.capacity.output if s is not None else "condenser.capacity"


def _temperature(path: str, t_c: float) -> float:
    return t_c + ZERO_CELSIUS_K if path.endswith("_k") else t_c


class _PointSolver(CapacitySolver):
    """The capacity solver of one product's points, remembering each point between evaluations.

    Each point's speed search starts from the speed it had at the last evaluation (not full
    speed), its water inlet from the last inlet and its Newton solve from the last solution: a
    fit changes the parameters a little at a time, so two or three solves settle a point.
    """

    start_speed: float | None = None

    def _start_control(self) -> float:
        return self.start_speed if self.start_speed is not None else self.hi


class Points:
    """One prepared system for a product's points; free values set on it per evaluation."""

    def __init__(self, doc: dict[str, Any], paths: Paths, frame: pd.DataFrame) -> None:
        flat = as_flat(doc)
        owner = resolve_path(flat, paths.control).owner
        params = flat.components[owner].params
        lo, hi = params.get("min_speed_hz"), params.get("max_speed_hz")
        if lo is None or hi is None or not lo < hi:
            raise issue(
                paths.control, f"no speed range ({lo}..{hi}): give min_speed_hz/max_speed_hz"
            )
        self.solver = _PointSolver(
            flat, paths.outdoor, paths.water, paths.control, paths.output, (float(lo), float(hi))
        )
        self.paths, self.frame = paths, frame
        water = self.solver.specs[1]
        self.water0 = float(self.solver.system.components[water.owner].params[water.key])
        self.memory: dict[int, tuple[float, float, SolveResult]] = {}

    def solve(
        self, specs: Sequence[SweepPath] = (), values: Sequence[float] = ()
    ) -> list[dict[str, Any]]:
        """Each point solved for its capacity at ``values`` of ``specs``, warmest first."""
        solver, paths, frame = self.solver, self.paths, self.frame
        if specs:
            apply_values(solver.system, list(specs), tuple(values))
        out: list[dict[str, Any]] = [{} for _ in range(len(frame))]
        water_in = self.water0
        for i in (int(k) for k in np.argsort(-frame["t_c"].to_numpy(float), kind="stable")):
            row = frame.iloc[i]
            if i in self.memory:
                solver.start_speed, water_in, solver.last = self.memory[i]
            else:
                solver.start_speed = None
            point = solver.solve_for(
                _temperature(paths.outdoor, float(row["t_c"])),
                float(row["capacity_kw"]) * 1e3,
                _temperature(paths.water, float(row["supply_c"])),
                water_in,
            )
            if point.converged and point.result is not None:
                water_in = point.water_inlet
                self.memory[i] = (point.control, point.water_inlet, point.result)
            out[i] = {
                "t_c": float(row["t_c"]),
                "supply_c": float(row["supply_c"]),
                "capacity_kw": point.capacity_w / 1e3,
                "cop": point.cop,
                "speed_hz": point.control,
                "converged": point.converged,
                "limit": point.limit,
                "hint": point.hint,
            }
        return out
