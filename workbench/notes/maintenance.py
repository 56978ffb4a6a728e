"""Maintenance: regenerate embeddings (reindex) and check them (validate).

``reindex`` walks the notes in id order, one batch at a time: it reads a batch, embeds the notes
that need it outside any transaction, then writes that batch's embeddings in one transaction.
An embedding is written only if its note still has the text it was made from (the content hash
is compared with the note's row locked), so a note edited while the reindex embedded it keeps
the fresher embedding its edit wrote. A failure (the provider or the database) stops the run;
batches already written stay, and the batch that failed keeps its previous embeddings. A note
whose embedding was made by the configured model from its current text (same content hash) is
skipped unless ``force``. One reindex runs at a time per database: every run (the command line's
and the HTTP API's jobs) holds the session advisory lock :data:`REINDEX_LOCK_KEY`.

``validate`` asks the database for every kind of bad row and returns counts and note ids.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import psycopg
from psycopg import sql

from workbench.errors import NoteStoreError
from workbench.notes.embeddings import (
    CONTENT_HASH_SQL,
    STORE_DIMENSION,
    EmbeddingProvider,
    content_hash,
    embedding_text,
    provider_from_env,
    to_vector_literal,
)
from workbench.notes.upkeep import settle_tables
from workbench.progress import Progress

__all__ = [
    "REINDEX_LOCK_KEY",
    "VALIDATION_CHECKS",
    "ReindexResult",
    "ReindexRunningError",
    "ValidationReport",
    "reindex",
    "reindex_lock",
    "validate",
]


REINDEX_LOCK_KEY = 0x7265696E646578
"""Session advisory lock held by every reindex (the bytes of "reindex")."""


class ReindexRunningError(NoteStoreError):
    """Another reindex holds the reindex lock of this database."""


@contextlib.contextmanager
def reindex_lock(conn: psycopg.Connection) -> Iterator[None]:
    """Hold the reindex lock of the database on ``conn``'s session (re-entrant per session).

    Raises
    ------
    ReindexRunningError
        Another session holds it: a reindex runs elsewhere (command line or API).
    """
    got = conn.execute("SELECT pg_try_advisory_lock(%s)", (REINDEX_LOCK_KEY,)).fetchone()[0]
    if not got:
        raise ReindexRunningError(
            "a reindex is already running on this database (another 'workbench notes reindex' "
            "or an API reindex job); wait for it to finish"
        )
    try:
        yield
    finally:
        with contextlib.suppress(psycopg.Error):  # a broken session released it already
            conn.execute("SELECT pg_advisory_unlock(%s)", (REINDEX_LOCK_KEY,))


@dataclass(frozen=True)
class ReindexResult:
    """Counts of one reindex run.

    Attributes
    ----------
    total : int
        Notes looked at.
    embedded : int
        Embeddings written.
    skipped : int
        Notes whose embedding was current.
    batches : int
        Transactions committed.
    """

    total: int
    embedded: int
    skipped: int
    batches: int


@dataclass(frozen=True)
class ValidationReport:
    """Result of :func:`validate`.

    Attributes
    ----------
    model : str
        The configured model the rows were checked against.
    total_notes, total_embeddings : int
        Rows looked at.
    counts : dict of str to int
        Number of offending notes per check (every check is present, zero when clean).
    ids : dict of str to list of str
        Offending note ids per check (at most ``max_ids`` each, sorted).
    """

    model: str
    total_notes: int
    total_embeddings: int
    counts: dict[str, int]
    ids: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when no check found a bad row."""
        return not any(self.counts.values())


_BATCH_SQL = sql.SQL("""
SELECT n.id, n.title, n.content, e.model, e."contentHash", e.embedding IS NULL
  FROM "Note" n LEFT JOIN "NoteEmbedding" e ON e."noteId" = n.id
 WHERE n.id > %(after)s{owner}
 ORDER BY n.id
 LIMIT %(batch)s
""")

_COUNT_SQL = sql.SQL('SELECT count(*) FROM "Note" n WHERE TRUE{owner}')

_OWNER = sql.SQL(' AND n."ownerId" = %(owner)s')

_WRITE_SQL = sql.SQL("""
INSERT INTO "NoteEmbedding" ("noteId", embedding, model, dimension, "contentHash", "updatedAt")
SELECT n.id, %(vec)s::vector, %(model)s, %(dimension)s, %(hash)s, CURRENT_TIMESTAMP
  FROM "Note" n
 WHERE n.id = %(id)s AND {current_hash} = %(hash)s
ON CONFLICT ("noteId") DO UPDATE
   SET embedding = EXCLUDED.embedding, model = EXCLUDED.model, dimension = EXCLUDED.dimension,
       "contentHash" = EXCLUDED."contentHash", "updatedAt" = CURRENT_TIMESTAMP
""").format(current_hash=sql.SQL(CONTENT_HASH_SQL.format(alias="n")))
"""Write one embedding only if the note still exists and still has the text it was made from."""


def reindex(
    conn: psycopg.Connection,
    *,
    provider: EmbeddingProvider | None = None,
    owner: str | None = None,
    batch_size: int = 64,
    force: bool = False,
    progress: bool | Callable[[int, int], None] = False,
) -> ReindexResult:
    """Regenerate embeddings in batches, one transaction per batch.

    Parameters
    ----------
    conn : psycopg.Connection
        Autocommit connection.
    provider : EmbeddingProvider, optional
        Default :func:`~workbench.notes.embeddings.provider_from_env` (a new one).
    owner : str, optional
        Only this owner's notes (default all).
    batch_size : int
        Notes per batch and transaction.
    force : bool
        Re-embed every note, current or not.
    progress : bool or callable
        True shows progress (a bar on a terminal or in Jupyter, a few lines elsewhere); a callable gets ``(done, total)`` after each batch.

    Returns
    -------
    ReindexResult

    Raises
    ------
    ReindexRunningError
        Another reindex runs on this database (nothing was done).
    EmbeddingError, NoteStoreError
        The run stops; the failing batch keeps its previous embeddings.

    Notes
    -----
    ``embedded`` counts the embeddings computed; one whose note changed meanwhile is not written
    (the edit wrote a fresher one). After the run the embeddings table is vacuumed and analysed
    when many rows changed (:func:`~workbench.notes.upkeep.settle_tables`).
    """
    if batch_size < 1:
        raise NoteStoreError(f"batch_size must be at least 1, got {batch_size}")
    provider = provider or provider_from_env()
    with reindex_lock(conn):
        result = _reindex_locked(conn, provider, owner, batch_size, force, progress)
    settle_tables(conn, result.embedded, ("NoteEmbedding",))
    return result


def _reindex_locked(
    conn: psycopg.Connection,
    provider: EmbeddingProvider,
    owner: str | None,
    batch_size: int,
    force: bool,
    progress: bool | Callable[[int, int], None],
) -> ReindexResult:
    owner_sql = _OWNER if owner is not None else sql.SQL("")
    total = conn.execute(_COUNT_SQL.format(owner=owner_sql), {"owner": owner}).fetchone()[0]
    bar = Progress(total, "reindex", "note") if progress is True else None
    after, done, embedded, skipped, batches = "", 0, 0, 0, 0
    batch_sql = _BATCH_SQL.format(owner=owner_sql)
    try:
        while True:
            rows = conn.execute(
                batch_sql, {"after": after, "batch": batch_size, "owner": owner}
            ).fetchall()
            if not rows:
                break
            after = rows[-1][0]
            todo = [
                (note_id, title, content, content_hash(title, content))
                for note_id, title, content, model, stored_hash, missing in rows
                if force
                or missing
                or model != provider.model_id
                or stored_hash != content_hash(title, content)
            ]
            skipped += len(rows) - len(todo)
            if todo:
                vectors = provider.embed([embedding_text(t, c) for _, t, c, _ in todo])
                params = [
                    {
                        "id": note_id,
                        "vec": to_vector_literal(vec, source=f"note {note_id}"),
                        "model": provider.model_id,
                        "dimension": provider.dimension,
                        "hash": digest,
                    }
                    for (note_id, _, _, digest), vec in zip(todo, vectors, strict=True)
                ]
                with conn.transaction(), conn.cursor() as cur:
                    # lock the notes (an edit in flight finishes first), then write only the
                    # embeddings whose note still exists with the text that was embedded
                    cur.execute(
                        'SELECT id FROM "Note" WHERE id = ANY(%s) ORDER BY id FOR UPDATE',
                        ([p["id"] for p in params],),
                    )
                    cur.executemany(_WRITE_SQL, params)
                batches += 1
                embedded += len(todo)
            done += len(rows)
            if bar is not None:
                bar.update(len(rows))
            elif callable(progress):
                progress(done, total)
    finally:
        if bar is not None:
            bar.close()
    return ReindexResult(total=done, embedded=embedded, skipped=skipped, batches=batches)


_CHECKS: dict[str, str] = {
    "missing_embedding": """
        SELECT n.id FROM "Note" n
         WHERE NOT EXISTS (SELECT 1 FROM "NoteEmbedding" e WHERE e."noteId" = n.id)""",
    "duplicate_embedding": """
        SELECT e."noteId" FROM "NoteEmbedding" e GROUP BY e."noteId" HAVING count(*) > 1""",
    "null_vector": """
        SELECT e."noteId" FROM "NoteEmbedding" e WHERE e.embedding IS NULL""",
    "wrong_dimension": """
        SELECT e."noteId" FROM "NoteEmbedding" e
         WHERE e.embedding IS NOT NULL AND vector_dims(e.embedding) <> {store_dim}""",
    "wrong_model": """
        SELECT e."noteId" FROM "NoteEmbedding" e
         WHERE e.model IS DISTINCT FROM %(model)s""",
    "native_dimension_mismatch": """
        SELECT e."noteId" FROM "NoteEmbedding" e
         WHERE e.embedding IS NOT NULL AND e.model = %(model)s
           AND (e.dimension IS DISTINCT FROM %(dimension)s
                OR (%(dimension)s < {store_dim} AND vector_norm(subvector(
                    e.embedding, %(dimension)s + 1, {store_dim} - %(dimension)s)) > 0))""",
    "nan_values": """
        SELECT e."noteId" FROM "NoteEmbedding" e
         WHERE e.embedding IS NOT NULL AND vector_norm(e.embedding) = 'NaN'::float8""",
    "zero_vector": """
        SELECT e."noteId" FROM "NoteEmbedding" e
         WHERE e.embedding IS NOT NULL AND vector_norm(e.embedding) = 0""",
    "stale_hash": """
        SELECT n.id FROM "Note" n JOIN "NoteEmbedding" e ON e."noteId" = n.id
         WHERE e."contentHash" IS DISTINCT FROM {current_hash}""",
}

VALIDATION_CHECKS: dict[str, sql.Composed] = {
    name: sql.SQL(text).format(
        store_dim=sql.Literal(STORE_DIMENSION),
        current_hash=sql.SQL(CONTENT_HASH_SQL.format(alias="n")),
    )
    for name, text in _CHECKS.items()
}
"""One query per kind of bad row, each selecting the offending note ids."""
"""One query per kind of bad row, each returning the offending note ids."""


def validate(
    conn: psycopg.Connection,
    *,
    provider: EmbeddingProvider | None = None,
    model: str | None = None,
    dimension: int | None = None,
    max_ids: int = 100,
) -> ValidationReport:
    """Check every note has exactly one current, well-formed embedding of the configured model.

    Parameters
    ----------
    conn : psycopg.Connection
        Any connection.
    provider : EmbeddingProvider, optional
        Supplies the configured ``model_id`` and native ``dimension`` (default: the configured
        provider; not loaded when ``model`` and ``dimension`` are given).
    model, dimension : optional
        Override the provider's.
    max_ids : int
        Ids listed per check.

    Returns
    -------
    ValidationReport
        Counts for every check in :data:`VALIDATION_CHECKS` and the offending ids.
    """
    if model is None or dimension is None:
        provider = provider or provider_from_env()
        model = model or provider.model_id
        dimension = dimension or provider.dimension
    params = {"model": model, "dimension": dimension}
    counts: dict[str, int] = {}
    ids: dict[str, list[str]] = {}
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        for name, query in VALIDATION_CHECKS.items():
            rows = conn.execute(
                sql.SQL(
                    "SELECT id, count(*) OVER () FROM ({}) AS bad(id) ORDER BY id LIMIT %(n)s"
                ).format(query),
                {**params, "n": max_ids},
            ).fetchall()
            counts[name] = rows[0][1] if rows else 0
            ids[name] = [r[0] for r in rows]
        total_notes = conn.execute('SELECT count(*) FROM "Note"').fetchone()[0]
        total_embeddings = conn.execute('SELECT count(*) FROM "NoteEmbedding"').fetchone()[0]
    return ValidationReport(
        model=model,
        total_notes=total_notes,
        total_embeddings=total_embeddings,
        counts=counts,
        ids=ids,
    )
