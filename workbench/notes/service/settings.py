"""Settings of the note service, read once from the environment.

=================================  ==============  ===============================================
variable                           default         meaning
=================================  ==============  ===============================================
``DATABASE_URL``                   unset           the PostgreSQL server; unset: the embedded one
``WORKBENCH_API_TOKENS``           unset           ``token:owner,token2:owner2`` (see ``auth``)
``WORKBENCH_ADMIN_TOKEN``          unset           the administrator's token
``WORKBENCH_TOKENS_FILE``          unset           a JSON tokens file (default
                                                   ``$WORKBENCH_HOME/tokens.json`` when present)
``WORKBENCH_DB_WAIT_S``            120             how long to wait for the database at start [s]
``WORKBENCH_DB_POOL_SIZE``         8               connections of the pool
``WORKBENCH_MIGRATE_ON_START``     1               apply pending migrations at start (0: only check)
``WORKBENCH_REINDEX_BATCH_SIZE``   64              notes per reindex batch and transaction
``WORKBENCH_MAX_BODY_BYTES``       16777216        largest request body [bytes] (16 MiB); larger
                                                   bodies answer 413 before they are read
``WORKBENCH_MAX_IMPORTS``          2               imports served at once; more answer 429 with
                                                   ``Retry-After`` (their body is not kept)
``WORKBENCH_OWNER_CONNECTIONS``    see below       requests of one owner using the database (and
                                                   embedding a query) at once, over every process
                                                   on the database; the others queue behind them
``WORKBENCH_OWNER_REQUESTS``       16              requests of one owner in flight in a process;
                                                   more answer 429 from the headers
``WORKBENCH_OWNER_IMPORTS``        1               imports of one owner at once (429 beyond)
``WORKBENCH_MAX_WRITES``           4               creates and replaces reading or parsing their
                                                   body at once (per owner: its connections)
``WORKBENCH_BODY_TIMEOUT_S``       30              a whole request body must arrive within this
                                                   [s]; a slower one answers 408 and is closed
``WORKBENCH_READY_INTERVAL_S``     1               ``/readyz`` asks the database at most once per
                                                   interval [s]; other calls answer the cached state
``WORKBENCH_OPEN_RATE``            50              requests without a token per second (health,
                                                   docs, 401s); more answer 429
``WORKBENCH_SEARCH_TIMEOUT_MS``    5000            statement timeout of a search [ms]; a longer
                                                   one answers 503 ``query_timeout``
``WORKBENCH_EMBED_WORKERS``        1               background embedding processes of writes
``WORKBENCH_EMBED_NICE``           10              their nice value (0: the searches' priority)
``WORKBENCH_EMBED_POLICY``         batch           their CPU scheduling: ``batch``, ``idle``
                                                   (only cores nobody else wants) or ``normal``
=================================  ==============  ===============================================
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from workbench.errors import NoteStoreError
from workbench.notes.db import check_database_url
from workbench.notes.search import SearchSettings

__all__ = ["DEFAULT_MAX_BODY_BYTES", "ServiceSettings"]

DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024
"""Largest request body by default [bytes]: an import of 10,000 notes of 1.5 kB fits."""


def _number(env: Mapping[str, str], name: str, default: float, *, minimum: float) -> float:
    raw = env.get(name, "")
    if raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise NoteStoreError(f"{name}={raw!r} is not a number") from exc
    if value < minimum:
        raise NoteStoreError(f"{name}={raw!r} must be at least {minimum:g}")
    return value


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise NoteStoreError(f"{name}={raw!r} must be 1/0, true/false, yes/no or on/off")


def _choice(env: Mapping[str, str], name: str, default: str, allowed: tuple[str, ...]) -> str:
    raw = env.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw not in allowed:
        raise NoteStoreError(f"{name}={raw!r} must be one of {', '.join(allowed)}")
    return raw


@dataclass(frozen=True)
class ServiceSettings:
    """What the HTTP API and the tool server need to start.

    Attributes
    ----------
    database_url : str or None
        libpq URL; None: ``DATABASE_URL`` or the embedded server, resolved at start.
    db_wait_s : float
        How long to wait for the database before giving up [s].
    pool_size : int
        Maximum connections of the pool [connections].
    migrate_on_start : bool
        Apply pending migrations at start (False: readiness reports them as pending).
    reindex_batch_size : int
        Notes per reindex batch (one transaction each).
    max_body_bytes : int
        Largest request body [bytes]; a larger one answers 413 before it is read.
    max_imports : int
        Imports served at the same time; more answer 429 (their body is not kept).
    owner_connections : int or None
        Requests of one owner that use the database at once (None: a quarter of the pool, and
        at most half the CPU cores, at
        least 1).
    search_timeout_ms : int
        Statement timeout of one search [ms] (0: none).
    embed_workers : int
        Background embedding worker processes for the texts of writes.
    embed_nice : int
        Nice value of those workers (0 to 19; 0 gives writes the searches' priority).
    embed_policy : str
        Their scheduling policy: ``batch``, ``idle`` or ``normal`` (:mod:`.embedder`).
    owner_requests : int
        Requests of one owner in flight in one process; more answer 429 from the headers.
    owner_imports : int
        Imports of one owner at once (the global cap is ``max_imports``).
    max_writes : int
        Creates and replaces reading or parsing their body at once, in one process.
    body_timeout_s : float
        Longest time a request body may take to arrive [s]; slower ones answer 408.
    ready_interval_s : float
        Shortest interval between two database checks of ``/readyz`` [s].
    open_rate : float
        Requests without a token accepted per second, in one process [1/s].
    busy_share : float
        Part of the time an owner over its share may hold its database slot while another
        owner within its share is being served (0 < x <= 1; 1: never paced; :mod:`.presence`).
    search : SearchSettings
        Search tuning of every request (default: the library's defaults).
    """

    database_url: str | None = None
    db_wait_s: float = 120.0
    pool_size: int = 8
    migrate_on_start: bool = True
    reindex_batch_size: int = 64
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_imports: int = 2
    owner_connections: int | None = None
    search_timeout_ms: int = 5000
    embed_workers: int = 1
    embed_nice: int = 10
    embed_policy: str = "batch"
    owner_requests: int = 16
    owner_imports: int = 1
    max_writes: int = 4
    body_timeout_s: float = 30.0
    ready_interval_s: float = 1.0
    open_rate: float = 50.0
    busy_share: float = 0.25
    search: SearchSettings = field(default_factory=SearchSettings)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServiceSettings:
        """Read the settings from the environment.

        Raises
        ------
        NoteStoreError
            A malformed value, naming the variable.
        """
        env = os.environ if env is None else env
        return cls(
            database_url=check_database_url(env["DATABASE_URL"])
            if env.get("DATABASE_URL")
            else None,
            db_wait_s=_number(env, "WORKBENCH_DB_WAIT_S", 120.0, minimum=0.0),
            pool_size=int(_number(env, "WORKBENCH_DB_POOL_SIZE", 8, minimum=2)),
            migrate_on_start=_flag(env, "WORKBENCH_MIGRATE_ON_START", True),
            reindex_batch_size=int(_number(env, "WORKBENCH_REINDEX_BATCH_SIZE", 64, minimum=1)),
            max_body_bytes=int(
                _number(env, "WORKBENCH_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES, minimum=1024)
            ),
            max_imports=int(_number(env, "WORKBENCH_MAX_IMPORTS", 2, minimum=1)),
            owner_connections=(
                int(_number(env, "WORKBENCH_OWNER_CONNECTIONS", 0, minimum=1))
                if env.get("WORKBENCH_OWNER_CONNECTIONS", "").strip()
                else None
            ),
            search_timeout_ms=int(_number(env, "WORKBENCH_SEARCH_TIMEOUT_MS", 5000, minimum=0)),
            embed_workers=int(_number(env, "WORKBENCH_EMBED_WORKERS", 1, minimum=1)),
            embed_nice=min(19, int(_number(env, "WORKBENCH_EMBED_NICE", 10, minimum=0))),
            embed_policy=_choice(
                env, "WORKBENCH_EMBED_POLICY", "batch", ("batch", "idle", "normal")
            ),
            owner_requests=int(_number(env, "WORKBENCH_OWNER_REQUESTS", 16, minimum=1)),
            owner_imports=int(_number(env, "WORKBENCH_OWNER_IMPORTS", 1, minimum=1)),
            max_writes=int(_number(env, "WORKBENCH_MAX_WRITES", 4, minimum=1)),
            body_timeout_s=_number(env, "WORKBENCH_BODY_TIMEOUT_S", 30.0, minimum=0.1),
            ready_interval_s=_number(env, "WORKBENCH_READY_INTERVAL_S", 1.0, minimum=0.0),
            open_rate=_number(env, "WORKBENCH_OPEN_RATE", 50.0, minimum=1.0),
            busy_share=min(1.0, _number(env, "WORKBENCH_BUSY_SHARE", 0.25, minimum=0.01)),
        )

    @property
    def per_owner_connections(self) -> int:
        """Requests of one owner that use the database (and embed a query) at once [-].

        Default: a quarter of the pool and at most half the CPU cores, at least 1. A search's
        cost is CPU (its query's embedding and its statement); an owner whose share is every
        core leaves another owner's searches waiting for a core (on 2 cores, with 2 slots, the
        other owner's p95 rose 3.1x beside heavy searches; with 1 slot, see docs/service.md).
        """
        if self.owner_connections:
            return self.owner_connections
        return max(1, min(self.pool_size // 4, (os.cpu_count() or 2) // 2))

    def with_(self, **changes: object) -> ServiceSettings:
        """A copy with some fields changed."""
        return replace(self, **changes)
