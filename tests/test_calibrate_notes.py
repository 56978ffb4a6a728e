"""Calibrations in the run log: the note, the calibrated scenario and residuals kept, the CLI."""

from __future__ import annotations

import pytest
from calibration_cases import EXAMPLE, TRUE, WRONG_START, heat_pump_doc, heat_pump_points

import workbench
from workbench.calibrate import calibrate
from workbench.cli.main import EXIT_OK, main
from workbench.errors import MigrationError
from workbench.notes import get_run, list_runs, save_calibration
from workbench.notes.migrations import migrate, rollback

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db


@pytest.fixture(scope="module")
def calibration():
    points = heat_pump_points((0.0, 10.0), (298.15, 308.15))
    free = [*TRUE, "evaporator.n_air_exponent"]
    return calibrate(heat_pump_doc(), points, free, start=WRONG_START)


def test_save_calibration_keeps_the_fit_and_the_calibrated_scenario(migrated_conn, calibration):
    run = save_calibration(calibration, heat_pump_doc(), owner="alice", conn=migrated_conn)
    assert run.kind == "calibration"
    assert run.title.startswith(
        "Calibration of Air-to-water heat pump, R134a (R134a) to 4 measured"
    )
    assert "condenser.ua 1500 W/K" in run.title
    assert "evaporator.n_air_exponent" in run.content
    assert "not identifiable (insensitive" in run.content
    back = get_run(migrated_conn, run.id, owner="alice")
    assert back.scenario == calibration.scenario
    assert back.summary["free"][0]["value"] == pytest.approx(calibration.values["condenser.ua"])
    assert back.summary["free"][2]["identifiable"] is False
    table = back.table()
    assert len(table) == len(calibration.residuals)
    # the stored scenario solves to the calibrated model
    again = workbench.solve(back.scenario)
    assert again.converged
    assert [r.id for r in list_runs(migrated_conn, owner="alice", kind="calibration")] == [run.id]


def test_calibration_migration_refuses_to_roll_back_over_calibrations(migrated_conn, calibration):
    save_calibration(calibration, owner="bob", conn=migrated_conn)
    migrate(migrated_conn, to="20261125190000")  # the later migrations undone
    with pytest.raises(MigrationError, match="calibration notes exist"):
        rollback(migrated_conn)


def test_cli_calibrate_note_prints_the_note_id(migrated_conn, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("DATABASE_URL", migrated_conn.info.dsn)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("WORKBENCH_EMBEDDING_PROVIDER", raising=False)
    path = tmp_path / "rig.csv"
    heat_pump_points((0.0, 10.0), (298.15, 308.15)).to_csv(path, index=False)
    args = [
        "calibrate",
        str(EXAMPLE),
        str(path),
        "--free",
        "condenser.ua",
        "--note",
        "--owner",
        "carol",
    ]
    assert main(args) == EXIT_OK
    note_id = capsys.readouterr().out.strip().splitlines()[-1]
    run = get_run(migrated_conn, note_id, owner="carol")
    assert run.kind == "calibration"
    assert run.summary["free"][0]["path"] == "condenser.ua"
