"""The run log on the real database: store, read back, re-solve, find, relate, migrate.

A stored run round-trips (the scenario equal, key order kept; a re-solve gives the stored
figures to 1e-9), a query naming the fluid and a figure finds it first among 200 realistic
other notes (other runs included), related notes follow the fluid, the components and a failed
solve's hint, and every write is one transaction.
"""

from __future__ import annotations

import copy
import json

import pandas as pd
import psycopg
import pytest
from run_log_corpus import engineering_notes, heat_pump, run_variants

import workbench
from workbench.errors import (
    EmbeddingError,
    NoteNotFoundError,
    NoteStoreError,
    RunNotFoundError,
    ScenarioError,
)
from workbench.notes import (
    add_note,
    count_notes,
    delete_note,
    get_run,
    list_runs,
    related,
    related_query,
    run_scenario,
    save_run,
    save_sweep,
    search,
)
from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.migrations import current_version, migrate, rollback
from workbench.notes.runs.words import kilowatts, number
from workbench.notes.search import SearchSettings, keyword_terms
from workbench.notes.store import NoteInput, import_notes

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

RUNS_MIGRATION = "20260701090000"
EXAMPLES = "examples/scenarios"


def _doc(name: str) -> dict:
    with open(f"{EXAMPLES}/{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def _rel(a: float | None, b: float | None) -> float:
    if a is None or b is None:
        assert a is b
        return 0.0
    return abs(a - b) / max(abs(b), 1e-300)


# -- migration ----------------------------------------------------------------------------------
def _columns(conn, table: str) -> dict[str, str]:
    return dict(
        conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s",
            (table,),
        ).fetchall()
    )


def test_runs_migration_up_down_up_keeps_the_notes(fresh_db_url, minilm):
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn)
        assert current_version(conn) >= RUNS_MIGRATION
        cols = _columns(conn, "NoteRun")
        assert cols["scenario"] == "jsonb"
        assert cols["summary"] == "jsonb"
        assert cols["scenarioText"] == "text"
        assert cols["csv"] == "text"
        before = _columns(conn, "Note")
        plain = add_note(conn, "alice", "Plain", "a note without a run", provider=minilm)
        doc = _doc("split_units_v2")
        run = save_run(workbench.solve(doc), doc, owner="alice", conn=conn, provider=minilm)
        # down: the table and the key it refers to are gone, the notes stay
        while current_version(conn) >= RUNS_MIGRATION:
            rollback(conn)
        assert conn.execute("SELECT to_regclass('\"NoteRun\"')").fetchone() == (None,)
        assert (
            conn.execute(
                "SELECT count(*) FROM pg_constraint WHERE conname = 'Note_id_ownerId_key'"
            ).fetchone()[0]
            == 0
        )
        assert count_notes(conn, owner="alice") == 2
        assert _columns(conn, "Note") == before  # the contract columns, untouched
        # up again: the run note is a plain note now (its run went with the table)
        migrate(conn)
        with pytest.raises(RunNotFoundError):
            get_run(conn, run.id, owner="alice")
        with pytest.raises(RunNotFoundError):
            get_run(conn, plain.id, owner="alice")


def test_note_run_rows_follow_their_note(migrated_conn, minilm):
    conn = migrated_conn
    doc = _doc("split_units_v2")
    run = save_run(workbench.solve(doc), doc, owner="alice", conn=conn, provider=minilm)
    # a run row of another owner than its note's is refused by the composite key
    plain = add_note(conn, "alice", "Plain", "no run here", provider=minilm)
    with pytest.raises(psycopg.errors.ForeignKeyViolation):
        conn.execute(
            'INSERT INTO "NoteRun" ("noteId", "ownerId", kind, scenario, "scenarioText", summary)'
            " VALUES (%s, 'mallory', 'run', '{}', '{}', '{}')",
            (plain.id,),
        )
    # the text and the jsonb always agree; a sweep has a table, a run has none
    with pytest.raises(psycopg.errors.CheckViolation):
        conn.execute('UPDATE "NoteRun" SET "scenarioText" = \'{"a": 1}\'')
    with pytest.raises(psycopg.errors.CheckViolation):
        conn.execute("UPDATE \"NoteRun\" SET csv = 'x,y'")
    # a change of the note's owner carries the run along
    conn.execute('UPDATE "Note" SET "ownerId" = %s WHERE id = %s', ("bob", run.id))
    assert get_run(conn, run.id, owner="bob").scenario == doc
    with pytest.raises(NoteNotFoundError):
        get_run(conn, run.id, owner="alice")
    # deleting the note deletes its run
    delete_note(conn, run.id, owner="bob")
    assert conn.execute('SELECT count(*) FROM "NoteRun"').fetchone() == (0,)


# -- round trip ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [
        "heat_pump_v1",
        "split_units_v2",
        "superheat_control_v2",
        "cascade_v2",
        "r744_heat_pump_v2",
        "two_evaporators_v2",
        "two_stage_flash_v2",
    ],
)
def test_stored_run_round_trips_and_re_solves_to_the_stored_figures(migrated_conn, minilm, name):
    conn = migrated_conn
    doc = _doc(name)
    result = workbench.solve(doc)
    run = save_run(result, doc, owner="alice", conn=conn, provider=minilm)
    back = get_run(conn, run.id, owner="alice")
    assert back.kind == "run"
    assert back.csv is None
    assert back.scenario == doc
    assert list(back.scenario) == list(doc)  # key order kept
    assert json.dumps(back.scenario) == json.dumps(doc)  # nested order and numbers too
    assert run_scenario(conn, run.id, owner="alice") == doc
    assert back.title == run.title
    assert back.content == run.content
    assert back.summary["summary"] == result.summary  # stored exactly
    again = workbench.solve(back.scenario)
    assert again.converged
    for key in ("cop_cooling", "cop_heating", "cooling_capacity_w", "heating_capacity_w"):
        assert _rel(again.summary[key], back.summary["summary"][key]) <= 1e-9, key
    assert (
        _rel(again.summary["compressor_power_w"], back.summary["summary"]["compressor_power_w"])
        <= 1e-9
    )
    # the balance is a residual (~1e-9 W): equal to 1e-9 of the power
    balance = again.summary["energy_balance_w"] - back.summary["summary"]["energy_balance_w"]
    assert abs(balance) <= 1e-9 * again.summary["compressor_power_w"]
    for comp in back.summary["components"]:
        if comp.get("saturationTemperature") is not None:
            got = again.components[comp["name"]]["saturationTemperature"]
            assert _rel(got, comp["saturationTemperature"]) <= 1e-9


def test_run_that_did_not_converge_is_stored_with_its_diagnostics(migrated_conn, minilm):
    doc = heat_pump("R134a", 7.0)
    doc["solver"] = {"strategy": "newton", "max_iterations": 2}
    result = workbench.solve(doc)
    assert not result.converged
    run = save_run(result, doc, owner="alice", conn=migrated_conn, provider=minilm)
    assert "NOT converged" in run.title
    assert result.hint in run.content
    assert run.summary["converged"] is False
    assert run.summary["stop_reason"] == str(result.stop_reason)
    assert run.summary["hint"] == result.hint


def test_save_run_refusals_write_nothing(migrated_conn, minilm):
    conn = migrated_conn
    doc = _doc("split_units_v2")
    result = workbench.solve(doc)
    with pytest.raises(ScenarioError, match="save_run needs the scenario"):
        save_run(result, owner="alice", conn=conn, provider=minilm)
    bad = copy.deepcopy(doc)
    bad["fluid"] = "R41OA"
    with pytest.raises(ScenarioError, match="R41OA"):
        save_run(result, bad, owner="alice", conn=conn, provider=minilm)
    with pytest.raises(NoteStoreError, match="non-empty owner"):
        save_run(result, doc, owner="", conn=conn, provider=minilm)

    class Broken(EmbeddingProvider):
        model_id, dimension = "broken", 8

        def _embed_batch(self, texts):
            raise EmbeddingError("the model server is down")

    with pytest.raises(EmbeddingError):
        save_run(result, doc, owner="alice", conn=conn, provider=Broken())
    assert count_notes(conn, owner=None) == 0


def test_note_and_run_are_one_transaction(migrated_conn, minilm):
    conn = migrated_conn
    # the run row fails after its note was inserted: the note must go too
    conn.execute(
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$"
    )
    conn.execute(
        'CREATE TRIGGER refuse BEFORE INSERT ON "NoteRun" FOR EACH ROW EXECUTE FUNCTION refuse()'
    )
    doc = _doc("split_units_v2")
    with pytest.raises(psycopg.errors.RaiseException):
        save_run(workbench.solve(doc), doc, owner="alice", conn=conn, provider=minilm)
    assert count_notes(conn, owner=None) == 0
    assert conn.execute('SELECT count(*) FROM "NoteEmbedding"').fetchone() == (0,)


def test_external_id_refuses_a_second_run_unless_replace(migrated_conn, minilm):
    conn = migrated_conn
    doc = _doc("split_units_v2")
    result = workbench.solve(doc)
    first = save_run(result, doc, owner="alice", conn=conn, provider=minilm, external_id="r1")
    with pytest.raises(NoteStoreError, match="external id 'r1'"):
        save_run(result, doc, owner="alice", conn=conn, provider=minilm, external_id="r1")
    doc2 = copy.deepcopy(doc)
    doc2["instances"][0]["params"] = {"speed_hz": 45}
    second = save_run(
        workbench.solve(doc2),
        doc2,
        owner="alice",
        conn=conn,
        provider=minilm,
        external_id="r1",
        replace=True,
    )
    assert count_notes(conn, owner="alice") == 1
    with pytest.raises(NoteNotFoundError):
        get_run(conn, first.id, owner="alice")
    assert get_run(conn, second.id, owner="alice").scenario == doc2
    # bob's note of the same external id is another note
    save_run(result, doc, owner="bob", conn=conn, provider=minilm, external_id="r1", replace=True)
    assert count_notes(conn, owner="alice") == 1
    assert count_notes(conn, owner="bob") == 1


def test_owner_scoping_and_plain_notes(migrated_conn, minilm):
    conn = migrated_conn
    doc = _doc("split_units_v2")
    run = save_run(workbench.solve(doc), doc, owner="alice", conn=conn, provider=minilm)
    with pytest.raises(NoteNotFoundError, match="not found"):
        get_run(conn, run.id, owner="bob")
    assert get_run(conn, run.id, owner=None).owner == "alice"  # the administrator's view
    plain = add_note(conn, "alice", "Defrost", "Hot gas defrost every 6 h", provider=minilm)
    with pytest.raises(RunNotFoundError, match="holds no stored run"):
        run_scenario(conn, plain.id, owner="alice")
    with pytest.raises(NoteNotFoundError, match="not found"):
        get_run(conn, "no-such-note", owner="alice")


def test_list_runs_newest_first_by_kind(migrated_conn, minilm):
    conn = migrated_conn
    doc = _doc("split_units_v2")
    a = save_run(workbench.solve(doc), doc, owner="alice", conn=conn, provider=minilm)
    frame = workbench.sweep(
        doc, {"unit_a.evaporator.fan_speed": [0.5, 1.0]}, processes=1, progress=False
    )
    b = save_sweep(frame, doc, owner="alice", conn=conn, provider=minilm)
    save_run(workbench.solve(doc), doc, owner="bob", conn=conn, provider=minilm)
    assert [r.id for r in list_runs(conn, owner="alice")] == [b.id, a.id]
    assert [r.id for r in list_runs(conn, owner="alice", kind="run")] == [a.id]
    assert len(list_runs(conn, owner=None)) == 3
    assert len(list_runs(conn, owner="alice", limit=1)) == 1
    with pytest.raises(NoteStoreError, match="unknown run kind"):
        list_runs(conn, owner="alice", kind="walk")


# -- sweeps ---------------------------------------------------------------------------------------
def test_sweep_note_keeps_the_table_and_the_base_scenario(migrated_conn, minilm):
    conn = migrated_conn
    doc = _doc("split_units_v2")
    grid = {"unit_a.evaporator.fan_speed": [0.4, 0.7, 1.0], "unit_b.compressor.speed_hz": [40, -5]}
    frame = workbench.sweep(doc, grid, processes=1, progress=False)
    run = save_sweep(frame, doc, owner="alice", grid=grid, mode="grid", conn=conn, provider=minilm)
    back = get_run(conn, run.id, owner="alice")
    assert back.kind == "sweep"
    assert back.scenario == doc
    table = back.table()
    pd.testing.assert_frame_equal(
        table.drop(columns="error"), frame.drop(columns="error"), check_dtype=False
    )
    assert table["error"].isna().tolist() == frame["error"].isna().tolist()
    assert back.summary["failed"] == 3
    assert back.summary["cases"] == 6
    assert "3 cases did not converge" in back.content
    hits = search(conn, "sweep of the split units fan speed", owner="alice", provider=minilm)
    assert hits[0].id == run.id


# -- search among 200 other notes -----------------------------------------------------------------
TARGETS = [("R290", -7.0), ("R290", -12.0), ("R290", -8.0), ("R290", -3.0)]
TARGETS += [("R32", -7.0), ("R32", -12.0), ("R410A", -7.0), ("R134a", -7.0)]
"""Runs to find: air temperatures the other runs do not have (they are other runs for each
other too)."""


@pytest.fixture(scope="module")
def crowded(module_db_url, minilm):
    """The 200 other notes of alice (160 plain, 40 other runs) and the target runs."""
    with psycopg.connect(module_db_url, autocommit=True) as conn:
        notes = engineering_notes(160)
        import_notes(
            conn,
            "alice",
            [NoteInput(t, c, f"plain-{i}") for i, (t, c) in enumerate(notes)],
            provider=minilm,
        )
        others = run_variants()
        assert len(notes) + len(others) == 200
        for doc in others:
            save_run(workbench.solve(doc), doc, owner="alice", conn=conn, provider=minilm)
        targets = []
        for fluid, air_c in TARGETS:
            doc = heat_pump(fluid, air_c)
            result = workbench.solve(doc)
            assert result.converged
            run = save_run(result, doc, owner="alice", conn=conn, provider=minilm)
            targets.append((run, result))
        assert count_notes(conn, owner="alice") == 200 + len(TARGETS)
    return module_db_url, targets


def _query(form: str, run, result) -> str:
    return form.format(
        fluid=run.scenario["fluid"],
        cop=number(result.summary["cop_heating"]),
        cop2=f"{result.summary['cop_heating']:.2f}",
        heating=kilowatts(result.summary["heating_capacity_w"]),
    )


@pytest.mark.parametrize(
    "form",
    [
        "{fluid} heat pump COP {cop}",
        "propane heat pump, COP {cop}",
        "{fluid} COP {cop}",
        "{fluid} {heating}",
        "{fluid} heat pump, COP {cop2}",  # as the title writes it (two decimals)
    ],
)
def test_query_naming_the_fluid_and_a_figure_finds_the_run_first(crowded, minilm, form):
    url, targets = crowded
    run, result = targets[0]  # R290 at -7 °C air
    with psycopg.connect(url, autocommit=True) as conn:
        hits = search(conn, _query(form, run, result), owner="alice", limit=5, provider=minilm)
    assert hits[0].id == run.id, [h.title for h in hits]
    assert hits[0].keyword_rank == 1  # the figure is the rarest word of the query


@pytest.mark.parametrize(
    "form",
    [
        "{fluid} heat pump COP {cop}",
        "{fluid} COP {cop}",
        "{fluid} {heating}",
        "which {fluid} run gave {heating} heating",
    ],
)
def test_figure_queries_over_many_runs_find_each_run_first(crowded, minilm, form):
    """Every target first, among 40 other runs of the same fluids and 160 plain notes.

    The semantic branch cannot tell runs of one fluid apart by their figures (docs/notes.md,
    Run log); the figure bonus of hybrid search puts the run holding the figure first.
    """
    url, targets = crowded
    with psycopg.connect(url, autocommit=True) as conn:
        for (fluid, _air_c), (run, result) in zip(TARGETS, targets, strict=True):
            query = _query(form, run, result)
            hits = search(conn, query, owner="alice", limit=10, provider=minilm)
            assert hits[0].id == run.id, (query, [h.title for h in hits[:3]])
            assert hits[0].score > hits[1].score  # scores stay in rank order
            assert fluid in (hits[0].title or "")


def test_without_the_figure_bonus_rrf_alone_may_rank_a_closer_reading_run_first(crowded, minilm):
    """The bonus is what decides: without it the keyword branch still ranks each run first."""
    url, targets = crowded
    plain = SearchSettings(figure_bonus=False)
    with psycopg.connect(url, autocommit=True) as conn:
        for run, result in targets:
            query = _query("{fluid} heat pump COP {cop}", run, result)
            hits = search(conn, query, owner="alice", limit=10, provider=minilm, settings=plain)
            ids = [h.id for h in hits]
            assert run.id in ids[:5], query
            assert hits[ids.index(run.id)].keyword_rank == 1
            for hit in hits:  # plain RRF
                rrf = 1.25 / (10 + hit.keyword_rank) if hit.keyword_rank else 0.0
                rrf += 1.0 / (10 + hit.semantic_rank) if hit.semantic_rank else 0.0
                assert hit.score == pytest.approx(rrf, rel=1e-12)


def test_runs_are_found_by_keyword_and_by_meaning(crowded, minilm):
    url, targets = crowded
    target, result = targets[0]
    cop = number(result.summary["cop_heating"])
    assert cop in keyword_terms(f"COP {cop}")  # the figure is one query word, as in the note
    with psycopg.connect(url, autocommit=True) as conn:
        kw = search(
            conn, f"R290 COP {cop}", owner="alice", limit=3, mode="keyword", provider=minilm
        )
        assert kw[0].id == target.id
        assert f"<b>{cop}</b>" in kw[0].snippet
        sem = search(
            conn,
            "air-to-water heat pump running on propane in frosty weather",
            owner="alice",
            limit=10,
            mode="semantic",
            provider=minilm,
        )
        assert all(h.semantic_rank is not None for h in sem)
        assert any("R290" in (h.title or "") for h in sem[:5])


def test_keyword_terms_cut_numbers_as_the_database_does(migrated_conn):
    text = "R290 at -7 °C: COP 2.91, 3.4kW, IL-6 covid-19 5-10 K, R-410A +3 0.5mm"
    lexemes = {
        row[0]
        for row in migrated_conn.execute(
            "SELECT lexeme FROM unnest(to_tsvector('simple', %s))", (text,)
        )
    }
    terms = keyword_terms(text, frozenset())
    assert set(terms) <= lexemes, set(terms) - lexemes
    assert {"2.91", "-7", "3.4", "-6", "-19", "-10", "+3", "0.5"} <= set(terms)


# -- related notes --------------------------------------------------------------------------------
@pytest.fixture
def related_notes(migrated_conn, minilm):
    conn = migrated_conn
    notes = {
        "propane": add_note(
            conn,
            "alice",
            "R290 (propane) charge limits",
            "Propane is flammable: keep the charge under the EN 378 limit, no ignition sources "
            "near the evaporator.",
            provider=minilm,
        ),
        "ua": add_note(
            conn,
            "alice",
            "Exchanger heat balance does not close",
            "When the heat transfer of a condenser cannot close, the UA and the secondary flow "
            "ask for more heat than the temperatures allow: check the secondary inlet "
            "temperature against the saturation temperature, or raise the UA.",
            provider=minilm,
        ),
        "timeout": add_note(
            conn,
            "alice",
            "Solver timeouts on the build server",
            "The CI machine is slow: raise solver.timeout_ms (0 means no limit) or start the "
            "solve from a previous solution.",
            provider=minilm,
        ),
        "oil": add_note(
            conn,
            "alice",
            "Oil return in risers",
            "Install a trap at the foot of every suction riser.",
            provider=minilm,
        ),
        "bob": add_note(
            conn,
            "bob",
            "R290 propane safety",
            "Propane charge limits, flammable refrigerant.",
            provider=minilm,
        ),
    }
    return conn, notes


def test_related_query_names_fluid_components_and_hint():
    doc = heat_pump("R290", 7.0)
    assert related_query(doc) == "R290 propane compressor condenser expansion valve evaporator"
    result = workbench.solve(doc)
    assert related_query(result) == "compressor condenser expansion valve evaporator"
    assert related_query(result, scenario=doc).startswith("R290 propane compressor")
    doc["solver"] = {"strategy": "newton", "max_iterations": 2}
    failed = workbench.solve(doc)
    query = related_query(failed, scenario=doc)
    assert query.startswith(" ".join(failed.hint.split()))  # the hint leads
    assert "max iterations" in query
    assert "R290" in query
    assert len(related_query(failed, scenario=doc)) <= 1000


def test_related_finds_the_owners_notes_on_the_fluid(related_notes, minilm):
    conn, notes = related_notes
    doc = heat_pump("R290", 7.0)
    hits = related(doc, owner="alice", conn=conn, provider=minilm, limit=3)
    assert hits[0].id == notes["propane"].id
    assert notes["bob"].id not in {h.id for h in hits}
    assert (
        related(doc, owner="alice", conn=conn, provider=minilm, exclude=[notes["propane"].id])[0].id
        != notes["propane"].id
    )


@pytest.mark.parametrize(
    ("solver", "expected"),
    [
        ({"strategy": "newton", "max_iterations": 2}, "ua"),  # condenser.heat_transfer
        ({"strategy": "newton", "timeout_ms": 1}, "timeout"),
    ],
)
def test_related_after_a_failed_solve_leads_with_the_notes_on_its_hint(
    related_notes, minilm, solver, expected
):
    conn, notes = related_notes
    doc = heat_pump("R290", 7.0)
    doc["solver"] = solver
    result = workbench.solve(doc)
    assert not result.converged
    assert result.hint
    if expected == "ua":
        assert result.worst_residuals[0][0] == "condenser.heat_transfer"
    else:
        assert result.stop_reason == "timeout"
    hits = related(result, scenario=doc, owner="alice", conn=conn, provider=minilm, limit=3)
    assert hits[0].id == notes[expected].id, [h.title for h in hits]
    # the same scenario solved to convergence: its notes are about the fluid, not the hint
    fine = related(
        workbench.solve(heat_pump("R290", 7.0)),
        scenario=doc,
        owner="alice",
        conn=conn,
        provider=minilm,
        limit=3,
    )
    assert fine[0].id == notes["propane"].id


def test_run_kinds_are_the_database_check_and_the_cli_choices(migrated_conn):
    import re

    from workbench.cli.main import build_parser
    from workbench.notes.runs import RUN_KINDS

    definition = migrated_conn.execute(
        "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'NoteRun_kind_check'"
    ).fetchone()[0]
    assert sorted(re.findall(r"'(\w+)'", definition)) == sorted(RUN_KINDS)
    parser = build_parser()
    for kind in RUN_KINDS:
        assert parser.parse_args(["notes", "runs", "--kind", kind]).kind == kind
    with pytest.raises(SystemExit):
        parser.parse_args(["notes", "runs", "--kind", "walk"])
