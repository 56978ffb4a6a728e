"""``workbench solve``: tables, JSON, CSV and exit codes."""

from __future__ import annotations

import json

from solver_cases import textbook_r134a, ua_heat_pump

from workbench.cli.main import main


def _write(tmp_path, doc, name="s.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_solve_json_has_the_documented_keys_and_exit_0(tmp_path, capsys):
    path = _write(tmp_path, textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0))
    assert main(["solve", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["converged"] is True
    assert set(doc) >= {
        "converged",
        "iterations",
        "residual_norm",
        "summary",
        "components",
        "edges",
        "controls",
    }
    assert set(doc["summary"]) == {
        "cooling_capacity_w",
        "heating_capacity_w",
        "compressor_power_w",
        "cop_cooling",
        "cop_heating",
        "energy_balance_w",
    }
    assert abs(doc["summary"]["cop_cooling"] - 3.07) < 0.01
    comp = next(c for c in doc["components"] if c["name"] == "comp")
    assert comp["type"] == "Compressor"
    assert comp["power"] > 0
    assert {"edge", "circuit", "m_kg_s", "p_bar", "h_kj_kg", "t_c", "quality", "phase", "s"} <= set(
        doc["edges"][0]
    )


def test_solve_prints_tables_and_writes_csv(tmp_path, capsys):
    path = _write(tmp_path, ua_heat_pump())
    out_dir = tmp_path / "csv"
    assert main(["solve", str(path), "--csv", str(out_dir)]) == 0
    text = capsys.readouterr().out
    assert "converged" in text
    assert "cop_heating" in text
    assert "evap:outlet -> comp:inlet" in text
    assert (out_dir / "edges.csv").read_text().count("\n") == 5
    assert "cond" in (out_dir / "components.csv").read_text()
    assert "cop_cooling" in (out_dir / "summary.csv").read_text()


def test_solve_not_converged_exits_1_with_diagnostics(tmp_path, capsys):
    doc = ua_heat_pump()
    doc["solver"] = {"strategy": "newton", "max_iterations": 1}
    assert main(["solve", str(_write(tmp_path, doc)), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["converged"] is False
    assert out["worst_residuals"]
    assert out["hint"]


def test_solve_bad_input_exits_2_naming_the_place(tmp_path, capsys):
    doc = ua_heat_pump()
    doc["circuits"][0]["components"][0]["isentropic_efficiency"] = 1.5
    assert main(["solve", str(_write(tmp_path, doc))]) == 2
    err = capsys.readouterr().err
    assert "circuits[0].components[0].isentropic_efficiency" in err


def test_solve_under_specified_exits_2(tmp_path, capsys):
    doc = ua_heat_pump()
    del doc["circuits"][0]["components"][1]["subcooling_k"]
    assert main(["solve", str(_write(tmp_path, doc))]) == 2
    assert "under-specified" in capsys.readouterr().err


def test_solve_missing_file_exits_2(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "nope.json")]) == 2
