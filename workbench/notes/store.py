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

import psycopg

from workbench.errors import NoteNotFoundError, NoteStoreError
from workbench.notes.bulk import HNSW_INDEX_NAME, HNSW_INDEX_SQL, import_notes
from workbench.notes.embeddings import (
    EmbeddingProvider,
    content_hash,
    embedding_text,
    provider_from_env,
    to_vector_literal,
)
from workbench.notes.models import ImportResult, Note, NoteInput

__all__ = [
    "Note",
    "NoteInput",
    "ImportResult",
    "add_note",
    "get_note",
    "update_note",
    "delete_note",
    "list_notes",
    "count_notes",
    "import_notes",
    "UPSERT_EMBEDDING_SQL",
    "HNSW_INDEX_NAME",
    "HNSW_INDEX_SQL",
]

_NOTE_COLUMNS = 'id, "ownerId", "externalId", title, content, "createdAt", "updatedAt"'

UPSERT_EMBEDDING_SQL = """
INSERT INTO "NoteEmbedding" ("noteId", embedding, model, dimension, "contentHash", "updatedAt")
VALUES (%s, %s::vector, %s, %s, %s, CURRENT_TIMESTAMP)
ON CONFLICT ("noteId") DO UPDATE
   SET embedding = EXCLUDED.embedding, model = EXCLUDED.model, dimension = EXCLUDED.dimension,
       "contentHash" = EXCLUDED."contentHash", "updatedAt" = CURRENT_TIMESTAMP
"""
"""Insert or replace one note's embedding (parameters: note id, vector literal, model,
native dimension, content hash)."""


def _note(row: Sequence) -> Note:
    return Note(*row)


def _owner_clause(owner: str | None) -> tuple[str, tuple]:
    return (' AND "ownerId" = %s', (owner,)) if owner is not None else ("", ())


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
    provider = provider or provider_from_env()
    emb = _embed_row(provider, title, content, f"new note of {owner}")
    try:
        with conn.transaction():
            row = conn.execute(
                f'INSERT INTO "Note" ("ownerId", "externalId", title, content)'
                f" VALUES (%s, %s, %s, %s) RETURNING {_NOTE_COLUMNS}",
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
    clause, args = _owner_clause(owner)
    row = conn.execute(
        f'SELECT {_NOTE_COLUMNS} FROM "Note" WHERE id = %s{clause}', (note_id, *args)
    ).fetchone()
    if row is None:
        raise NoteNotFoundError(f"note {note_id!r} not found")
    return _note(row)


_UNSET = object()


def update_note(
    conn: psycopg.Connection,
    note_id: str,
    *,
    owner: str | None,
    title: str | None | object = _UNSET,
    content: str | None | object = _UNSET,
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
    if (new_title, new_content) == (current.title, current.content):
        return current
    provider = provider or provider_from_env()
    emb = _embed_row(provider, new_title, new_content, f"note {note_id}")
    clause, args = _owner_clause(owner)
    with conn.transaction():
        row = conn.execute(
            f'UPDATE "Note" SET title = %s, content = %s, "updatedAt" = CURRENT_TIMESTAMP'
            f" WHERE id = %s{clause} RETURNING {_NOTE_COLUMNS}",
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
    clause, args = _owner_clause(owner)
    with conn.transaction():
        row = conn.execute(
            f'DELETE FROM "Note" WHERE id = %s{clause} RETURNING id', (note_id, *args)
        ).fetchone()
    if row is None:
        raise NoteNotFoundError(f"note {note_id!r} not found")


def list_notes(
    conn: psycopg.Connection, *, owner: str | None, limit: int = 50, offset: int = 0
) -> list[Note]:
    """Notes, newest first."""
    clause, args = _owner_clause(owner)
    where = f"WHERE TRUE{clause}"
    rows = conn.execute(
        f'SELECT {_NOTE_COLUMNS} FROM "Note" {where} ORDER BY "createdAt" DESC, id'
        " LIMIT %s OFFSET %s",
        (*args, limit, offset),
    ).fetchall()
    return [_note(r) for r in rows]


def count_notes(conn: psycopg.Connection, *, owner: str | None) -> int:
    """Number of notes (of one owner, or all)."""
    clause, args = _owner_clause(owner)
    return conn.execute(f'SELECT count(*) FROM "Note" WHERE TRUE{clause}', args).fetchone()[0]
