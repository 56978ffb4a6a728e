"""What a running service holds: settings, tokens, the connection pool, reindex jobs.

Both servers (the HTTP API and the MCP tool server) build one :class:`Services` with
:func:`start_services` before they serve, and close it when they stop.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

import psycopg

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.search import MAX_QUERY_CHARS, SearchHit, SearchMode, search
from workbench.notes.service.auth import LoadedTokens, TokenRegistry, load_tokens
from workbench.notes.service.embedder import BackgroundEmbedder
from workbench.notes.service.errors import ApiError
from workbench.notes.service.fairness import OwnerSlots
from workbench.notes.service.jobs import ReindexJobs
from workbench.notes.service.memory import limit_heap_growth
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.startup import describe_url, open_database
from workbench.notes.text import text_problem

__all__ = ["MAX_RESULTS", "Services", "query_problem", "run_search", "start_services"]

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
        low-priority worker threads (:mod:`.embedder`).
    slots : OwnerSlots
        Each owner's share of the database (:mod:`.fairness`).
    """

    settings: ServiceSettings
    tokens: TokenRegistry
    pool: object
    jobs: ReindexJobs
    url: str
    provider: EmbeddingProvider
    writer: BackgroundEmbedder
    slots: OwnerSlots
    closed: bool = field(default=False)

    def close(self) -> None:
        """Stop a running reindex after its batch and close the pool."""
        if self.closed:
            return
        self.closed = True
        self.jobs.shutdown()
        self.writer.close()
        self.pool.close()
        close = getattr(self.provider, "close", None)  # HTTP providers hold a connection pool
        if close is not None:
            close()


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
    from workbench.notes.embeddings import provider_from_env

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
    try:
        provider = provider or provider_from_env()
        if warm_up:
            provider.embed_one("warm up")
    except BaseException:
        pool.close()
        raise
    _log.info("note database %s ready; %d API tokens", describe_url(url), len(registry))
    limit_heap_growth()
    writer = BackgroundEmbedder(provider, workers=settings.embed_workers, nice=settings.embed_nice)
    jobs = ReindexJobs(pool, writer, batch_size=settings.reindex_batch_size)
    return Services(
        settings=settings,
        tokens=registry,
        pool=pool,
        jobs=jobs,
        url=url,
        provider=provider,
        writer=writer,
        slots=OwnerSlots(settings.per_owner_connections),
    )


def run_search(
    services: Services, query: str, *, owner: str, limit: int, mode: SearchMode = "hybrid"
) -> tuple[list[SearchHit], float]:
    """Search on a pooled connection; returns the hits and the time taken [ms].

    The statement runs under the service's statement timeout (``WORKBENCH_SEARCH_TIMEOUT_MS``).

    Raises
    ------
    ApiError
        503 ``query_timeout`` when the statement ran longer than the timeout (cancelled).
    """
    start = time.perf_counter()
    timeout_ms = services.settings.search_timeout_ms
    settings = services.settings.search.with_(statement_timeout_ms=timeout_ms)
    try:
        with services.pool.connection() as conn:
            hits = search(
                conn,
                query,
                owner=owner,
                limit=limit,
                mode=mode,
                provider=services.provider,
                settings=settings,
            )
    except psycopg.errors.QueryCanceled as exc:
        raise ApiError(
            503,
            "query_timeout",
            f"the search ran longer than {timeout_ms} ms (WORKBENCH_SEARCH_TIMEOUT_MS) and was "
            "cancelled; ask for fewer results (limit) or use more specific words",
            headers={"Retry-After": "5"},
        ) from exc
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
