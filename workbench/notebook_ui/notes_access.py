"""How a widget reaches the note database: a URL, a pool or a connection factory, opened lazily.

The notes panel and the builder's run log share this. A widget takes a connection for each
action (``with access.connection() as conn: ...``) and gives it back, so nothing a notebook cell
does to its own connections can stop the widget. The pool a URL opens is small, checks each
connection on checkout, and is closed by :meth:`NotesAccess.close`; a pool or factory given to
it is left to its owner. The embedding provider is built on first use and kept (one model load
per widget).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from workbench.errors import NoteStoreError

__all__ = ["NotesAccess"]


class NotesAccess:
    """Database access and embedding provider of a notebook widget.

    Parameters
    ----------
    database : str, ConnectionPool, callable, NotesAccess or None
        A database URL; None for ``DATABASE_URL``, else the embedded server (started on
        demand); a ``psycopg_pool.ConnectionPool`` (not closed here); a callable returning a new
        connection (used as a context manager); or another ``NotesAccess`` to share.
    provider : EmbeddingProvider, optional
        Embedding provider (default: the configured one, built on first use).
    migrate : bool
        Bring the schema up to date when the first connection is taken.
    lazy : bool
        Open the pool (and start the embedded server) on the first action instead of now.
    timeout_s : float
        How long opening the pool waits for the database [s].

    Raises
    ------
    TypeError
        ``database`` is an open connection (a notebook cell could close it under the widget).
    NoteStoreError
        The database cannot be reached (when the pool opens), or the notes extra (psycopg) is
        not installed.
    """

    def __init__(
        self,
        database: Any = None,
        *,
        provider: Any = None,
        migrate: bool = True,
        lazy: bool = False,
        timeout_s: float = 30.0,
    ) -> None:
        try:
            import psycopg
        except ModuleNotFoundError as exc:
            raise NoteStoreError(
                "the note database needs the notes extra: pip install 'thermal-workbench[notes]'"
            ) from exc
        if isinstance(database, psycopg.Connection):
            raise TypeError(
                "a notebook widget needs a database URL, a connection pool or a connection "
                "factory, not an open connection: it takes a connection for each action, so "
                "closing yours cannot stop it"
            )
        self._database = database
        self._provider = provider
        self._migrate = migrate
        self._pool: Any = None
        self._owns_pool = False
        self._factory: Callable[[], contextlib.AbstractContextManager[Any]] | None = None
        self._migrated = False
        self._timeout_s = timeout_s
        if not lazy:
            self._open()

    def _open(self) -> Callable[[], contextlib.AbstractContextManager[Any]]:
        if self._factory is not None:
            return self._factory
        from psycopg_pool import ConnectionPool, PoolTimeout

        database = self._database
        if isinstance(database, NotesAccess):
            self._factory = database.connection
            self._migrated = True  # the shared access migrates its own
            if self._provider is None:
                self._provider = database.provider
        elif isinstance(database, ConnectionPool):
            self._pool = database
            self._factory = database.connection
        elif callable(database):
            self._factory = database
        else:
            from workbench.notes import create_pool, database_url

            url = database or database_url()
            try:
                self._pool = create_pool(
                    url,
                    min_size=1,
                    max_size=2,
                    check=ConnectionPool.check_connection,
                    timeout=self._timeout_s,
                )
            except PoolTimeout as exc:
                raise NoteStoreError(f"cannot connect to the note database {url!r}: {exc}") from exc
            self._owns_pool = True
            self._factory = self._pool.connection
        return self._factory

    @contextlib.contextmanager
    def connection(self) -> Iterator[Any]:
        """A connection for one job, given back after (the schema migrated on first use)."""
        with self._open()() as conn:
            if self._migrate and not self._migrated:
                from workbench.notes import migrate

                migrate(conn)
                self._migrated = True
            yield conn

    @property
    def provider(self) -> Any:
        """The embedding provider (built on first use, then kept)."""
        if self._provider is None:
            from workbench.notes.embeddings import get_provider

            self._provider = get_provider()
        return self._provider

    @property
    def pool(self) -> Any:
        """The pool in use (None for a connection factory or before the first action)."""
        return self._pool

    def close(self) -> None:
        """Close the pool this object opened (a pool or factory given to it is left alone)."""
        if self._owns_pool and self._pool is not None:
            self._pool.close()
