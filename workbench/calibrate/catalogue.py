"""Catalogue tables with the unit in the header, converted to the fit's columns.

A compressor catalogue comes in the maker's units. The header of each column names the
quantity and its unit, either as a suffix (``mass_flow_kg_h``, ``t_evap_f``, ``power_kw``) or in
brackets (``mass_flow [kg/h]``, ``t_evap (F)``); :func:`read_compressor_table` converts them to
the columns :func:`~workbench.calibrate.compressor_map.fit_compressor_map` takes (``t_evap_c``,
``t_cond_c`` [degC], ``mass_flow_kg_s`` [kg/s], ``power_w`` and ``capacity_w`` [W]). The units
accepted are in :data:`UNITS`; any other column is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.errors import CalibrationError

__all__ = ["UNITS", "read_compressor_table", "standard_columns"]

_LB_KG = 0.45359237
_BTU_H_W = 1055.05585262 / 3600.0

UNITS: dict[str, tuple[str, dict[str, Callable[[Any], Any]]]] = {
    "t_evap": (
        "t_evap_c",
        {"c": lambda v: v, "f": lambda v: (v - 32.0) / 1.8, "k": lambda v: v - 273.15},
    ),
    "t_cond": (
        "t_cond_c",
        {"c": lambda v: v, "f": lambda v: (v - 32.0) / 1.8, "k": lambda v: v - 273.15},
    ),
    "mass_flow": (
        "mass_flow_kg_s",
        {
            "kg_s": lambda v: v,
            "kg_h": lambda v: v / 3600.0,
            "g_s": lambda v: v / 1000.0,
            "lb_h": lambda v: v * _LB_KG / 3600.0,
        },
    ),
    "power": ("power_w", {"w": lambda v: v, "kw": lambda v: v * 1000.0}),
    "capacity": (
        "capacity_w",
        {"w": lambda v: v, "kw": lambda v: v * 1000.0, "btu_h": lambda v: v * _BTU_H_W},
    ),
}
"""Quantity -> (the fit's column, unit -> conversion to that column's unit)."""

_BRACKETS = re.compile(r"^(?P<name>.*?)\s*[\[(](?P<unit>[^\])]+)[\])]\s*$")


def _split(header: str) -> tuple[str, str] | None:
    """``(quantity, unit)`` of a header, or None when it names no known quantity."""
    text = header.strip().lower()
    match = _BRACKETS.match(text)
    if match:
        name = re.sub(r"[\s-]+", "_", match["name"].strip())
        unit = match["unit"].strip().replace("/", "_").replace(" ", "").replace("°", "")
        return (name, unit) if name in UNITS else None
    text = re.sub(r"[\s-]+", "_", text)
    for name in UNITS:
        if text.startswith(name + "_"):
            return name, text[len(name) + 1 :]
    return None


def standard_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """The table with its unit-tagged columns converted to the fit's columns.

    Parameters
    ----------
    frame : pandas.DataFrame
        A catalogue table; headers as in the module docstring.

    Returns
    -------
    pandas.DataFrame
        Columns ``t_evap_c``, ``t_cond_c``, ``mass_flow_kg_s``, ``power_w`` (and ``capacity_w``).

    Raises
    ------
    CalibrationError
        A header of a known quantity with a unit not in :data:`UNITS`, a quantity given twice,
        or a value that is not a number (the message names the column).
    """
    out: dict[str, Any] = {}
    source: dict[str, str] = {}
    for header in frame.columns:
        parsed = _split(str(header))
        if parsed is None:
            continue
        name, unit = parsed
        column, converters = UNITS[name]
        if unit not in converters:
            raise CalibrationError(
                f"compressor table: column {header!r}: unit {unit!r} of {name} is not known; "
                f"use one of {', '.join(converters)} (e.g. {name}_{next(iter(converters))})"
            )
        if column in out:
            raise CalibrationError(
                f"compressor table: columns {source[column]!r} and {header!r} both give {name}"
            )
        values = pd.to_numeric(frame[header], errors="coerce")
        if values.isna().any():
            row = int(values.isna().to_numpy().argmax())
            raise CalibrationError(
                f"compressor table: column {header!r}, row {row}: {frame[header].iloc[row]!r} "
                "is not a number"
            )
        out[column] = converters[unit](values.astype(float))
        source[column] = str(header)
    return pd.DataFrame(out)


def read_compressor_table(path: str | Path) -> pd.DataFrame:
    """A catalogue CSV with the unit in each header, in the fit's columns.

    Parameters
    ----------
    path : str or Path
        CSV file (comma-separated, one header row).

    Returns
    -------
    pandas.DataFrame
        As :func:`standard_columns`.

    Raises
    ------
    CalibrationError
        The file cannot be read or parsed, or a column is bad (see :func:`standard_columns`).
    """
    try:
        frame = pd.read_csv(path)
    except (OSError, ValueError) as exc:
        raise CalibrationError(f"compressor table {str(path)!r}: {exc}") from None
    return standard_columns(frame)
