"""A seasonal rating stored in the run log (real PostgreSQL, offline embeddings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import workbench
from workbench.notes import get_run, list_runs, save_rating, search
from workbench.seasonal import rate
from workbench.seasonal.note import rating_note

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

EXAMPLE = Path(__file__).parent.parent / "examples/scenarios/air_water_heat_pump_seasonal_v2.json"
CHILLER = Path(__file__).parent.parent / "examples/scenarios/air_water_chiller_seasonal_v2.json"


@pytest.fixture(scope="module")
def heating():
    doc = json.loads(EXAMPLE.read_text())
    return doc, rate(doc)


def test_note_rating_is_stored_searchable_and_resolvable(migrated_conn, minilm, heating):
    doc, rating = heating
    run = save_rating(rating, doc, owner="alice", conn=migrated_conn, provider=minilm)
    assert run.kind == "rating"
    assert f"SCOP {rating.scop:.2f}" in run.title
    back = get_run(migrated_conn, run.id, owner="alice")
    assert back.kind == "rating"
    assert back.scenario == doc
    assert back.summary["purpose"] == "seasonal rating"
    assert back.summary["kind"] == "rating"
    assert back.summary["scop"] == pytest.approx(rating.scop)
    table = back.table()
    assert list(table["name"]) == list(rating.test_points["name"])
    # the stored scenario rates to the stored figure
    assert rate(back.scenario).scop == pytest.approx(back.summary["scop"], rel=1e-9)
    hits = search(
        migrated_conn, "seasonal rating SCOP R290 air-to-water", owner="alice", provider=minilm
    )
    assert hits[0].id == run.id
    # its own kind in the run log: listed as a rating, not as a sweep
    assert [r.id for r in list_runs(migrated_conn, owner="alice", kind="rating")] == [run.id]
    assert list_runs(migrated_conn, owner="alice", kind="sweep") == []


def test_note_rating_is_found_by_figure_climate_and_limiting_point(migrated_conn, minilm, heating):
    doc, rating = heating
    run = save_rating(rating, doc, owner="alice", conn=migrated_conn, provider=minilm)
    # among other runs of the same scenario: a plain run and a sweep
    flat = workbench.load_scenario(doc)
    workbench.notes.save_run(
        workbench.solve(flat), doc, owner="alice", conn=migrated_conn, provider=minilm
    )
    eta = f"{rating.eta_s:.0f}"
    assert f"ηs {eta} %" in run.title
    assert f"eta_s) {eta} %" in run.content
    assert "average climate" in run.title
    assert "propane" in run.content
    assert f"limited most by test point {rating.limiting_point}" in run.content
    assert f"lowest COP is at test point {rating.lowest_cop_point}" in run.content
    queries = (
        f"SCOP {rating.scop:.2f}",
        f"eta_s {eta} %",
        "seasonal rating average climate low temperature",
        f"SCOP limited by test point {rating.limiting_point}",
    )
    for query in queries:
        hits = search(migrated_conn, query, owner="alice", provider=minilm, mode="keyword")
        assert hits, query
        assert hits[0].id == run.id, query


def test_note_incomplete_rating_says_which_point_failed():
    doc = json.loads(EXAMPLE.read_text())
    doc["solver"]["max_iterations"] = 1
    title, content = rating_note(rate(workbench.load_scenario(doc)))
    assert "incomplete" in title
    assert "did not converge" in content


def test_note_cooling_rating_names_seer_eta_s_season_and_limiting_point():
    doc = json.loads(CHILLER.read_text())
    rating = rate(doc)
    assert rating.complete
    title, content = rating_note(rating, doc)
    assert title.startswith(f"Seasonal cooling rating {rating.name}: SEER {rating.seer:.2f}")
    assert f"ηs,c {rating.eta_s:.0f} %" in title
    assert f"(eta_s) {rating.eta_s:.0f} %" in content
    assert "reference cooling season" in content
    assert f"SEER is limited most by test point {rating.limiting_point}" in content
    assert f"lowest EER is at test point {rating.lowest_cop_point}" in content
    assert "chilled water 7 °C" in content
    assert "SCOP" not in title + content  # a cooling rating states no heating figure


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
    assert run.kind == "rating"
    assert run.summary["scop"] == pytest.approx(out["scop"])
    csv = tmp_path / "points.csv"
    assert main(["notes", "table", out["note_id"], "-o", str(csv)]) == 0
    assert "A/F" in csv.read_text()
    assert f"rating table of note {out['note_id']}" in capsys.readouterr().err
    assert main(["notes", "runs", "--owner", "alice", "--kind", "rating"]) == 0
    listed = capsys.readouterr().out.strip().splitlines()
    assert len(listed) == 1
    assert f"rating       {out['note_id']}  Seasonal rating" in listed[0]
    assert main(["notes", "runs", "--owner", "alice", "--kind", "sweep"]) == 0
    assert capsys.readouterr().out.strip() == "no stored runs"
    assert main(["seasonal", str(EXAMPLE), "--note"]) == 2  # --note needs --owner
