"""Notes and their embeddings: add, get, update, delete, list (bulk import: :mod:`.bulk`).

Every function takes an open connection (from :func:`workbench.notes.db.connect` or a pool) and
opens its own transaction, so a note and its embedding are always written together or not at
all. ``owner`` scopes each call: a note of another owner is reported as not found. ``owner=None``
is the administrator's view (command line, maintenance) and sees every note.

Embeddings are computed *before* the transaction opens (a slow model never holds locks) and
written with the model name, its native dimension and the hash of the embedded text, so that
reindex can skip current rows and validate can find stale ones.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import psycopg
from psycopg import sql

from workbench.errors import NoteNotFoundError, NoteStoreError
from workbench.notes.bulk import HNSW_INDEX_NAME, HNSW_INDEX_SQL, import_notes
from workbench.notes.db import vector_cursor
from workbench.notes.embeddings import (
    EmbeddingProvider,
    content_hash,
    embedding_text,
    provider_from_env,
    to_vector_literal,
)
from workbench.notes.models import ImportResult, Note, NoteInput
from workbench.notes.text import MAX_ID_CHARS, text_problem

__all__ = [
    "HNSW_INDEX_NAME",
    "HNSW_INDEX_SQL",
    "MAX_OFFSET",
    "UPSERT_EMBEDDING_SQL",
    "ImportResult",
    "Note",
    "NoteInput",
    "add_note",
    "count_notes",
    "delete_note",
    "get_embedding",
    "get_note",
    "import_notes",
    "list_notes",
    "update_note",
]

_NOTE_COLUMNS = sql.SQL(
    'id, "ownerId", "externalId", title, content,'
    " \"createdAt\" AT TIME ZONE current_setting('TimeZone'),"
    " \"updatedAt\" AT TIME ZONE current_setting('TimeZone')"
)
"""A note's columns; the contract's timestamps without time zone hold the server's local time,
so they are read as time-zone-aware values (RFC 3339 with an offset in the API)."""
_OWNER_CLAUSE = sql.SQL(' AND "ownerId" = %s')

UPSERT_EMBEDDING_SQL = """
INSERT INTO "NoteEmbedding" ("noteId", embedding, model, dimension, "contentHash", "updatedAt")
VALUES (%s, %s::vector, %s, %s, %s, CURRENT_TIMESTAMP)
ON CONFLICT ("noteId") DO UPDATE
   SET embedding = EXCLUDED.embedding, model = EXCLUDED.model, dimension = EXCLUDED.dimension,
       "contentHash" = EXCLUDED."contentHash", "updatedAt" = CURRENT_TIMESTAMP
"""
"""Insert or replace one note's embedding (parameters: note id, vector literal, model,
native dimension, content hash)."""


MAX_OFFSET = 2**63 - 1
"""Largest ``offset`` of :func:`list_notes` (PostgreSQL's ``bigint``)."""


def _note(row: Sequence) -> Note:
    return Note(*row)


def _check_text(**fields: str | None) -> None:
    for name, value in fields.items():
        problem = text_problem(value, name.replace("_", " "))
        if problem:
            raise NoteStoreError(problem)


def _storable_id(note_id: object) -> bool:
    """Whether a note with this id can exist (a NUL or surrogate can never be stored)."""
    return (
        isinstance(note_id, str)
        and len(note_id) <= MAX_ID_CHARS
        and text_problem(note_id, "id") is None
    )


def _owner_clause(owner: str | None) -> tuple[sql.Composable, tuple]:
    return (_OWNER_CLAUSE, (owner,)) if owner is not None else (sql.SQL(""), ())


def _embed_row(provider: EmbeddingProvider, title: str | None, content: str | None, where: str):
    vector = provider.embed_one(embedding_text(title, content))
    return (
        to_vector_literal(vector, source=where),
        provider.model_id,
        provider.dimension,
        content_hash(title, content),
    )


def add_note(
    conn: psycopg.Connection,
    owner: str,
    title: str | None,
    content: str | None,
    *,
    external_id: str | None = None,
    provider: EmbeddingProvider | None = None,
) -> Note:
    """Store a new note with its embedding.

    Raises
    ------
    NoteStoreError
        Empty owner, or ``external_id`` already used by this owner.
    EmbeddingError
        If the provider fails (nothing is written).
    """
    if not owner:
        raise NoteStoreError("a note needs a non-empty owner")
    _check_text(owner=owner, title=title, content=content, external_id=external_id)
    if external_id is not None and len(external_id) > MAX_ID_CHARS:
        raise NoteStoreError(
            f"external id has {len(external_id)} characters; at most {MAX_ID_CHARS} are allowed"
        )
    provider = provider or provider_from_env()
    emb = _embed_row(provider, title, content, f"new note of {owner}")
    try:
        with conn.transaction():
            row = conn.execute(
                sql.SQL(
                    'INSERT INTO "Note" ("ownerId", "externalId", title, content)'
                    " VALUES (%s, %s, %s, %s) RETURNING {}"
                ).format(_NOTE_COLUMNS),
                (owner, external_id, title, content),
            ).fetchone()
            conn.execute(UPSERT_EMBEDDING_SQL, (row[0], *emb))
    except psycopg.errors.UniqueViolation as exc:
        raise NoteStoreError(
            f"owner {owner!r} already has a note with external id {external_id!r}"
        ) from exc
    return _note(row)


def get_note(conn: psycopg.Connection, note_id: str, *, owner: str | None) -> Note:
    """One note by id.

    Raises
    ------
    NoteNotFoundError
        No such note, or it belongs to another owner.
    """
    if not _storable_id(note_id):
        raise NoteNotFoundError(f"note {note_id!r} not found")
    clause, args = _owner_clause(owner)
    row = conn.execute(
        sql.SQL('SELECT {} FROM "Note" WHERE id = %s{}').format(_NOTE_COLUMNS, clause),
        (note_id, *args),
    ).fetchone()
    if row is None:
        raise NoteNotFoundError(f"note {note_id!r} not found")
    return _note(row)


def get_embedding(conn: psycopg.Connection, note_id: str, *, owner: str | None) -> np.ndarray:
    """The stored embedding of a note as a numpy array (1536 float32, zero-padded) [-].

    Read through pgvector's psycopg adapter (:func:`~workbench.notes.db.vector_cursor`).

    Raises
    ------
    NoteNotFoundError
        No such note for this owner, or it has no embedding.
    """
    note = get_note(conn, note_id, owner=owner)
    with vector_cursor(conn) as cur:
        row = cur.execute(
            'SELECT embedding FROM "NoteEmbedding" WHERE "noteId" = %s', (note.id,)
        ).fetchone()
    if row is None or row[0] is None:
        raise NoteNotFoundError(f"note {note_id!r} has no embedding")
    return row[0].to_numpy()


_UNSET = object()


def update_note(
    conn: psycopg.Connection,
    note_id: str,
    *,
    owner: str | None,
    title: str | object | None = _UNSET,
    content: str | object | None = _UNSET,
    provider: EmbeddingProvider | None = None,
) -> Note:
    """Change a note's title and/or content; its embedding is recomputed when the text changed.

    Raises
    ------
    NoteNotFoundError
        No such note for this owner.
    """
    current = get_note(conn, note_id, owner=owner)
    new_title = current.title if title is _UNSET else title
    new_content = current.content if content is _UNSET else content
    _check_text(title=new_title, content=new_content)
    if (new_title, new_content) == (current.title, current.content):
        return current
    provider = provider or provider_from_env()
    emb = _embed_row(provider, new_title, new_content, f"note {note_id}")
    clause, args = _owner_clause(owner)
    with conn.transaction():
        row = conn.execute(
            sql.SQL(
                'UPDATE "Note" SET title = %s, content = %s, "updatedAt" = CURRENT_TIMESTAMP'
                " WHERE id = %s{} RETURNING {}"
            ).format(clause, _NOTE_COLUMNS),
            (new_title, new_content, note_id, *args),
        ).fetchone()
        if row is None:  # deleted meanwhile
            raise NoteNotFoundError(f"note {note_id!r} not found")
        conn.execute(UPSERT_EMBEDDING_SQL, (note_id, *emb))
    return _note(row)


def delete_note(conn: psycopg.Connection, note_id: str, *, owner: str | None) -> None:
    """Delete a note (its embedding goes with it: ON DELETE CASCADE).

    Raises
    ------
    NoteNotFoundError
        No such note for this owner.
    """
    if not _storable_id(note_id):
        raise NoteNotFoundError(f"note {note_id!r} not found")
    clause, args = _owner_clause(owner)
    with conn.transaction():
        row = conn.execute(
            sql.SQL('DELETE FROM "Note" WHERE id = %s{} RETURNING id').format(clause),
            (note_id, *args),
        ).fetchone()
    if row is None:
        raise NoteNotFoundError(f"note {note_id!r} not found")


def list_notes(
    conn: psycopg.Connection,
    *,
    owner: str | None,
    limit: int = 50,
    offset: int = 0,
    max_bytes: int | None = None,
) -> list[Note]:
    """Notes, newest first.

    With ``max_bytes`` [bytes], the page ends with the note whose title and content (UTF-8)
    bring the page's total past it: the database sums the sizes (without reading the texts) and
    sends only the notes kept, so a page of large notes costs at most ``max_bytes`` plus one note.

    Raises
    ------
    NoteStoreError
        ``limit`` below 0, or ``offset`` outside 0 to :data:`MAX_OFFSET`.
    """
    for name, value in (("limit", limit), ("offset", offset)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_OFFSET:
            raise NoteStoreError(f"{name} must be an integer from 0 to {MAX_OFFSET}, got {value!r}")
    clause, args = _owner_clause(owner)
    if max_bytes is None:
        rows = conn.execute(
            sql.SQL(
                'SELECT {} FROM "Note" WHERE TRUE{} ORDER BY "createdAt" DESC, id '
                "LIMIT %s OFFSET %s"
            ).format(_NOTE_COLUMNS, clause),
            (*args, limit, offset),
        ).fetchall()
        return [_note(r) for r in rows]
    rows = conn.execute(
        sql.SQL(
            'WITH page AS (SELECT id, "createdAt", coalesce(octet_length(title), 0)'
            " + coalesce(octet_length(content), 0) AS size"
            ' FROM "Note" WHERE TRUE{} ORDER BY "createdAt" DESC, id LIMIT %s OFFSET %s),'
            ' kept AS (SELECT id, sum(size) OVER (ORDER BY "createdAt" DESC, id'
            " ROWS UNBOUNDED PRECEDING) - size AS before FROM page)"
            ' SELECT {} FROM "Note" JOIN kept USING (id) WHERE kept.before < %s'
            ' ORDER BY "createdAt" DESC, id'
        ).format(clause, _NOTE_COLUMNS),
        (*args, limit, offset, max_bytes),
    ).fetchall()
    return [_note(r) for r in rows]


def count_notes(conn: psycopg.Connection, *, owner: str | None) -> int:
    """Number of notes (of one owner, or all)."""
    clause, args = _owner_clause(owner)
    return conn.execute(
        sql.SQL('SELECT count(*) FROM "Note" WHERE TRUE{}').format(clause), args
    ).fetchone()[0]
