"""Migrations against a real PostgreSQL 16 + pgvector: up, down, up with legacy data."""

from __future__ import annotations

import json

import psycopg
import pytest

from workbench.errors import MigrationError
from workbench.notes.migrations import (
    applied_migrations,
    available_migrations,
    current_version,
    migrate,
    rollback,
)

pytest_plugins = ["notes_fixtures"]

pytestmark = pytest.mark.db

CONTRACT = "20260512120000"
BASELINE = "20260101000000"


def _columns(conn: psycopg.Connection, table: str) -> dict[str, str]:
    rows = conn.execute(
        "SELECT column_name, format_type(a.atttypid, a.atttypmod) FROM information_schema.columns c"
        " JOIN pg_attribute a ON a.attrelid = format('%%I', c.table_name)::regclass"
        "  AND a.attname = c.column_name WHERE c.table_name = %s",
        (table,),
    ).fetchall()
    return dict(rows)


def _indexes(conn: psycopg.Connection) -> dict[str, str]:
    return dict(
        conn.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")
    )


def _legacy_note(conn: psycopg.Connection, owner: str, title, content, embedding) -> str:
    row = conn.execute(
        'INSERT INTO "Note" ("ownerId", title, content) VALUES (%s, %s, %s) RETURNING id',
        (owner, title, content),
    ).fetchone()
    conn.execute(
        'INSERT INTO "NoteEmbedding" ("noteId", embedding) VALUES (%s, %s)', (row[0], embedding)
    )
    return row[0]


def test_migrations_ids_are_ordered_and_include_contract() -> None:
    ids = [m.id for m in available_migrations()]
    assert ids == sorted(ids)
    assert ids[0] == BASELINE
    assert CONTRACT in ids
    assert ids[-1] > CONTRACT


def test_migrate_up_creates_contract_schema(fresh_db_url: str) -> None:
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        assert migrate(conn) == [m.id for m in available_migrations()]
        assert migrate(conn) == []  # idempotent
        emb = _columns(conn, "NoteEmbedding")
        assert emb["embedding"] == "vector(1536)"
        assert emb["updatedAt"].startswith("timestamp")
        assert {"model", "dimension", "contentHash"} <= emb.keys()
        assert _columns(conn, "Note")["tsv"] == "tsvector"
        idx = _indexes(conn)
        hnsw = idx["NoteEmbedding_embedding_hnsw_idx"]
        assert "hnsw" in hnsw
        assert "vector_cosine_ops" in hnsw
        assert "m='16'" in hnsw
        assert "ef_construction='64'" in hnsw
        assert "gin" in idx["Note_tsv_idx"]
        not_null = conn.execute(
            "SELECT is_nullable, column_default FROM information_schema.columns"
            " WHERE table_name = 'NoteEmbedding' AND column_name = 'updatedAt'"
        ).fetchone()
        assert not_null[0] == "NO"
        assert "CURRENT_TIMESTAMP" in not_null[1]


def test_contract_migration_converts_legacy_rows_and_rollback_keeps_data(fresh_db_url: str) -> None:
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn, to=BASELINE)
        vec = [round(0.001 * i - 0.5, 3) for i in range(1536)]
        a = _legacy_note(
            conn, "alice", "Evaporator frost", "defrost cycle every 4 h", json.dumps(vec)
        )
        b = _legacy_note(conn, "alice", None, "no title here", None)
        c = _legacy_note(conn, "bob", "Only a title", None, json.dumps([1.5e-3] * 1536))
        assert migrate(conn, to=CONTRACT) == [CONTRACT]
        assert current_version(conn) == CONTRACT
        got = conn.execute(
            'SELECT embedding::text FROM "NoteEmbedding" WHERE "noteId" = %s', (a,)
        ).fetchone()[0]
        assert json.loads(got) == pytest.approx(vec, abs=1e-6)
        assert (
            conn.execute(
                'SELECT embedding FROM "NoteEmbedding" WHERE "noteId" = %s', (b,)
            ).fetchone()[0]
            is None
        )
        # tsv filled for existing notes, null title / content counted as empty
        tsv = dict(conn.execute('SELECT id, tsv::text FROM "Note"').fetchall())
        assert "'evaporator':1A" in tsv[a]
        assert "'defrost':3B" in tsv[a]
        assert "'title':2B" in tsv[b]
        assert "A" not in tsv[b]
        assert "'only':1A" in tsv[c]
        assert "B" not in tsv[c]
        # the HNSW index answers a cosine query
        near = conn.execute(
            'SELECT "noteId" FROM "NoteEmbedding" ORDER BY embedding <=> %s::vector LIMIT 1',
            (json.dumps(vec),),
        ).fetchone()[0]
        assert near == a

        assert rollback(conn) == [CONTRACT]
        assert current_version(conn) == BASELINE
        assert _columns(conn, "NoteEmbedding")["embedding"] == "text"
        assert "tsv" not in _columns(conn, "Note")
        assert "updatedAt" not in _columns(conn, "NoteEmbedding")
        assert not {"NoteEmbedding_embedding_hnsw_idx", "Note_tsv_idx"} & _indexes(conn).keys()
        assert (
            conn.execute(
                "SELECT count(*) FROM pg_trigger WHERE tgname = 'note_tsv_update'"
            ).fetchone()[0]
            == 0
        )
        assert conn.execute("SELECT to_regprocedure('note_tsv_update()')").fetchone()[0] is None
        back = conn.execute(
            'SELECT embedding FROM "NoteEmbedding" WHERE "noteId" = %s', (a,)
        ).fetchone()[0]
        assert json.loads(back) == pytest.approx(vec, abs=1e-6)

        # and up again from the restored legacy data
        assert migrate(conn) == [m.id for m in available_migrations() if m.id >= CONTRACT]
        again = conn.execute(
            'SELECT embedding::text FROM "NoteEmbedding" WHERE "noteId" = %s', (a,)
        ).fetchone()[0]
        assert json.loads(again) == pytest.approx(vec, abs=1e-6)


def test_contract_migration_refuses_bad_legacy_json_and_changes_nothing(fresh_db_url: str) -> None:
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn, to=BASELINE)
        good = _legacy_note(conn, "alice", "ok", "fine", json.dumps([0.1] * 1536))
        short = _legacy_note(conn, "alice", "short", "x", json.dumps([0.1] * 384))
        text = _legacy_note(conn, "alice", "text", "x", json.dumps(["a"] * 1536))
        broken = _legacy_note(conn, "alice", "broken", "x", "[0.1, 0.2")
        obj = _legacy_note(conn, "alice", "object", "x", '{"v": 1}')
        with pytest.raises(MigrationError) as info:
            migrate(conn)
        msg = str(info.value)
        for note_id in (short, text, broken, obj):
            assert note_id in msg
        assert good not in msg
        assert "384 numbers, expected 1536" in msg
        assert "not valid JSON" in msg
        assert current_version(conn) == BASELINE
        assert _columns(conn, "NoteEmbedding")["embedding"] == "text"
        ext = conn.execute("SELECT count(*) FROM pg_extension WHERE extname = 'vector'").fetchone()[
            0
        ]
        assert ext == 0  # phase 1 did not happen either
        assert conn.execute(
            'SELECT embedding FROM "NoteEmbedding" WHERE "noteId" = %s', (short,)
        ).fetchone()[0] == json.dumps([0.1] * 384)


def test_trigger_maintains_tsv_on_insert_and_update(migrated_conn: psycopg.Connection) -> None:
    conn = migrated_conn
    note_id = conn.execute(
        'INSERT INTO "Note" ("ownerId", title, content) VALUES (%s, %s, %s) RETURNING id',
        ("alice", "Compressor", "oil return"),
    ).fetchone()[0]

    def tsv() -> str:
        return conn.execute('SELECT tsv::text FROM "Note" WHERE id = %s', (note_id,)).fetchone()[0]

    assert tsv() == "'compressor':1A 'oil':2B 'return':3B"
    conn.execute('UPDATE "Note" SET content = NULL WHERE id = %s', (note_id,))
    assert tsv() == "'compressor':1A"
    conn.execute(
        'UPDATE "Note" SET title = %s, content = %s WHERE id = %s', (None, "Glide", note_id)
    )
    assert tsv() == "'glide':1B"
    # an update of another column does not fire the trigger: a hand-written tsv stays
    conn.execute("UPDATE \"Note\" SET tsv = 'manual' WHERE id = %s", (note_id,))
    conn.execute('UPDATE "Note" SET "ownerId" = %s WHERE id = %s', ("bob", note_id))
    assert tsv() == "'manual'"


def test_migrate_to_and_unknown_id(fresh_db_url: str) -> None:
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        assert migrate(conn, to=CONTRACT) == [BASELINE, CONTRACT]
        with pytest.raises(MigrationError, match="unknown migration id '123'"):
            migrate(conn, to="123")
        later = [m.id for m in available_migrations() if m.id > CONTRACT]
        assert later, "the contract's migration is followed by the metadata migrations"
        assert migrate(conn) == later
        assert migrate(conn, to=BASELINE) == [*reversed(later), CONTRACT]
        assert [m.id for m in applied_migrations(conn)] == [BASELINE]


def test_failed_migration_rolls_back_its_transaction(fresh_db_url: str) -> None:
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn, to=BASELINE)
        # a legacy table in the way of phase 3 makes the migration fail half-way
        conn.execute(
            'CREATE FUNCTION "note_tsv_update"() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$'
        )
        with pytest.raises(MigrationError, match="rolled back"):
            migrate(conn)
        assert current_version(conn) == BASELINE
        assert _columns(conn, "NoteEmbedding")["embedding"] == "text"
        assert "tsv" not in _columns(conn, "Note")


def test_bm25_migration_backfills_vocabulary_moves_tsv_into_row_and_rolls_back(
    fresh_db_url: str,
) -> None:
    bm25 = "20260514090000"
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn, to="20260513090000")
        long_text = " ".join(f"pressure{i} drop{i}" for i in range(150))  # a tsv of 5 kB
        note = _legacy_note(conn, "alice", "Defrosting", long_text, None)

        def storage() -> str:
            return conn.execute(
                "SELECT attstorage FROM pg_attribute"
                " WHERE attrelid = '\"Note\"'::regclass AND attname = 'tsv'"
            ).fetchone()[0]

        def toast_blocks_read_for_tsv() -> int:
            counter = (
                "SELECT pg_stat_get_xact_blocks_fetched(reltoastrelid)"
                " FROM pg_class WHERE oid = '\"Note\"'::regclass"
            )
            with conn.transaction():
                # by primary key: the plan must not depend on the statistics the migration's
                # upkeep (VACUUM ANALYZE) leaves behind
                conn.execute("SET LOCAL enable_seqscan = off")
                before = conn.execute(counter).fetchone()[0]
                conn.execute('SELECT length(tsv) FROM "Note" WHERE id = %s', (note,))
                return conn.execute(counter).fetchone()[0] - before

        assert storage() == "x"
        assert toast_blocks_read_for_tsv() > 0  # tsv lives out of line
        before = conn.execute('SELECT tsv::text FROM "Note" WHERE id = %s', (note,)).fetchone()
        assert migrate(conn, to=bm25) == [bm25]
        assert storage() == "m"
        # same tsv, now in the row: reading it touches no TOAST page
        assert conn.execute('SELECT tsv::text FROM "Note" WHERE id = %s', (note,)).fetchone() == (
            before
        )
        assert toast_blocks_read_for_tsv() == 0
        vocab = dict(conn.execute('SELECT lexeme, stem FROM "NoteLexeme"').fetchall())
        assert vocab["defrosting"] == "defrost"
        assert vocab["pressure7"] == "pressure7"
        assert len(vocab) == 301
        assert rollback(conn) == [bm25]
        assert storage() == "x"
        assert conn.execute("SELECT to_regclass('\"NoteLexeme\"')").fetchone() == (None,)
        assert conn.execute(
            "SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'note_lexeme%'"
        ).fetchone() == (0,)


CALIBRATION_RUNS = "20261125190000"
RATING_RUNS = "20261125200000"


def _run_row(conn: psycopg.Connection, owner: str, kind: str, summary: dict, csv) -> str:
    """A note and its "NoteRun" row as written by the code of the schema at hand (one transaction)."""
    with conn.transaction():
        note = conn.execute(
            'INSERT INTO "Note" ("ownerId", title, content) VALUES (%s, %s, %s) RETURNING id',
            (owner, f"a {kind}", f"a {kind} note"),
        ).fetchone()[0]
        conn.execute(
            'INSERT INTO "NoteRun" ("noteId", "ownerId", kind, scenario, "scenarioText", summary,'
            " csv) VALUES (%s, %s, %s, '{}', '{}', %s, %s)",
            (note, owner, kind, json.dumps(summary), csv),
        )
    return note


def _kinds(conn: psycopg.Connection) -> dict[str, str]:
    return dict(conn.execute('SELECT "noteId", kind FROM "NoteRun"').fetchall())


def test_rating_migration_turns_stored_ratings_into_their_kind_and_back(fresh_db_url: str) -> None:
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn, to=CALIBRATION_RUNS)
        # before: a rating was stored as a sweep whose summary's purpose says so
        legacy = _run_row(conn, "alice", "sweep", {"purpose": "seasonal rating"}, "name\nA\n")
        sweep = _run_row(conn, "alice", "sweep", {"kind": "sweep", "purpose": "heating"}, "a\n1\n")
        run = _run_row(conn, "alice", "run", {"purpose": "cooling"}, None)
        with pytest.raises(psycopg.errors.CheckViolation):
            _run_row(conn, "alice", "rating", {"purpose": "seasonal rating"}, "name\nA\n")
        assert migrate(conn) == [RATING_RUNS]
        assert _kinds(conn) == {legacy: "rating", sweep: "sweep", run: "run"}
        # the new kind holds a table like a sweep and a calibration; a run holds none
        rating = _run_row(conn, "bob", "rating", {"purpose": "seasonal rating"}, "name\nB\n")
        with pytest.raises(psycopg.errors.CheckViolation):
            _run_row(conn, "bob", "rating", {"purpose": "seasonal rating"}, None)
        with pytest.raises(psycopg.errors.CheckViolation):
            _run_row(conn, "bob", "walk", {}, None)
        # down: the ratings are sweeps again (as stored before the migration), nothing is lost
        assert rollback(conn) == [RATING_RUNS]
        assert current_version(conn) == CALIBRATION_RUNS
        assert _kinds(conn) == {legacy: "sweep", sweep: "sweep", run: "run", rating: "sweep"}
        with pytest.raises(psycopg.errors.CheckViolation):
            _run_row(conn, "bob", "rating", {"purpose": "seasonal rating"}, "name\nC\n")
        # up again: the same notes are ratings once more, the plain sweep stays a sweep
        assert migrate(conn) == [RATING_RUNS]
        assert _kinds(conn) == {legacy: "rating", sweep: "sweep", run: "run", rating: "rating"}
        assert conn.execute('SELECT count(*) FROM "Note"').fetchone() == (4,)
