"""A seasonal rating stored in the run log (real PostgreSQL, offline embeddings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import workbench
from workbench.notes import get_run, search
from workbench.seasonal import rate
from workbench.seasonal.note import rating_note, save_rating

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

EXAMPLE = Path(__file__).parent.parent / "examples/scenarios/air_water_heat_pump_seasonal_v2.json"


def test_note_rating_is_stored_searchable_and_resolvable(migrated_conn, minilm):
    doc = json.loads(EXAMPLE.read_text())
    rating = rate(doc)
    run = save_rating(rating, doc, owner="alice", conn=migrated_conn, provider=minilm)
    assert f"SCOP {rating.scop:.2f}" in run.title
    back = get_run(migrated_conn, run.id, owner="alice")
    assert back.scenario == doc
    assert back.summary["purpose"] == "seasonal rating"
    assert back.summary["scop"] == pytest.approx(rating.scop)
    table = back.table()
    assert list(table["name"]) == list(rating.test_points["name"])
    # the stored scenario rates to the stored figure
    assert rate(back.scenario).scop == pytest.approx(back.summary["scop"], rel=1e-9)
    hits = search(
        migrated_conn, "seasonal rating SCOP R290 air-to-water", owner="alice", provider=minilm
    )
    assert hits[0].id == run.id


def test_note_incomplete_rating_says_which_point_failed():
    doc = json.loads(EXAMPLE.read_text())
    doc["solver"]["max_iterations"] = 1
    title, content = rating_note(rate(workbench.load_scenario(doc)))
    assert "incomplete" in title
    assert "did not converge" in content


@pytest.fixture
def cli_db(migrated_conn, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("DATABASE_URL", migrated_conn.info.dsn)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("WORKBENCH_EMBEDDING_PROVIDER", raising=False)
    return migrated_conn


def test_note_cli_stores_the_rating_and_its_table_comes_back(cli_db, tmp_path, capsys):
    from workbench.cli.main import main

    assert main(["seasonal", str(EXAMPLE), "--json", "--note", "--owner", "alice"]) == 0
    out = json.loads(capsys.readouterr().out)
    run = get_run(cli_db, out["note_id"], owner="alice")
    assert run.summary["scop"] == pytest.approx(out["scop"])
    csv = tmp_path / "points.csv"
    assert main(["notes", "table", out["note_id"], "-o", str(csv)]) == 0
    assert "A/F" in csv.read_text()
    assert main(["seasonal", str(EXAMPLE), "--note"]) == 2  # --note needs --owner
