"""The tables an engineer reads in notebooks 07-10: units in headers, plain words, nothing empty."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from workbench.plotting import style_table
from workbench.plotting.report_tables import (
    coil_saturation_table,
    inventory_table,
    limits_table,
    map_errors_table,
    path_label,
    seasonal_points_table,
)
from workbench.safety import charge_limits


@pytest.mark.parametrize(
    ("path", "label"),
    [
        ("summary.heating_capacity_w", ("heating capacity", "kW", 1e-3, 0.0)),
        ("edges.compressor:outlet.t_c", ("compressor outlet temperature", "°C", 1.0, 0.0)),
        ("evaporator.air_inlet_temp_c", ("evaporator air inlet temperature", "°C", 1.0, 0.0)),
        (
            "condenser.secondary_inlet_temp_k",
            ("condenser secondary inlet temperature", "°C", 1.0, -273.15),
        ),
        ("compressor.speed_hz", ("compressor speed", "Hz", 1.0, 0.0)),
        ("condenser.ua", ("condenser UA", "W/K", 1.0, 0.0)),
    ],
)
def test_path_label_says_the_quantity_in_words_with_its_unit(path, label):
    assert path_label(path) == label


def test_style_table_leaves_out_empty_columns_and_says_yes_or_no():
    df = pd.DataFrame(
        {
            "charge_kg": [0.2, 0.25],
            "volume_m3": [1.5e-5, 1.457e-3],
            "limit": [np.nan, np.nan],
            "hint": [None, None],
            "reason": ["", ""],
            "converged": [True, False],
        }
    )
    shown = style_table(df)
    assert list(shown.data.columns) == ["charge [g]", "volume [cm3]", "converged"]
    assert shown.data["charge [g]"].tolist() == pytest.approx([200.0, 250.0])
    assert shown.data["converged"].tolist() == ["yes", "no"]
    html = shown.to_html()
    assert ">15<" in html  # 1.5e-5 m3 is 15 cm3
    assert ">1457<" in html  # four significant figures
    assert list(df.columns)[:2] == ["charge_kg", "volume_m3"]  # the data keeps its SI names


def _rating(points: pd.DataFrame) -> SimpleNamespace:
    settings = SimpleNamespace(
        mode="heating",
        operation_limit_c=-10.0,
        capacity=SimpleNamespace(parameter="compressor.speed_hz"),
    )
    return SimpleNamespace(test_points=points, settings=settings)


def test_seasonal_points_below_the_operation_limit_are_back_up_heat():
    points = pd.DataFrame(
        {
            "name": ["G", "E", "B", "D"],
            "t_c": [-15.0, -10.0, 2.0, 12.0],
            "supply_c": [32.0, 30.75, 27.0, 24.0],
            "load_kw": [7.75, 6.5, 3.5, 1.0],
            "capacity_kw": [7.75, 6.5, 3.5, 2.96],
            "cop": [2.9, 3.1, 4.4, 6.0],
            "part_load": [0.82, 0.68, 0.37, 0.1],
            "speed_hz": [97.307604, 80.0, 40.0, 20.0],
            "full_capacity_kw": [8.0, 9.0, 11.0, 14.0],
            "full_cop": [3.0, 3.2, 3.8, 4.6],
            "limit": [None, np.nan, np.nan, "min"],
            "converged": [True, True, True, True],
            "hint": [None, None, None, None],
        }
    )
    shown = seasonal_points_table(_rating(points)).data
    assert "compressor speed [Hz]" in shown.columns
    assert not [c for c in ("limit", "hint", "converged", "speed_hz") if c in shown.columns]
    assert shown.loc["G", "status"] == "beyond the operation limit (-10 °C): back-up heat"
    assert np.isnan(shown.loc["G", "COP [-]"])  # the unit does not run there
    assert shown.loc["E", "status"] == "meets the part load"
    assert shown.loc["D", "status"] == "at its lowest speed: cycles"
    assert shown.loc["G", "heating load [kW]"] == 7.75
    assert points.loc[0, "cop"] == 2.9  # the rating's table is not changed


def test_coil_saturation_table_names_the_outlet_in_degrees_celsius():
    comp = {
        "bubble_temperature": 283.15,
        "dew_temperature": 284.65,
        "glide": 1.5,
        "inlet_temperature": 283.35,
        "temperature": 290.15,
    }
    result = SimpleNamespace(components={"evaporator": comp, "condenser": comp})
    shown = coil_saturation_table(result).data
    assert shown.index.tolist() == [
        "bubble point [°C]",
        "dew point [°C]",
        "glide [K]",
        "refrigerant inlet [°C]",
        "refrigerant outlet [°C]",
    ]
    assert shown.loc["refrigerant outlet [°C]", "evaporator"] == pytest.approx(17.0)
    assert shown.loc["glide [K]", "condenser"] == pytest.approx(1.5)


def test_inventory_in_cm3_and_g_with_lines_in_words():
    inventory = pd.DataFrame(
        {
            "item": ["condenser", "condenser:outlet -> valve:inlet"],
            "kind": ["component", "edge"],
            "type": ["Condenser", "edge"],
            "circuit": [0, 0],
            "zone": ["subcooled", "line"],
            "volume_m3": [1.5e-5, 1e-4],
            "density_kg_m3": [477.5, 480.2],
            "kg": [0.007379, 0.04802],
            "share": [0.25, 0.75],
        }
    )
    shown = inventory_table(inventory).data
    assert list(shown.columns) == [
        "where",
        "zone",
        "volume [cm3]",
        "density [kg/m3]",
        "charge [g]",
        "share [%]",
    ]
    assert shown["where"].tolist() == ["condenser", "line condenser → valve"]
    assert shown["volume [cm3]"].tolist() == pytest.approx([15.0, 100.0])
    assert shown["charge [g]"].tolist() == pytest.approx([7.379, 48.02])
    assert shown["share [%]"].tolist() == pytest.approx([25.0, 75.0])


def test_limits_table_in_grams_without_the_message():
    limits = charge_limits("R290", 15.0, "wall", 0.2204)
    shown = limits_table(limits).data
    assert shown.loc["m1 [g]", "value"] == "152"
    assert shown.loc["complies", "value"] == "yes"
    assert limits.message not in shown["value"].tolist()


def test_map_errors_rows_in_words_with_their_units():
    errors = pd.DataFrame(
        {
            "rms_relative_pct": [0.45, 0.51],
            "worst_relative_pct": [1.27, 1.16],
            "rms": [0.000178, 15.03],
            "worst_t_evap_c": [-20.0, -10.0],
            "worst_t_cond_c": [50.0, 30.0],
        },
        index=pd.Index(["mass_flow_kg_s", "power_w"], name="quantity"),
    )
    shown = map_errors_table(errors).data
    assert shown.index.tolist() == ["mass flow", "power"]
    assert shown["RMS error"].tolist() == ["0.6408 kg/h", "0.01503 kW"]
