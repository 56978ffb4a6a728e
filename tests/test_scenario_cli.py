"""The ``validate``, ``flatten`` and ``schema`` commands: exit codes, stdout and stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scenario_docs import EXAMPLES, heat_pump

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_OK, main
from workbench.scenario import flatten, load_scenario

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))


def _write(tmp_path: Path, name: str, doc) -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def test_cli_validate_examples_one_line_each(capsys) -> None:
    assert len(EXAMPLE_FILES) >= 3
    code = main(["validate", *map(str, EXAMPLE_FILES)])
    out, err = capsys.readouterr()
    assert code == EXIT_OK
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == len(EXAMPLE_FILES)
    split_line = next(line for line in lines if "split_units_v2.json" in line)
    assert "schema version 2" in split_line
    assert "2 circuits" in split_line
    assert "8 components after flattening" in split_line
    hp_line = next(line for line in lines if "heat_pump_v1.json" in line)
    assert "schema version 1" in hp_line
    assert "1 circuit," in hp_line


def test_cli_validate_reports_every_file_and_exits_2(tmp_path, capsys) -> None:
    bad1 = heat_pump()
    bad1["circuits"][0]["components"][3]["fan_speed"] = "fast"
    bad1["circuits"][0]["components"][0]["type"] = "Pump"
    bad_file1 = _write(tmp_path, "bad1.json", bad1)
    bad_file2 = _write(tmp_path, "bad2.json", '{"fluid": "R134a",\n  "circuits": [}')
    good = EXAMPLES / "heat_pump_v1.json"
    code = main(["validate", str(bad_file1), str(good), str(bad_file2)])
    out, err = capsys.readouterr()
    assert code == EXIT_BAD_INPUT
    assert "heat_pump_v1.json: ok" in out
    assert "bad1" not in out
    assert "bad2" not in out
    assert f"{bad_file1}: 2 errors" in err
    assert "circuits[0].components[3].fan_speed" in err
    assert "circuits[0].components[0].type: unknown component type 'Pump'" in err
    assert f"{bad_file2}: 1 error" in err
    assert "line 2, column 16" in err
    assert "2 of 3 files invalid" in err


def test_cli_flatten_prints_the_flat_document(capsys) -> None:
    path = EXAMPLES / "split_units_v2.json"
    code = main(["flatten", str(path)])
    out, err = capsys.readouterr()
    assert code == EXIT_OK
    assert err == ""
    doc = json.loads(out)
    assert doc == flatten(load_scenario(path)).to_dict()
    assert "subsystems" not in doc
    assert "instances" not in doc
    assert [c["id"] for c in doc["circuits"]] == [0, 1]


def test_cli_flatten_writes_output_file(tmp_path, capsys) -> None:
    out_path = tmp_path / "sub" / "flat.json"
    code = main(["flatten", str(EXAMPLES / "cascade_v2.json"), "-o", str(out_path)])
    out, _ = capsys.readouterr()
    assert code == EXIT_OK
    assert out == ""
    doc = json.loads(out_path.read_text())
    assert len(doc["circuits"]) == 2
    assert list(out_path.parent.iterdir()) == [out_path]  # no temporary file left behind


def test_cli_flatten_invalid_exits_2_and_writes_nothing(tmp_path, capsys) -> None:
    bad = heat_pump()
    bad["circuits"][0]["edges"][0]["to"] = "condenser:side"
    src = _write(tmp_path, "bad.json", bad)
    out_path = tmp_path / "flat.json"
    code = main(["flatten", str(src), "-o", str(out_path)])
    _, err = capsys.readouterr()
    assert code == EXIT_BAD_INPUT
    assert "circuits[0].edges[0].to" in err
    assert "ports of Condenser: inlet, outlet" in err
    assert not out_path.exists()


def test_cli_schema_is_json_schema(capsys) -> None:
    code = main(["schema"])
    out, _ = capsys.readouterr()
    assert code == EXIT_OK
    schema = json.loads(out)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert schema["required"] == ["fluid"]


def test_cli_entry_point_in_a_subprocess(tmp_path) -> None:
    bad = _write(tmp_path, "bad.json", {"fluid": "R134a", "schema_version": "1", "controls": []})
    ok = subprocess.run(
        [sys.executable, "-m", "workbench.cli.main", "validate", str(EXAMPLES / "cascade_v2.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ok.returncode == 0, ok.stderr
    assert "cascade_v2.json: ok" in ok.stdout
    failed = subprocess.run(
        [sys.executable, "-m", "workbench.cli.main", "validate", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert failed.returncode == 2
    assert "no components" in failed.stderr
    assert failed.stdout == ""
