"""Schema migrations of the note store: SQL files applied in order, each in one transaction.

Each migration is a pair of files in this folder, ``<id>_<name>.up.sql`` and
``<id>_<name>.down.sql``, where ``<id>`` is a UTC timestamp ``YYYYMMDDhhmmss``. Applied migrations
are recorded in the table ``workbench_schema_migrations``. A migration runs in one transaction
together with its record and an advisory lock, so two processes never migrate at the same time
and a failed migration changes nothing.

``20260512120000`` is the contract's migration (vector extension; JSON text to ``vector(1536)``
with an HNSW cosine index; ``tsv`` with its GIN index and trigger). Before it runs, every legacy
JSON embedding is checked: values that are not arrays of 1536 numbers stop the migration before
anything changes, and the error names the note ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from importlib import resources

import psycopg
from psycopg import sql

from workbench.errors import MigrationError

__all__ = [
    "MIGRATIONS_TABLE",
    "AppliedMigration",
    "Migration",
    "applied_migrations",
    "available_migrations",
    "check_legacy_embeddings",
    "current_version",
    "migrate",
    "pending_migrations",
    "require_current_schema",
    "rollback",
]

MIGRATIONS_TABLE = "workbench_schema_migrations"
_TABLE = sql.Identifier(MIGRATIONS_TABLE)
_LOCK_KEY = 0x6E6F746573  # advisory lock taken by every migration transaction ("notes")
_FILE = re.compile(r"^(?P<id>\d{14})_(?P<name>[a-z0-9_]+)\.(?P<dir>up|down)\.sql$")
_MAX_IDS_IN_MESSAGE = 20


@dataclass(frozen=True)
class Migration:
    """One migration: its id (timestamp), name and the SQL of both directions."""

    id: str
    name: str
    up_sql: str
    down_sql: str


@dataclass(frozen=True)
class AppliedMigration:
    """A row of the migrations table."""

    id: str
    name: str
    applied_at: datetime


def available_migrations() -> list[Migration]:
    """Every migration shipped with the package, oldest first.

    Raises
    ------
    MigrationError
        If a migration lacks its up or down file.
    """
    found: dict[str, dict[str, str]] = {}
    for entry in resources.files(__package__).iterdir():
        match = _FILE.match(entry.name)
        if match is None:
            continue
        slot = found.setdefault(match["id"], {"name": match["name"]})
        slot[match["dir"]] = entry.read_text(encoding="utf-8")
    migrations = []
    for mig_id in sorted(found):
        slot = found[mig_id]
        if "up" not in slot or "down" not in slot:
            raise MigrationError(f"migration {mig_id}_{slot['name']}: missing its up or down file")
        migrations.append(Migration(mig_id, slot["name"], slot["up"], slot["down"]))
    return migrations


def _ensure_table(conn: psycopg.Connection) -> None:
    conn.execute(
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {} ("
            " id TEXT PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        ).format(_TABLE)
    )


def applied_migrations(conn: psycopg.Connection) -> list[AppliedMigration]:
    """The migrations recorded as applied, oldest first (empty for a fresh database)."""
    exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (MIGRATIONS_TABLE,)).fetchone()
    if not exists or not exists[0]:
        return []
    rows = conn.execute(
        sql.SQL("SELECT id, name, applied_at FROM {} ORDER BY id").format(_TABLE)
    ).fetchall()
    return [AppliedMigration(*row) for row in rows]


def current_version(conn: psycopg.Connection) -> str | None:
    """Id of the latest applied migration, or None."""
    applied = applied_migrations(conn)
    return applied[-1].id if applied else None


def pending_migrations(conn: psycopg.Connection) -> list[Migration]:
    """Shipped migrations not applied yet, oldest first."""
    done = {m.id for m in applied_migrations(conn)}
    return [m for m in available_migrations() if m.id not in done]


_LEGACY_CHECK_SQL = """
SELECT "noteId",
       CASE
           WHEN NOT ("embedding" IS JSON) THEN 'not valid JSON'
           WHEN NOT ("embedding" IS JSON ARRAY) THEN 'not a JSON array'
           WHEN jsonb_array_length("embedding"::jsonb) <> 1536
               THEN jsonb_array_length("embedding"::jsonb) || ' numbers, expected 1536'
           WHEN EXISTS (SELECT 1 FROM jsonb_array_elements("embedding"::jsonb) AS e(v)
                        WHERE jsonb_typeof(e.v) <> 'number')
               THEN 'holds a value that is not a number'
           WHEN EXISTS (SELECT 1 FROM jsonb_array_elements("embedding"::jsonb) AS e(v)
                        WHERE abs(e.v::text::numeric) > 3.4028234e38)
               THEN 'holds a number outside the single-precision range'
       END AS reason
  FROM "NoteEmbedding"
 WHERE "embedding" IS NOT NULL
 ORDER BY "noteId"
"""


def check_legacy_embeddings(conn: psycopg.Connection) -> None:
    """Refuse legacy JSON embeddings that cannot become ``vector(1536)``.

    Raises
    ------
    MigrationError
        Naming every offending note id (the first 20 in the message) and why.
    """
    bad = [(note_id, reason) for note_id, reason in conn.execute(_LEGACY_CHECK_SQL) if reason]
    if not bad:
        return
    shown = "; ".join(f"note {note_id}: {reason}" for note_id, reason in bad[:_MAX_IDS_IN_MESSAGE])
    more = f" (and {len(bad) - _MAX_IDS_IN_MESSAGE} more)" if len(bad) > _MAX_IDS_IN_MESSAGE else ""
    raise MigrationError(
        f"migration 20260512120000 refused: {len(bad)} legacy embedding(s) are not JSON arrays of "
        f"1536 numbers: {shown}{more}. Fix or delete those NoteEmbedding rows (a reindex after "
        "the migration regenerates them); nothing was changed."
    )


_PRECHECKS: dict[str, Callable[[psycopg.Connection], None]] = {
    "20260512120000": check_legacy_embeddings,
}


def _apply(conn: psycopg.Connection, migration: Migration, direction: str) -> bool:
    """Run one migration in one transaction; False if another process already did it."""
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            applied = {row[0] for row in conn.execute(sql.SQL("SELECT id FROM {}").format(_TABLE))}
            if (migration.id in applied) == (direction == "up"):
                return False
            if direction == "up":
                latest = max(applied, default="")
                if latest > migration.id:
                    raise MigrationError(
                        f"migration {migration.id} is older than the applied {latest}: "
                        "migrations must be applied in order"
                    )
                precheck = _PRECHECKS.get(migration.id)
                if precheck is not None:
                    precheck(conn)
                conn.execute(migration.up_sql)
                conn.execute(
                    sql.SQL("INSERT INTO {} (id, name) VALUES (%s, %s)").format(_TABLE),
                    (migration.id, migration.name),
                )
            else:
                conn.execute(migration.down_sql)
                conn.execute(
                    sql.SQL("DELETE FROM {} WHERE id = %s").format(_TABLE), (migration.id,)
                )
    except MigrationError:
        raise
    except psycopg.Error as exc:
        raise MigrationError(
            f"migration {migration.id}_{migration.name} ({direction}) failed and was rolled back: "
            f"{exc}"
        ) from exc
    return True


def _find(migration_id: str) -> Migration:
    for migration in available_migrations():
        if migration.id == migration_id:
            return migration
    known = ", ".join(m.id for m in available_migrations())
    raise MigrationError(f"unknown migration id {migration_id!r}; known ids: {known}")


def migrate(conn: psycopg.Connection, to: str | None = None) -> list[str]:
    """Bring the schema to migration ``to`` (default: the latest), up or down.

    Parameters
    ----------
    conn : psycopg.Connection
        An autocommit connection (each migration opens its own transaction).
    to : str, optional
        Target migration id. Older than the current version: the later migrations are undone,
        newest first.

    Returns
    -------
    list of str
        Ids applied (or undone, when moving down), in the order they ran. After applying
        migrations to a database that holds notes, the note tables are vacuumed and analysed
        (:func:`~workbench.notes.upkeep.settle_tables`): backfills leave them without statistics.

    Raises
    ------
    MigrationError
        Unknown id, a refused migration (bad legacy data) or a failing one; the failing
        migration's transaction is rolled back and the earlier ones stay applied.
    """
    _ensure_table(conn)
    target = _find(to) if to is not None else None
    done: list[str] = []
    applied = [m.id for m in applied_migrations(conn)]
    if target is not None and applied and applied[-1] > target.id:
        for mig_id in reversed(applied):
            if mig_id <= target.id:
                break
            if _apply(conn, _find(mig_id), "down"):
                done.append(mig_id)
        return done
    for migration in pending_migrations(conn):
        if target is not None and migration.id > target.id:
            break
        if _apply(conn, migration, "up"):
            done.append(migration.id)
    if done:
        _settle_after_backfill(conn)
    return done


def _settle_after_backfill(conn: psycopg.Connection) -> None:
    """Migrations may fill new columns and tables from the notes: settle them (upkeep)."""
    from workbench.notes.upkeep import settle_tables

    if (
        conn.execute("SELECT to_regclass('\"Note\"') IS NOT NULL").fetchone()[0]
        and (conn.execute('SELECT EXISTS (SELECT 1 FROM "Note")').fetchone()[0])
    ):
        settle_tables(conn, 0, force=True)


def rollback(conn: psycopg.Connection, steps: int = 1) -> list[str]:
    """Undo the latest ``steps`` applied migrations, newest first; returns their ids."""
    if steps < 1:
        raise MigrationError(f"steps must be at least 1, got {steps}")
    _ensure_table(conn)
    done: list[str] = []
    for applied in reversed(applied_migrations(conn)[-steps:]):
        if _apply(conn, _find(applied.id), "down"):
            done.append(applied.id)
    return done


def require_current_schema(conn: psycopg.Connection) -> None:
    """Raise unless every shipped migration is applied (for commands and readiness checks).

    Raises
    ------
    MigrationError
        Naming the pending migrations and the command that applies them.
    """
    pending = pending_migrations(conn)
    if pending:
        ids = ", ".join(m.id for m in pending)
        raise MigrationError(
            f"the note database is not migrated ({len(pending)} pending: {ids}); "
            "run 'workbench notes migrate'"
        )
