"""AHRI 540 map fits: known coefficients recovered, noise at its level, coverage and envelope."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from workbench import solve
from workbench.calibrate import (
    EnvelopeWarning,
    ahri540_terms,
    fit_compressor_map,
    read_compressor_table,
)
from workbench.components.machines.compressor import ahri540
from workbench.errors import CalibrationError

# a scroll compressor's map shape: flow rises with suction, power with discharge temperature
MASS_FLOW = [5.2e-2, 1.9e-3, -1.2e-4, 2.6e-5, -1.1e-5, 1.5e-6, 1.2e-7, -9.0e-8, 6.0e-8, -1.0e-8]
POWER = [1.1e3, 9.0, 3.1e1, -1.5e-1, 5.5e-1, 2.2e-1, -1.1e-3, 2.0e-3, -1.5e-3, 1.4e-3]
CAPACITY = [9.5e3, 3.4e2, -5.0e1, 4.0, -1.5, 8.0e-2, 1.0e-2, -2.0e-2, 5.0e-3, -1.0e-3]


def _table(s_values, d_values) -> pd.DataFrame:
    s, d = np.meshgrid(s_values, d_values, indexing="ij")
    s, d = s.ravel(), d.ravel()
    return pd.DataFrame(
        {
            "t_evap_c": s,
            "t_cond_c": d,
            "mass_flow_kg_s": [ahri540(MASS_FLOW, a, b) for a, b in zip(s, d)],
            "power_w": [ahri540(POWER, a, b) for a, b in zip(s, d)],
            "capacity_w": [ahri540(CAPACITY, a, b) for a, b in zip(s, d)],
        }
    )


S_GRID = np.linspace(-25.0, 10.0, 8)
D_GRID = np.linspace(30.0, 60.0, 7)


def test_fit_compressor_map_terms_match_the_component_polynomial():
    coefficients = np.arange(1.0, 11.0)
    terms = ahri540_terms([-7.0, 3.0], [41.0, 55.0])
    assert terms @ coefficients == pytest.approx(
        [ahri540(list(coefficients), -7.0, 41.0), ahri540(list(coefficients), 3.0, 55.0)],
        rel=1e-14,
    )


def test_fit_compressor_map_recovers_known_coefficients_without_noise():
    fit = fit_compressor_map(_table(S_GRID, D_GRID))
    assert fit.warnings == []
    assert fit.rank == 10
    # predictions between the table's points (inside the envelope) to 1e-9
    s = np.linspace(-24.0, 9.0, 13)
    d = np.linspace(31.0, 59.0, 13)
    predicted = fit.predict(s, d)
    assert predicted["inside_envelope"].all()
    for column, truth in (
        ("mass_flow_kg_s", MASS_FLOW),
        ("power_w", POWER),
        ("capacity_w", CAPACITY),
    ):
        exact = np.array([ahri540(truth, a, b) for a, b in zip(s, d)])
        assert np.max(np.abs(predicted[column] / exact - 1.0)) < 1e-9
        assert fit.errors.loc[column, "worst_relative_pct"] < 1e-7
    assert fit.mass_flow_map_kg_s == pytest.approx(MASS_FLOW, rel=1e-6, abs=1e-12)
    assert fit.power_map_w == pytest.approx(POWER, rel=1e-6, abs=1e-9)


def test_fit_compressor_map_with_one_percent_noise_has_rms_at_the_noise_level():
    table = _table(np.linspace(-25.0, 10.0, 10), np.linspace(30.0, 60.0, 9))
    rng = np.random.default_rng(7)
    noisy = table.copy()
    for column in ("mass_flow_kg_s", "power_w"):
        noisy[column] = table[column] * (1.0 + 0.01 * rng.standard_normal(len(table)))
    fit = fit_compressor_map(noisy)
    # 90 points, 10 coefficients: the residual RMS is sqrt(80/90) of the 1 % noise
    for column in ("mass_flow_kg_s", "power_w"):
        assert 0.8 < fit.errors.loc[column, "rms_relative_pct"] < 1.1
        assert fit.errors.loc[column, "worst_relative_pct"] < 4.0
    # the fitted map is closer to the truth than the noise (averaging over 90 points)
    truth = np.array([ahri540(MASS_FLOW, a, b) for a, b in zip(table.t_evap_c, table.t_cond_c)])
    predicted = fit.predict(table.t_evap_c, table.t_cond_c)["mass_flow_kg_s"].to_numpy()
    assert np.sqrt(np.mean((predicted / truth - 1.0) ** 2)) < 0.005


def test_fit_compressor_map_warns_when_too_few_points():
    fit = fit_compressor_map(_table([-20.0, -10.0, 0.0], [35.0, 50.0]))
    assert any("6 points for ten coefficients" in w for w in fit.warnings)
    assert any("distinct t_evap_c" in w for w in fit.warnings)
    assert fit.rank < 10


def test_fit_compressor_map_warns_when_the_points_lie_along_a_strip():
    # a catalogue that only rates a 45 K lift (D = S + 45 +/- 0.5 K) covers a strip, not an area
    rng = np.random.default_rng(3)
    s = np.linspace(-25.0, 10.0, 30)
    d = s + 45.0 + rng.uniform(-0.5, 0.5, s.size)
    table = pd.DataFrame(
        {
            "t_evap_c": s,
            "t_cond_c": d,
            "mass_flow_kg_s": [ahri540(MASS_FLOW, a, b) for a, b in zip(s, d)],
            "power_w": [ahri540(POWER, a, b) for a, b in zip(s, d)],
        }
    )
    fit = fit_compressor_map(table)
    assert fit.condition_number > 1e4
    assert any("ill-conditioned" in w for w in fit.warnings)


def test_fit_compressor_map_warns_when_the_envelope_is_narrow():
    fit = fit_compressor_map(_table(np.linspace(-5.0, -1.0, 6), np.linspace(40.0, 60.0, 6)))
    assert fit.warnings == [
        "t_evap_c spans only 4 K (less than 10 K): the map is an extrapolation everywhere else"
    ]


def test_fit_compressor_map_predict_warns_outside_the_envelope():
    fit = fit_compressor_map(_table(S_GRID, D_GRID))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        inside = fit.predict(-10.0, 45.0)
    assert bool(inside["inside_envelope"].iloc[0])
    with pytest.warns(
        EnvelopeWarning, match=r"1 of 2 points outside the fitted envelope.*\(20, 45\)"
    ):
        out = fit.predict([0.0, 20.0], [45.0, 45.0])
    assert out["inside_envelope"].tolist() == [True, False]


def test_fit_compressor_map_names_the_bad_column():
    table = _table(S_GRID, D_GRID).drop(columns=["power_w"])
    with pytest.raises(CalibrationError, match=r"missing column.*power_w"):
        fit_compressor_map(table)
    table = _table(S_GRID, D_GRID)
    table.loc[3, "mass_flow_kg_s"] = -1.0
    with pytest.raises(CalibrationError, match="'mass_flow_kg_s', row 3"):
        fit_compressor_map(table)


def test_read_compressor_table_converts_units_in_the_header(tmp_path):
    table = _table(S_GRID, D_GRID)
    converted = pd.DataFrame(
        {
            "t_evap [F]": table.t_evap_c * 1.8 + 32.0,
            "t_cond_f": table.t_cond_c * 1.8 + 32.0,
            "mass_flow (kg/h)": table.mass_flow_kg_s * 3600.0,
            "power_kw": table.power_w / 1000.0,
            "capacity [kW]": table.capacity_w / 1000.0,
            "model": "ZX-1",
        }
    )
    path = tmp_path / "catalogue.csv"
    converted.to_csv(path, index=False)
    back = read_compressor_table(path)
    pd.testing.assert_frame_equal(back[table.columns.tolist()], table, rtol=1e-12)
    bad = converted.rename(columns={"power_kw": "power_hp"})
    bad.to_csv(path, index=False)
    with pytest.raises(CalibrationError, match=r"column 'power_hp': unit 'hp' of power"):
        read_compressor_table(path)


def test_fitted_map_pasted_into_a_compressor_gives_the_catalogue_flow():
    fit = fit_compressor_map(_table(S_GRID, D_GRID))
    t_evap_k, t_cond_k = 268.15, 318.15  # -5 C, 45 C
    doc = {
        "fluid": "R134a",
        "fluid_backend": "CoolProp",
        "circuits": [
            {
                "components": [
                    {"name": "comp", "type": "Compressor", **fit.compressor_parameters()},
                    {"name": "cond", "type": "Condenser", "t_cond_k": t_cond_k, "subcooling_k": 2},
                    {"name": "valve", "type": "ExpansionValve"},
                    {"name": "evap", "type": "Evaporator", "t_evap_k": t_evap_k, "superheat_k": 5},
                ],
                "edges": [
                    {"from": "comp:outlet", "to": "cond:inlet"},
                    {"from": "cond:outlet", "to": "valve:inlet"},
                    {"from": "valve:outlet", "to": "evap:inlet"},
                    {"from": "evap:outlet", "to": "comp:inlet"},
                ],
            }
        ],
    }
    result = solve(doc).raise_for_convergence()
    comp = result.components["comp"]
    assert comp["massFlowRate"] == pytest.approx(ahri540(MASS_FLOW, -5.0, 45.0), rel=1e-7)
    assert comp["power"] == pytest.approx(ahri540(POWER, -5.0, 45.0), rel=1e-7)
    # energy balance of the solved cycle: compressor power = heat out - heat in
    assert abs(result.summary["energy_balance_w"]) < 1e-6 * comp["power"]
