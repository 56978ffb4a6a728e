"""Writes in two steps: embed holding nothing, then a short transaction in the owner's slot.

A write (create, replace, import) first has its texts embedded by the background worker
(:class:`~.embedder.BackgroundEmbedder`, low CPU priority) and waits for them in the event loop,
holding no database slot, no pooled connection and no worker thread; only then does it take one
of the owner's database slots (:mod:`.fairness`), a connection and a thread for its transaction.
So a write waiting for its embeddings (seconds, while searches keep the CPU) never keeps a search
of the same owner, or of anyone, from the database. The store's contract is unchanged: a note and
its embedding are committed together, in one transaction, or not at all (nothing is written
before the vectors exist, so a process killed meanwhile leaves nothing half done).

The writes of one owner waiting for the embedder are bounded like its database requests
(``embed_slots``: as many as the owner's database slots, waiting up to
:data:`EMBED_WAIT_S`): one owner's writes queue behind each other, not in front of everyone else's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from typing import TypeVar

import numpy as np
import psycopg

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.service import timing
from workbench.notes.service.services import EMBED_WAIT_S, Services

__all__ = ["EMBED_WAIT_S", "PrecomputedProvider", "embed_for_write", "in_database"]

T = TypeVar("T")


class PrecomputedProvider(EmbeddingProvider):
    """Vectors embedded beforehand, by text; other texts go to ``fallback`` (at once).

    Parameters
    ----------
    vectors : dict of str to numpy.ndarray
        Native vectors of ``fallback``'s model by embedding text [-].
    fallback : EmbeddingProvider
        The provider that made them; embeds a text that is not among them.
    """

    def __init__(self, vectors: dict[str, np.ndarray], fallback: EmbeddingProvider) -> None:
        self.model_id = fallback.model_id
        self.dimension = fallback.dimension
        self.batch_size = fallback.batch_size
        self.vectors = vectors
        self.fallback = fallback
        self.missed = 0
        """Texts embedded by the fallback (changed between the two steps of a write) [-]."""

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self.vectors))
        if missing:
            self.missed += len(missing)
            self.vectors.update(zip(missing, self.fallback.embed(missing), strict=True))
        return np.stack([self.vectors[t] for t in texts])


async def embed_for_write(
    services: Services, owner: str, texts: Sequence[str]
) -> PrecomputedProvider:
    """Embed the texts of one write on the background worker, waiting in the event loop.

    Parameters
    ----------
    services : Services
        The running service (its background embedder and the owners' embedding slots).
    owner : str
        The writer: waits behind its own earlier writes beyond its share.
    texts : sequence of str
        Embedding texts (duplicates are embedded once).

    Returns
    -------
    PrecomputedProvider
        The vectors, for the store's functions (``provider=``).

    Raises
    ------
    ApiError
        503 ``busy`` when none of the owner's embedding slots came free in time.
    EmbeddingError
        The worker failed.
    """
    unique = list(dict.fromkeys(texts))
    vectors: dict[str, np.ndarray] = {}
    if unique:
        async with services.embed_slots.slot(owner):
            with timing.phase("embed_wait"):
                found = await services.writer.embed_async(unique)
        vectors = dict(zip(unique, found, strict=True))
    return PrecomputedProvider(vectors, services.writer)


async def in_database(services: Services, owner: str, work: Callable[[psycopg.Connection], T]) -> T:
    """Run ``work(conn)`` in a worker thread on a pooled connection, in one of the owner's slots.

    Raises
    ------
    ApiError
        503 ``busy`` when none of the owner's database slots came free in time.
    """

    def run() -> T:
        with timing.phase("db"), services.pool.connection() as conn:
            return work(conn)

    async with AsyncExitStack() as stack:
        with timing.phase("slot"):
            await stack.enter_async_context(services.slots.slot(owner))
        return await timing.in_thread(run)
