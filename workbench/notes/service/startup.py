"""Start order: wait for the database (retry with backoff), migrate, open the pool.

The HTTP API and the tool server call :func:`open_database` before they serve: while the
database is unreachable it logs one line (``waiting for the note database at ...``), retries
with exponential backoff and logs a second line when the database answers. This gives the same
order as docker-compose's ``depends_on: condition: service_healthy`` without Docker.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from psycopg.conninfo import conninfo_to_dict

from workbench.errors import NoteStoreError

__all__ = ["RECHECK_AFTER_S", "Backoff", "describe_url", "open_database", "wait_for_database"]

_log = logging.getLogger("workbench.notes.service")


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff between connection attempts.

    Attributes
    ----------
    initial_s : float
        First delay [s].
    factor : float
        Growth per attempt [-].
    max_s : float
        Longest delay [s].
    """

    initial_s: float = 0.25
    factor: float = 2.0
    max_s: float = 5.0

    def delay(self, attempt: int) -> float:
        """Delay after failed attempt ``attempt`` (1-based) [s]."""
        return min(self.max_s, self.initial_s * self.factor ** (attempt - 1))


def describe_url(url: str) -> str:
    """``host:port/dbname`` of a libpq URL, without the user or password (for logs)."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "<unparsable DATABASE_URL>"
    host = parts.get("host") or "localhost"
    port = parts.get("port") or "5432"
    return f"{host}:{port}/{parts.get('dbname') or parts.get('user') or ''}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def wait_for_database(
    url: str,
    *,
    timeout_s: float = 120.0,
    backoff: Backoff = Backoff(),
    sleep: Callable[[float], None] = time.sleep,
    logger: logging.Logger = _log,
) -> float:
    """Block until ``SELECT 1`` succeeds on ``url``.

    Parameters
    ----------
    url : str
        libpq URL or conninfo string.
    timeout_s : float
        Give up after this long [s].
    backoff : Backoff
        Delays between attempts.

    Returns
    -------
    float
        Time spent waiting [s] (0 when the first attempt succeeded).

    Raises
    ------
    NoteStoreError
        The database did not answer within ``timeout_s``; names the server and the last error.
    """
    start = time.monotonic()
    attempt = 0
    where = describe_url(url)
    while True:
        attempt += 1
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
                conn.execute("SELECT 1")
        except psycopg.OperationalError as exc:
            waited = time.monotonic() - start
            if attempt == 1:
                logger.warning(
                    "waiting for the note database at %s (%s); retrying with backoff for up to %.0f s",
                    where,
                    _first_line(exc),
                    timeout_s,
                )
            if waited >= timeout_s:
                raise NoteStoreError(
                    f"the note database at {where} did not answer within {timeout_s:.0f} s "
                    f"({attempt} attempts): {_first_line(exc)}"
                ) from exc
            sleep(min(backoff.delay(attempt), max(0.0, timeout_s - waited)))
            continue
        waited = time.monotonic() - start
        if attempt > 1:
            logger.info("the note database at %s is up after %.1f s", where, waited)
        return waited


def open_database(
    url: str,
    *,
    timeout_s: float = 120.0,
    migrate: bool = True,
    pool_size: int = 8,
    name: str = "workbench-notes",
):
    """Wait for the database, migrate (or check the schema) and open a connection pool.

    Parameters
    ----------
    url : str
        The database.
    timeout_s : float
        How long to wait for it [s].
    migrate : bool
        Apply pending migrations; False only logs that some are pending (readiness then fails).
    pool_size : int
        Maximum connections [connections].

    Returns
    -------
    psycopg_pool.ConnectionPool
        Open, with autocommit connections checked before use when idle for
        :data:`RECHECK_AFTER_S` or more.

    Raises
    ------
    NoteStoreError, MigrationError
        The database never answered, or a migration failed.
    """
    from psycopg_pool import ConnectionPool

    from workbench.notes.db import create_pool
    from workbench.notes.migrations import migrate as run_migrations
    from workbench.notes.migrations import pending_migrations

    wait_for_database(url, timeout_s=timeout_s)
    with psycopg.connect(url, autocommit=True) as conn:
        if migrate:
            applied = run_migrations(conn)
            if applied:
                _log.info("applied migrations %s", ", ".join(applied))
        else:
            pending = pending_migrations(conn)
            if pending:
                _log.warning(
                    "%d migrations pending (%s): run 'workbench notes migrate'",
                    len(pending),
                    ", ".join(m.id for m in pending),
                )

    def check_if_idle(conn: psycopg.Connection) -> None:
        """Ping a connection idle for :data:`RECHECK_AFTER_S` or more (raise when it is dead)."""
        returned = getattr(conn, "_workbench_returned", None)
        recent = returned is not None and time.monotonic() - returned < RECHECK_AFTER_S
        if recent and not (conn.closed or conn.broken):
            return
        ConnectionPool.check_connection(conn)

    def note_return(conn: psycopg.Connection) -> None:
        conn._workbench_returned = time.monotonic()  # type: ignore[attr-defined]

    return create_pool(
        url,
        min_size=1,
        max_size=pool_size,
        name=name,
        check=check_if_idle,
        reset=note_return,
        timeout=10.0,
    )


RECHECK_AFTER_S = 1.0
"""A pooled connection idle this long is pinged before it is handed out [s]; one returned more
recently was working a moment ago, and a ping would cost every request of a busy server a round
trip to the database."""
