"""HSPF2 and SEER2 (AHRI 210/240-2023) from declared points, with the bin machinery of EN 14825.

The declared points and their interpolation are those of :mod:`workbench.seasonal.bins`
(capacity and COP/EER linear in the outdoor temperature, extrapolated from the nearest two);
what differs is the standard's bins, load line and cycling loss::

    HSPF2:  BL(Tj) = (Tzl - Tj) / (Tzl - TOD) * C * Qh(47 degF)        heating load line
    SEER2:  BL(Tj) = (Tj - 65) / (95 - 65) * Qc(95 degF) / 1.1 * V      cooling load line
    X(Tj)  = BL / Q(Tj)                     when the unit covers the load, else 1
    PLF    = 1 - Cd (1 - X)                 part-load factor (cycling)
    e(Tj)  = X Q(Tj) / (COP(Tj) PLF)        electricity of the unit per bin
    RH(Tj) = BL - Q(Tj) when Q < BL; BL below the cut-out temperature   resistance heat
    HSPF2  = 3.412 * sum nj BL / sum nj (e + RH)       [Btu/Wh]
    SEER2  = 3.412 * sum nj q / sum nj e               [Btu/Wh]

A simplification against the full standard, said in docs/seasonal.md: one declared line
(a variable-speed unit's full capacity and COP) stands for the standard's speed-by-speed
interpolation (k = 1, 2, v), and defrost is whatever the declared points contain.

References
----------
ANSI/AHRI Standard 210/240-2023, section 11.2 (SEER2 11.2.1, HSPF2 11.2.2).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from workbench.seasonal import ahri210240 as ahri
from workbench.seasonal.bins import RatingInputError, declared_points, line_through

__all__ = ["USRating", "f_to_c", "hspf2_from_declared", "seer2_from_declared"]


def f_to_c(t_f: float) -> float:
    """Degrees Fahrenheit to Celsius.

    Parameters
    ----------
    t_f : float
        Temperature [degF].

    Returns
    -------
    float
        Temperature [degC].
    """
    return (t_f - 32.0) / 1.8


@dataclass
class USRating:
    """An HSPF2 or SEER2 figure [Btu/Wh] with its bins table.

    Attributes
    ----------
    value : float
        HSPF2 or SEER2 [Btu/Wh].
    ratio : float
        The same figure as a ratio of energies [-] (value / 3.412).
    bins : pandas.DataFrame
        ``t_f``, ``t_c``, ``fraction``, ``load_kw``, ``capacity_kw``, ``cop``, ``plf``,
        ``backup_kw``, ``electricity_kw`` (per hour of the bin).
    """

    value: float
    ratio: float
    bins: pd.DataFrame


def _curves(
    points: Sequence[Mapping[str, Any]], key: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pts = declared_points(points, key=key)
    ts = np.array([p.t_c for p in pts])
    return ts, np.array([p.capacity_kw for p in pts]), np.array([p.cop for p in pts])


def hspf2_from_declared(
    points: Sequence[Mapping[str, Any]],
    region: int = 4,
    cd: float = 0.25,
    cut_out_c: float | None = None,
    variable_speed: bool = True,
) -> USRating:
    """HSPF2 of a heat pump from declared full-capacity points (AHRI 210/240-2023 11.2.2).

    Parameters
    ----------
    points : sequence of mapping
        ``{"t_c" [degC], "capacity_kw" [kW], "cop" [-]}``; the capacity at 47 degF (8.33 degC)
        sets the load line.
    region : int
        Climate region 1..6 (IV, the rating region, by default).
    cd : float
        Heating degradation coefficient [-] (0.25, the standard's default).
    cut_out_c : float, optional
        Low-temperature cut-out [degC]: below it the resistance heat carries the whole load.
    variable_speed : bool
        Use the variable-speed load factor Cvs (else the slope factor C).

    Returns
    -------
    USRating
        HSPF2 [Btu/Wh].

    Raises
    ------
    RatingInputError
        Unknown region, bad points or cd.
    """
    if region not in ahri.HSPF2_REGIONS:
        raise RatingInputError(f"region: {region!r} is not one of 1..6")
    if not 0.0 <= cd <= 1.0:
        raise RatingInputError(f"cd: must be in [0, 1], got {cd!r}")
    reg = ahri.HSPF2_REGIONS[region]
    ts, caps, cops = _curves(points, "cop")
    q47 = line_through(f_to_c(47.0), ts, caps)
    slope = reg.slope_variable if variable_speed else reg.slope
    rows = []
    for t_f, frac in zip(ahri.HEATING_BINS_F, reg.fractions):
        if frac == 0:
            continue
        t_c = f_to_c(t_f)
        load = (reg.zero_load_f - t_f) / (reg.zero_load_f - reg.design_f) * slope * q47
        if cut_out_c is not None and t_c < cut_out_c:
            cap, cop, plf, backup, elec = 0.0, math.nan, math.nan, load, 0.0
        else:
            cap, cop = line_through(t_c, ts, caps), line_through(t_c, ts, cops)
            if not (cap > 0 and cop > 0):
                raise RatingInputError(
                    f"bin {t_f:g} degF: the extrapolated capacity or COP is not positive"
                )
            x = min(1.0, load / cap)
            plf = 1.0 - cd * (1.0 - x)
            elec = x * cap / (cop * plf)
            backup = max(0.0, load - cap)
        rows.append(
            {
                "t_f": t_f,
                "t_c": t_c,
                "fraction": frac,
                "load_kw": load,
                "capacity_kw": cap,
                "cop": cop,
                "plf": plf,
                "backup_kw": backup,
                "electricity_kw": elec + backup,
            }
        )
    bins = pd.DataFrame(rows)
    ratio = float(
        (bins["fraction"] * bins["load_kw"]).sum()
        / (bins["fraction"] * bins["electricity_kw"]).sum()
    )
    return USRating(ratio * ahri.BTU_PER_WH, ratio, bins)


def seer2_from_declared(
    points: Sequence[Mapping[str, Any]],
    cd: float = 0.25,
    v_factor: float = ahri.SEER2_V_HEAT_PUMP,
) -> USRating:
    """SEER2 from declared full-capacity cooling points (AHRI 210/240-2023 11.2.1).

    Parameters
    ----------
    points : sequence of mapping
        ``{"t_c" [degC], "capacity_kw" [kW], "eer" [-]}`` (EER as a ratio of powers, W/W); the
        capacity at 95 degF (35 degC) sets the load line.
    cd : float
        Cooling degradation coefficient [-].
    v_factor : float
        Load line factor V [-] (0.93 heat pump, 1.0 air conditioner).

    Returns
    -------
    USRating
        SEER2 [Btu/Wh].

    Raises
    ------
    RatingInputError
        Bad points or cd.
    """
    if not 0.0 <= cd <= 1.0:
        raise RatingInputError(f"cd: must be in [0, 1], got {cd!r}")
    ts, caps, eers = _curves(points, "eer")
    q95 = line_through(f_to_c(95.0), ts, caps)
    rows = []
    for t_f, frac in ahri.COOLING_BINS_F:
        t_c = f_to_c(t_f)
        load = (t_f - 65.0) / (95.0 - 65.0) * q95 / ahri.SEER2_SIZING_FACTOR * v_factor
        cap, eer = line_through(t_c, ts, caps), line_through(t_c, ts, eers)
        if not (cap > 0 and eer > 0):
            raise RatingInputError(
                f"bin {t_f:g} degF: the extrapolated capacity or EER is not positive"
            )
        x = min(1.0, load / cap)
        plf = 1.0 - cd * (1.0 - x)
        rows.append(
            {
                "t_f": t_f,
                "t_c": t_c,
                "fraction": frac,
                "load_kw": min(load, cap),
                "capacity_kw": cap,
                "cop": eer,
                "plf": plf,
                "backup_kw": 0.0,
                "electricity_kw": x * cap / (eer * plf),
            }
        )
    bins = pd.DataFrame(rows)
    ratio = float(
        (bins["fraction"] * bins["load_kw"]).sum()
        / (bins["fraction"] * bins["electricity_kw"]).sum()
    )
    return USRating(ratio * ahri.BTU_PER_WH, ratio, bins)
