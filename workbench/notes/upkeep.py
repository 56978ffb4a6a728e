"""Table upkeep after bulk changes: the note store runs ``VACUUM (ANALYZE)`` itself.

Right after a bulk import, a reindex or a migration that backfills, PostgreSQL has neither planner
statistics for the new rows nor a visibility map for them: searches then plan on guesses and
cannot use index-only scans (on SciFact, hybrid search through HTTP took 67 ms after an import
against 36 ms after a manual ``VACUUM ANALYZE``). Autovacuum catches up only after a while, so
:func:`settle_tables` runs ``VACUUM (ANALYZE)`` on the tables a bulk change touched, when it
changed at least :data:`SETTLE_MIN_ROWS` rows or a fifth of the notes. Smaller changes are left to
autovacuum. ``VACUUM`` cannot run inside a transaction: on a connection that is not in autocommit
mode, or inside a transaction block, only ``ANALYZE`` runs.
"""

from __future__ import annotations

import logging
import time

import psycopg
from psycopg import sql

__all__ = ["NOTE_TABLES", "SETTLE_MIN_ROWS", "settle_tables"]

NOTE_TABLES = ("Note", "NoteEmbedding", "NoteTerm", "NoteCollection", "NoteLexeme")
"""The tables a bulk change of notes touches."""
SETTLE_MIN_ROWS = 500
"""A change of at least this many rows [rows] (or a fifth of the notes) is followed by upkeep."""

_log = logging.getLogger(__name__)


def _existing(conn: psycopg.Connection, tables: tuple[str, ...]) -> list[tuple[str, float]]:
    rows = conn.execute(
        "SELECT c.relname, c.reltuples FROM pg_class c"
        " WHERE c.relname = ANY(%s) AND c.relkind = 'r' AND pg_table_is_visible(c.oid)",
        (list(tables),),
    ).fetchall()
    order = {name: i for i, name in enumerate(tables)}
    return sorted(rows, key=lambda row: order[row[0]])


def settle_tables(
    conn: psycopg.Connection,
    changed_rows: int,
    tables: tuple[str, ...] = NOTE_TABLES,
    *,
    force: bool = False,
) -> bool:
    """Vacuum and analyse ``tables`` after a bulk change of ``changed_rows`` rows.

    Parameters
    ----------
    conn : psycopg.Connection
        Preferably in autocommit mode and outside a transaction (else only ANALYZE runs).
    changed_rows : int
        Rows the change inserted, updated or deleted [rows].
    tables : tuple of str
        Tables to settle (missing ones are skipped).
    force : bool
        Settle whatever the size of the change.

    Returns
    -------
    bool
        True when the tables were settled.
    """
    existing = _existing(conn, tables)
    if not existing:
        return False
    # a fifth of the first table (the notes); reltuples is -1 for a table never analysed
    small = changed_rows * 5 >= max(existing[0][1], 0)
    if not (force or changed_rows >= SETTLE_MIN_ROWS or (changed_rows > 0 and small)):
        return False
    names = sql.SQL(", ").join(sql.Identifier(name) for name, _ in existing)
    idle = conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    start = time.perf_counter()
    if conn.autocommit and idle:
        conn.execute(sql.SQL("VACUUM (ANALYZE) {}").format(names))
        what = "VACUUM (ANALYZE)"
    else:
        conn.execute(sql.SQL("ANALYZE {}").format(names))
        what = "ANALYZE"
    _log.info(
        "%s of %s after %d changed rows took %.2f s",
        what,
        ", ".join(name for name, _ in existing),
        changed_rows,
        time.perf_counter() - start,
    )
    return True
