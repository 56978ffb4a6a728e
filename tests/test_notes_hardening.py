"""Regression tests of issue 14 in the library.

Reindex races, text the database cannot store, folder imports that follow links out of the
folder, table upkeep after bulk changes, candidates that do not shrink with the limit.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import numpy as np
import psycopg
import pytest

from workbench.errors import NoteNotFoundError, NoteStoreError
from workbench.notes.embeddings import EmbeddingProvider, content_hash, pad_to_store
from workbench.notes.importers import read_notes_file
from workbench.notes.maintenance import reindex, validate
from workbench.notes.search import SearchSettings, search
from workbench.notes.store import (
    NoteInput,
    add_note,
    delete_note,
    get_embedding,
    get_note,
    import_notes,
    list_notes,
    update_note,
)
from workbench.notes.upkeep import SETTLE_MIN_ROWS

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db


class HashedProvider(EmbeddingProvider):
    """Deterministic 64-d unit vectors from a hash of the text.

    Fast; for tests of storage and upkeep, not of search quality.
    """

    model_id = "test/hashed-64"
    dimension = 64

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        out = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
            vec = np.random.default_rng(seed).standard_normal(self.dimension)
            out.append(vec / np.linalg.norm(vec))
        return np.asarray(out, dtype=np.float32)


class EditWhileEmbedding(EmbeddingProvider):
    """The real model; while reindex embeds its first batch, another session edits a note."""

    def __init__(self, inner: EmbeddingProvider, edit) -> None:
        self.inner, self.edit, self.calls = inner, edit, 0
        self.model_id, self.dimension = inner.model_id, inner.dimension

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        vectors = self.inner._embed_batch(texts)
        if self.calls == 1:
            self.edit()  # commits before reindex writes what it embedded from the old text
        return vectors


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_reindex_never_overwrites_a_fresher_embedding(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    notes = [NoteInput(f"Note {i}", f"Compressor {i} discharge log", f"n{i}") for i in range(6)]
    import_notes(conn, "alice", notes, provider=minilm)
    ids = [n.id for n in list_notes(conn, owner="alice")]
    url = conn.info.dsn
    new_text = "Evaporator frosting after a defrost heater failure"

    def edit() -> None:  # every note of the batch changes while its old text is being embedded
        with psycopg.connect(url, autocommit=True) as other:
            for note_id in ids:
                update_note(other, note_id, owner="alice", content=new_text, provider=minilm)

    result = reindex(conn, provider=EditWhileEmbedding(minilm, edit), force=True)
    assert result.total == 6
    for note_id in ids:
        note = get_note(conn, note_id, owner="alice")
        stored = conn.execute(
            'SELECT "contentHash" FROM "NoteEmbedding" WHERE "noteId" = %s', (note_id,)
        ).fetchone()[0]
        assert stored == content_hash(note.title, note.content)  # not the hash of the old text
        fresh = pad_to_store(minilm.embed_one(f"{note.title}\n{new_text}"))
        assert _cosine(get_embedding(conn, note_id, owner="alice"), fresh) > 0.9999
    assert validate(conn, provider=minilm).ok


def test_reindex_does_not_resurrect_a_note_deleted_meanwhile(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    import_notes(conn, "alice", [NoteInput("Gone", "soon deleted", "g")], provider=minilm)
    (note,) = list_notes(conn, owner="alice")
    url = conn.info.dsn

    def edit() -> None:
        with psycopg.connect(url, autocommit=True) as other:
            delete_note(other, note.id, owner="alice")

    reindex(conn, provider=EditWhileEmbedding(minilm, edit), force=True)
    assert conn.execute('SELECT count(*) FROM "NoteEmbedding"').fetchone()[0] == 0


@pytest.mark.parametrize("char", ["\x00", "\ud800"], ids=["nul", "surrogate"])
def test_store_refuses_text_the_database_cannot_hold(
    migrated_conn: psycopg.Connection, char: str
) -> None:
    conn, provider = migrated_conn, HashedProvider()
    for field in ("title", "content", "external_id"):
        kwargs = {"title": "ok", "content": "ok", "external_id": "ok"} | {field: f"a{char}b"}
        with pytest.raises(NoteStoreError, match=f"{field.replace('_', ' ')} holds .* position 1"):
            add_note(
                conn,
                "alice",
                kwargs["title"],
                kwargs["content"],
                external_id=kwargs["external_id"],
                provider=provider,
            )
    with pytest.raises(NoteStoreError, match=r"notes\.jsonl:7: content holds"):
        import_notes(
            conn,
            "alice",
            [NoteInput("t", f"x{char}", "e", source="notes.jsonl:7")],
            provider=provider,
        )
    note = add_note(conn, "alice", "Fine", "fine", provider=provider)
    with pytest.raises(NoteStoreError, match="title holds"):
        update_note(conn, note.id, owner="alice", title=f"x{char}", provider=provider)
    for bad_id in (f"{note.id}{char}", "x" * 100_000):  # no such note can exist: not found
        with pytest.raises(NoteNotFoundError):
            get_note(conn, bad_id, owner="alice")
        with pytest.raises(NoteNotFoundError):
            delete_note(conn, bad_id, owner="alice")
    with pytest.raises(NoteStoreError, match="search query holds"):
        search(conn, f"frost{char}", owner="alice", provider=provider)
    assert conn.execute('SELECT count(*) FROM "Note"').fetchone()[0] == 1


def test_list_offsets_are_bounded(migrated_conn: psycopg.Connection) -> None:
    assert list_notes(migrated_conn, owner="alice", offset=2**63 - 1) == []
    for offset in (2**63, 10**20, -1):
        with pytest.raises(NoteStoreError, match="offset must be an integer from 0 to"):
            list_notes(migrated_conn, owner="alice", offset=offset)


def test_markdown_folder_refuses_links_out_of_the_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("password=hunter2", encoding="utf-8")
    (outside / "sub").mkdir()
    (outside / "sub" / "leak.md").write_text("# Leak\nsecret too", encoding="utf-8")
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# A\nfine", encoding="utf-8")
    (folder / "inside.md").symlink_to(folder / "a.md")  # a link within the folder is fine
    assert sorted(r.external_id for r in read_notes_file(folder)) == ["a", "inside"]

    (folder / "x.md").symlink_to(outside / "secret.txt")
    with pytest.raises(NoteStoreError, match=r"x\.md: a link to .*outside.* refused") as info:
        read_notes_file(folder)
    assert "hunter2" not in str(info.value)
    (folder / "x.md").unlink()

    (folder / "linked").symlink_to(outside / "sub", target_is_directory=True)
    with pytest.raises(NoteStoreError, match=r"linked: a link to .*outside.* refused"):
        read_notes_file(folder)


def test_import_settles_the_tables_itself(migrated_conn: psycopg.Connection) -> None:
    conn = migrated_conn

    def vacuumed() -> dict[str, int]:
        return dict(
            conn.execute(
                "SELECT relname, vacuum_count + analyze_count FROM pg_stat_user_tables"
                " WHERE relname IN ('Note', 'NoteTerm', 'NoteEmbedding')"
            ).fetchall()
        )

    small = [NoteInput(f"n{i}", "oil trap", f"s{i}") for i in range(10)]
    big = [NoteInput(f"Note {i}", f"oil trap riser {i}", f"b{i}") for i in range(SETTLE_MIN_ROWS)]
    conn.execute("SELECT pg_stat_clear_snapshot()")
    before = vacuumed()
    import_notes(conn, "alice", big, provider=HashedProvider())
    conn.execute("SELECT pg_stat_clear_snapshot()")
    after_big = vacuumed()
    assert all(after_big[t] >= before.get(t, 0) + 2 for t in ("Note", "NoteTerm")), after_big
    # the visibility map is set: the keyword branch reads its postings without the heap
    plan = "\n".join(
        r[0]
        for r in conn.execute(
            'EXPLAIN (ANALYZE, COSTS OFF) SELECT "noteId", "titleCount" FROM "NoteTerm"'
            " WHERE \"ownerId\" = 'alice' AND stem = 'oil'"
        ).fetchall()
    )
    assert "Index Only Scan" in plan, plan
    assert "Heap Fetches: 0" in plan, plan
    # a small import into a large table is left to autovacuum
    import_notes(conn, "alice", small, provider=HashedProvider())
    conn.execute("SELECT pg_stat_clear_snapshot()")
    assert vacuumed() == after_big


def test_candidates_do_not_shrink_with_a_small_limit(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    words = ["oil", "trap", "riser", "frost", "coil", "valve", "leak", "fan", "brine", "glycol"]
    notes = [
        NoteInput(f"{words[i % 10]} {words[(i * 3) % 10]}", " ".join(words[: 1 + i % 10]), f"n{i}")
        for i in range(120)
    ]
    import_notes(conn, "alice", notes, provider=minilm)
    settings = SearchSettings()
    assert settings.keyword_candidates >= 50
    assert settings.semantic_candidates >= 50
    for query in ("oil leak in the riser", "frost on the coil", "glycol brine fan"):
        top = search(conn, query, owner="alice", limit=3, provider=minilm)
        wide = search(conn, query, owner="alice", limit=100, provider=minilm)
        # the same fused ranking: a small limit only cuts the list
        assert [(h.id, h.keyword_rank, h.semantic_rank) for h in top] == [
            (h.id, h.keyword_rank, h.semantic_rank) for h in wide[:3]
        ]


def test_hits_escape_html_but_the_highlight(migrated_conn: psycopg.Connection, minilm) -> None:
    conn = migrated_conn
    evil = NoteInput(
        '<img src=x onerror="alert(1)">Frost & ice',
        "Frost <script>alert('x')</script> on the coil; <b>bold</b> \ue000marker\ue001 too.",
        "evil",
    )
    import_notes(conn, "alice", [evil], provider=minilm)
    for mode in ("hybrid", "keyword", "semantic"):
        (hit,) = search(conn, "frost coil marker", owner="alice", mode=mode, provider=minilm)
        assert hit.title == "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Frost &amp; ice"
        markup = hit.snippet.replace("<b>", "").replace("</b>", "")
        assert "<" not in markup, hit.snippet
        assert ">" not in markup, hit.snippet
        assert "alert(&#x27;x&#x27;)" in hit.snippet
        if mode == "semantic":  # the start of the content, every character escaped
            assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in hit.snippet
            assert "&lt;b&gt;bold&lt;/b&gt;" in hit.snippet  # the note's own tags stay text
        else:  # ts_headline leaves tags out; the only markup is the highlight
            assert hit.snippet.count("<b>") == 3
            assert hit.snippet.count("</b>") == 3
            assert "<b>Frost</b>" in hit.snippet
            assert "<b>marker</b>" in hit.snippet


def test_providers_are_not_shared_through_the_process() -> None:
    from workbench.notes import embeddings

    assert not hasattr(embeddings, "set_provider")
    env = dict(os.environ, WORKBENCH_EMBEDDING_PROVIDER="ollama")
    first = embeddings.provider_from_env(env)
    assert first is not embeddings.provider_from_env(env)  # a new one per call, owned by the caller
    first.close()
    thread_errors: list[BaseException] = []

    def build() -> None:
        try:
            embeddings.provider_from_env(env).close()
        except BaseException as exc:  # pragma: no cover - reported below
            thread_errors.append(exc)

    threads = [threading.Thread(target=build) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not thread_errors
