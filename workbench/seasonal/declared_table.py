"""A table of declarations rated at once: one row per product and application.

Who reads it: ``workbench seasonal --declared TABLE.csv`` (:mod:`workbench.cli.seasonal_commands`)
and anyone checking a database of certificates. Each row is rated with
:func:`workbench.seasonal.scop_from_declared` (Tbiv, per-point Cd, off-mode powers as declared),
its stated figures are compared with the computed ones and the declaration is flagged where it
does not hold together. The columns are documented in docs/seasonal.md ("Rating a table of
declarations"); the example table of made-up products is ``examples/declared/heat_pumps.csv``.

Input columns (``[degC]``, ``[kW]``; blank cells are absent values):

* ``product`` (required), ``application`` (a label: ``low``/``medium`` ...), ``climate``
  (``average``, ``warmer``, ``colder``; default: the command's ``--climate``);
* ``design_load_kw`` (Pdesignh, required), ``tol_c`` (TOL), ``tbiv_c`` (Tbiv), ``cd`` (default Cd);
* per point X in A, B, C, D, E, F, G: ``X_capacity_kw``, ``X_cop``, optional ``X_cd`` and
  ``X_t_c`` (default: A -7, B +2, C +7, D +12, G -15 degC, E at ``tol_c``, F at ``tbiv_c``);
* off-mode powers ``to_kw``, ``sb_kw``, ``ck_kw``, ``off_kw``;
* stated figures ``scop_stated``, ``eta_s_stated`` [%], ``annual_kwh_stated`` (QHE [kWh]).

Other columns are ignored, except a column that starts like a point's (``A_``..``G_``) and is not
one of the above: that is a typing mistake and is refused.

Flags (``;``-separated in the ``flags`` column): ``stated_scop_mismatch`` (the stated SCOP
matches neither SCOP nor SCOPon), ``scop_vs_eta_s`` (the stated eta_s is not
``100 SCOP_stated / CC - 3`` within the rounding of both), ``scop_vs_annual_energy`` (the stated
QHE is not ``Pdesignh HHE / SCOP_stated`` within rounding), ``capacity_below_load:X(p%)``,
``duplicate:A/F``, ``placeholder:X``.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from workbench.seasonal import en14825
from workbench.seasonal.bins import scop_from_declared
from workbench.seasonal.declared import RatingInputError
from workbench.seasonal.figures import STATED_TOLERANCE

__all__ = [
    "POINT_NAMES",
    "POINT_T_C",
    "RATED_COLUMNS",
    "DeclaredTableError",
    "rate_declared_row",
    "rate_declared_table",
    "read_declared_table",
]

POINT_NAMES = ("A", "B", "C", "D", "E", "F", "G")
"""The point columns' prefixes."""

POINT_T_C = {"A": -7.0, "B": 2.0, "C": 7.0, "D": 12.0, "G": -15.0}
"""Outdoor temperature of the standard's points [degC] (EN 14825:2018 clause 7)."""

_OFF = {"to_kw": "to", "sb_kw": "sb", "ck_kw": "ck", "off_kw": "off"}
_NUMBERS = (
    "design_load_kw",
    "tol_c",
    "tbiv_c",
    "cd",
    *_OFF,
    "scop_stated",
    "eta_s_stated",
    "annual_kwh_stated",
)
_POINT_FIELDS = ("capacity_kw", "cop", "cd", "t_c")
_POINT_COLUMN = re.compile(r"^[A-G]_")

RATED_COLUMNS = (
    "product",
    "application",
    "climate",
    "scop",
    "scop_on",
    "scop_net",
    "eta_s",
    "annual_energy_kwh",
    "scop_stated",
    "scop_diff",
    "scop_on_diff",
    "eta_s_stated",
    "eta_s_diff",
    "annual_kwh_stated",
    "annual_kwh_diff",
    "convention",
    "flags",
)
"""Columns of the rated table: figures [-, %, kWh], stated figures, differences (stated minus
computed: ``scop_diff`` against SCOP, ``scop_on_diff`` against SCOPon, ``eta_s_diff`` against
eta_s, ``annual_kwh_diff`` against QHE), the matched convention and the flags."""

ETA_ROUNDING = 0.5
"""Half the last digit of an eta_s stated in whole percent [percentage points]."""

ENERGY_ROUNDING_KWH = 0.5
"""Half the last digit of an annual energy stated in whole kWh [kWh]."""


class DeclaredTableError(RatingInputError):
    """A table of declarations with a bad column or cell (the message names row and column)."""


def read_declared_table(path: str | Path) -> pd.DataFrame:
    """Read a table of declarations and check its columns.

    Parameters
    ----------
    path : str or path
        CSV file (columns in the module docstring).

    Returns
    -------
    pandas.DataFrame
        The table, numeric columns as floats (blank cells NaN).

    Raises
    ------
    DeclaredTableError
        A missing required column, an unknown point column, or a cell that is not a number
        (the row, counted from 1 after the header, and the column are named).
    """
    table = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    for required in ("product", "design_load_kw"):
        if required not in table.columns:
            raise DeclaredTableError(f"{path}: column {required!r} is missing")
    numeric = [c for c in table.columns if c in _NUMBERS]
    for column in table.columns:
        if _POINT_COLUMN.match(column):
            field = column[2:]
            if field not in _POINT_FIELDS:
                raise DeclaredTableError(
                    f"{path}: column {column!r}: a point column is X_capacity_kw, X_cop, X_cd "
                    "or X_t_c (X in A..G)"
                )
            numeric.append(column)
    for column in numeric:
        text = table[column].str.strip()
        values = pd.to_numeric(text.where(text != "", None), errors="coerce")
        bad = values.isna() & (text != "")
        bad |= ~np.isfinite(values.fillna(0.0))
        if bad.any():
            row = int(np.argmax(bad.to_numpy()))
            raise DeclaredTableError(
                f"{path}: row {row + 1} ({table['product'].iloc[row]}), column {column!r}: "
                f"{table[column].iloc[row]!r} is not a number"
            )
        table[column] = values.astype(float)
    return table


def _value(row: dict[str, Any], key: str) -> float | None:
    value = row.get(key)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return float(value)


def _points(row: dict[str, Any], where: str) -> list[dict[str, Any]]:
    points = []
    for name in POINT_NAMES:
        cap, cop = _value(row, f"{name}_capacity_kw"), _value(row, f"{name}_cop")
        if cap is None and cop is None:
            continue
        if cap is None or cop is None:
            missing = f"{name}_capacity_kw" if cap is None else f"{name}_cop"
            raise DeclaredTableError(f"{where}, column {missing!r}: point {name} is half declared")
        t = _value(row, f"{name}_t_c")
        if t is None:
            t = {"E": _value(row, "tol_c"), "F": _value(row, "tbiv_c")}.get(
                name, POINT_T_C.get(name)
            )
        if t is None:
            column = "tol_c" if name == "E" else "tbiv_c"
            raise DeclaredTableError(
                f"{where}, column {column!r}: point {name} needs its temperature ({column} or "
                f"{name}_t_c)"
            )
        point: dict[str, Any] = {"name": name, "t_c": t, "capacity_kw": cap, "cop": cop}
        own_cd = _value(row, f"{name}_cd")
        if own_cd is not None:
            point["cd"] = own_cd
        points.append(point)
    return points


def _flags(
    row: dict[str, Any], climate: str, convention: str, cc: float, corrections: float
) -> list[str]:
    flags = []
    scop_stated = _value(row, "scop_stated")
    if scop_stated is not None and convention == "neither":
        flags.append("stated_scop_mismatch")
    eta_stated = _value(row, "eta_s_stated")
    if scop_stated is not None and eta_stated is not None:
        own = 100.0 * scop_stated / cc - corrections
        if abs(own - eta_stated) > ETA_ROUNDING + 100.0 * STATED_TOLERANCE / cc:
            flags.append("scop_vs_eta_s")
    energy = _value(row, "annual_kwh_stated")
    if scop_stated is not None and energy is not None:
        qh = float(row["design_load_kw"]) * en14825.CLIMATES[climate].equivalent_hours
        allowed = ENERGY_ROUNDING_KWH + qh * STATED_TOLERANCE / scop_stated**2
        if abs(qh / scop_stated - energy) > allowed:
            flags.append("scop_vs_annual_energy")
    return flags


def rate_declared_row(
    row: dict[str, Any],
    climate: str = "average",
    where: str = "row",
    cc: float = en14825.CC,
    corrections_pct: float = en14825.F1_TEMPERATURE_CONTROL,
) -> dict[str, Any]:
    """Rate one declaration given as a row of the table (columns in the module docstring).

    Parameters
    ----------
    row : dict
        Column -> value (numbers as floats, NaN or None for blank).
    climate : str
        Climate of a row without its own ``climate``.
    where : str
        How errors name the row.
    cc : float
        Conversion coefficient CC [-].
    corrections_pct : float
        Sum of the corrections F(i) [percentage points].

    Returns
    -------
    dict
        One row of the rated table (:data:`RATED_COLUMNS`).

    Raises
    ------
    DeclaredTableError
        A point half declared, without a temperature, or that the bin method refuses.
    """
    own = row.get("climate")
    climate = str(own) if isinstance(own, str) and own.strip() else climate
    if climate not in en14825.CLIMATES:
        raise DeclaredTableError(
            f"{where}, column 'climate': {climate!r} is not one of {', '.join(en14825.CLIMATES)}"
        )
    points = _points(row, where)
    off = {mode: _value(row, col) for col, mode in _OFF.items()}
    cd = _value(row, "cd")
    try:
        r = scop_from_declared(
            points,
            float(row["design_load_kw"]),
            climate,
            operation_limit_c=_value(row, "tol_c"),
            cd=0.9 if cd is None else cd,
            off_mode_kw={k: v for k, v in off.items() if v is not None},
            bivalent_c=_value(row, "tbiv_c"),
            cc=cc,
            corrections_pct=corrections_pct,
        )
    except DeclaredTableError:
        raise
    except RatingInputError as exc:
        raise DeclaredTableError(f"{where}: {exc}") from exc
    stated = _value(row, "scop_stated")
    convention = r.convention(stated) if stated is not None else ""
    flags = _flags(row, climate, convention, cc, corrections_pct)
    for issue in r.inconsistencies:
        if issue.kind == "capacity_below_load":
            flags.append(f"capacity_below_load:{issue.where}({100 * issue.value:.2f}%)")
        else:
            flags.append(f"{issue.kind}:{issue.where}")
    eta_stated = _value(row, "eta_s_stated")
    energy = _value(row, "annual_kwh_stated")
    nan = math.nan
    return {
        "product": row.get("product", ""),
        "application": row.get("application", ""),
        "climate": climate,
        "scop": r.scop,
        "scop_on": r.scop_on,
        "scop_net": r.scop_net,
        "eta_s": r.eta_s,
        "annual_energy_kwh": r.annual_energy_kwh,
        "scop_stated": nan if stated is None else stated,
        "scop_diff": nan if stated is None else stated - r.scop,
        "scop_on_diff": nan if stated is None else stated - r.scop_on,
        "eta_s_stated": nan if eta_stated is None else eta_stated,
        "eta_s_diff": nan if eta_stated is None else eta_stated - r.eta_s,
        "annual_kwh_stated": nan if energy is None else energy,
        "annual_kwh_diff": nan if energy is None else energy - r.annual_energy_kwh,
        "convention": convention,
        "flags": ";".join(flags),
    }


def rate_declared_table(table: pd.DataFrame | str | Path, climate: str = "average") -> pd.DataFrame:
    """Rate every declaration of a table (:func:`rate_declared_row` per row).

    Parameters
    ----------
    table : pandas.DataFrame, str or path
        The table, or a CSV file read with :func:`read_declared_table`.
    climate : str
        Climate of the rows without their own ``climate``.

    Returns
    -------
    pandas.DataFrame
        One row per declaration (:data:`RATED_COLUMNS`).

    Raises
    ------
    DeclaredTableError
        The first bad row, named by its number (from 1 after the header), product and column.
    """
    frame = table if isinstance(table, pd.DataFrame) else read_declared_table(table)
    if "product" not in frame.columns or "design_load_kw" not in frame.columns:
        raise DeclaredTableError("table: columns 'product' and 'design_load_kw' are required")
    rows = []
    for i, row in enumerate(frame.to_dict(orient="records")):
        where = f"row {i + 1} ({row.get('product', '')})"
        rows.append(rate_declared_row(row, climate, where))
    return pd.DataFrame(rows, columns=list(RATED_COLUMNS))
