"""reindex and validate against the real database."""

from __future__ import annotations

import psycopg
import pytest

from workbench.errors import EmbeddingError
from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.maintenance import VALIDATION_CHECKS, reindex, validate
from workbench.notes.store import NoteInput, import_notes

pytest_plugins = ["notes_fixtures"]

pytestmark = pytest.mark.db


class FailingProvider(EmbeddingProvider):
    """The real model, failing on its n-th batch (test double for the failure path)."""

    def __init__(self, inner: EmbeddingProvider, fail_on_batch: int, batch_size: int) -> None:
        self.inner, self.fail_on_batch, self.calls = inner, fail_on_batch, 0
        self.model_id, self.dimension, self.batch_size = inner.model_id, inner.dimension, batch_size

    def _embed_batch(self, texts: list[str]):
        self.calls += 1
        if self.calls == self.fail_on_batch:
            raise EmbeddingError(f"provider down on batch {self.calls}")
        return self.inner._embed_batch(texts)


class OtherModel(EmbeddingProvider):
    """The real model under another name (a model change that must trigger re-embedding)."""

    def __init__(self, inner: EmbeddingProvider) -> None:
        self.inner = inner
        self.model_id, self.dimension = "local/other-model", inner.dimension

    def _embed_batch(self, texts: list[str]):
        return self.inner._embed_batch(texts)


def _notes(n: int) -> list[NoteInput]:
    return [
        NoteInput(f"Note {i}", f"Compressor {i} log: discharge {60 + i} C", f"n{i:02d}")
        for i in range(n)
    ]


def _stamps(conn: psycopg.Connection) -> dict[str, tuple]:
    """Embedding state by note id (reindex walks notes in id order)."""
    rows = conn.execute(
        'SELECT n.id, e.model, e."updatedAt", e.embedding::text FROM "Note" n'
        ' JOIN "NoteEmbedding" e ON e."noteId" = n.id ORDER BY n.id'
    ).fetchall()
    return {r[0]: r[1:] for r in rows}


def test_reindex_skips_current_rows_and_forces(migrated_conn: psycopg.Connection, minilm) -> None:
    conn = migrated_conn
    import_notes(conn, "alice", _notes(10), provider=minilm)
    result = reindex(conn, provider=minilm, batch_size=4)
    assert (result.total, result.embedded, result.skipped, result.batches) == (10, 0, 10, 0)
    conn.execute("UPDATE \"Note\" SET content = 'changed' WHERE \"externalId\" = 'n03'")
    conn.execute(
        'DELETE FROM "NoteEmbedding" WHERE "noteId" = (SELECT id FROM "Note" WHERE "externalId" = %s)',
        ("n07",),
    )
    result = reindex(conn, provider=minilm, batch_size=4)
    assert (result.embedded, result.skipped) == (2, 8)
    assert validate(conn, provider=minilm).ok
    forced = reindex(conn, provider=minilm, batch_size=4, force=True)
    assert (forced.embedded, forced.batches) == (10, 3)
    progress: list[tuple[int, int]] = []
    other = reindex(
        conn,
        provider=OtherModel(minilm),
        batch_size=6,
        progress=lambda d, t: progress.append((d, t)),
    )
    assert other.embedded == 10
    assert progress == [(6, 10), (10, 10)]
    assert {m for m, _, _ in _stamps(conn).values()} == {"local/other-model"}


def test_reindex_failure_half_way_keeps_old_embeddings(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    import_notes(conn, "alice", _notes(12), provider=minilm)
    before = _stamps(conn)
    # batches of 4 notes; the provider batch size equals it, so its 2nd call is the 2nd batch
    failing = FailingProvider(OtherModel(minilm), fail_on_batch=2, batch_size=4)
    with pytest.raises(EmbeddingError, match="provider down on batch 2"):
        reindex(conn, provider=failing, batch_size=4)
    after = _stamps(conn)
    ids = sorted(after)
    first, rest = ids[:4], ids[4:]
    assert all(after[i][0] == "local/other-model" for i in first)  # batch 1 committed
    assert all(after[i] == before[i] for i in rest)  # batches 2 and 3 untouched
    report = validate(conn, provider=minilm)
    assert report.counts["wrong_model"] == 4
    # a later run finishes the job
    done = reindex(conn, provider=OtherModel(minilm), batch_size=4)
    assert (done.embedded, done.skipped) == (8, 4)


def test_validate_reports_each_kind_of_bad_row(migrated_conn: psycopg.Connection, minilm) -> None:
    conn = migrated_conn
    import_notes(conn, "alice", _notes(8), provider=minilm)
    clean = validate(conn, provider=minilm)
    assert clean.ok
    assert clean.total_notes == 8
    assert clean.total_embeddings == 8
    assert set(clean.counts) == set(VALIDATION_CHECKS)

    def note_id(ext: str) -> str:
        return conn.execute('SELECT id FROM "Note" WHERE "externalId" = %s', (ext,)).fetchone()[0]

    def emb(sql: str, ext: str, *args: object) -> None:
        conn.execute(f'UPDATE "NoteEmbedding" SET {sql} WHERE "noteId" = %s', (*args, note_id(ext)))

    conn.execute('DELETE FROM "NoteEmbedding" WHERE "noteId" = %s', (note_id("n00"),))
    emb("embedding = NULL", "n01")
    emb("model = %s", "n02", "openai/text-embedding-3-small")
    emb("embedding = array_fill(0, ARRAY[1536])::vector", "n03")
    conn.execute("UPDATE \"Note\" SET title = 'edited by hand' WHERE id = %s", (note_id("n04"),))
    emb("dimension = 768", "n05")
    emb("embedding = (array_fill(0.01, ARRAY[1536]))::vector", "n06")  # padding is not zero
    report = validate(conn, provider=minilm)
    expected = {
        "missing_embedding": ["n00"],
        "null_vector": ["n01"],
        "wrong_model": ["n02"],
        "zero_vector": ["n03"],
        "stale_hash": ["n04"],
        "native_dimension_mismatch": ["n05", "n06"],
    }
    assert not report.ok
    for check, exts in expected.items():
        assert report.counts[check] == len(exts), check
        assert sorted(report.ids[check]) == sorted(note_id(e) for e in exts), check
    for check in set(VALIDATION_CHECKS) - set(expected):
        assert report.counts[check] == 0, check
    assert (
        validate(conn, provider=minilm, max_ids=1).ids["native_dimension_mismatch"].__len__() == 1
    )
    # reindex repairs every row it can (the model and staleness ones; zeros and padding via force)
    reindex(conn, provider=minilm, force=True)
    assert validate(conn, provider=minilm).ok


def test_database_refuses_rows_validate_cannot_see(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    """NaN values, a second embedding and a wrong width are stopped by the schema itself."""
    conn = migrated_conn
    import_notes(conn, "alice", _notes(1), provider=minilm)
    nid = conn.execute('SELECT id FROM "Note"').fetchone()[0]
    with pytest.raises(psycopg.errors.DataException, match="NaN not allowed"):
        conn.execute(
            'UPDATE "NoteEmbedding" SET embedding = %s::vector WHERE "noteId" = %s',
            ("[" + ",".join(["NaN"] + ["0.1"] * 1535) + "]", nid),
        )
    with pytest.raises(psycopg.errors.DataException, match="expected 1536 dimensions"):
        conn.execute(
            'UPDATE "NoteEmbedding" SET embedding = %s::vector WHERE "noteId" = %s',
            ("[1,2,3]", nid),
        )
    with pytest.raises(psycopg.errors.UniqueViolation):
        conn.execute(
            'INSERT INTO "NoteEmbedding" ("noteId", embedding) SELECT "noteId", embedding FROM "NoteEmbedding"'
        )
