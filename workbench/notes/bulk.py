"""Bulk import of notes through COPY, idempotent by external id (see :func:`import_notes`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
import psycopg
from psycopg import sql

from workbench.errors import NoteStoreError
from workbench.notes.db import vector_cursor
from workbench.notes.embeddings import (
    EmbeddingProvider,
    content_hash,
    embedding_text,
    pad_to_store,
    provider_from_env,
)
from workbench.notes.models import ImportResult, NoteInput
from workbench.notes.text import MAX_ID_CHARS, text_problem
from workbench.notes.upkeep import settle_tables
from workbench.progress import Progress

__all__ = ["HNSW_INDEX_NAME", "HNSW_INDEX_SQL", "import_notes", "records_to_embed"]

HNSW_INDEX_NAME = "NoteEmbedding_embedding_hnsw_idx"
HNSW_INDEX_SQL = sql.SQL(
    'CREATE INDEX {} ON "NoteEmbedding"'
    ' USING hnsw ("embedding" vector_cosine_ops) WITH (m = 16, ef_construction = 64)'
).format(sql.Identifier(HNSW_INDEX_NAME))
"""The HNSW index exactly as migration 20260512120000 creates it (rebuilt by bulk imports)."""

_STAGING_SQL = """
CREATE TEMP TABLE note_import (
    ord INTEGER NOT NULL,
    id TEXT NOT NULL DEFAULT gen_random_uuid()::text,
    external_id TEXT,
    title TEXT,
    content TEXT,
    embedding vector(1536),
    content_hash TEXT
) ON COMMIT DROP
"""

_MERGE_NOTES_SQL = """
INSERT INTO "Note" (id, "ownerId", "externalId", title, content)
SELECT id, %(owner)s, external_id, title, content FROM note_import ORDER BY ord
ON CONFLICT ("ownerId", "externalId") DO UPDATE
   SET title = EXCLUDED.title, content = EXCLUDED.content, "updatedAt" = CURRENT_TIMESTAMP
 WHERE "Note".title IS DISTINCT FROM EXCLUDED.title
    OR "Note".content IS DISTINCT FROM EXCLUDED.content
RETURNING (xmax = 0) AS inserted
"""

_RESOLVE_IDS_SQL = """
UPDATE note_import s SET id = n.id
  FROM "Note" n
 WHERE n."ownerId" = %(owner)s AND n."externalId" = s.external_id AND n.id <> s.id
"""

_STALE_SQL = """
SELECT s.ord FROM note_import s LEFT JOIN "NoteEmbedding" e ON e."noteId" = s.id
 WHERE s.embedding IS NULL
   AND (e."contentHash" IS DISTINCT FROM s.content_hash OR e.model IS DISTINCT FROM %(model)s)
 ORDER BY s.ord
"""
"""Staged notes left without a new embedding whose stored one does not fit their text: another
session changed the note between the hash read and the merge."""

_MERGE_EMBEDDINGS_SQL = """
INSERT INTO "NoteEmbedding" ("noteId", embedding, model, dimension, "contentHash", "updatedAt")
SELECT id, embedding, %(model)s, %(dimension)s, content_hash, CURRENT_TIMESTAMP
  FROM note_import WHERE embedding IS NOT NULL
ON CONFLICT ("noteId") DO UPDATE
   SET embedding = EXCLUDED.embedding, model = EXCLUDED.model, dimension = EXCLUDED.dimension,
       "contentHash" = EXCLUDED."contentHash", "updatedAt" = CURRENT_TIMESTAMP
"""


def _check_records(records: Sequence[NoteInput]) -> None:
    """Refuse text the database cannot store and external ids given twice, naming the record."""
    seen: dict[str, str] = {}
    for i, rec in enumerate(records):
        where = rec.source or f"record {i + 1}"
        for name, value in (
            ("title", rec.title),
            ("content", rec.content),
            ("external id", rec.external_id),
        ):
            problem = text_problem(value, f"{where}: {name}")
            if problem:
                raise NoteStoreError(problem)
        if rec.external_id is None:
            continue
        if len(rec.external_id) > MAX_ID_CHARS:
            raise NoteStoreError(
                f"{where}: external id has {len(rec.external_id)} characters; "
                f"at most {MAX_ID_CHARS} are allowed"
            )
        if rec.external_id in seen:
            raise NoteStoreError(
                f"{where}: external id {rec.external_id!r} appears twice "
                f"(first at {seen[rec.external_id] or 'an earlier record'})"
            )
        seen[rec.external_id] = rec.source


def _current_hashes(
    conn: psycopg.Connection, owner: str, external_ids: list[str]
) -> dict[str, tuple[str | None, str | None]]:
    if not external_ids:
        return {}
    rows = conn.execute(
        'SELECT n."externalId", e."contentHash", e.model FROM "Note" n'
        ' LEFT JOIN "NoteEmbedding" e ON e."noteId" = n.id'
        ' WHERE n."ownerId" = %s AND n."externalId" = ANY(%s)',
        (owner, external_ids),
    ).fetchall()
    return {ext: (h, m) for ext, h, m in rows}


def _todo(
    conn: psycopg.Connection,
    owner: str,
    recs: Sequence[NoteInput],
    hashes: list[str],
    model_id: str,
) -> list[int]:
    """Positions of the records to embed: new, changed, or without a current embedding."""
    current = _current_hashes(conn, owner, [r.external_id for r in recs if r.external_id])
    return [
        i
        for i, rec in enumerate(recs)
        if rec.external_id is None
        or current.get(rec.external_id, (None, None)) != (hashes[i], model_id)
    ]


def records_to_embed(
    conn: psycopg.Connection, owner: str, records: Sequence[NoteInput], model_id: str
) -> list[int]:
    """Positions of the records :func:`import_notes` would embed now (no transaction).

    A caller may embed them first, holding no connection, and hand the vectors to the import
    through its provider; a record that changes in between is embedded inside the import.

    Parameters
    ----------
    conn : psycopg.Connection
        Autocommit connection.
    owner : str
        Owner of the records.
    records : sequence of NoteInput
        The notes of the import.
    model_id : str
        The provider's model: an embedding of another model counts as missing.

    Returns
    -------
    list of int
        Positions in ``records``: new records, changed ones, and those without a current
        embedding of ``model_id``.
    """
    hashes = [content_hash(r.title, r.content) for r in records]
    return _todo(conn, owner, records, hashes, model_id)


def import_notes(
    conn: psycopg.Connection,
    owner: str,
    records: Iterable[NoteInput],
    *,
    provider: EmbeddingProvider | None = None,
    progress: bool | Callable[[int], None] = False,
    rebuild_index: bool = False,
    index_memory_mb: int = 1024,
) -> ImportResult:
    """Import notes in bulk through COPY, idempotently by external id.

    Records whose external id the owner already has update that note (when title or content
    differ); records without an external id are always inserted. Only records whose text
    changed, or whose embedding is missing or from another model, are embedded. Notes and
    embeddings are written in one transaction: a failure leaves the store unchanged. After a
    large import the note tables are vacuumed and analysed
    (:func:`~workbench.notes.upkeep.settle_tables`), so searches are fast right away.

    Parameters
    ----------
    conn : psycopg.Connection
        Autocommit connection.
    owner : str
        Owner of every imported note.
    records : iterable of NoteInput
        The notes.
    provider : EmbeddingProvider, optional
        Default :func:`~workbench.notes.embeddings.provider_from_env` (a new one).
    progress : bool or callable
        True shows progress while embedding (a bar on a terminal or in Jupyter, a few lines elsewhere); a callable gets the count done per batch.
    rebuild_index : bool
        For large initial loads: drop the HNSW index before merging the embeddings and build it
        again afterwards, in the same transaction (an index build is several times faster than
        as many single inserts). The table is locked for other sessions, searches included,
        until the import commits.
    index_memory_mb : int
        ``maintenance_work_mem`` for that build [MiB]; the graph should fit in it.

    Raises
    ------
    NoteStoreError
        Empty owner, or an external id that appears twice (naming both places).
    EmbeddingError
        The provider failed (nothing is written).
    """
    if not owner:
        raise NoteStoreError("an import needs a non-empty owner")
    problem = text_problem(owner, "owner")
    if problem:
        raise NoteStoreError(problem)
    recs = list(records)
    _check_records(recs)
    provider = provider or provider_from_env()
    hashes = [content_hash(r.title, r.content) for r in recs]
    todo = _todo(conn, owner, recs, hashes, provider.model_id)
    vectors = _embed_with_progress(provider, recs, todo, progress)
    row_of = {i: k for k, i in enumerate(todo)}

    def padded(i: int) -> np.ndarray | None:  # padded to the store's width only when written
        k = row_of.get(i)
        if k is None:
            return None
        return pad_to_store(vectors[k], source=recs[i].source or f"record {i + 1}")

    with conn.transaction(), vector_cursor(conn) as cur:
        cur.execute(_STAGING_SQL)
        with cur.copy(
            "COPY note_import (ord, external_id, title, content, embedding, content_hash)"
            " FROM STDIN (FORMAT BINARY)"
        ) as copy:
            copy.set_types(["integer", "text", "text", "text", "vector", "text"])
            for i, rec in enumerate(recs):
                copy.write_row((i, rec.external_id, rec.title, rec.content, padded(i), hashes[i]))
        flags = [row[0] for row in cur.execute(_MERGE_NOTES_SQL, {"owner": owner})]
        cur.execute(_RESOLVE_IDS_SQL, {"owner": owner})
        late = [row[0] for row in cur.execute(_STALE_SQL, {"model": provider.model_id})]
        if late:  # rare: embed them now, inside the transaction
            fresh = provider.embed([_text(recs[i]) for i in late])
            cur.executemany(
                "UPDATE note_import SET embedding = %s WHERE ord = %s",
                [
                    (pad_to_store(v, source=f"note {recs[i].source}"), i)
                    for i, v in zip(late, fresh, strict=True)
                ],
            )
            todo.extend(late)
        if rebuild_index:
            cur.execute(
                sql.SQL("SET LOCAL maintenance_work_mem = {}").format(
                    sql.Literal(f"{int(index_memory_mb)}MB")
                )
            )
            cur.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(HNSW_INDEX_NAME)))
        cur.execute(
            _MERGE_EMBEDDINGS_SQL, {"model": provider.model_id, "dimension": provider.dimension}
        )
        if rebuild_index:
            cur.execute(HNSW_INDEX_SQL)
    inserted = sum(flags)
    updated = len(flags) - inserted
    settle_tables(conn, len(flags) + len(todo))
    return ImportResult(
        total=len(recs),
        inserted=inserted,
        updated=updated,
        unchanged=len(recs) - inserted - updated,
        embedded=len(todo),
    )


def _text(rec: NoteInput) -> str:
    return embedding_text(rec.title, rec.content)


def _embed_with_progress(
    provider: EmbeddingProvider,
    recs: Sequence[NoteInput],
    todo: list[int],
    progress: bool | Callable[[int], None],
) -> np.ndarray:
    """Embed the records ``todo``, a few batches at a time (their joined texts never all at once)."""
    vectors = np.empty((len(todo), provider.dimension), dtype=np.float32)
    if not todo:
        return vectors
    step = max(1, provider.batch_size) * 4
    bar = Progress(len(todo), "embedding", "note") if progress is True else None
    report = bar.update if bar is not None else (progress if callable(progress) else None)
    try:
        for start in range(0, len(todo), step):
            part = [_text(recs[i]) for i in todo[start : start + step]]
            vectors[start : start + len(part)] = provider.embed(part, progress=report)
    finally:
        if bar is not None:
            bar.close()
    return vectors
