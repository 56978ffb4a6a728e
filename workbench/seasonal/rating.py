"""The rating of a scenario: solve the EN 14825 test points, then apply the bin method.

For each test point of the climate (A, B, C, D, G for the colder season, E at the operation limit
TOL and F at the bivalent temperature Tbiv) the scenario is solved at the point's outdoor and
water outlet temperature, the control parameter chosen so the capacity meets the part load
``Pdesignh (Tj - 16)/(Tdesignh - 16)`` (clamped to its range, :mod:`workbench.seasonal.partload`).
The solved capacity and COP are the declared points of :func:`workbench.seasonal.scop_from_declared`.
In cooling (``"mode": "cooling"``) the points are A..D of the cooling season (35, 30, 25, 20 degC,
part load ``(Tj - 16)/(35 - 16)``), the chilled water held at 7 or 18 degC, and the EER points go
to :func:`workbench.seasonal.seer_from_declared`.

Where the standard leaves a choice (docs/seasonal.md):

* Water outlet of a variable-outlet unit at E and F: linear in Tj between the standard's points
  (the design point at Tdesignh with 35/55 degC and A..D); below Tdesignh, 35/55 degC.
* E and F below the climate's design temperature (TOL -15 degC in the warmer season) are
  solved at the design temperature: the season has no colder bin.
* A point whose temperature equals another's (F at A's -7 degC) is solved once, under the
  standard's name first (``A/F``).
* A test point that does not converge leaves the rating incomplete: the figures are None, the
  point is named with its solver hint.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from workbench.errors import ScenarioError, ScenarioIssue
from workbench.scenario import FlatScenario, ScenarioConfig, flatten, load_scenario
from workbench.scenario.seasonal import SeasonalConfig
from workbench.scenario.types import ScenarioLike
from workbench.seasonal import en14825
from workbench.seasonal.bins import (
    Inconsistency,
    SeasonalCooling,
    SeasonalHeating,
    part_load_ratio,
    scop_from_declared,
    seer_from_declared,
    shortfalls_at_bivalent,
)
from workbench.seasonal.humidity import en14825_outdoor_rh
from workbench.seasonal.partload import CapacitySolver, PartLoadResult
from workbench.seasonal.us import USRating, hspf2_from_declared
from workbench.sweep.paths import SweepPath, resolve_path
from workbench.sweep.prepared import apply_values
from workbench.units import ZERO_CELSIUS_K

__all__ = ["TEST_POINT_COLUMNS", "SeasonalRating", "rate", "rating_conditions"]

TEST_POINT_COLUMNS = (
    "name",
    "t_c",
    "supply_c",
    "load_kw",
    "capacity_kw",
    "cop",
    "part_load",
    "speed_hz",
    "full_capacity_kw",
    "full_cop",
    "limit",
    "converged",
    "hint",
    "outdoor_rh",
)
"""Columns of the test points table (``speed_hz``: the control parameter's value;
``full_capacity_kw``, ``full_cop``: capacity and COP at the highest value, same conditions;
``outdoor_rh``: the outdoor air's relative humidity set on a dehumidifying outdoor coil, None
when the coil has no humidity, :func:`outdoor_humidity_path`)."""


@dataclass
class SeasonalRating:
    """A scenario's seasonal rating.

    Attributes
    ----------
    name : str
        Scenario name.
    settings : SeasonalConfig
        The ``seasonal`` block used (climate possibly overridden).
    complete : bool
        Every test point converged; False leaves the figures None.
    scop, scop_on, scop_net, eta_s : float or None
        Seasonal figures [-, %] (None when incomplete; ``eta_s`` is eta_s,c in cooling).
    seer, seer_on : float or None
        Cooling figures [-] (``mode`` cooling; None otherwise).
    test_points : pandas.DataFrame
        One row per test point (:data:`TEST_POINT_COLUMNS`).
    bins : pandas.DataFrame or None
        The bin method's table (None when incomplete).
    heating : SeasonalHeating or None
        The bin method's full result (heating).
    cooling : SeasonalCooling or None
        The bin method's full result (cooling).
    points : list of PartLoadResult
        The solved points (values to re-solve each, solve results).
    solves : int
        Solver calls spent.
    """

    name: str
    settings: SeasonalConfig
    complete: bool
    scop: float | None
    scop_on: float | None
    scop_net: float | None
    eta_s: float | None
    test_points: pd.DataFrame
    bins: pd.DataFrame | None
    heating: SeasonalHeating | None = None
    cooling: SeasonalCooling | None = None
    seer: float | None = None
    seer_on: float | None = None
    points: list[PartLoadResult] = field(default_factory=list)
    solves: int = 0

    @property
    def inconsistencies(self) -> list[Inconsistency]:
        """What does not hold together (empty when incomplete).

        A heating rating with ``bivalent_c`` lists each test point at or above Tbiv whose
        solved capacity is short of the load (``capacity_below_load``): the back-up heat is
        charged there, as the machine needs it, but the block's Tbiv is not met.
        """
        result = self.heating if self.heating is not None else self.cooling
        return list(result.inconsistencies) if result is not None else []

    @property
    def lowest_cop_point(self) -> str | None:
        """The converged test point with the lowest COP (None when there is none)."""
        ok = self.test_points[self.test_points["converged"]]
        if ok.empty:
            return None
        return str(ok.loc[ok["cop"].idxmin(), "name"])

    @property
    def limiting_point(self) -> str | None:
        """The test point that limits SCOP: the one whose 10 % better COP raises SCOP most.

        None when the rating is incomplete (see :meth:`sensitivity`).
        """
        if not self.complete:
            return None
        return str(self.sensitivity().loc[0, "name"])

    def sensitivity(self, factor: float = 1.1) -> pd.DataFrame:
        """Which test point limits SCOP: the SCOP with each point's COP raised by ``factor``.

        Parameters
        ----------
        factor : float
            Multiplier on one test point's COP at a time [-].

        Returns
        -------
        pandas.DataFrame
            ``name``, ``t_c``, ``cop``, ``scop`` (``seer`` in cooling; with that point improved)
            and ``gain`` (minus the rating's figure), largest gain first: the first row is the
            point whose efficiency matters most.

        Raises
        ------
        ValueError
            The rating is incomplete.
        """
        figure = self.seer if self.settings.mode == "cooling" else self.scop
        if not self.complete or figure is None:
            raise ValueError("the rating is incomplete: no seasonal figure to vary")
        col = "seer" if self.settings.mode == "cooling" else "scop"
        base = self.test_points[["name", "t_c", "capacity_kw", "cop"]].to_dict(orient="records")
        rows = []
        for i, point in enumerate(base):
            varied = [dict(p) for p in base]
            varied[i]["cop"] = point["cop"] * factor
            _, value = _bin_method(self.settings, varied)
            rows.append(
                {"name": point["name"], "t_c": point["t_c"], "cop": point["cop"], col: value}
            )
        out = pd.DataFrame(rows)
        out["gain"] = out[col] - figure
        return out.sort_values("gain", ascending=False, ignore_index=True)

    def hspf2(self, region: int = 4) -> USRating:
        """Indicative HSPF2 (AHRI 210/240-2023) from the full-speed capacity and COP.

        The test points' full-speed line is the declared line of
        :func:`workbench.seasonal.hspf2_from_declared` (Cd 0.25, variable-speed load factor, the
        operation limit as the cut-out). Indicative only: AHRI 210/240 rates air-source unitary
        (air-to-air) equipment at its own test conditions (docs/seasonal.md).

        Parameters
        ----------
        region : int
            Climate region 1..6.

        Returns
        -------
        USRating
            HSPF2 [Btu/Wh] and its bins.

        Raises
        ------
        ValueError
            The rating is incomplete.
        """
        if not self.complete or self.settings.mode != "heating":
            raise ValueError("HSPF2 needs a complete heating rating")
        pts = [
            {"t_c": r.t_c, "capacity_kw": r.full_capacity_kw, "cop": r.full_cop}
            for r in self.test_points.itertuples()
        ]
        return hspf2_from_declared(pts, region=region, cut_out_c=self.settings.operation_limit_c)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: figures, test points and bins (NaN as None)."""

        def rows(frame: pd.DataFrame | None) -> list[dict[str, Any]] | None:
            if frame is None:
                return None
            out = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
            return [{str(k): _plain(v) for k, v in row.items()} for row in out]

        s = self.settings
        return {
            "name": self.name,
            "standard": s.standard,
            "mode": s.mode,
            "climate": s.climate,
            "application": s.application,
            "design_load_kw": s.design_load_kw,
            "complete": self.complete,
            "scop": self.scop,
            "scop_on": self.scop_on,
            "scop_net": self.scop_net,
            "eta_s": self.eta_s,
            "seer": self.seer,
            "seer_on": self.seer_on,
            "limiting_point": self.limiting_point,
            "lowest_cop_point": self.lowest_cop_point,
            "hspf2_indicative": self.hspf2().value
            if self.complete and s.mode == "heating"
            else None,
            "test_points": rows(self.test_points),
            "bins": rows(self.bins),
            "inconsistencies": [
                {"kind": i.kind, "where": i.where, "message": i.message, "value": i.value}
                for i in self.inconsistencies
            ],
        }


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _outlet_c(settings: SeasonalConfig, t_c: float) -> float:
    """Water outlet temperature of the test condition at ``t_c`` [degC]."""
    design_out = en14825.APPLICATIONS[settings.application]
    if settings.outlet == "fixed":
        return design_out
    season = en14825.CLIMATES[settings.climate]
    table = sorted(
        [(season.design_c, design_out)]
        + [
            (p.t_c, p.outlet_c[settings.application])
            for p in en14825.HEATING_TEST_POINTS[settings.climate]
        ]
    )
    if t_c <= table[0][0]:
        return table[0][1]
    if t_c >= table[-1][0]:
        return table[-1][1]
    for (t0, y0), (t1, y1) in itertools.pairwise(table):
        if t0 <= t_c <= t1:
            return y0 + (y1 - y0) * (t_c - t0) / (t1 - t0)
    raise AssertionError(t_c)


def rating_conditions(settings: SeasonalConfig) -> list[tuple[str, float, float]]:
    """The test points of a rating: ``(name, Tj [degC], water outlet [degC])``, coldest first.

    Parameters
    ----------
    settings : SeasonalConfig
        The ``seasonal`` block.

    Returns
    -------
    list of tuple
        A..D (G) of the climate, E at TOL and F at Tbiv; points at one temperature merged
        (``A/F``).
    """
    if settings.mode == "cooling":
        out = en14825.COOLING_APPLICATIONS[settings.application]
        return sorted(((n, t, out) for n, t in en14825.COOLING_TEST_POINTS), key=lambda c: c[1])
    season = en14825.CLIMATES[settings.climate]
    named: dict[float, list[str]] = {}
    for p in en14825.HEATING_TEST_POINTS[settings.climate]:
        named.setdefault(p.t_c, []).append(p.name)
    tol = settings.operation_limit_c if settings.operation_limit_c is not None else season.design_c
    named.setdefault(max(float(tol), season.design_c), []).append("E")
    biv = settings.bivalent_c if settings.bivalent_c is not None else season.design_c
    named.setdefault(max(float(biv), season.design_c), []).append("F")
    return [(("/".join(n)), t, _outlet_c(settings, t)) for t, n in sorted(named.items())]


def _bounds(flat: FlatScenario, settings: SeasonalConfig) -> tuple[float, float]:
    cap = settings.capacity
    owner = cap.parameter.rsplit(".", 1)[0]
    params = flat.components[owner].params if owner in flat.components else {}
    lo = cap.min if cap.min is not None else params.get("min_speed_hz")
    hi = cap.max if cap.max is not None else params.get("max_speed_hz")
    if lo is None or hi is None or not lo < hi:
        raise ScenarioError(
            [
                ScenarioIssue(
                    "seasonal.capacity",
                    f"the range of {cap.parameter} is unknown or empty ({lo}..{hi}): give "
                    "min/max here or min_speed_hz/max_speed_hz on the component",
                )
            ],
            source="seasonal",
        )
    return float(lo), float(hi)


def _temperature(path: str, t_c: float) -> float:
    return t_c + ZERO_CELSIUS_K if path.endswith("_k") else t_c


def outdoor_humidity_path(flat: FlatScenario, outdoor: str) -> SweepPath | None:
    """The ``air_inlet_rh`` of the outdoor coil when the rating must set it, else None.

    A coil from its geometry (``geometry``) or one given ``air_inlet_rh`` sees the test's
    humidity (:mod:`workbench.seasonal.humidity`); a UA coil without it stays dry.
    """
    owner = outdoor.rsplit(".", 1)[0]
    comp = flat.components.get(owner)
    if comp is None or not ("geometry" in comp.params or "air_inlet_rh" in comp.params):
        return None
    return resolve_path(flat, f"{owner}.air_inlet_rh")


def rate(
    scenario: ScenarioLike, climate: str | None = None, application: str | None = None
) -> SeasonalRating:
    """Rate a scenario to EN 14825:2018 (air-to-water, heating or cooling) from its ``seasonal`` block.

    Parameters
    ----------
    scenario : ScenarioConfig, dict, str or path
        A schema-version-2 scenario with a ``seasonal`` block.
    climate : str, optional
        ``average``, ``warmer`` or ``colder`` in place of the block's.
    application : str, optional
        ``low`` or ``medium`` in place of the block's.

    Returns
    -------
    SeasonalRating
        Complete (figures set) or incomplete (a test point did not converge: named with its
        hint, figures None).

    Raises
    ------
    ScenarioError
        Invalid document, no ``seasonal`` block, a path that names nothing, an unknown
        climate or no range for the control parameter.
    """
    config = scenario if isinstance(scenario, ScenarioConfig) else load_scenario(scenario)
    if config.seasonal is None:
        raise ScenarioError(
            [
                ScenarioIssue(
                    "seasonal", "the scenario has no seasonal block (see docs/seasonal.md)"
                )
            ],
            source="seasonal",
        )
    settings = config.seasonal
    if climate is not None:
        if climate not in en14825.CLIMATES:
            raise ScenarioError(
                [
                    ScenarioIssue(
                        "climate", f"{climate!r} is not one of {', '.join(en14825.CLIMATES)}"
                    )
                ],
                source="seasonal",
            )
        settings = settings.model_copy(update={"climate": climate})
    if application is not None:
        if application not in en14825.APPLICATIONS:
            raise ScenarioError(
                [
                    ScenarioIssue(
                        "application",
                        f"{application!r} is not one of {', '.join(en14825.APPLICATIONS)}",
                    )
                ],
                source="seasonal",
            )
        settings = settings.model_copy(update={"application": application})
    flat = flatten(config)
    bounds = _bounds(flat, settings)
    try:
        solver = CapacitySolver(
            flat,
            settings.outdoor,
            settings.water.parameter,
            settings.capacity.parameter,
            settings.capacity.output,
            bounds,
            "cop_cooling" if settings.mode == "cooling" else "cop_heating",
        )
    except ScenarioError as exc:  # name the block's field
        raise ScenarioError(
            [ScenarioIssue(f"seasonal.{i.path}", i.message) for i in exc.issues], source="seasonal"
        ) from exc
    design_c = (
        en14825.COOLING.design_c
        if settings.mode == "cooling"
        else en14825.CLIMATES[settings.climate].design_c
    )
    water_path = settings.water.parameter
    hold = settings.water.hold == "outlet"
    water_start = float(solver.system.components[solver.specs[1].owner].params[solver.specs[1].key])
    rows, points = [], []
    humidity = outdoor_humidity_path(flat, settings.outdoor)
    for name, t_c, supply_c in rating_conditions(settings):
        rh = en14825_outdoor_rh(t_c, settings.mode) if humidity is not None else None
        if humidity is not None and rh is not None:
            apply_values(solver.system, [humidity], (rh,))
        pl = part_load_ratio(t_c, design_c)
        load_kw = settings.design_load_kw * pl
        supply = _temperature(water_path, supply_c)
        point = solver.solve_for(
            _temperature(settings.outdoor, t_c),
            load_kw * 1e3,
            supply if hold else None,
            water_start if hold else supply,
        )
        if point.converged:
            water_start = point.water_inlet
        points.append(point)
        rows.append(
            {
                "name": name,
                "t_c": t_c,
                "supply_c": supply_c,
                "load_kw": load_kw,
                "capacity_kw": point.capacity_w / 1e3,
                "cop": point.cop,
                "part_load": pl,
                "speed_hz": point.control,
                "full_capacity_kw": point.full_capacity_w / 1e3,
                "full_cop": point.full_cop,
                "limit": point.limit,
                "converged": point.converged,
                "hint": point.hint or None,
                "outdoor_rh": rh,
            }
        )
    table = pd.DataFrame(rows, columns=list(TEST_POINT_COLUMNS))
    complete = bool(table["converged"].all())
    base = SeasonalRating(
        name=config.name or "",
        settings=settings,
        complete=complete,
        scop=None,
        scop_on=None,
        scop_net=None,
        eta_s=None,
        test_points=table,
        bins=None,
        points=points,
        solves=solver.solves,
    )
    if not complete:
        return base
    result, _ = _bin_method(
        settings,
        [
            {"name": r["name"], "t_c": r["t_c"], "capacity_kw": r["capacity_kw"], "cop": r["cop"]}
            for r in rows
        ],
    )
    base.bins = result.bins
    base.eta_s = result.eta_s
    if isinstance(result, SeasonalCooling):
        base.cooling = result
        base.seer, base.seer_on = result.seer, result.seer_on
    else:
        if settings.bivalent_c is not None:
            result.inconsistencies.extend(
                shortfalls_at_bivalent(
                    rows, settings.design_load_kw, settings.climate, settings.bivalent_c
                )
            )
        base.heating = result
        base.scop, base.scop_on, base.scop_net = result.scop, result.scop_on, result.scop_net
    return base


def _bin_method(
    settings: SeasonalConfig, points: list[dict[str, Any]]
) -> tuple[SeasonalHeating | SeasonalCooling, float]:
    """The bin method of the block's mode on declared points, and its headline figure."""
    off = settings.off_mode_kw.model_dump()
    if settings.mode == "cooling":
        cool = seer_from_declared(points, settings.design_load_kw, cd=settings.cd, off_mode_kw=off)
        return cool, cool.seer
    heat = scop_from_declared(
        points,
        settings.design_load_kw,
        settings.climate,
        operation_limit_c=settings.operation_limit_c,
        cd=settings.cd,
        off_mode_kw=off,
    )
    return heat, heat.scop
