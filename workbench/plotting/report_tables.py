"""The tables an engineer reads in the analysis notebooks (07-10), through one display helper.

Each function takes what an analysis returns (a seasonal rating, a compressor map fit, a
calibration, a solve result of a blend, a charge inventory, the room's charge limits) and gives
a pandas Styler made by :func:`workbench.plotting.tables.style_table`: engineering units with
the unit in each header (°C, kW, bar, g, cm3, Hz), four significant figures, plain-word
headers and no column that holds nothing. The data behind them (the returned DataFrames, the
``--json`` output) keep their documented SI names; only the display changes.
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

from workbench.plotting.tables import style_table

__all__ = [
    "calibration_table",
    "charge_curve_table",
    "coil_saturation_table",
    "inventory_table",
    "limits_table",
    "map_errors_table",
    "map_prediction_table",
    "measurements_table",
    "path_label",
    "seasonal_points_table",
    "sensitivity_table",
]

_KELVIN = 273.15
_KG_S_TO_KG_H = 3600.0


def _kelvin_to_c(value: float) -> float:
    return value - _KELVIN


def _to_kilo(value: float) -> float:
    return value / 1e3


def _words(key: str) -> str:
    return re.sub(r"\btemp\b", "temperature", key.replace("_", " "))


_EDGE_COLUMNS = {
    "t_c": ("temperature", "°C", 1.0, 0.0),
    "p_bar": ("pressure", "bar", 1.0, 0.0),
    "h_kj_kg": ("enthalpy", "kJ/kg", 1.0, 0.0),
    "m_kg_s": ("mass flow", "kg/s", 1.0, 0.0),
    "quality": ("quality", "-", 1.0, 0.0),
}
_SUMMARY_WORDS = {
    "heating_capacity_w": "heating capacity",
    "cooling_capacity_w": "cooling capacity",
    "compressor_power_w": "compressor power",
    "cop_heating": "COP heating",
    "cop_cooling": "COP cooling",
}


def path_label(path: str) -> tuple[str, str, float, float]:
    """A measured quantity's or a parameter's path in plain words, with its display unit.

    Parameters
    ----------
    path : str
        ``summary.heating_capacity_w``, ``edges.compressor:outlet.t_c``,
        ``evaporator.air_inlet_temp_c``, ``condenser.secondary_inlet_temp_k``, ``condenser.capacity``.

    Returns
    -------
    (str, str, float, float)
        The words (``heating capacity``, ``compressor outlet temperature``, ``evaporator air
        inlet temperature``), the unit shown (``kW``, ``°C``, ``-`` or ``""``), and the factor and
        offset that turn the stored SI value into it (``value * factor + offset``).
    """
    if path.startswith("summary."):
        key = path[len("summary.") :]
        words = _SUMMARY_WORDS.get(key, _words(re.sub(r"_(w|kw)$", "", key)))
        if key.endswith("_w"):
            return words, "kW", 1e-3, 0.0
        return words, "-" if key.startswith("cop") else "", 1.0, 0.0
    if path.startswith("edges."):
        edge, _, key = path[len("edges.") :].rpartition(".")
        where = edge.split(" -> ")[0].replace(":", " ")
        what, unit, factor, offset = _EDGE_COLUMNS.get(key, (_words(key), "", 1.0, 0.0))
        return f"{where} {what}", unit, factor, offset
    owner, _, key = path.rpartition(".")
    prefix = f"{owner} " if owner else ""
    if key.endswith("_temp_k") or key in ("temperature", "saturationTemperature"):
        stem = key[: -len("_k")] if key.endswith("_k") else key
        words = "saturation temperature" if key == "saturationTemperature" else _words(stem)
        return prefix + words, "°C", 1.0, -_KELVIN
    for suffix, unit in (("_c", "°C"), ("_kw_k", "kW/K"), ("_hz", "Hz"), ("_k", "K")):
        if key.endswith(suffix):
            return prefix + _words(key[: -len(suffix)]), unit, 1.0, 0.0
    if key.endswith("_w") or key in ("power", "capacity", "heatTransferRate"):
        return prefix + _words(key.removesuffix("_w")), "kW", 1e-3, 0.0
    if key == "ua":
        return prefix + "UA", "W/K", 1.0, 0.0
    if key.endswith("efficiency") or key.startswith("cop"):
        return prefix + _words(key), "-", 1.0, 0.0
    return prefix + _words(key), "", 1.0, 0.0


def _header(path: str) -> str:
    words, unit, _, _ = path_label(path)
    return f"{words} [{unit}]" if unit else words


def seasonal_points_table(rating: Any) -> Styler:
    """The test points of a seasonal rating as an engineer reads them.

    A point colder than the unit's operation limit (G at -15 °C below a -10 °C limit) is shown
    as the bin method treats it: beyond the operation limit, its load met by back-up heat, with
    no unit figures; the others say whether the unit met the part load, ran at its highest
    speed or cycled at its lowest (``limit``), or did not converge (its solver hint).

    Parameters
    ----------
    rating : SeasonalRating
        The rating (:func:`workbench.seasonal.rate`).
    """
    points = rating.test_points.copy()
    s = rating.settings
    cooling = s.mode == "cooling"
    eff = "EER" if cooling else "COP"
    limit_c = None if cooling else s.operation_limit_c
    beyond = (
        points["t_c"] < limit_c if limit_c is not None else pd.Series(False, index=points.index)
    )
    unit_columns = ["capacity_kw", "cop", "speed_hz", "full_capacity_kw", "full_cop"]
    points[unit_columns] = points[unit_columns].astype(float)
    points.loc[beyond, unit_columns] = float("nan")
    status = []
    for flag, (_, row) in zip(beyond, points.iterrows()):
        if flag:
            status.append(f"beyond the operation limit ({limit_c:g} °C): back-up heat")
        elif not row["converged"]:
            status.append(f"not converged: {row['hint'] or 'no hint'}")
        elif row["limit"] == "max":
            status.append("at its highest speed")
        elif row["limit"] == "min":
            status.append("at its lowest speed: cycles")
        else:
            status.append("meets the part load")
    points["status"] = status
    control = s.capacity.parameter
    words, unit, _, _ = path_label(control)
    shown = points.drop(columns=["limit", "converged", "hint"]).set_index("name")
    what = "cooling" if cooling else "heating"
    return style_table(
        shown,
        index="test point",
        columns={
            "t_c": "outdoor [°C]",
            "supply_c": ("chilled water outlet [°C]" if cooling else "water outlet [°C]"),
            "load_kw": f"{what} load [kW]",
            "capacity_kw": "capacity [kW]",
            "cop": f"{eff} [-]",
            "part_load": "part load [-]",
            "speed_hz": f"{words} [{unit}]" if unit else words,
            "full_capacity_kw": "capacity at full speed [kW]",
            "full_cop": f"{eff} at full speed [-]",
        },
    )


def sensitivity_table(sensitivity: pd.DataFrame, factor: float = 1.1) -> Styler:
    """Which test point limits SCOP (:meth:`SeasonalRating.sensitivity`), in plain words.

    Parameters
    ----------
    sensitivity : pandas.DataFrame
        Columns ``name``, ``t_c``, ``cop``, ``scop``, ``gain``.
    factor : float
        The COP factor the table was made with [-].
    """
    better = f"{100 * (factor - 1):.0f} %"
    return style_table(
        sensitivity.set_index("name"),
        index="test point",
        columns={
            "t_c": "outdoor [°C]",
            "cop": "COP [-]",
            "scop": f"SCOP with this COP {better} better [-]",
            "gain": "SCOP gained [-]",
        },
    )


_MAP_ROWS = {
    "mass_flow_kg_s": ("mass flow", "kg/h", _KG_S_TO_KG_H),
    "power_w": ("power", "kW", 1e-3),
    "capacity_w": ("capacity", "kW", 1e-3),
}


def map_errors_table(errors: pd.DataFrame) -> Styler:
    """The errors of a compressor map fit (:attr:`CompressorMapFit.errors`) in plain words.

    The RMS error in each quantity's own unit is given as text with its unit (kg/h, kW), since
    the rows differ in unit.
    """
    shown = errors.copy()
    labels, rms = [], []
    for key, row in shown.iterrows():
        words, unit, factor = _MAP_ROWS.get(str(key), (str(key), "", 1.0))
        labels.append(words)
        rms.append(f"{row['rms'] * factor:.4g} {unit}".strip())
    shown.index = labels
    shown["rms"] = rms
    return style_table(
        shown,
        index="quantity",
        columns={
            "rms_relative_pct": "RMS error [%]",
            "worst_relative_pct": "worst error [%]",
            "rms": "RMS error",
            "worst_t_evap_c": "worst at evaporating [°C]",
            "worst_t_cond_c": "worst at condensing [°C]",
        },
    )


def map_prediction_table(predicted: pd.DataFrame) -> Styler:
    """Predictions of a compressor map (:meth:`CompressorMapFit.predict`) in plain words."""
    shown = predicted.copy()
    if "mass_flow_kg_s" in shown:
        shown["mass_flow_kg_s"] = shown["mass_flow_kg_s"] * _KG_S_TO_KG_H
    return style_table(
        shown,
        columns={
            "t_evap_c": "evaporating [°C]",
            "t_cond_c": "condensing [°C]",
            "mass_flow_kg_s": "mass flow [kg/h]",
            "inside_envelope": "inside the catalogue [-]",
        },
    ).hide(axis="index")


def measurements_table(measurements: pd.DataFrame) -> Styler:
    """Measured operating points (conditions and quantities named by path) in plain words."""
    columns: dict[str, str | tuple[str, Any]] = {}
    for col in measurements.columns:
        if col == "point":
            continue
        words, unit, factor, offset = path_label(str(col))
        header = f"{words} [{unit}]" if unit else words
        columns[str(col)] = (header, _affine(factor, offset))
    return style_table(measurements.set_index("point"), index="point", columns=columns)


def _affine(factor: float, offset: float) -> Any:
    if factor == 1.0 and offset == 0.0:
        return None
    return lambda v: v * factor + offset


def calibration_table(table: pd.DataFrame) -> Styler:
    """The fitted parameters (:meth:`CalibrationResult.table`), each with its unit."""
    shown = table.copy()
    shown.insert(0, "unit", [path_label(str(p))[1] for p in shown.index])
    return style_table(
        shown,
        index="parameter",
        columns={
            "start": "start",
            "value": "fitted",
            "std_error": "standard error",
            "low": "95 % low",
            "high": "95 % high",
            "identifiable": "identifiable",
            "reason": "why not identifiable",
        },
    )


def coil_saturation_table(
    result: Any, names: tuple[str, ...] = ("evaporator", "condenser")
) -> Styler:
    """The refrigerant temperatures of a blend's coils: bubble and dew point, glide, inlet, outlet.

    Parameters
    ----------
    result : SolveResult
        A solved scenario whose coils report ``bubble_temperature``, ``dew_temperature``,
        ``glide``, ``inlet_temperature`` and ``temperature`` (the outlet) [K].
    names : tuple of str
        The coils (columns of the table).
    """
    rows = {
        "bubble_temperature": "bubble point [°C]",
        "dew_temperature": "dew point [°C]",
        "glide": "glide [K]",
        "inlet_temperature": "refrigerant inlet [°C]",
        "temperature": "refrigerant outlet [°C]",
    }
    data: dict[str, dict[str, float]] = {}
    for name in names:
        comp = result.components[name]
        data[name] = {
            label: float(comp[key]) - (0.0 if key == "glide" else _KELVIN)
            for key, label in rows.items()
            if comp.get(key) is not None
        }
    return style_table(pd.DataFrame(data))


def inventory_table(inventory: pd.DataFrame) -> Styler:
    """Where the charge sits (:func:`workbench.charge.charge_table`): cm3, kg/m3, g and %."""
    shown = inventory.copy()
    drop = ["kind", "type"] + (["circuit"] if shown["circuit"].nunique() <= 1 else [])
    shown = shown.drop(columns=[c for c in drop if c in shown])
    shown["share"] = 100.0 * shown["share"]
    shown["item"] = [_line_words(str(item)) for item in shown["item"]]
    return style_table(
        shown,
        columns={
            "item": "where",
            "zone": "zone",
            "volume_m3": ("volume [cm3]", lambda v: v * 1e6),
            "density_kg_m3": "density [kg/m3]",
            "kg": ("charge [g]", lambda v: v * 1e3),
            "share": "share [%]",
        },
    ).hide(axis="index")


def _line_words(item: str) -> str:
    """``compressor:outlet -> condenser:inlet`` -> ``line compressor → condenser``."""
    if " -> " not in item:
        return item
    start, end = (part.split(":")[0] for part in item.split(" -> ", 1))
    return f"line {start} → {end}"


def charge_curve_table(curve: pd.DataFrame) -> Styler:
    """The charge curve (:func:`workbench.charge.charge_curve`) with charges in g and powers in kW."""
    return style_table(
        curve,
        columns={"charge_kg": ("charge [g]", lambda v: v * 1e3), "converged": "converged"},
    ).hide(axis="index")


_LIMIT_ROWS = {
    "fluid": ("refrigerant", None),
    "safety_class": ("safety class", None),
    "lfl_kg_m3": ("lower flammability limit [kg/m3]", None),
    "room_area_m2": ("room floor area [m2]", None),
    "release_height_m": ("release height [m]", None),
    "m1_kg": ("m1 [g]", 1e3),
    "m2_kg": ("m2 [g]", 1e3),
    "m3_kg": ("m3 [g]", 1e3),
    "m_max_kg": ("largest charge for the room [g]", 1e3),
    "allowed_kg": ("allowed charge [g]", 1e3),
    "charge_kg": ("the unit's charge [g]", 1e3),
    "min_room_area_m2": ("smallest room for this charge [m2]", None),
    "complies": ("complies", None),
    "margin_kg": ("margin [g]", 1e3),
    "standard": ("standard", None),
    "source": ("LFL source", None),
}


def limits_table(limits: Any) -> Styler:
    """The room's charge limits (:func:`workbench.safety.charge_limits`) as rows with units.

    The message (printed by the notebook) is left out; values that do not apply (None) too.
    """
    data = limits.to_dict()
    labels, values = [], []
    for key, (label, factor) in _LIMIT_ROWS.items():
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif factor is not None:
            value = float(value) * factor
        elif isinstance(value, float):
            value = f"{value:.4g}"
        if isinstance(value, float):
            value = f"{value:.4g}"
        labels.append(label)
        values.append(value)
    return style_table(pd.DataFrame({"value": values}, index=labels))
