"""Part load: solve a scenario for a required capacity, the control parameter as the unknown.

The control parameter (a compressor's ``speed_hz``) is found by secant steps, with a bracketed
scalar root find (:func:`scipy.optimize.brentq`) as the fallback, around :func:`workbench.solve`
on one prepared system
(:func:`workbench.solver.prepare`); values are set the way sweeps set them
(:func:`workbench.sweep.prepared.apply_values`) and each solve is warm-started from the last
converged one. The parameter is clamped to its range: above the maximum the unit delivers its
full capacity (the rest is back-up heat); below the minimum it runs at the minimum and cycles
(the bin method's degradation then applies).

The water side can be held at its outlet: the inlet temperature ``T_in`` is moved until the
solved outlet meets the required supply temperature, ``T_in = T_supply - Q / C`` with the
water's capacity rate ``C = Q / (T_out - T_in)`` read from the solve (C depends on T_in only
through the water's heat capacity, so two or three rounds settle it to 1e-9 K).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from scipy.optimize import brentq

from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario import FlatScenario, as_flat
from workbench.scenario.types import ScenarioLike
from workbench.solver import SolveResult, prepare, solve
from workbench.sweep.paths import (
    SweepPath,
    case_document,
    read_output,
    resolve_output,
    resolve_path,
)
from workbench.sweep.prepared import apply_values
from workbench.units import ZERO_CELSIUS_K

__all__ = ["CapacitySolver", "PartLoadResult", "part_load_sweep", "solve_for_capacity"]

WATER_TOLERANCE_K = 1e-9
"""How closely a held water outlet meets its temperature [K]."""

CAPACITY_RTOL = 1e-10
"""Relative tolerance of the control parameter found by the bracketed root find [-]."""

SECANT_RTOL = 1e-9
"""Secant steps stop when the capacity meets the target this closely, or the step is this
small (relative; the solver resolves the capacity no finer) [-]."""

WATER_RESEARCH_K = 1e-6
"""A held water inlet that moves more than this [K] has the control searched again; a smaller
move changes the capacity by less than the solver resolves, so the control is kept."""

SECANT_STEPS = 8
"""Secant steps before the bracketed root find takes over."""


@dataclass
class PartLoadResult:
    """One operating point solved for a required capacity.

    Attributes
    ----------
    target_w : float
        Required capacity [W].
    capacity_w : float
        Capacity reached [W] (NaN when not converged).
    cop : float
        COP of the solved point [-] (NaN when not converged).
    control : float
        Value of the control parameter (speed [Hz]).
    limit : str or None
        ``"max"`` (capacity short of the target), ``"min"`` (the unit cycles) or None.
    water_inlet : float
        Water inlet value as set (in the parameter's unit, K or degC).
    full_capacity_w : float
        Capacity at the highest control value (full speed) at the same conditions [W].
    full_cop : float
        COP at full speed at the same conditions [-].
    converged : bool
        Every solve of the point converged.
    hint : str
        Why not, when not converged.
    values : dict
        Path -> value set on the scenario (re-solving the document with these gives the point).
    result : SolveResult or None
        The final solve.
    """

    target_w: float
    capacity_w: float = math.nan
    cop: float = math.nan
    control: float = math.nan
    limit: str | None = None
    water_inlet: float = math.nan
    full_capacity_w: float = math.nan
    full_cop: float = math.nan
    converged: bool = False
    hint: str = ""
    values: dict[str, float] = field(default_factory=dict)
    result: SolveResult | None = None


class _NotConverged(Exception):
    def __init__(self, result: SolveResult) -> None:
        super().__init__(result.hint or result.stop_reason)
        self.result = result


def _in_kelvin(path: str) -> bool:
    return path.endswith("_k")


class CapacitySolver:
    """Solves one scenario at several conditions for a required capacity.

    Parameters
    ----------
    flat : FlatScenario
        The scenario (its values are the starting point).
    outdoor : str or None
        Path of the outdoor temperature (``_c`` or ``_k``), or of any value set per point.
    water : str or None
        Path of the water inlet temperature (``_c`` or ``_k``); None: the water is not set.
    control : str
        Path of the control parameter.
    output : str
        Path of the capacity output [W] (its component must report
        ``secondary_outlet_temperature`` when the water outlet is held).
    bounds : tuple of float
        Lowest and highest control value.
    cop_key : str
        Summary key of the COP (``cop_heating``).
    """

    def __init__(
        self,
        flat: FlatScenario,
        outdoor: str | None,
        water: str | None,
        control: str,
        output: str,
        bounds: tuple[float, float],
        cop_key: str = "cop_heating",
    ) -> None:
        self.doc = flat.to_dict()
        self.system = prepare(copy.deepcopy(self.doc))
        self.slots: list[SweepPath | None] = [
            resolve_path(flat, p) if p is not None else None for p in (outdoor, water, control)
        ]
        self.specs: list[SweepPath] = [s for s in self.slots if s is not None]
        self.output = resolve_output(flat, output)
        self.water_out = SweepPath(
            f"{self.output.owner}.secondary_outlet_temperature",
            "component",
            self.output.owner,
            "secondary_outlet_temperature",
        )
        self.lo, self.hi = bounds
        self.cop_key = cop_key
        self.last: SolveResult | None = None
        self.solves = 0
        self.full_capacity_w = math.nan
        self.full_cop = math.nan

    # -- one solve --------------------------------------------------------------------------
    def run(self, outdoor: float, water_in: float, control: float) -> SolveResult:
        """Solve at the given values (warm start, then cold); raise when not converged."""
        values = (outdoor, water_in, control)
        apply_values(
            self.system, self.specs, tuple(v for s, v in zip(self.slots, values) if s is not None)
        )
        starts: list[SolveResult | None] = [self.last] if self.last is not None else []
        starts.append(None)
        result: SolveResult | None = None
        for start in starts:
            self.solves += 1
            result = solve(self.doc, system=self.system, initial=start)
            if result.converged:
                self.last = result
                return result
        assert result is not None
        raise _NotConverged(result)

    def capacity(self, result: SolveResult) -> float:
        """Capacity output of a result [W]."""
        return float(read_output(result, self.output))

    def _water_c(self, result: SolveResult, water_in: float) -> tuple[float, float]:
        """Water outlet temperature [unit of the water path] and capacity rate [W/unit]."""
        t_out_k = float(read_output(result, self.water_out))
        water = self.slots[1]
        assert water is not None
        t_out = t_out_k if _in_kelvin(water.path) else t_out_k - ZERO_CELSIUS_K
        q = self.capacity(result)
        rate = q / (t_out - water_in) if t_out != water_in else math.inf
        return t_out, rate

    # -- a point ----------------------------------------------------------------------------
    def solve_for(
        self, outdoor: float, target_w: float, supply: float | None, water_in: float
    ) -> PartLoadResult:
        """The operating point at ``outdoor`` that delivers ``target_w`` (clamped).

        Parameters
        ----------
        outdoor : float
            Outdoor temperature [unit of its path].
        target_w : float
            Required capacity [W].
        supply : float or None
            Water outlet temperature to hold [unit of the water path]; None: the water inlet is
            ``water_in`` as given.
        water_in : float
            Starting (or fixed) water inlet temperature [unit of the water path].

        Returns
        -------
        PartLoadResult
            Converged or not (with the hint of the solve that failed).
        """
        point = PartLoadResult(target_w=target_w)
        try:
            control = self._start_control()
            if supply is not None:
                for _ in range(4):  # settle the capacity rate at the target heat
                    res = self.run(outdoor, water_in, control)
                    _, rate = self._water_c(res, water_in)
                    new = supply - target_w / rate
                    if abs(new - water_in) < WATER_TOLERANCE_K:
                        break
                    water_in = new
            control, limit, res = self._control_for(outdoor, water_in, target_w)
            for _ in range(40):
                if supply is None:
                    break
                t_out, rate = self._water_c(res, water_in)
                if abs(t_out - supply) < WATER_TOLERANCE_K:
                    break
                new = supply - self.capacity(res) / rate
                moved, water_in = abs(new - water_in), new
                if limit is None and moved > WATER_RESEARCH_K:
                    # the capacity is the target: find the control again
                    control, limit, res = self._control_for(outdoor, water_in, target_w)
                else:  # held at a bound, or a move too small to change the capacity
                    res = self.run(outdoor, water_in, control)
            point.limit = limit
            # full speed at the point's final conditions (the bracket's solve may predate them)
            full = res if limit == "max" else self.run(outdoor, water_in, self.hi)
            self.full_capacity_w = self.capacity(full)
            self.full_cop = float(full.summary[self.cop_key])
            self.last = res  # the next point is warm-started from this one
        except _NotConverged as exc:
            point.hint = exc.result.hint or f"stopped: {exc.result.stop_reason}"
            point.result = exc.result
            point.values = self._values(outdoor, water_in, control)
            point.control, point.water_inlet = control, water_in
            return point
        point.converged = True
        point.result = res
        point.control, point.water_inlet = control, water_in
        point.capacity_w = self.capacity(res)
        point.full_capacity_w = self.full_capacity_w
        point.full_cop = self.full_cop
        point.cop = float(res.summary[self.cop_key])
        point.values = self._values(outdoor, water_in, control)
        return point

    def _values(self, outdoor: float, water_in: float, control: float) -> dict[str, float]:
        values = (outdoor, water_in, control)
        return {s.path: float(v) for s, v in zip(self.slots, values) if s is not None}

    def _start_control(self) -> float:
        """Where the speed search starts: full speed.

        Capacity is nearly proportional to speed, so the first secant step from there lands close.
        """
        return self.hi

    def _control_for(
        self, outdoor: float, water_in: float, target_w: float
    ) -> tuple[float, str | None, SolveResult]:
        """Control value for the target at fixed water inlet, clamped to the bounds.

        Secant steps from the current value first (capacity is nearly proportional to speed, so
        three or four solves usually settle it to :data:`SECANT_RTOL`); a step that leaves the
        range checks the bound (``max``: capacity short of the target, ``min``: the unit
        cycles); no settlement in :data:`SECANT_STEPS` steps falls back to a bracketed
        :func:`scipy.optimize.brentq` over the whole range.
        """
        memo: dict[float, SolveResult] = {}

        def at(value: float) -> SolveResult:
            if value not in memo:
                memo[value] = self.run(outdoor, water_in, value)
            return memo[value]

        def clamp(value: float) -> float:
            return min(self.hi, max(self.lo, value))

        n0 = clamp(self._start_control())
        q0 = self.capacity(at(n0))
        n1 = clamp(n0 * target_w / q0) if q0 > 0 else self.hi
        for _ in range(SECANT_STEPS):
            q1 = self.capacity(at(n1))
            if n1 == self.hi and q1 <= target_w:
                return self.hi, "max", at(self.hi)
            if n1 == self.lo and q1 >= target_w:
                return self.lo, "min", at(self.lo)
            settled = abs(n1 - n0) <= SECANT_RTOL * abs(n1)  # below the solver's resolution
            if abs(q1 - target_w) <= SECANT_RTOL * target_w or settled:
                return n1, None, at(n1)
            if q1 == q0:
                break
            n0, q0, n1 = n1, q1, clamp(n1 + (target_w - q1) * (n1 - n0) / (q1 - q0))
        if self.capacity(at(self.hi)) <= target_w:
            return self.hi, "max", at(self.hi)
        if self.capacity(at(self.lo)) >= target_w:
            return self.lo, "min", at(self.lo)

        def gap(value: float) -> float:
            return self.capacity(at(value)) - target_w

        found: Any = brentq(gap, self.lo, self.hi, rtol=CAPACITY_RTOL, xtol=1e-12)
        value = float(found)
        return value, None, at(value)


def _prepare_solver(
    scenario: ScenarioLike,
    control: str,
    output: str,
    bounds: tuple[float, float] | None,
    varied: str | None,
    conditions: dict[str, float] | None,
) -> CapacitySolver:
    flat = as_flat(scenario)
    if conditions:
        specs = [resolve_path(flat, p) for p in conditions]
        flat = as_flat(case_document(flat.to_dict(), specs, tuple(conditions.values())))
    owner = resolve_path(flat, control).owner
    params = flat.components[owner].params
    lo, hi = (
        bounds if bounds is not None else (params.get("min_speed_hz"), params.get("max_speed_hz"))
    )
    if lo is None or hi is None or not lo < hi:
        raise ScenarioError(
            [
                ScenarioIssue(
                    control,
                    f"no range to search ({lo}..{hi}): give bounds or "
                    "min_speed_hz/max_speed_hz on the component",
                )
            ],
            source="part load",
        )
    out_owner = resolve_output(flat, output).owner
    cooling = flat.components[out_owner].type == "Evaporator"
    cop_key = "cop_cooling" if cooling else "cop_heating"
    return CapacitySolver(flat, varied, None, control, output, (float(lo), float(hi)), cop_key)


def solve_for_capacity(
    scenario: ScenarioLike,
    capacity_kw: float,
    *,
    control: str = "compressor.speed_hz",
    output: str = "condenser.capacity",
    bounds: tuple[float, float] | None = None,
    conditions: dict[str, float] | None = None,
) -> PartLoadResult:
    """Solve a scenario for a required heating (or cooling) capacity.

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        The scenario.
    capacity_kw : float
        Required capacity [kW].
    control : str
        Path of the control parameter (the compressor speed).
    output : str
        Path of the capacity output [W]: ``condenser.capacity`` for heating, an evaporator's
        ``capacity`` for cooling (the COP is then ``cop_cooling``).
    bounds : tuple of float, optional
        Range of the control parameter (default: the component's ``min_speed_hz`` and
        ``max_speed_hz``).
    conditions : dict, optional
        Path -> value set before solving (an outdoor temperature ...).

    Returns
    -------
    PartLoadResult
        ``control`` found (clamped, ``limit`` ``"max"`` or ``"min"`` when at a bound),
        ``capacity_w``, ``cop``, ``converged`` and the ``hint`` when not.

    Raises
    ------
    ScenarioError
        Invalid scenario, a path that names nothing, or no range for the control parameter.
    """
    solver = _prepare_solver(scenario, control, output, bounds, None, conditions)
    return solver.solve_for(math.nan, capacity_kw * 1e3, None, math.nan)


def part_load_sweep(
    scenario: ScenarioLike,
    path: str,
    values: list[float],
    capacity_kw: float | list[float],
    *,
    control: str = "compressor.speed_hz",
    output: str = "condenser.capacity",
    bounds: tuple[float, float] | None = None,
) -> pd.DataFrame:
    """An off-design sweep at required capacity: for each value of ``path``, the control found.

    Each point is warm-started from the last one on one prepared system.

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        The scenario.
    path : str
        The swept parameter (``evaporator.air_inlet_temp_c`` ...).
    values : list of float
        Its values [unit of the path].
    capacity_kw : float or list of float
        Required capacity per value (one for all) [kW].
    control, output, bounds
        As for :func:`solve_for_capacity`.

    Returns
    -------
    pandas.DataFrame
        One row per value: the path's column, ``target_kw``, ``capacity_kw``, ``cop``, the control
        path's column, ``limit``, ``converged``, ``hint``.
    """
    targets = capacity_kw if isinstance(capacity_kw, list) else [capacity_kw] * len(values)
    if len(targets) != len(values):
        raise ValueError("capacity_kw: one value, or one per swept value")
    solver = _prepare_solver(scenario, control, output, bounds, path, None)
    rows = []
    for value, target in zip(values, targets):
        point = solver.solve_for(float(value), target * 1e3, None, math.nan)
        rows.append(
            {
                path: value,
                "target_kw": target,
                "capacity_kw": point.capacity_w / 1e3,
                "cop": point.cop,
                control: point.control,
                "limit": point.limit,
                "converged": point.converged,
                "hint": point.hint or None,
            }
        )
    return pd.DataFrame(rows)
