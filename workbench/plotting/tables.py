"""Results tables for notebooks: formatted pandas Stylers of a solve result.

The plain tables (:func:`results_tables`) keep the solver's columns and SI values; the styled
ones a person reads (:func:`style_results`, :func:`style_table`) are in engineering units with
the unit in every header: bar, °C, kW, kJ/kg, kJ/(kg K), kW/K, K for temperature differences,
and four significant figures. The conversions are :data:`ENGINEERING_COLUMNS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

from workbench.solver.results import HEADLINE_OUTPUTS

__all__ = [
    "ENGINEERING_COLUMNS",
    "TABLES",
    "engineering_table",
    "results_tables",
    "style_results",
    "style_table",
]

TABLES = ("edges", "components", "summary", "controls", "couplings")
"""Names accepted by :func:`style_results`."""

_COMPONENT_COLUMNS = HEADLINE_OUTPUTS

_PHASE_COLOURS = {
    "liquid": "background-color: #dbe9f6",
    "two-phase": "background-color: #eeeeee",
    "vapour": "background-color: #fbe3d6",
    "supercritical": "background-color: #f3e0f7",
}


def results_tables(result: Any) -> dict[str, pd.DataFrame]:
    """The tables of a result as plain DataFrames, keyed by :data:`TABLES`.

    ``components`` keeps the main outputs (SI: W, kg/s, Pa, K); ``summary`` is one column
    ``value``.
    """
    comp = result.components_table()
    keep = [c for c in _COMPONENT_COLUMNS if c in comp.columns]
    return {
        "edges": result.edges.copy(),
        "components": comp[keep] if keep else comp,
        "summary": result.summary_table().to_frame("value"),
        "controls": pd.DataFrame(result.controls),
        "couplings": pd.DataFrame(result.couplings),
    }


def _scale(factor: float, offset: float = 0.0) -> Any:
    return lambda v: v * factor + offset


_KELVIN_TO_C = _scale(1.0, -273.15)
_TO_KILO = _scale(1e-3)
_PA_TO_BAR = _scale(1e-5)

ENGINEERING_COLUMNS: dict[str, tuple[str, Any]] = {
    # edges (the solver's contract units already)
    "m_kg_s": ("m [kg/s]", None),
    "p_bar": ("p [bar]", None),
    "h_kj_kg": ("h [kJ/kg]", None),
    "t_c": ("T [°C]", None),
    "quality": ("quality [-]", None),
    "s": ("s [kJ/(kg K)]", None),
    # components (SI outputs)
    "capacity": ("capacity [kW]", _TO_KILO),
    "power": ("power [kW]", _TO_KILO),
    "massFlowRate": ("mass flow [kg/s]", None),
    "pressure": ("p [bar]", _PA_TO_BAR),
    "temperature": ("T [°C]", _KELVIN_TO_C),
    "saturationTemperature": ("T sat [°C]", _KELVIN_TO_C),
    "superheat": ("superheat [K]", None),
    "subcooling": ("subcooling [K]", None),
    # couplings
    "hot_circuit": ("hot circuit", None),
    "cold_circuit": ("cold circuit", None),
    "hot_component": ("hot side", None),
    "cold_component": ("cold side", None),
    "ua": ("UA [kW/K]", _TO_KILO),
    "efficiency": ("efficiency [-]", None),
    "heat_from_hot_w": ("heat from hot [kW]", _TO_KILO),
    "heat_to_cold_w": ("heat to cold [kW]", _TO_KILO),
    "loss_to_ambient_w": ("loss to ambient [kW]", _TO_KILO),
    "min_temperature_difference": ("pinch [K]", None),
    "profile_min_temperature_difference": ("pinch along the profile [K]", None),
    # control loops (target, measured and error are in the measured output's SI unit)
    "actuator": ("actuator factor [-]", None),
    "state": ("actuator state [-]", None),
    "factor": ("actuated factor", None),
    "sensitivity": ("d(measured)/d(factor)", None),
    # summary rows and sweep columns
    "cooling_capacity_w": ("cooling capacity [kW]", _TO_KILO),
    "heating_capacity_w": ("heating capacity [kW]", _TO_KILO),
    "compressor_power_w": ("compressor power [kW]", _TO_KILO),
    "cop_cooling": ("COP cooling [-]", None),
    "cop_heating": ("COP heating [-]", None),
    "energy_balance_w": ("energy balance [W]", None),
    "residual_norm": ("residual norm [-]", None),
    "destruction_ratio": ("destruction ratio [-]", None),
    # a fluid comparison (notebook 09)
    "cooling_capacity_kw": ("cooling capacity [kW]", None),
    "compressor_power_kw": ("compressor power [kW]", None),
    "mass_flow_kg_s": ("mass flow [kg/s]", None),
    "p_evap_bar": ("evaporating pressure [bar]", None),
    "p_cond_bar": ("condensing pressure [bar]", None),
    "t_discharge_c": ("discharge temperature [°C]", None),
    "evap_glide_k": ("evaporator glide [K]", None),
    "cond_glide_k": ("condenser glide [K]", None),
    "subcooling_k": ("subcooling [K]", None),
}
"""Column (or summary row) -> (header with its unit, conversion from the stored value or None)."""


def engineering_table(
    df: pd.DataFrame,
    *,
    rows: bool = False,
    columns: Mapping[str, str | tuple[str, Any]] | None = None,
) -> pd.DataFrame:
    """A copy of ``df`` in engineering units with the unit in each header.

    Columns of :data:`ENGINEERING_COLUMNS` are converted and renamed; others by their unit
    suffix: ``*_w`` kW, ``*_pa`` bar (a swept ``flash.pressure_pa`` reads
    ``flash.pressure [bar]``), ``*_kg`` g, ``*_m3`` cm3, ``*_temp_k`` °C, ``*_c`` °C,
    ``*_k`` K, ``*_hz`` Hz. ``columns`` (column -> header, or (header, conversion)) comes
    first. With ``rows`` the index is converted instead (the one-column summary table).
    """
    out = df.copy()
    if rows:
        values = out.iloc[:, 0].astype(object)
        labels = []
        for key in out.index:
            header, convert = _header(str(key))
            value = values[key]
            if convert is not None and isinstance(value, int | float):
                values[key] = convert(float(value))
            labels.append(header)
        out = pd.DataFrame({out.columns[0]: values.to_numpy()}, index=labels)
        return out
    renames = {}
    for col in out.columns:
        given = (columns or {}).get(str(col))
        header, convert = (given, None) if isinstance(given, str) else given or _header(str(col))
        if convert is not None and pd.api.types.is_numeric_dtype(out[col]):
            out[col] = convert(out[col].astype(float))
        renames[col] = header
    return out.rename(columns=renames)


_SUFFIXES: tuple[tuple[str, str, Any], ...] = (
    # longest first: "_kg_m3" before "_m3", "_kw_k" before "_k"
    ("_kg_m3", "kg/m3", None),
    ("_kg_s", "kg/s", None),
    ("_kw_k", "kW/K", None),
    ("_m_s", "m/s", None),
    ("_m3", "cm3", _scale(1e6)),
    ("_m2", "m2", None),
    ("_kw", "kW", None),
    ("_kg", "g", _scale(1e3)),
    ("_hz", "Hz", None),
    ("_bar", "bar", None),
    ("_pct", "%", None),
    ("_pa", "bar", _PA_TO_BAR),
    ("_w", "kW", _TO_KILO),
    ("_c", "°C", None),
    ("_k", "K", None),
    ("_m", "m", None),
)
"""Unit suffix of a column name -> (unit shown, conversion); ``_temp_k`` is an absolute
temperature, shown in °C."""


def _header(key: str) -> tuple[str, Any]:
    if key in ENGINEERING_COLUMNS:
        return ENGINEERING_COLUMNS[key]
    if key.endswith("_temp_k") or key.endswith("_temperature_k"):
        return f"{key.rsplit('_', 1)[0].replace('_', ' ')} [°C]", _KELVIN_TO_C
    for suffix, unit, convert in _SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            return f"{key[: -len(suffix)].replace('_', ' ')} [{unit}]", convert
    return key, None


def _is_empty(column: pd.Series) -> bool:
    """Whether a column holds nothing a person reads (all NaN, None or empty text)."""
    return bool(
        column.map(lambda v: v is None or v == "" or (isinstance(v, float) and v != v)).all()
    )


def _format(precision: int, clean_zero: bool) -> Any:
    def fmt(value: float) -> str:
        # solver round-off (a state at 0 degC printed as -7.96e-10) shows as 0
        if clean_zero and abs(value) < 1e-6:
            value = 0.0
        return f"{value + 0.0:.{precision}g}"

    return fmt


def style_table(
    df: pd.DataFrame,
    caption: str | None = None,
    precision: int = 4,
    *,
    columns: Mapping[str, str | tuple[str, Any]] | None = None,
    index: str | None = None,
) -> Styler:
    """Any results frame (a sweep, the control loops) in engineering units, ``precision`` digits.

    The one display helper of the notebooks' tables: units in every header (kW, bar, °C, K,
    g, cm3, Hz ...: :data:`ENGINEERING_COLUMNS`, then the column's unit suffix), numbers to
    ``precision`` significant figures, True/False as yes/no, and columns that hold nothing (all
    NaN, None or empty) left out. The frame itself is not changed: it keeps its SI names.

    Parameters
    ----------
    df : pandas.DataFrame
        Columns named as the solver and the analyses name them (``cop_cooling``,
        ``compressor_power_w``, ``flash.pressure_pa``, ``volume_m3``, ``t_c`` ...).
    caption : str, optional
        Table caption.
    precision : int
        Significant digits of the numbers.
    columns : mapping, optional
        Column -> plain-word header, or (header, conversion of the stored value or None), taking
        precedence over the unit rules (``{"t_c": ("outdoor [°C]", None)}``).
    index : str, optional
        Header of the index column.
    """
    kept = df.loc[:, [c for c in df.columns if not _is_empty(df[c])]].infer_objects()
    shown = engineering_table(kept, columns=columns)
    if index is not None:
        shown.index.name = index
    for col in shown.columns:
        if pd.api.types.is_bool_dtype(shown[col]):
            shown[col] = shown[col].map({True: "yes", False: "no"})
    styler = shown.style.format(
        _format(precision, False), na_rep="", subset=shown.select_dtypes("number").columns
    )
    return styler.set_caption(caption) if caption else styler


def _phase_style(value: Any) -> str:
    return _PHASE_COLOURS.get(str(value), "")


def style_results(result: Any, table: str = "edges", precision: int = 4) -> Styler:
    """A styled table of a solve result for notebook display.

    Parameters
    ----------
    result : SolveResult
        The result.
    table : str
        One of :data:`TABLES`.
    precision : int
        Significant digits of floats.

    Returns
    -------
    pandas.io.formats.style.Styler
        ``edges`` with phases shaded (liquid blue, two-phase grey, vapour orange) and
        empty qualities blank; ``summary`` with the energy balance highlighted red when it
        exceeds 0.1 % of the compressor power; caption names the scenario and the outcome.

    Raises
    ------
    ValueError
        ``table`` is not one of :data:`TABLES`.
    """
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; choose one of {', '.join(TABLES)}")
    raw = results_tables(result)[table]
    df = engineering_table(raw, rows=table == "summary")
    if table == "summary":
        df["value"] = pd.to_numeric(df["value"])
    fmt = _format(precision, table == "edges")
    styler = df.style.format(fmt, na_rep="", subset=df.select_dtypes("number").columns)
    if table == "edges" and "phase" in df:
        styler = styler.map(_phase_style, subset=["phase"]).hide(axis="index")
    if table == "summary":
        power = result.summary.get("compressor_power_w") or 0.0
        balance = result.summary.get("energy_balance_w") or 0.0
        bad = abs(balance) > 1e-3 * max(abs(power), 1.0)

        balance_row = ENGINEERING_COLUMNS["energy_balance_w"][0]

        def _mark(row: pd.Series) -> list[str]:
            return [
                "color: #b00020; font-weight: bold" if row.name == balance_row and bad else ""
            ] * len(row)

        styler = styler.apply(_mark, axis=1)
    state = "converged" if result.converged else "NOT converged"
    name = result.scenario_name or "scenario"
    return styler.set_caption(f"{name}: {table} ({state})")
