"""A fair share of the database per owner: each owner's requests queue behind each other.

The connection pool (``WORKBENCH_DB_POOL_SIZE``, 8) is shared by every caller. Without a rule,
one owner sending ten slow searches at once takes every connection and the next owner waits for
the pool (and times out). :class:`OwnerSlots` gives each owner at most ``per_owner`` requests
that hold or wait for a connection at a time (``WORKBENCH_OWNER_CONNECTIONS``, default a quarter
of the pool); the owner's further requests wait in the event loop, holding neither a connection
nor a worker thread, until one of the owner's own requests finishes. Other owners pass by. A
request that waits longer than ``wait_s`` answers 503 ``busy`` with ``Retry-After``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio

from workbench.notes.service.errors import ApiError

__all__ = ["OwnerSlots"]


class OwnerSlots:
    """At most ``per_owner`` requests of one owner use the database at once.

    Parameters
    ----------
    per_owner : int
        Requests of one owner that run at the same time [-].
    wait_s : float
        Longest wait for a slot before 503 ``busy`` [s].
    """

    def __init__(self, per_owner: int, wait_s: float = 10.0) -> None:
        self.per_owner = per_owner
        self.wait_s = wait_s
        self._slots: dict[str, anyio.Semaphore] = {}

    @asynccontextmanager
    async def slot(self, owner: str) -> AsyncIterator[None]:
        """Hold one of ``owner``'s slots (wait in the event loop for it).

        Raises
        ------
        ApiError
            503 ``busy`` when no slot of the owner came free within ``wait_s``.
        """
        sem = self._slots.get(owner)
        if sem is None:  # the event loop is single-threaded: no lock needed
            sem = self._slots[owner] = anyio.Semaphore(self.per_owner)
        try:
            with anyio.fail_after(self.wait_s):
                await sem.acquire()
        except TimeoutError:
            raise ApiError(
                503,
                "busy",
                f"owner {owner!r} already has {self.per_owner} requests running and waited "
                f"{self.wait_s:.0f} s for one of them to finish; send fewer requests at once",
                headers={"Retry-After": "2"},
            ) from None
        try:
            yield
        finally:
            sem.release()

    def running(self, owner: str) -> int:
        """Requests of ``owner`` holding a slot now [-]."""
        sem = self._slots.get(owner)
        return 0 if sem is None else self.per_owner - sem.value
