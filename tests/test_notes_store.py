"""Notes and embeddings in the real database: add, update, delete, owner scoping, imports."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from workbench.errors import EmbeddingError, NoteNotFoundError, NoteStoreError
from workbench.notes.embeddings import EmbeddingProvider, content_hash
from workbench.notes.importers import read_notes_file
from workbench.notes.store import (
    NoteInput,
    add_note,
    count_notes,
    delete_note,
    get_note,
    import_notes,
    list_notes,
    update_note,
)

pytest_plugins = ["notes_fixtures"]

pytestmark = pytest.mark.db


class FailingProvider(EmbeddingProvider):
    """A real provider that fails on its n-th batch (test double for failure paths)."""

    def __init__(self, inner: EmbeddingProvider, fail_on_batch: int, batch_size: int = 2) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dimension = inner.dimension
        self.batch_size = batch_size
        self.fail_on_batch = fail_on_batch
        self.calls = 0

    def _embed_batch(self, texts: list[str]):
        self.calls += 1
        if self.calls == self.fail_on_batch:
            raise EmbeddingError(f"provider down on batch {self.calls}")
        return self.inner._embed_batch(texts)


def _embedding_row(conn: psycopg.Connection, note_id: str) -> tuple:
    return conn.execute(
        'SELECT model, dimension, "contentHash", vector_dims(embedding), embedding::text'
        ' FROM "NoteEmbedding" WHERE "noteId" = %s',
        (note_id,),
    ).fetchone()


def test_add_get_update_delete_with_owner_scope(migrated_conn: psycopg.Connection, minilm) -> None:
    conn = migrated_conn
    note = add_note(
        conn, "alice", "Oil return", "Gas velocity in the suction riser", provider=minilm
    )
    assert get_note(conn, note.id, owner="alice") == note
    model, dim, digest, width, vec = _embedding_row(conn, note.id)
    assert (model, dim, width) == (minilm.model_id, 384, 1536)
    assert digest == content_hash("Oil return", "Gas velocity in the suction riser")
    assert not any(json.loads(vec)[384:])  # zero padding
    # the Python hash equals the SQL definition used by validate
    sql_hash = conn.execute(
        "SELECT encode(sha256(convert_to(coalesce(title,'') || E'\\n' || coalesce(content,''),"
        " 'UTF8')), 'hex') FROM \"Note\" WHERE id = %s",
        (note.id,),
    ).fetchone()[0]
    assert sql_hash == digest

    with pytest.raises(NoteNotFoundError, match=note.id):
        get_note(conn, note.id, owner="bob")
    with pytest.raises(NoteNotFoundError):
        update_note(conn, note.id, owner="bob", title="hijack", provider=minilm)
    with pytest.raises(NoteNotFoundError):
        delete_note(conn, note.id, owner="bob")

    updated = update_note(
        conn, note.id, owner="alice", content="Oil traps every 3 m of riser", provider=minilm
    )
    assert updated.title == "Oil return"
    assert updated.content == "Oil traps every 3 m of riser"
    assert updated.updated_at >= note.updated_at
    _, _, digest2, _, vec2 = _embedding_row(conn, note.id)
    assert digest2 == content_hash("Oil return", "Oil traps every 3 m of riser")
    assert vec2 != vec
    tsv = conn.execute('SELECT tsv::text FROM "Note" WHERE id = %s', (note.id,)).fetchone()[0]
    assert "'traps'" in tsv
    assert "'velocity'" not in tsv

    assert [n.id for n in list_notes(conn, owner="alice")] == [note.id]
    assert list_notes(conn, owner="bob") == []
    delete_note(conn, note.id, owner="alice")
    assert count_notes(conn, owner=None) == 0
    assert conn.execute('SELECT count(*) FROM "NoteEmbedding"').fetchone()[0] == 0  # cascade


def test_add_note_is_atomic_when_embedding_fails(migrated_conn: psycopg.Connection, minilm) -> None:
    with pytest.raises(EmbeddingError, match="provider down"):
        add_note(migrated_conn, "alice", "t", "c", provider=FailingProvider(minilm, 1))
    assert count_notes(migrated_conn, owner=None) == 0
    add_note(migrated_conn, "alice", "t", "c", external_id="x1", provider=minilm)
    with pytest.raises(NoteStoreError, match="already has a note with external id 'x1'"):
        add_note(migrated_conn, "alice", "t2", "c2", external_id="x1", provider=minilm)
    add_note(migrated_conn, "bob", "t2", "c2", external_id="x1", provider=minilm)  # per owner
    with pytest.raises(NoteStoreError, match="non-empty owner"):
        add_note(migrated_conn, "", "t", "c", provider=minilm)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_import_jsonl_is_idempotent_and_updates_changed_notes(
    migrated_conn: psycopg.Connection, minilm, tmp_path: Path
) -> None:
    conn = migrated_conn
    docs = [
        {
            "_id": "d1",
            "title": "Superheat",
            "text": "Set the TXV for 5 K superheat.",
            "metadata": {},
        },
        {"_id": "d2", "title": "Subcooling", "text": "Measure liquid line subcooling."},
        {"_id": "d3", "title": "Glide", "text": "R407C has about 7 K temperature glide."},
    ]
    path = _write(tmp_path, "notes.jsonl", "\n".join(json.dumps(d) for d in docs) + "\n\n")
    first = import_notes(conn, "alice", read_notes_file(path), provider=minilm)
    assert (first.total, first.inserted, first.updated, first.unchanged, first.embedded) == (
        3,
        3,
        0,
        0,
        3,
    )
    again = import_notes(conn, "alice", read_notes_file(path), provider=minilm)
    assert (again.inserted, again.updated, again.unchanged, again.embedded) == (0, 0, 3, 0)
    docs[1]["text"] = "Measure subcooling at the condenser outlet."
    docs.append({"_id": "d4", "title": "New", "text": "Another note"})
    path = _write(tmp_path, "notes.jsonl", "\n".join(json.dumps(d) for d in docs))
    third = import_notes(conn, "alice", read_notes_file(path), provider=minilm)
    assert (third.inserted, third.updated, third.unchanged, third.embedded) == (1, 1, 2, 2)
    rows = dict(
        conn.execute(
            'SELECT n."externalId", e."contentHash" FROM "Note" n JOIN "NoteEmbedding" e'
            ' ON e."noteId" = n.id WHERE n."ownerId" = %s',
            ("alice",),
        ).fetchall()
    )
    assert rows["d2"] == content_hash("Subcooling", "Measure subcooling at the condenser outlet.")
    assert len(rows) == 4
    # the same file for another owner makes separate notes
    assert import_notes(conn, "bob", read_notes_file(path), provider=minilm).inserted == 4
    assert count_notes(conn, owner=None) == 8


def test_import_failure_writes_nothing(migrated_conn: psycopg.Connection, minilm) -> None:
    records = [NoteInput(f"t{i}", f"content {i}", f"e{i}") for i in range(7)]
    with pytest.raises(EmbeddingError):
        import_notes(migrated_conn, "alice", records, provider=FailingProvider(minilm, 3))
    assert count_notes(migrated_conn, owner=None) == 0
    dup = [NoteInput("a", "b", "same", "f.jsonl:1"), NoteInput("c", "d", "same", "f.jsonl:2")]
    with pytest.raises(NoteStoreError, match=r"f\.jsonl:2: external id 'same' appears twice"):
        import_notes(migrated_conn, "alice", dup, provider=minilm)


def test_import_csv_and_markdown_folder(
    migrated_conn: psycopg.Connection, minilm, tmp_path: Path
) -> None:
    csv_path = _write(
        tmp_path,
        "n.csv",
        'external_id,title,content\nc1,Defrost,"Hot gas defrost, every 6 h"\n,No id,second row\n',
    )
    recs = read_notes_file(csv_path)
    assert [(r.external_id, r.title) for r in recs] == [("c1", "Defrost"), (None, "No id")]
    assert recs[0].content == "Hot gas defrost, every 6 h"
    md = tmp_path / "md"
    _write(md, "plant/chiller.md", "# Chiller 2\n\nCondenser fouling raised the head pressure.\n")
    _write(md, "misc.md", "No heading here, just text.")
    recs_md = read_notes_file(md)
    assert [(r.external_id, r.title) for r in recs_md] == [
        ("misc", "misc"),
        ("plant/chiller", "Chiller 2"),
    ]
    assert recs_md[1].content == "Condenser fouling raised the head pressure."
    result = import_notes(migrated_conn, "alice", recs + recs_md, provider=minilm)
    assert result.inserted == 4
    # the row without external id is inserted again on a second import (no key to match)
    assert import_notes(migrated_conn, "alice", recs, provider=minilm).inserted == 1


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "bad.jsonl",
            '{"_id": "1", "title": "ok", "text": "x"}\n{oops\n',
            r"bad.jsonl:2: not valid JSON",
        ),
        ("list.jsonl", "[1, 2]\n", r"list.jsonl:1: expected a JSON object"),
        ("empty.jsonl", '{"_id": "1", "title": "", "text": ""}\n', r"empty.jsonl:1: a note needs"),
        (
            "typed.jsonl",
            '{"_id": "1", "title": ["x"], "text": "y"}\n',
            r"typed.jsonl:1: field 'title' must be a string",
        ),
        ("head.csv", "name,body\na,b\n", r"head.csv:1: the header needs"),
        ("notes.txt", "hello", r"unknown format '.txt'"),
    ],
)
def test_import_bad_files_name_the_place(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    with pytest.raises(NoteStoreError, match=message):
        read_notes_file(_write(tmp_path, name, text))


def test_import_missing_file(tmp_path: Path) -> None:
    with pytest.raises(NoteStoreError, match="no such file or folder"):
        read_notes_file(tmp_path / "nope.jsonl")


def test_import_with_index_rebuild_recreates_the_same_index(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn

    def index_def() -> str:
        return conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'NoteEmbedding_embedding_hnsw_idx'"
        ).fetchone()[0]

    before = index_def()
    records = [
        NoteInput(f"Note {i}", f"Evaporator {i} superheat {i % 9} K", f"e{i}") for i in range(20)
    ]
    assert import_notes(conn, "alice", records, provider=minilm, rebuild_index=True).inserted == 20
    assert index_def() == before
    with conn.transaction():
        conn.execute("SET LOCAL enable_seqscan = off")
        plan = "\n".join(
            r[0]
            for r in conn.execute(
                'EXPLAIN SELECT id FROM "NoteEmbedding" ORDER BY embedding <=> %s::vector LIMIT 5',
                (str([0.1] * 1536),),
            )
        )
    assert "NoteEmbedding_embedding_hnsw_idx" in plan
