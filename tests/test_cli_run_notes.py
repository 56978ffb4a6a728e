"""``workbench solve/sweep --note`` and ``workbench notes scenario/table/runs`` end to end.

Real database (``DATABASE_URL`` of a throwaway database), the real local model (each command
builds the provider the environment describes), exit codes and what lands on standard output.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pandas as pd
import psycopg
import pytest

import workbench
from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, main
from workbench.notes import add_note, get_run, list_runs

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
SPLIT = Path("examples/scenarios/split_units_v2.json")
HEAT_PUMP = Path("examples/scenarios/heat_pump_v1.json")


@pytest.fixture
def cli_db(migrated_conn, monkeypatch: pytest.MonkeyPatch):
    url = migrated_conn.info.dsn
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("WORKBENCH_EMBEDDING_PROVIDER", raising=False)
    return migrated_conn


def test_solve_note_prints_the_note_id_and_scenario_comes_back(cli_db, tmp_path, capsys):
    assert main(["solve", str(SPLIT), "--note", "--owner", "alice"]) == EXIT_OK
    out, err = capsys.readouterr()
    note_id = out.strip().splitlines()[-1]
    assert UUID.match(note_id), out[-300:]
    assert f"stored as note {note_id} of alice" in err
    run = get_run(cli_db, note_id, owner="alice")
    doc = json.loads(SPLIT.read_text(encoding="utf-8"))
    assert run.scenario == doc
    assert run.summary["converged"] is True
    # back from the note: the file written equals the scenario, and solves to the figures
    target = tmp_path / "back" / "scenario.json"
    assert main(["notes", "scenario", note_id, "--owner", "alice", "-o", str(target)]) == EXIT_OK
    back = json.loads(target.read_text(encoding="utf-8"))
    assert back == doc
    assert list(back) == list(doc)
    again = workbench.solve(back)
    for key, value in run.summary["summary"].items():
        assert again.summary[key] == pytest.approx(value, rel=1e-9, abs=1e-9), key
    # to standard output without -o
    capsys.readouterr()
    assert main(["notes", "scenario", note_id]) == EXIT_OK
    assert json.loads(capsys.readouterr().out) == doc


def test_solve_note_with_json_and_an_override(cli_db, capsys):
    code = main(
        ["solve", str(HEAT_PUMP), "--json", "--strategy", "newton", "--note", "--owner", "bob"]
    )
    assert code == EXIT_OK
    printed = json.loads(capsys.readouterr().out)
    run = get_run(cli_db, printed["note_id"], owner="bob")
    assert run.scenario["solver"]["strategy"] == "newton"
    assert run.summary["summary"] == printed["summary"]
    assert "solver.strategy fallback -> newton" in run.content
    assert "heat_pump_v1.json (command line overrides)" in run.content


def test_solve_note_stores_a_run_that_did_not_converge(cli_db, tmp_path, capsys):
    doc = json.loads(SPLIT.read_text(encoding="utf-8"))
    doc["solver"] = {"strategy": "newton", "max_iterations": 1}
    path = tmp_path / "short.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["solve", str(path), "--note", "--owner", "alice"]) == EXIT_FAILED
    note_id = capsys.readouterr().out.strip().splitlines()[-1]
    run = get_run(cli_db, note_id, owner="alice")
    assert run.summary["converged"] is False
    assert "NOT converged" in run.title


def test_note_flags_are_checked_before_solving(cli_db, capsys):
    assert main(["solve", str(SPLIT), "--note"]) == EXIT_BAD_INPUT
    assert "--note needs --owner OWNER" in capsys.readouterr().err
    assert main(["solve", str(SPLIT), "--owner", "alice"]) == EXIT_BAD_INPUT
    assert "--owner is only used with --note" in capsys.readouterr().err
    assert main(["sweep", str(SPLIT), "--set", "unit_a.evaporator.fan_speed=1", "--note"]) == (
        EXIT_BAD_INPUT
    )
    assert "--note needs --owner" in capsys.readouterr().err
    assert list_runs(cli_db, owner=None) == []


def test_notes_scenario_refuses_other_owners_plain_and_unknown_notes(cli_db, capsys, minilm):
    assert main(["solve", str(SPLIT), "--note", "--owner", "alice"]) == EXIT_OK
    note_id = capsys.readouterr().out.strip().splitlines()[-1]
    assert main(["notes", "scenario", note_id, "--owner", "bob"]) == EXIT_BAD_INPUT
    assert f"note '{note_id}' not found" in capsys.readouterr().err
    plain = add_note(cli_db, "alice", "Defrost", "every 6 h", provider=minilm)
    assert main(["notes", "scenario", plain.id, "--owner", "alice"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"note '{plain.id}' holds no stored run" in err
    assert main(["notes", "scenario", "no-such-id", "-o", "x.json"]) == EXIT_BAD_INPUT
    assert "not found" in capsys.readouterr().err
    assert not Path("x.json").exists()
    # a run has no table
    assert main(["notes", "table", note_id]) == EXIT_BAD_INPUT
    assert "holds a single run, not a sweep" in capsys.readouterr().err


def test_sweep_note_keeps_the_csv(cli_db, tmp_path, capsys):
    csv = tmp_path / "sweep.csv"
    code = main(
        [
            "sweep",
            str(SPLIT),
            "--set",
            "unit_a.evaporator.fan_speed=0.4:1:3",
            "-o",
            str(csv),
            "--no-progress",
            "--note",
            "--owner",
            "alice",
        ]
    )
    assert code == EXIT_OK
    out, err = capsys.readouterr()
    note_id = out.strip()
    assert UUID.match(note_id)
    assert f"stored as note {note_id}" in err
    run = get_run(cli_db, note_id, owner="alice")
    assert run.kind == "sweep"
    assert run.summary["cases"] == 3
    assert "unit_a.evaporator.fan_speed from 0.4 to 1 (3 values: 0.4, 0.7, 1)" in run.content
    table = tmp_path / "table.csv"
    assert main(["notes", "table", note_id, "-o", str(table)]) == EXIT_OK
    pd.testing.assert_frame_equal(pd.read_csv(table), pd.read_csv(csv))
    # the CSV on standard output: the note id only on standard error
    capsys.readouterr()
    code = main(
        [
            "sweep",
            str(SPLIT),
            "--set",
            "unit_a.evaporator.fan_speed=0.5,1",
            "--no-progress",
            "--note",
            "--owner",
            "alice",
        ]
    )
    out, err = capsys.readouterr()
    assert code == EXIT_OK
    assert len(pd.read_csv(io.StringIO(out))) == 2
    assert "stored as note" in err
    assert main(["notes", "runs", "--owner", "alice", "--kind", "sweep"]) == EXIT_OK
    listed = capsys.readouterr().out.strip().splitlines()
    assert len(listed) == 2
    assert note_id in listed[1]
    assert main(["notes", "runs", "--owner", "alice", "--json"]) == EXIT_OK
    assert [r["kind"] for r in json.loads(capsys.readouterr().out)] == ["sweep", "sweep"]
    with psycopg.connect(cli_db.info.dsn, autocommit=True) as conn:
        assert len(list_runs(conn, owner="alice")) == 2
