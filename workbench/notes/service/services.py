"""What a running service holds: settings, tokens, the connection pool, reindex jobs.

Both servers (the HTTP API and the MCP tool server) build one :class:`Services` with
:func:`start_services` before they serve, and close it when they stop.
"""

from __future__ import annotations

import logging
import os
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import psycopg

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.search import MAX_QUERY_CHARS, SearchHit, SearchMode, search
from workbench.notes.service import timing
from workbench.notes.service.auth import LoadedTokens, TokenRegistry, load_tokens
from workbench.notes.service.embedder import BackgroundEmbedder
from workbench.notes.service.errors import ApiError
from workbench.notes.service.fairness import OwnerSlots, SharedBudget
from workbench.notes.service.import_pacing import PRESENCE_CHECK_S, ImportPacing
from workbench.notes.service.jobs import ReindexJobs
from workbench.notes.service.lanes import open_low_pool
from workbench.notes.service.memory import limit_heap_growth
from workbench.notes.service.presence import Presence
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.startup import describe_url, open_database
from workbench.notes.text import text_problem

__all__ = [
    "EMBED_WAIT_S",
    "MAX_RESULTS",
    "Services",
    "embed_query",
    "query_problem",
    "query_provider",
    "run_search",
    "search_as",
    "start_services",
]

EMBED_WAIT_S = 60.0
"""Longest wait of a write for one of its owner's embedding slots [s] (then 503 ``busy``)."""

MAX_RESULTS = 100
"""Most results one search returns through the API or the tool."""

_log = logging.getLogger("workbench.notes.service")


@dataclass
class Services:
    """The shared state of a running server.

    Attributes
    ----------
    settings : ServiceSettings
    tokens : TokenRegistry
    pool : psycopg_pool.ConnectionPool
    jobs : ReindexJobs
    url : str
        The database URL in use.
    provider : EmbeddingProvider
        The embedding provider the server owns; searches embed their query with it.
    writer : BackgroundEmbedder
        Embeds the texts of writes (create, replace, import, reindex) in bounded batches on
        a low-priority worker process (:mod:`.embedder`).
    slots : OwnerSlots
        Each owner's share of the database (:mod:`.fairness`).
    embed_slots : OwnerSlots
        Each owner's writes waiting for the background embedder (:mod:`.writes`).
    budget : SharedBudget
        Each owner's database slots over every process on the database (:mod:`.fairness`).
    low_pool : psycopg_pool.ConnectionPool or None
        Connections whose server processes run at a lower CPU priority, for the statements of
        an owner over its share (:mod:`.lanes`); None when the database is not a local server.
    presence : Presence or None
        Owners within their share served lately, over every process; paces an owner over its
        share beside them (:mod:`.presence`). None: never paced.
    imports : ImportPacing or None
        Each owner's ``not_before`` of its next import while another owner is present
        (:mod:`.import_pacing`). None: imports are never paced.
    """

    settings: ServiceSettings
    tokens: TokenRegistry
    pool: object
    jobs: ReindexJobs
    url: str
    provider: EmbeddingProvider
    writer: BackgroundEmbedder
    slots: OwnerSlots
    embed_slots: OwnerSlots
    budget: SharedBudget
    low_pool: object | None = None
    presence: Presence | None = None
    imports: ImportPacing | None = None
    closed: bool = field(default=False)

    def close(self) -> None:
        """Stop a running reindex after its batch and close the pool."""
        if self.closed:
            return
        self.closed = True
        self.jobs.shutdown()
        if self.presence is not None:
            self.presence.close()
        self.writer.close()
        self.pool.close()
        if self.low_pool is not None:
            self.low_pool.close()
        close = getattr(self.provider, "close", None)  # HTTP providers hold a connection pool
        if close is not None:
            close()


def query_provider() -> EmbeddingProvider:
    """The provider searches embed their query with, from the environment.

    The local model runs each query on the request's own thread (one onnxruntime thread, no
    spinning; ``WORKBENCH_EMBEDDING_THREADS`` overrides): concurrent searches are the
    parallelism, and idle onnxruntime threads spinning for work would take the cores from the
    database between two queries. Measured on 2 cores, 8 threads embedding code words at once:
    16.7 ms median and 425 queries/s, against 19.8 ms and 376/s with two spinning threads.
    """
    from workbench.notes.embeddings import provider_from_env

    kind = os.environ.get("WORKBENCH_EMBEDDING_PROVIDER", "local").strip().lower() or "local"
    if kind != "local" or os.environ.get("WORKBENCH_EMBEDDING_THREADS", "").strip():
        return provider_from_env()
    from workbench.notes.embeddings.local import LocalMiniLMProvider

    return LocalMiniLMProvider(threads=1, allow_spinning=False)


def start_services(
    settings: ServiceSettings | None = None,
    tokens: TokenRegistry | LoadedTokens | None = None,
    *,
    provider: EmbeddingProvider | None = None,
    warm_up: bool = True,
) -> Services:
    """Resolve the database, wait for it, migrate, open the pool and load the tokens.

    Parameters
    ----------
    settings : ServiceSettings, optional
        Default :meth:`ServiceSettings.from_env`.
    tokens : TokenRegistry or LoadedTokens, optional
        Default :func:`~workbench.notes.service.auth.load_tokens` with ``create=True`` (the
        created token is logged once).
    provider : EmbeddingProvider, optional
        Default: built from the environment (``WORKBENCH_EMBEDDING_*``), once, for this server.
    warm_up : bool
        Load the embedding model now rather than on the first search.

    Raises
    ------
    NoteStoreError
        The database did not come up in time, a migration failed, or bad token settings.
    """
    from workbench.notes.db import database_url

    settings = settings or ServiceSettings.from_env()
    if tokens is None:
        tokens = load_tokens(create=True)
        if tokens.created_token:
            _log.warning(
                "created the API token %s (owner 'local', admin) in %s",
                tokens.created_token,
                tokens.created_file,
            )
    registry = tokens.registry if isinstance(tokens, LoadedTokens) else tokens
    url = settings.database_url or database_url(start=True)
    pool = open_database(
        url,
        timeout_s=settings.db_wait_s,
        migrate=settings.migrate_on_start,
        pool_size=settings.pool_size,
    )
    low_pool = None
    try:
        low_pool = open_low_pool(url)
        provider = provider or query_provider()
        if warm_up:
            provider.embed_one("warm up")
    except BaseException:
        pool.close()
        if low_pool is not None:
            low_pool.close()
        raise
    _log.info("note database %s ready; %d API tokens", describe_url(url), len(registry))
    limit_heap_growth()
    writer = BackgroundEmbedder(
        provider,
        workers=settings.embed_workers,
        nice=settings.embed_nice,
        policy=settings.embed_policy,
    )
    if warm_up:
        writer.start()
    jobs = ReindexJobs(pool, writer, batch_size=settings.reindex_batch_size)
    presence = Presence(url, settings.busy_share)
    presence.start()
    return Services(
        settings=settings,
        tokens=registry,
        pool=pool,
        jobs=jobs,
        url=url,
        provider=provider,
        writer=writer,
        slots=OwnerSlots(settings.per_owner_connections),
        embed_slots=OwnerSlots(settings.per_owner_connections, wait_s=EMBED_WAIT_S),
        budget=SharedBudget(settings.per_owner_connections),
        low_pool=low_pool,
        presence=presence,
        imports=ImportPacing(presence, partial(pool.connection, timeout=PRESENCE_CHECK_S)),
    )


def embed_query(
    services: Services, query: str, mode: SearchMode = "hybrid", *, low: bool = False
) -> np.ndarray | None:
    """The query's embedding (None in keyword mode) [-].

    With ``low`` (an owner over its share) the query is embedded by the background embedding
    worker (:mod:`.embedder`: a process at a lower CPU priority, shared with the writes), phase
    ``embed_low``; else on the calling thread with the service's provider, phase ``embed``.
    """
    if mode == "keyword" or not query.strip():
        return None
    if low:
        with timing.phase("embed_low"):
            return services.writer.embed_one(query.strip())
    with timing.phase("embed"):
        return services.provider.embed_one(query.strip())


def run_search(
    services: Services,
    query: str,
    *,
    owner: str,
    limit: int,
    mode: SearchMode = "hybrid",
    query_vector: np.ndarray | None = None,
    low: bool = False,
) -> list[SearchHit]:
    """One search, blocking: a pooled connection, one of the owner's slots, embedding, statement.

    The owner's slot (:class:`~.fairness.SharedBudget`, an advisory lock on the connection) is
    held while the query is embedded and while the statement runs, so one owner's searches over
    every process on the database embed and query at most ``WORKBENCH_OWNER_CONNECTIONS`` at a
    time. The statement runs under the service's statement timeout
    (``WORKBENCH_SEARCH_TIMEOUT_MS``). ``query_vector`` is the query's embedding (made here, in
    the slot, when None); ``low`` (an owner over its share): embed it at a lower CPU priority
    (:func:`embed_query`) and run the statement on a session of the low pool (:mod:`.lanes`).
    An owner that had to wait for its slot over every process (its requests on another server
    held them) is over its share too, and embeds at the lower priority. An owner over its share
    keeps its slot for a pause after its work while another owner within its share is being
    served (:mod:`.presence`); an owner within its share is stamped present.

    Raises
    ------
    ApiError
        503 ``busy`` (no slot of the owner in time) or ``query_timeout``.
    """
    timeout_ms = services.settings.search_timeout_ms
    settings = services.settings.search.with_(statement_timeout_ms=timeout_ms)
    try:
        asked = time.perf_counter()
        pool = services.low_pool if low and services.low_pool is not None else services.pool
        with pool.connection() as conn:
            got = time.perf_counter()
            timing.add("pool", (got - asked) * 1e3)
            with services.budget.hold(conn, owner) as waited:
                begun = time.perf_counter()
                timing.add("budget", (begun - got) * 1e3)
                over = low or waited  # more of the owner's requests than its slots, anywhere
                presence = services.presence
                if presence is not None and not over:
                    presence.seen(owner)
                if query_vector is None:
                    query_vector = embed_query(services, query, mode, low=over)
                with timing.phase("sql"):
                    hits = search(
                        conn,
                        query,
                        owner=owner,
                        limit=limit,
                        mode=mode,
                        provider=services.provider,
                        settings=settings,
                        query_vector=query_vector,
                    )
                if over and presence is not None:
                    presence.pace(conn, owner, time.perf_counter() - begun)
                return hits
    except psycopg.errors.QueryCanceled as exc:
        raise ApiError(
            503,
            "query_timeout",
            f"the search ran longer than {timeout_ms} ms (WORKBENCH_SEARCH_TIMEOUT_MS) and was "
            "cancelled; ask for fewer results (limit) or use more specific words",
            headers={"Retry-After": "5"},
        ) from exc


async def search_as(
    services: Services, query: str, *, owner: str, limit: int, mode: SearchMode = "hybrid"
) -> tuple[list[SearchHit], float]:
    """Search ``owner``'s notes: the hits and the time taken [ms], from the event loop.

    One of the owner's slots of this process is taken in the event loop (:mod:`.fairness`),
    then one worker thread does the rest (:func:`run_search`: connection, the owner's slot over
    every process, query embedding, statement), one hand-over to a thread in all. An owner over
    its share (:meth:`~.fairness.OwnerSlots.over_share`: more of its requests wait than it has
    slots) has its query embedded at a lower CPU priority. The time taken counts the waits too.

    Raises
    ------
    ApiError
        503 ``busy`` (no slot of the owner in time) or ``query_timeout``.
    """
    start = time.perf_counter()
    async with AsyncExitStack() as stack:
        with timing.phase("slot"):
            await stack.enter_async_context(services.slots.slot(owner))
        low = services.slots.over_share(owner)
        hits = await timing.in_thread(
            partial(run_search, services, query, owner=owner, limit=limit, mode=mode, low=low)
        )
    return hits, (time.perf_counter() - start) * 1e3


def query_problem(query: str | None, name: str = "q") -> str | None:
    """Why a search query is refused, or None.

    Refused: missing, blank, over 1,000 characters, a NUL character or a lone surrogate.
    """
    if query is None:
        return f"{name} is required"
    if not query.strip():
        return f"{name} is empty; give the words to search for"
    problem = text_problem(query, name)
    if problem:
        return problem
    if len(query) > MAX_QUERY_CHARS:
        return f"{name} has {len(query)} characters; at most {MAX_QUERY_CHARS} are allowed"
    return None
