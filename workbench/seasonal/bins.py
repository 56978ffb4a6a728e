"""The bin method of EN 14825:2018 from declared points: SCOP, SCOPon, SCOPnet, eta_s, SEER.

A pure calculation (no solver): the declared capacity and COP (EER) of a unit at a few outdoor
temperatures go in, the seasonal figures and one row per bin come out. The chain from a scenario
(:mod:`workbench.seasonal.rating`) solves the test points and calls these functions.

Heating (EN 14825:2018 clause 8.2 and Annex A)::

    pl(Tj)     = (Tj - 16) / (Tdesignh - 16)                       part load ratio   (8.2.2)
    Ph(Tj)     = Pdesignh * pl(Tj)                                 heating load [kW]
    CR(Tj)     = Ph(Tj) / Pdh(Tj)                                  capacity ratio, at most 1
    COPbin     = COPd * CR / (Cd * CR + 1 - Cd)       when CR < 1  cycling degradation (8.2.5)
    elbu(Tj)   = Ph(Tj) - Pdh(Tj)   when Pdh < Ph; = Ph(Tj) below TOL   electric back-up [kW]
    SCOPon     = sum hj Ph / sum hj [(Ph - elbu) / COPbin + elbu]                          (8.2.7)
    SCOPnet    = sum hj (Ph - elbu) / sum hj (Ph - elbu) / COPbin
    QH         = Pdesignh * HHE
    SCOP       = QH / (QH / SCOPon + HTO PTO + HSB PSB + HCK PCK + HOFF POFF)              (8.2.8)
    eta_s      = 100 * SCOP / CC - F(1) - F(2)   [%]

COPbin and the declared capacity Pdh at the declared points are interpolated linearly in Tj
between neighbouring points and extrapolated from the nearest two beyond the first or last point
(8.2.6). Cooling (clause 8.3) has the same shape with Pdesignc, Tdesignc = 35 degC, EER in place
of COP, the cooling bins 17..40 degC, HCE and no back-up: SEERon = sum hj Pc / sum hj Pc/EERbin.

References
----------
EN 14825:2018, clauses 8.2 (SCOP) and 8.3 (SEER), Annex A (bins and hours), Annex H (worked
example of a fixed-capacity air-to-water unit).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from workbench.errors import WorkbenchError
from workbench.seasonal import en14825
from workbench.seasonal.en14825 import Climate

__all__ = [
    "BIN_COLUMNS",
    "DeclaredPoint",
    "RatingInputError",
    "SeasonalCooling",
    "SeasonalHeating",
    "Table",
    "declared_points",
    "degraded",
    "line_through",
    "part_load_ratio",
    "scop_from_declared",
    "seer_from_declared",
]

BIN_COLUMNS = (
    "t_c",
    "hours",
    "part_load",
    "load_kw",
    "capacity_kw",
    "capacity_ratio",
    "cop",
    "backup_kw",
    "heat_kwh",
    "electricity_kwh",
)
"""Columns of the bins table (``cop`` holds the EER of a cooling rating)."""


class RatingInputError(WorkbenchError, ValueError):
    """Declared points or rating settings that the bin method cannot use (the message says where)."""


@dataclass(frozen=True)
class DeclaredPoint:
    """One declared point: capacity and COP (EER) at one outdoor temperature.

    Attributes
    ----------
    name : str
        Label (``A``, ``TOL`` ...; ``points[i]`` when none was given).
    t_c : float
        Outdoor temperature [degC].
    capacity_kw : float
        Declared capacity Pdh (Pdc) [kW].
    cop : float
        Declared COPd (EERd) [-].
    """

    name: str
    t_c: float
    capacity_kw: float
    cop: float


def declared_points(points: Sequence[Mapping[str, Any]], key: str = "cop") -> list[DeclaredPoint]:
    """Check and sort declared points given as mappings.

    Parameters
    ----------
    points : sequence of mapping
        Each with ``t_c`` [degC], ``capacity_kw`` [kW] and ``cop`` (or ``eer`` for cooling) [-];
        ``name`` optional.
    key : str
        ``cop`` or ``eer``: the efficiency key (``cop`` is accepted for both).

    Returns
    -------
    list of DeclaredPoint
        Sorted by temperature, duplicates of the same temperature and values merged.

    Raises
    ------
    RatingInputError
        Fewer than two distinct temperatures, a missing or non-positive value, or two points at
        one temperature with different values.
    """
    out: dict[float, DeclaredPoint] = {}
    for i, raw in enumerate(points):
        where = f"points[{i}]"
        name = str(raw.get("name", where))
        values: dict[str, float] = {}
        for field in ("t_c", "capacity_kw", key):
            value = raw.get(field, raw.get("cop") if field == "eer" else None)
            if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
                raise RatingInputError(f"{where} ({name}): {field} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise RatingInputError(f"{where} ({name}): {field} must be finite, got {value!r}")
            values[field] = float(value)
        if values["capacity_kw"] <= 0 or values[key] <= 0:
            raise RatingInputError(f"{where} ({name}): capacity_kw and {key} must be > 0")
        point = DeclaredPoint(name, values["t_c"], values["capacity_kw"], values[key])
        other = out.get(point.t_c)
        if other is not None and (
            not math.isclose(other.capacity_kw, point.capacity_kw, rel_tol=1e-9)
            or not math.isclose(other.cop, point.cop, rel_tol=1e-9)
        ):
            raise RatingInputError(
                f"{where} ({name}) and {other.name} are both at {point.t_c} degC with different "
                "values: declare one point per temperature"
            )
        out.setdefault(point.t_c, point)
    if len(out) < 2:
        raise RatingInputError("points: at least two declared temperatures are needed")
    return [out[t] for t in sorted(out)]


def part_load_ratio(t_c: float, design_c: float) -> float:
    """Part load ratio pl(Tj) = (Tj - 16)/(Tdesign - 16) (EN 14825:2018 8.2.2 and 8.3.2).

    Parameters
    ----------
    t_c : float
        Outdoor temperature Tj [degC].
    design_c : float
        Design temperature Tdesignh or Tdesignc [degC].

    Returns
    -------
    float
        Part load ratio [-] (1 at the design temperature, 0 at 16 degC).
    """
    return (t_c - 16.0) / (design_c - 16.0)


def degraded(cop_d: float, capacity_ratio: float, cd: float) -> float:
    """COPbin (EERbin) of a unit cycling at capacity ratio CR < 1 (EN 14825:2018 8.2.5).

    ``COPbin = COPd * CR / (Cd * CR + 1 - Cd)``; CR >= 1 leaves COPd unchanged.

    Parameters
    ----------
    cop_d : float
        Declared COP at the point [-].
    capacity_ratio : float
        CR = load / declared capacity [-].
    cd : float
        Degradation coefficient Cd [-].

    Returns
    -------
    float
        COPbin [-].
    """
    if capacity_ratio >= 1.0:
        return cop_d
    return cop_d * capacity_ratio / (cd * capacity_ratio + 1.0 - cd)


def line_through(t: float, ts: np.ndarray, ys: np.ndarray) -> float:
    """Linear interpolation between neighbouring points; beyond the ends, the nearest two's line.

    Parameters
    ----------
    t : float
        Where [degC].
    ts : numpy.ndarray
        Rising point temperatures [degC] (at least two).
    ys : numpy.ndarray
        Values at the points [any unit].

    Returns
    -------
    float
        The value at ``t`` [unit of ``ys``].
    """
    if t <= ts[0]:
        i = 0
    elif t >= ts[-1]:
        i = len(ts) - 2
    else:
        i = int(np.searchsorted(ts, t, side="right")) - 1
    t0, t1, y0, y1 = ts[i], ts[i + 1], ys[i], ys[i + 1]
    return float(y0 + (y1 - y0) * (t - t0) / (t1 - t0))


@dataclass
class Table:
    """Bins and figures common to heating and cooling ratings."""

    climate: str
    design_load_kw: float
    points: pd.DataFrame
    bins: pd.DataFrame


@dataclass
class SeasonalHeating(Table):
    """An EN 14825 heating rating.

    Attributes
    ----------
    scop_on, scop_net, scop : float
        Active-mode, net (heat pump only) and seasonal COP [-].
    eta_s : float
        Seasonal space heating energy efficiency [%].
    annual_demand_kwh : float
        QH = Pdesignh x HHE [kWh].
    points : pandas.DataFrame
        The declared points with their load, CR and COPbin.
    bins : pandas.DataFrame
        One row per bin (:data:`BIN_COLUMNS`).
    """

    scop_on: float = math.nan
    scop_net: float = math.nan
    scop: float = math.nan
    eta_s: float = math.nan
    annual_demand_kwh: float = math.nan


@dataclass
class SeasonalCooling(Table):
    """An EN 14825 cooling rating: ``seer_on`` and ``seer`` [-], ``eta_s`` [%]."""

    seer_on: float = math.nan
    seer: float = math.nan
    eta_s: float = math.nan
    annual_demand_kwh: float = math.nan


def _point_table(
    points: list[DeclaredPoint], design_load_kw: float, design_c: float, cd: float
) -> pd.DataFrame:
    rows = []
    for p in points:
        load = design_load_kw * part_load_ratio(p.t_c, design_c)
        cr = min(1.0, load / p.capacity_kw) if load > 0 else 0.0
        rows.append(
            {
                "name": p.name,
                "t_c": p.t_c,
                "capacity_kw": p.capacity_kw,
                "cop_declared": p.cop,
                "load_kw": load,
                "capacity_ratio": cr,
                "cop_bin": degraded(p.cop, cr, cd) if cr > 0 else p.cop,
            }
        )
    return pd.DataFrame(rows)


def _off_mode_energy(off_mode_kw: Mapping[str, float] | None, climate: Climate) -> float:
    if not off_mode_kw:
        return 0.0
    total = 0.0
    for key, power in off_mode_kw.items():
        if key not in en14825.OFF_MODES:
            raise RatingInputError(
                f"off_mode_kw[{key!r}]: unknown mode; use {', '.join(en14825.OFF_MODES)}"
            )
        if power < 0:
            raise RatingInputError(f"off_mode_kw[{key!r}]: must be >= 0 kW")
        total += climate.off_mode_hours[key] * float(power)
    return total


def _check_common(design_load_kw: float, cd: float) -> None:
    if not design_load_kw > 0:
        raise RatingInputError(f"design_load_kw: must be > 0, got {design_load_kw!r}")
    if not 0.0 <= cd <= 1.0:
        raise RatingInputError(f"cd: the degradation coefficient must be in [0, 1], got {cd!r}")


def scop_from_declared(
    points: Sequence[Mapping[str, Any]],
    design_load_kw: float,
    climate: str = "average",
    operation_limit_c: float | None = None,
    cd: float = 0.9,
    off_mode_kw: Mapping[str, float] | None = None,
    *,
    cc: float = en14825.CC,
    corrections_pct: float = en14825.F1_TEMPERATURE_CONTROL,
) -> SeasonalHeating:
    """SCOPon, SCOPnet, SCOP and eta_s of a heat pump from declared points (EN 14825:2018 8.2).

    Parameters
    ----------
    points : sequence of mapping
        Declared points ``{"t_c" [degC], "capacity_kw" [kW], "cop" [-]}`` (A, B, C, D, the
        operation limit and the bivalent point), optional ``name``.
    design_load_kw : float
        Pdesignh, the heating load at the climate's design temperature [kW].
    climate : str
        ``average`` (Tdesignh -10 degC), ``warmer`` (+2 degC) or ``colder`` (-22 degC).
    operation_limit_c : float, optional
        TOL [degC]: below it the heat pump is off and the back-up heater carries the whole load.
    cd : float
        Degradation coefficient Cd [-] (0.9 is the default of air-to-water units).
    off_mode_kw : mapping, optional
        Powers in thermostat-off ``to``, standby ``sb``, crankcase ``ck`` and off ``off`` mode
        [kW]; absent modes count 0.
    cc : float
        Conversion coefficient CC [-].
    corrections_pct : float
        Sum of the corrections F(i) [percentage points] (3: temperature controls; add 5 for a
        water/brine-to-water unit's ground-water pump).

    Returns
    -------
    SeasonalHeating
        The figures and the bins table (:data:`BIN_COLUMNS`).

    Raises
    ------
    RatingInputError
        Unknown climate, bad points (see :func:`declared_points`) or settings.
    """
    if climate not in en14825.CLIMATES:
        raise RatingInputError(f"climate: {climate!r} is not one of {', '.join(en14825.CLIMATES)}")
    _check_common(design_load_kw, cd)
    season = en14825.CLIMATES[climate]
    declared = declared_points(points)
    table = _point_table(declared, design_load_kw, season.design_c, cd)
    ts = table["t_c"].to_numpy(float)
    caps = table["capacity_kw"].to_numpy(float)
    cops = table["cop_bin"].to_numpy(float)
    rows = []
    for t, hours in season.bins:
        pl = part_load_ratio(t, season.design_c)
        load = design_load_kw * pl
        if operation_limit_c is not None and t < operation_limit_c:
            cap, cop, backup = 0.0, math.nan, load
        else:
            cap = line_through(t, ts, caps)
            cop = line_through(t, ts, cops)
            backup = max(0.0, load - cap)
        if not (math.isnan(cop) or cop > 0):
            raise RatingInputError(
                f"bin {t:g} degC: the interpolated COPbin is {cop:.3f}; declare points that "
                "bracket the bins (extrapolation went below zero)"
            )
        hp_heat = load - backup
        electricity = hours * ((hp_heat / cop if hp_heat > 0 else 0.0) + backup)
        rows.append(
            {
                "t_c": t,
                "hours": hours,
                "part_load": pl,
                "load_kw": load,
                "capacity_kw": cap,
                "capacity_ratio": min(1.0, load / cap) if cap > 0 else 0.0,
                "cop": cop,
                "backup_kw": backup,
                "heat_kwh": hours * load,
                "electricity_kwh": electricity,
            }
        )
    bins = pd.DataFrame(rows, columns=list(BIN_COLUMNS))
    heat = float(bins["heat_kwh"].sum())
    electricity = float(bins["electricity_kwh"].sum())
    backup_kwh = float((bins["hours"] * bins["backup_kw"]).sum())
    scop_on = heat / electricity
    scop_net = (heat - backup_kwh) / (electricity - backup_kwh)
    demand = design_load_kw * season.equivalent_hours
    scop = demand / (demand / scop_on + _off_mode_energy(off_mode_kw, season))
    return SeasonalHeating(
        climate=climate,
        design_load_kw=design_load_kw,
        points=table,
        bins=bins,
        scop_on=scop_on,
        scop_net=scop_net,
        scop=scop,
        eta_s=100.0 * scop / cc - corrections_pct,
        annual_demand_kwh=demand,
    )


def seer_from_declared(
    points: Sequence[Mapping[str, Any]],
    design_load_kw: float,
    cd: float = 0.25,
    off_mode_kw: Mapping[str, float] | None = None,
    *,
    cc: float = en14825.CC,
    corrections_pct: float = en14825.F1_TEMPERATURE_CONTROL,
) -> SeasonalCooling:
    """SEERon, SEER and eta_s,c from declared cooling points (EN 14825:2018 8.3).

    Parameters
    ----------
    points : sequence of mapping
        ``{"t_c" [degC], "capacity_kw" [kW], "eer" (or "cop") [-]}`` at A..D (35, 30, 25, 20
        degC), optional ``name``.
    design_load_kw : float
        Pdesignc, the cooling load at Tdesignc = 35 degC [kW].
    cd : float
        Degradation coefficient Cdc [-] (0.25 is the default of air-to-air units).
    off_mode_kw : mapping, optional
        Off-mode powers [kW] (keys as in :func:`scop_from_declared`).
    cc : float
        Conversion coefficient CC [-].
    corrections_pct : float
        Sum of the corrections F(i) [percentage points].

    Returns
    -------
    SeasonalCooling
        The figures and the bins table (``cop`` holds EERbin; ``backup_kw`` is 0).

    Raises
    ------
    RatingInputError
        Bad points or settings.
    """
    _check_common(design_load_kw, cd)
    season = en14825.COOLING
    declared = declared_points(points, key="eer")
    table = _point_table(declared, design_load_kw, season.design_c, cd)
    ts = table["t_c"].to_numpy(float)
    caps = table["capacity_kw"].to_numpy(float)
    eers = table["cop_bin"].to_numpy(float)
    rows = []
    for t, hours in season.bins:
        pl = part_load_ratio(t, season.design_c)
        load = design_load_kw * pl
        cap = line_through(t, ts, caps)
        eer = line_through(t, ts, eers)
        if not eer > 0:
            raise RatingInputError(f"bin {t:g} degC: the interpolated EERbin is {eer:.3f}")
        rows.append(
            {
                "t_c": t,
                "hours": hours,
                "part_load": pl,
                "load_kw": load,
                "capacity_kw": cap,
                "capacity_ratio": min(1.0, load / cap),
                "cop": eer,
                "backup_kw": 0.0,
                "heat_kwh": hours * load,
                "electricity_kwh": hours * load / eer,
            }
        )
    bins = pd.DataFrame(rows, columns=list(BIN_COLUMNS))
    seer_on = float(bins["heat_kwh"].sum() / bins["electricity_kwh"].sum())
    demand = design_load_kw * season.equivalent_hours
    seer = demand / (demand / seer_on + _off_mode_energy(off_mode_kw, season))
    return SeasonalCooling(
        climate="cooling",
        design_load_kw=design_load_kw,
        points=table,
        bins=bins,
        seer_on=seer_on,
        seer=seer,
        eta_s=100.0 * seer / cc - corrections_pct,
        annual_demand_kwh=demand,
    )
