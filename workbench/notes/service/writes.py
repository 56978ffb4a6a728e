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

import hashlib
from collections.abc import Callable, Iterable
from contextlib import AsyncExitStack
from typing import TypeVar

import numpy as np
import psycopg

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.service import timing
from workbench.notes.service.services import EMBED_WAIT_S, Services

__all__ = ["EMBED_WAIT_S", "PrecomputedProvider", "embed_for_write", "in_database", "text_key"]

T = TypeVar("T")


def text_key(text: str) -> bytes:
    """The key of an embedding text among precomputed vectors: its SHA-256 digest (32 bytes)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class PrecomputedProvider(EmbeddingProvider):
    """Vectors embedded beforehand, by text; other texts go to ``fallback`` (at once).

    The vectors are kept by the digest of their text (:func:`text_key`), not by the text: an
    import of 10,000 long notes keeps 32 bytes per note besides its vector, not a copy of its
    text.

    Parameters
    ----------
    vectors : dict of bytes to numpy.ndarray
        Native vectors of ``fallback``'s model by :func:`text_key` of their text [-].
    fallback : EmbeddingProvider
        The provider that made them; embeds a text that is not among them.
    """

    def __init__(self, vectors: dict[bytes, np.ndarray], fallback: EmbeddingProvider) -> None:
        self.model_id = fallback.model_id
        self.dimension = fallback.dimension
        self.batch_size = fallback.batch_size
        self.vectors = vectors
        self.fallback = fallback
        self.missed = 0
        """Texts embedded by the fallback (changed between the two steps of a write) [-]."""

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        keys = [text_key(t) for t in texts]
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in self.vectors}
        if missing:
            self.missed += len(missing)
            fresh = self.fallback.embed(list(missing.values()))
            self.vectors.update(zip(missing, fresh, strict=True))
        return np.stack([self.vectors[k] for k in keys])


async def embed_for_write(
    services: Services, owner: str, texts: Iterable[str]
) -> PrecomputedProvider:
    """Embed the texts of one write on the background worker, waiting in the event loop.

    The texts are taken from ``texts`` a few batches at a time (a generator never has them all
    at once); each text is embedded once.

    Parameters
    ----------
    services : Services
        The running service (its background embedder and the owners' embedding slots).
    owner : str
        The writer: waits behind its own earlier writes beyond its share.
    texts : iterable of str
        Embedding texts (:func:`~workbench.notes.embeddings.embedding_text`).

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
    vectors: dict[bytes, np.ndarray] = {}
    step = max(1, services.writer.batch_size) * 4
    chunk: dict[bytes, str] = {}

    async def flush() -> None:
        found = await services.writer.embed_async(list(chunk.values()))
        vectors.update(zip(chunk, found, strict=True))
        chunk.clear()

    async with AsyncExitStack() as stack:
        holding = False
        for text in texts:
            key = text_key(text)
            if key in vectors or key in chunk:
                continue
            if not holding:  # one of the owner's embedding slots, from its first text on
                await stack.enter_async_context(services.embed_slots.slot(owner))
                holding = True
            chunk[key] = text
            if len(chunk) >= step:
                with timing.phase("embed_wait"):
                    await flush()
        if chunk:
            with timing.phase("embed_wait"):
                await flush()
    return PrecomputedProvider(vectors, services.writer)


async def in_database(services: Services, owner: str, work: Callable[[psycopg.Connection], T]) -> T:
    """Run ``work(conn)`` in a worker thread on a pooled connection, in one of the owner's slots.

    Raises
    ------
    ApiError
        503 ``busy`` when none of the owner's database slots came free in time.
    """

    def run() -> T:
        with (
            timing.phase("db"),
            services.pool.connection() as conn,
            services.budget.hold(conn, owner),
        ):
            return work(conn)

    async with AsyncExitStack() as stack:
        with timing.phase("slot"):
            await stack.enter_async_context(services.slots.slot(owner))
        return await timing.in_thread(run)
