"""Cycle calibration: UA values fitted back from points solved with known values."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest
from calibration_cases import (
    EXAMPLE,
    MEASURED,
    TRUE,
    WRONG_START,
    heat_pump_doc,
    heat_pump_points,
    set_parameter,
)

from workbench import solve
from workbench.calibrate import calibrate, read_quantity, resolve_quantity
from workbench.errors import CalibrationError, ScenarioError
from workbench.scenario import as_flat
from workbench.sweep import sweep

FREE = list(TRUE)
AIR_C = (-2.0, 3.0, 8.0, 12.0)
WATER_K = (298.15, 308.15)


@pytest.fixture(scope="module")
def base_doc() -> dict:
    return heat_pump_doc()


@pytest.fixture(scope="module")
def points():
    return heat_pump_points(AIR_C, WATER_K)


def test_calibrate_recovers_ua_values_from_a_30_percent_wrong_start(base_doc, points):
    result = calibrate(base_doc, points, FREE, start=WRONG_START)
    assert result.success
    assert result.unidentifiable == {}
    assert result.failed.empty
    for path, truth in TRUE.items():
        assert result.values[path] == pytest.approx(truth, rel=5e-3)
        low, high = result.intervals[path]
        assert low <= truth <= high
    assert result.start == WRONG_START
    # residuals: one row per point and quantity, model against measured
    assert len(result.residuals) == len(points) * len(MEASURED)
    assert np.max(np.abs(result.residuals["residual"] / result.residuals["measured"])) < 1e-6
    # the calibrated scenario, set to a point's conditions and solved, gives the measured figures
    comp = next(c for c in result.scenario["circuits"][0]["components"] if c["name"] == "condenser")
    assert comp["ua"] == pytest.approx(result.values["condenser.ua"])
    doc = copy.deepcopy(result.scenario)
    row = points.iloc[3]
    for path in ("evaporator.air_inlet_temp_c", "condenser.secondary_inlet_temp_k"):
        set_parameter(doc, path, float(row[path]))
    again = solve(doc).raise_for_convergence()
    for path in MEASURED:
        measured = float(row[path])
        assert read_quantity(again, resolve_quantity(as_flat(doc), path)) == pytest.approx(
            measured, rel=1e-6
        )
    # energy balance of the re-solved point: heat out = heat in + compressor power
    assert abs(again.summary["energy_balance_w"]) < 1e-6 * again.summary["heating_capacity_w"]


def test_calibrate_with_noise_brackets_the_true_values(base_doc, points):
    rng = np.random.default_rng(11)
    noisy = points.copy()
    noisy["summary.heating_capacity_w"] *= 1.0 + 0.002 * rng.standard_normal(len(points))
    noisy["summary.compressor_power_w"] *= 1.0 + 0.002 * rng.standard_normal(len(points))
    noisy["compressor.temperature"] += 0.05 * rng.standard_normal(len(points))
    sigma = {
        "summary.heating_capacity_w": 0.002 * points["summary.heating_capacity_w"].mean(),
        "summary.compressor_power_w": 0.002 * points["summary.compressor_power_w"].mean(),
        "compressor.temperature": 0.05,
    }
    result = calibrate(base_doc, noisy, FREE, start=WRONG_START, sigma=sigma)
    assert result.unidentifiable == {}
    for path, truth in TRUE.items():
        value = result.values[path]
        assert value == pytest.approx(truth, rel=5e-3)
        low, high = result.intervals[path]
        assert low < truth < high
        assert 0.0 < result.std_errors[path] < 0.05 * truth  # a real interval, not a wide one
    # the sigmas were right: the residual spread per degree of freedom is about one
    assert 0.4 < result.residual_sigma < 1.8
    assert result.outliers.empty


def test_calibrate_flags_an_outlier(base_doc, points):
    bad = points.copy()
    bad.loc[5, "summary.compressor_power_w"] *= 1.05
    result = calibrate(base_doc, bad, FREE, start=WRONG_START, loss="soft_l1")
    flagged = result.outliers[["point", "quantity"]].values.tolist()
    assert ["5", "summary.compressor_power_w"] in flagged
    assert len(flagged) <= 3


def test_calibrate_flags_an_insensitive_parameter(base_doc, points):
    # the fan runs at full speed at every point: the air-side exponent changes nothing
    free = [*FREE, "evaporator.n_air_exponent"]
    result = calibrate(base_doc, points, free, start=WRONG_START)
    assert list(result.unidentifiable) == ["evaporator.n_air_exponent"]
    assert result.unidentifiable["evaporator.n_air_exponent"].startswith("insensitive")
    assert result.std_errors["evaporator.n_air_exponent"] == np.inf
    assert (
        result.intervals["evaporator.n_air_exponent"] == result.bounds["evaporator.n_air_exponent"]
    )
    for path, truth in TRUE.items():
        assert result.values[path] == pytest.approx(truth, rel=5e-3)


def test_calibrate_flags_correlated_parameters(base_doc, points):
    # the model only sees the product ua_nominal * z_ua
    free = ["evaporator.ua_nominal_kw_k", "evaporator.z_ua"]
    result = calibrate(base_doc, points, free, start={"evaporator.ua_nominal_kw_k": 0.9})
    assert set(result.unidentifiable) == set(free)
    assert all(r.startswith("correlated") for r in result.unidentifiable.values())
    assert all(result.std_errors[p] == np.inf for p in free)
    product = result.values["evaporator.ua_nominal_kw_k"] * result.values["evaporator.z_ua"]
    assert product == pytest.approx(1.2, rel=5e-3)


def test_calibrate_reports_a_point_that_does_not_solve(base_doc, points):
    bad = points.copy()
    bad["point"] = [f"p{i}" for i in range(len(points))]
    bad.loc[2, "condenser.secondary_inlet_temp_k"] = -5.0
    result = calibrate(base_doc, bad, FREE, start=WRONG_START)
    assert result.failed["point"].tolist() == ["p2"]
    assert "secondary_inlet_temp_k" in result.failed["error"].iloc[0]
    assert "p2" not in set(result.residuals["point"])
    for path, truth in TRUE.items():
        assert result.values[path] == pytest.approx(truth, rel=5e-3)


def test_calibrate_names_a_bad_column(base_doc, points):
    bad = points.rename(columns={"compressor.temperature": "compresor.temperature"})
    with pytest.raises(ScenarioError, match=r"measurements\['compresor.temperature'\]"):
        calibrate(base_doc, bad, FREE)
    bad = points.rename(columns={"compressor.temperature": "compressor.temprature"})
    with pytest.raises(CalibrationError, match=r"'compressor.temprature'.*no output 'temprature'"):
        calibrate(base_doc, bad, FREE)
    bad = points.rename(columns={"compressor.temperature": "edges.compressor:outlet.t_f"})
    with pytest.raises(ScenarioError, match=r"edges.compressor:outlet.t_f.*column one of t_c"):
        calibrate(base_doc, bad, FREE)
    bad = points.astype({"evaporator.air_inlet_temp_c": object})
    bad.loc[1, "evaporator.air_inlet_temp_c"] = "warm"
    with pytest.raises(ScenarioError, match=r"evaporator.air_inlet_temp_c.*row 1: 'warm'"):
        calibrate(base_doc, bad, FREE)


def test_calibrate_names_a_bad_free_parameter(base_doc, points):
    with pytest.raises(
        ScenarioError, match=r"free\['condenser.uaa'\].*did you mean condenser.ua\b"
    ):
        calibrate(base_doc, points, ["condenser.uaa"])
    # the evaporator is given as ua_nominal_kw_k: ua is the other alternative
    with pytest.raises(
        ScenarioError, match=r"free\['evaporator.ua'\].*give only one of ua, ua_nominal"
    ):
        calibrate(base_doc, points, ["evaporator.ua"], start={"evaporator.ua": 1000.0})


def test_calibrate_suggests_the_free_path_meant(base_doc, points):
    with pytest.raises(ScenarioError, match=r"free\['condensor.ua'\].*did you mean condenser.ua"):
        calibrate(base_doc, points, ["condensor.ua"])
    # nothing close: the forms of a path and the components are listed
    with pytest.raises(ScenarioError, match=r"free\['foo.bar'\].*components: compressor"):
        calibrate(base_doc, points, ["foo.bar"])


def test_calibrate_reads_edge_temperatures(base_doc, points):
    flat = as_flat(base_doc)
    quantity = resolve_quantity(flat, "edges.compressor:outlet.t_c")
    assert quantity.owner == "compressor:outlet -> condenser:inlet"
    result = solve(base_doc)
    assert read_quantity(result, quantity) == pytest.approx(
        result.components["compressor"]["temperature"] - 273.15, abs=1e-9
    )


def test_calibrate_reports_points_that_do_not_converge(base_doc, points):
    doc = heat_pump_doc()
    doc["solver"]["max_iterations"] = 1
    with pytest.raises(
        CalibrationError,
        match=r"no point solves at the start values: point 0: not converged \(max_iterations\)",
    ):
        calibrate(doc, points, FREE)


def test_calibrate_a_templated_scenario_by_its_flat_names():
    # two split units from one template: flat names carry the instance (unit_a.evaporator)
    scenario = EXAMPLE.parent / "split_units_v2.json"
    table = sweep(
        scenario,
        {"unit_a.condenser.air_inlet_temp_c": [25.0, 30.0, 35.0, 40.0]},
        outputs=["unit_a.evaporator.capacity", "unit_a.compressor.temperature"],
        processes=1,
        progress=False,
    )
    assert table["converged"].all()
    measured = pd.DataFrame(
        {
            "unit_a.condenser.air_inlet_temp_c": table["unit_a.condenser.air_inlet_temp_c"],
            "unit_a.evaporator.capacity": table["unit_a.evaporator.capacity"],
            "edges.unit_a.compressor:outlet.t_c": table["unit_a.compressor.temperature"] - 273.15,
        }
    )
    result = calibrate(
        scenario, measured, ["unit_a.evaporator.ua"], start={"unit_a.evaporator.ua": 450.0 * 1.3}
    )
    assert result.values["unit_a.evaporator.ua"] == pytest.approx(450.0, rel=5e-3)
    assert result.failed.empty
    comps = {c["name"]: c for circ in result.scenario["circuits"] for c in circ["components"]}
    assert comps["unit_a.evaporator"]["ua"] == pytest.approx(result.values["unit_a.evaporator.ua"])
    assert comps["unit_b.evaporator"]["ua"] == 450  # the other instance keeps its value
