"""``workbench fit compressor`` and ``workbench calibrate``: output, files and exit codes."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from calibration_cases import EXAMPLE, TRUE, WRONG_START, heat_pump_points

from workbench import solve
from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, main
from workbench.components.machines.compressor import ahri540

MASS_FLOW = [5.2e-2, 1.9e-3, -1.2e-4, 2.6e-5, -1.1e-5, 1.5e-6, 1.2e-7, -9.0e-8, 6.0e-8, -1.0e-8]
POWER = [1.1e3, 9.0, 3.1e1, -1.5e-1, 5.5e-1, 2.2e-1, -1.1e-3, 2.0e-3, -1.5e-3, 1.4e-3]


@pytest.fixture
def catalogue(tmp_path):
    """A catalogue in the maker's units: F, kg/h and kW."""
    s, d = np.meshgrid(np.linspace(-25, 10, 6), np.linspace(30, 60, 5), indexing="ij")
    s, d = s.ravel(), d.ravel()
    frame = pd.DataFrame(
        {
            "t_evap_f": s * 1.8 + 32,
            "t_cond_f": d * 1.8 + 32,
            "mass_flow_kg_h": [ahri540(MASS_FLOW, a, b) * 3600 for a, b in zip(s, d)],
            "power_kw": [ahri540(POWER, a, b) / 1000 for a, b in zip(s, d)],
        }
    )
    path = tmp_path / "catalogue.csv"
    frame.to_csv(path, index=False)
    return path


def test_cli_fit_compressor_prints_parameters_ready_to_paste(catalogue, capsys):
    assert main(["fit", "compressor", str(catalogue)]) == EXIT_OK
    out, err = capsys.readouterr()
    params = json.loads(out)
    assert params["mass_flow_map_kg_s"] == pytest.approx(MASS_FLOW, rel=1e-6, abs=1e-12)
    assert params["power_map_w"] == pytest.approx(POWER, rel=1e-6, abs=1e-9)
    assert "30 points fitted" in err
    assert "mass_flow_kg_s: RMS" in err
    assert "warning" not in err


def test_cli_fit_compressor_writes_json_and_warns_on_a_small_table(catalogue, tmp_path, capsys):
    small = pd.read_csv(catalogue).iloc[:8]
    small.to_csv(catalogue, index=False)
    target = tmp_path / "map.json"
    assert main(["fit", "compressor", str(catalogue), "-o", str(target)]) == EXIT_OK
    assert set(json.loads(target.read_text())) == {"mass_flow_map_kg_s", "power_map_w"}
    assert "warning: 8 points for ten coefficients" in capsys.readouterr().err


def test_cli_fit_compressor_bad_input_exits_2(catalogue, tmp_path, capsys):
    frame = pd.read_csv(catalogue).rename(columns={"power_kw": "power_hp"})
    frame.to_csv(catalogue, index=False)
    assert main(["fit", "compressor", str(catalogue)]) == EXIT_BAD_INPUT
    assert "column 'power_hp': unit 'hp'" in capsys.readouterr().err
    assert main(["fit", "compressor", str(tmp_path / "missing.csv")]) == EXIT_BAD_INPUT
    assert main(["fit"]) == EXIT_BAD_INPUT


@pytest.fixture
def measurements(tmp_path):
    path = tmp_path / "rig.csv"
    heat_pump_points((0.0, 10.0), (298.15, 308.15)).to_csv(path, index=False)
    return path


def test_cli_calibrate_writes_the_calibrated_scenario(measurements, tmp_path, capsys):
    target = tmp_path / "calibrated.json"
    residuals = tmp_path / "residuals.csv"
    args = ["calibrate", str(EXAMPLE), str(measurements), "--free", *TRUE, "-o", str(target)]
    args += ["--residuals", str(residuals), "--json"]
    for path, value in WRONG_START.items():
        args += ["--start", f"{path}={value}"]
    assert main(args) == EXIT_OK
    printed = json.loads(capsys.readouterr().out)
    for path, truth in TRUE.items():
        assert printed["values"][path] == pytest.approx(truth, rel=5e-3)
    doc = json.loads(target.read_text())
    comps = {c["name"]: c for c in doc["circuits"][0]["components"]}
    assert comps["condenser"]["ua"] == pytest.approx(printed["values"]["condenser.ua"])
    assert solve(doc).converged
    table = pd.read_csv(residuals)
    assert len(table) == 4 * 3
    assert set(table.columns) >= {"point", "quantity", "measured", "model", "residual"}


def test_cli_calibrate_bad_column_exits_2_naming_it(measurements, capsys):
    frame = pd.read_csv(measurements).rename(columns={"compressor.temperature": "compresor.temp"})
    frame.to_csv(measurements, index=False)
    code = main(["calibrate", str(EXAMPLE), str(measurements), "--free", "condenser.ua"])
    assert code == EXIT_BAD_INPUT
    assert "measurements['compresor.temp']" in capsys.readouterr().err


def test_cli_calibrate_bad_free_path_and_bounds_exit_2(measurements, capsys):
    code = main(["calibrate", str(EXAMPLE), str(measurements), "--free", "condenser.uaa"])
    assert code == EXIT_BAD_INPUT
    assert "free['condenser.uaa']" in capsys.readouterr().err
    code = main(
        [
            "calibrate",
            str(EXAMPLE),
            str(measurements),
            "--free",
            "condenser.ua",
            "--bounds",
            "condenser.ua=1",
        ]
    )
    assert code == EXIT_BAD_INPUT
    assert "expected PATH=LOW:HIGH" in capsys.readouterr().err


def test_cli_calibrate_failed_point_exits_1(measurements, capsys):
    frame = pd.read_csv(measurements)
    frame.loc[0, "condenser.secondary_inlet_temp_k"] = -5.0
    frame.to_csv(measurements, index=False)
    code = main(["calibrate", str(EXAMPLE), str(measurements), "--free", "condenser.ua"])
    assert code == EXIT_FAILED
    assert "point 0 failed: invalid conditions" in capsys.readouterr().out
