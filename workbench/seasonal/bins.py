"""The bin method of EN 14825:2018 from declared points: SCOP, SCOPon, SCOPnet, eta_s, SEER.

A pure calculation (no solver): the declared capacity and COP (EER) of a unit at a few outdoor
temperatures go in, the seasonal figures and one row per bin come out. The chain from a scenario
(:mod:`workbench.seasonal.rating`) solves the test points and calls these functions.

Heating (EN 14825:2018 clause 8.2 and Annex A)::

    pl(Tj)     = (Tj - 16) / (Tdesignh - 16)                       part load ratio   (8.2.2)
    Ph(Tj)     = Pdesignh * pl(Tj)                                 heating load [kW]
    CR(Tj)     = Ph(Tj) / Pdh(Tj)                                  capacity ratio, at most 1
    COPbin     = COPd * CR / (Cd * CR + 1 - Cd)       when CR < 1  cycling degradation (8.2.5)
    elbu(Tj)   = Ph(Tj) - Pdh(Tj)   when Pdh < Ph and Tj < Tbiv; = Ph(Tj) below TOL  back-up [kW]
    SCOPon     = sum hj Ph / sum hj [(Ph - elbu) / COPbin + elbu]                          (8.2.7)
    SCOPnet    = sum hj (Ph - elbu) / sum hj (Ph - elbu) / COPbin
    QH         = Pdesignh * HHE
    SCOP       = QH / (QH / SCOPon + HTO PTO + HSB PSB + HCK PCK + HOFF POFF)              (8.2.8)
    eta_s      = 100 * SCOP / CC - F(1) - F(2)   [%]

COPbin and the declared capacity Pdh at the declared points are interpolated linearly in Tj
between neighbouring points and extrapolated from the nearest two beyond the first or last point
(8.2.6). Cooling (clause 8.3) has the same shape with Pdesignc, Tdesignc = 35 degC, EER in place
of COP, the cooling bins 17..40 degC, HCE and no back-up: SEERon = sum hj Pc / sum hj Pc/EERbin.

Cd may differ per point (Cdh measured at that point); with Tbiv given the unit covers the load at
and above it by declaration (a declared capacity short of it is reported, not charged). The bins
are computed as arrays (one rating costs a fraction of a millisecond, so a table of 10,000
declarations rates in seconds: :mod:`workbench.seasonal.declared_table`).

References
----------
EN 14825:2018, clauses 8.2 (SCOP) and 8.3 (SEER), Annex A (bins and hours), Annex H (worked
example of a fixed-capacity air-to-water unit).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.seasonal import en14825
from workbench.seasonal.declared import (
    DeclaredPoint,
    Inconsistency,
    RatingInputError,
    declared_points,
)
from workbench.seasonal.en14825 import Climate
from workbench.seasonal.figures import (
    CONVENTIONS,
    STATED_TOLERANCE,
    SeasonalCooling,
    SeasonalHeating,
    Table,
    matched_convention,
)

__all__ = [
    "BIN_COLUMNS",
    "CONVENTIONS",
    "STATED_TOLERANCE",
    "DeclaredPoint",
    "Inconsistency",
    "RatingInputError",
    "SeasonalCooling",
    "SeasonalHeating",
    "Table",
    "declared_points",
    "degraded",
    "line_through",
    "lines_through",
    "matched_convention",
    "part_load_ratio",
    "scop_from_declared",
    "seer_from_declared",
    "shortfalls_at_bivalent",
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


def lines_through(t: np.ndarray, ts: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """:func:`line_through` at many temperatures at once.

    Parameters
    ----------
    t : numpy.ndarray
        Where [degC].
    ts : numpy.ndarray
        Rising point temperatures [degC] (at least two).
    ys : numpy.ndarray
        Values at the points [any unit].

    Returns
    -------
    numpy.ndarray
        The values at ``t`` [unit of ``ys``].
    """
    i = np.clip(np.searchsorted(ts, t, side="right") - 1, 0, len(ts) - 2)
    t0, t1, y0, y1 = ts[i], ts[i + 1], ys[i], ys[i + 1]
    out: np.ndarray = y0 + (y1 - y0) * (t - t0) / (t1 - t0)
    return out


@dataclass
class _Points:
    """Declared points as arrays, with the load, CR and COPbin at each."""

    names: list[str]
    t: np.ndarray
    capacity: np.ndarray
    cop: np.ndarray
    cd: np.ndarray
    load: np.ndarray
    cr: np.ndarray
    cop_bin: np.ndarray

    def columns(self) -> dict[str, Any]:
        return {
            "name": self.names,
            "t_c": self.t,
            "capacity_kw": self.capacity,
            "cop_declared": self.cop,
            "cd": self.cd,
            "load_kw": self.load,
            "capacity_ratio": self.cr,
            "cop_bin": self.cop_bin,
        }


def _points(
    declared: list[DeclaredPoint], design_load_kw: float, design_c: float, cd: float
) -> _Points:
    t = np.array([p.t_c for p in declared])
    capacity = np.array([p.capacity_kw for p in declared])
    cop = np.array([p.cop for p in declared])
    cds = np.array([cd if p.cd is None else p.cd for p in declared])
    load = design_load_kw * (t - 16.0) / (design_c - 16.0)
    cr = np.where(load > 0, np.minimum(1.0, np.maximum(load, 0.0) / capacity), 0.0)
    cycling = (cr < 1.0) & (cr > 0.0)
    cop_bin = np.where(cycling, cop * cr / (cds * cr + 1.0 - cds), cop)
    return _Points([p.name for p in declared], t, capacity, cop, cds, load, cr, cop_bin)


@functools.cache
def _season(name: str) -> tuple[Climate, np.ndarray, np.ndarray]:
    season = en14825.COOLING if name == "cooling" else en14825.CLIMATES[name]
    t = np.array([b[0] for b in season.bins])
    hours = np.array([b[1] for b in season.bins])
    return season, t, hours


def _off_mode_energy(off_mode_kw: Mapping[str, float] | None, climate: Climate) -> float:
    if not off_mode_kw:
        return 0.0
    total = 0.0
    for key, power in off_mode_kw.items():
        if key not in en14825.OFF_MODES:
            raise RatingInputError(
                f"off_mode_kw[{key!r}]: unknown mode; use {', '.join(en14825.OFF_MODES)}"
            )
        if power is None or not power >= 0:
            raise RatingInputError(f"off_mode_kw[{key!r}]: must be >= 0 kW, got {power!r}")
        total += climate.off_mode_hours[key] * float(power)
    return total


def _check_common(design_load_kw: float, cd: float) -> None:
    if not design_load_kw > 0:
        raise RatingInputError(f"design_load_kw: must be > 0, got {design_load_kw!r}")
    if not 0.0 <= cd <= 1.0:
        raise RatingInputError(f"cd: the degradation coefficient must be in [0, 1], got {cd!r}")


def _short_at_bivalent(
    pts: _Points,
    bivalent_c: float,
    consequence: str = "not charged as back-up heat",
    verb: str = "declares",
    tolerance: float = 1e-12,
) -> list[Inconsistency]:
    out = []
    for name, t, cap, load in zip(pts.names, pts.t, pts.capacity, pts.load):
        if t >= bivalent_c and load > 0 and cap < load * (1.0 - tolerance):
            short = (load - cap) / load
            out.append(
                Inconsistency(
                    "capacity_below_load",
                    name,
                    f"{name} at {t:g} degC (at or above Tbiv {bivalent_c:g} degC) {verb} "
                    f"{cap:g} kW against a load of {load:.4g} kW ({100 * short:.2f} % short): "
                    f"{consequence}",
                    float(short),
                )
            )
    return out


def shortfalls_at_bivalent(
    points: Sequence[Mapping[str, Any]],
    design_load_kw: float,
    climate: str,
    bivalent_c: float,
    cd: float = 0.9,
    tolerance: float = 1e-6,
) -> list[Inconsistency]:
    """The points at or above Tbiv whose capacity is short of the heating load.

    Parameters
    ----------
    points : sequence of mapping
        Points ``{"t_c" [degC], "capacity_kw" [kW], "cop" [-]}`` with optional ``name``.
    design_load_kw : float
        Pdesignh [kW].
    climate : str
        ``average``, ``warmer`` or ``colder`` (its design temperature sets the load line).
    bivalent_c : float
        Tbiv [degC].
    cd : float
        Degradation coefficient [-] (only carried through the point table).
    tolerance : float
        Relative shortfall below which a point counts as meeting its load [-] (a solved
        point meets it to the capacity solve's tolerance, not exactly).

    Returns
    -------
    list of Inconsistency
        One ``capacity_below_load`` per short point, the shortfall as a fraction of the load
        (a scenario's rating, :func:`workbench.seasonal.rate`, charges the back-up heat there
        and reports these).
    """
    _check_common(design_load_kw, cd)
    season, _, _ = _season(climate)
    pts = _points(declared_points(points), design_load_kw, season.design_c, cd)
    return _short_at_bivalent(
        pts,
        float(bivalent_c),
        "back-up heat charged, Tbiv is not reached at this point",
        verb="reaches",
        tolerance=tolerance,
    )


def scop_from_declared(
    points: Sequence[Mapping[str, Any]],
    design_load_kw: float,
    climate: str = "average",
    operation_limit_c: float | None = None,
    cd: float = 0.9,
    off_mode_kw: Mapping[str, float] | None = None,
    bivalent_c: float | None = None,
    *,
    cc: float = en14825.CC,
    corrections_pct: float = en14825.F1_TEMPERATURE_CONTROL,
) -> SeasonalHeating:
    """SCOPon, SCOPnet, SCOP and eta_s of a heat pump from declared points (EN 14825:2018 8.2).

    Parameters
    ----------
    points : sequence of mapping
        Declared points ``{"t_c" [degC], "capacity_kw" [kW], "cop" [-]}`` (A, B, C, D, the
        operation limit and the bivalent point), optional ``name`` and ``cd`` (the point's own
        degradation coefficient [-]). Points at one temperature are merged, the standard
        point's values kept (:mod:`workbench.seasonal.declared`).
    design_load_kw : float
        Pdesignh, the heating load at the climate's design temperature [kW].
    climate : str
        ``average`` (Tdesignh -10 degC), ``warmer`` (+2 degC) or ``colder`` (-22 degC).
    operation_limit_c : float, optional
        TOL [degC]: below it the heat pump is off and the back-up heater carries the whole load.
    cd : float
        Degradation coefficient Cd of the points without their own [-] (0.9 is the default of
        air-to-water units).
    off_mode_kw : mapping, optional
        Powers in thermostat-off ``to``, standby ``sb``, crankcase ``ck`` and off ``off`` mode
        [kW]; absent modes count 0.
    bivalent_c : float, optional
        Tbiv [degC]: at and above it the unit covers the load (no back-up heat, whatever the
        interpolated capacity); a declared capacity short of the load there is an
        :class:`Inconsistency` (``capacity_below_load``). Below it, back-up heat covers
        ``Ph - Pdh`` where positive. None: back-up heat wherever the capacity falls short.
    cc : float
        Conversion coefficient CC [-].
    corrections_pct : float
        Sum of the corrections F(i) [percentage points] (3: temperature controls; add 5 for a
        water/brine-to-water unit's ground-water pump).

    Returns
    -------
    SeasonalHeating
        The figures, the inconsistencies found and the bins table (:data:`BIN_COLUMNS`).

    Raises
    ------
    RatingInputError
        Unknown climate, bad points (see :func:`declared_points`) or settings, or an
        extrapolated COPbin at or below zero.
    """
    if climate not in en14825.CLIMATES:
        raise RatingInputError(f"climate: {climate!r} is not one of {', '.join(en14825.CLIMATES)}")
    _check_common(design_load_kw, cd)
    if bivalent_c is not None and not math.isfinite(bivalent_c):
        raise RatingInputError(f"bivalent_c: must be a finite temperature, got {bivalent_c!r}")
    season, t, hours = _season(climate)
    issues: list[Inconsistency] = []
    pts = _points(declared_points(points, issues=issues), design_load_kw, season.design_c, cd)
    if bivalent_c is not None:
        issues.extend(_short_at_bivalent(pts, bivalent_c))
    pl = (t - 16.0) / (season.design_c - 16.0)
    load = design_load_kw * pl
    cap = lines_through(t, pts.t, pts.capacity)
    cop = lines_through(t, pts.t, pts.cop_bin)
    off = t < operation_limit_c if operation_limit_c is not None else np.zeros(t.shape, dtype=bool)
    bad = ~off & ~(cop > 0)
    if bad.any():
        tb = float(t[bad][0])
        raise RatingInputError(
            f"bin {tb:g} degC: the interpolated COPbin is {float(cop[bad][0]):.3f}; declare "
            "points that bracket the bins (extrapolation went below zero)"
        )
    backup = np.maximum(0.0, load - cap)
    if bivalent_c is not None:
        backup = np.where(t >= bivalent_c, 0.0, backup)
    backup = np.where(off, load, backup)
    cap = np.where(off, 0.0, cap)
    cop = np.where(off, math.nan, cop)
    hp_heat = load - backup
    with np.errstate(divide="ignore", invalid="ignore"):
        hp_elec = np.where(hp_heat > 0, hp_heat / cop, 0.0)
        cr = np.where(cap > 0, np.minimum(1.0, load / cap), 0.0)
    heat_kwh = hours * load
    electricity_kwh = hours * (hp_elec + backup)
    heat, electricity = float(heat_kwh.sum()), float(electricity_kwh.sum())
    backup_kwh = float((hours * backup).sum())
    scop_on = heat / electricity
    scop_net = (heat - backup_kwh) / (electricity - backup_kwh)
    demand = design_load_kw * season.equivalent_hours
    off_kwh = _off_mode_energy(off_mode_kw, season)
    annual = demand / scop_on + off_kwh
    scop = demand / annual
    bins = {
        "t_c": t,
        "hours": hours,
        "part_load": pl,
        "load_kw": load,
        "capacity_kw": cap,
        "capacity_ratio": cr,
        "cop": cop,
        "backup_kw": backup,
        "heat_kwh": heat_kwh,
        "electricity_kwh": electricity_kwh,
    }
    return SeasonalHeating(
        climate=climate,
        design_load_kw=design_load_kw,
        point_columns=pts.columns(),
        bin_columns=bins,
        scop_on=scop_on,
        scop_net=scop_net,
        scop=scop,
        eta_s=100.0 * scop / cc - corrections_pct,
        annual_demand_kwh=demand,
        annual_energy_kwh=annual,
        off_mode_kwh=off_kwh,
        bivalent_c=bivalent_c,
        inconsistencies=issues,
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
        degC), optional ``name`` and ``cd`` (the point's own Cdc [-]); points at one
        temperature are merged as in :func:`scop_from_declared`.
    design_load_kw : float
        Pdesignc, the cooling load at Tdesignc = 35 degC [kW].
    cd : float
        Degradation coefficient Cdc of the points without their own [-] (0.25 is the default
        of air-to-air units).
    off_mode_kw : mapping, optional
        Off-mode powers [kW] (keys as in :func:`scop_from_declared`).
    cc : float
        Conversion coefficient CC [-].
    corrections_pct : float
        Sum of the corrections F(i) [percentage points].

    Returns
    -------
    SeasonalCooling
        The figures, the inconsistencies found and the bins table (``cop`` holds EERbin;
        ``backup_kw`` is 0: a chiller has no back-up, so Tbiv does not apply).

    Raises
    ------
    RatingInputError
        Bad points or settings, or an extrapolated EERbin at or below zero.
    """
    _check_common(design_load_kw, cd)
    season, t, hours = _season("cooling")
    issues: list[Inconsistency] = []
    pts = _points(
        declared_points(points, key="eer", issues=issues), design_load_kw, season.design_c, cd
    )
    pl = (t - 16.0) / (season.design_c - 16.0)
    load = design_load_kw * pl
    cap = lines_through(t, pts.t, pts.capacity)
    eer = lines_through(t, pts.t, pts.cop_bin)
    if not (eer > 0).all():
        i = int(np.argmin(eer > 0))
        raise RatingInputError(f"bin {t[i]:g} degC: the interpolated EERbin is {eer[i]:.3f}")
    heat_kwh = hours * load
    electricity_kwh = heat_kwh / eer
    bins = {
        "t_c": t,
        "hours": hours,
        "part_load": pl,
        "load_kw": load,
        "capacity_kw": cap,
        "capacity_ratio": np.minimum(1.0, load / cap),
        "cop": eer,
        "backup_kw": np.zeros_like(t),
        "heat_kwh": heat_kwh,
        "electricity_kwh": electricity_kwh,
    }
    seer_on = float(heat_kwh.sum() / electricity_kwh.sum())
    demand = design_load_kw * season.equivalent_hours
    off_kwh = _off_mode_energy(off_mode_kw, season)
    annual = demand / seer_on + off_kwh
    seer = demand / annual
    return SeasonalCooling(
        climate="cooling",
        design_load_kw=design_load_kw,
        point_columns=pts.columns(),
        bin_columns=bins,
        seer_on=seer_on,
        seer=seer,
        eta_s=100.0 * seer / cc - corrections_pct,
        annual_demand_kwh=demand,
        annual_energy_kwh=annual,
        off_mode_kwh=off_kwh,
        inconsistencies=issues,
    )
