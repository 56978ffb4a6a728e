"""An owner's imports are paced while another owner within its share is present.

Why: an import is read, parsed and checked whole (a 16 MiB body takes the event loop's reading,
the parser thread and the memory bound) before its answer, even when the answer is 422. One
owner sending junk imports with its own valid token, one after the other, took the cores from
another owner's searches (p95 3.07x, ``bench_service_load --hostile --attack junk``). Holding
the owner's import slot for a pause after its import was tried and reverted: imports are not
queued, they answer 429 ``too_many_imports`` when the owner's slot is busy, so an owner
retrying at once after a 422 was refused.

What: :class:`ImportPacing` keeps, per owner, a time before which its next import is not
admitted (``not_before``). When an import of the owner ends after its body was read (any
answer: 2xx, or 4xx after the body was checked) and another owner within its share is present
(:mod:`.presence`, over every process on the database: the same rule as the searches),
``not_before = end + work * (1 / share - 1)`` (``WORKBENCH_BUSY_SHARE``), at most
:data:`~.presence.MAX_PAUSE_S`, where ``work`` is the import's server time from its admission to
its answer. The gate (:mod:`.gate`) makes the owner's next import wait, in the event loop before
it takes an import slot and before its body is read (its body deadline has not begun), until
``not_before``; then the normal slot logic follows. So the owner's imports keep the server busy
at most ``share`` of the time while another owner is served; alone, nobody waits, and an owner
retrying at once after a 422 is admitted; beside another owner it is delayed, not refused. A
waiting import holds its socket and one of the owner's requests in flight
(``WORKBENCH_OWNER_REQUESTS``, which bounds how many wait), nothing else.

``not_before`` is kept in each process: only the HTTP API has an import route (the tool server
has none), and each API process paces the imports it served. Several API processes behind one
balancer would each pace their own share of an owner's imports.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager

import anyio
import psycopg

from workbench.notes.service.presence import Presence

__all__ = ["PRESENCE_CHECK_S", "ImportPacing"]

PRESENCE_CHECK_S = 0.5
"""Longest wait for a pooled connection to see the owners present in other processes [s]; the
check runs before an import's answer ends, and without a connection in time only this
process's presence counts."""


class ImportPacing:
    """Each owner's ``not_before`` for its next import (touched by the event loop only).

    Parameters
    ----------
    presence : Presence
        Who is present (:mod:`.presence`); its ``share`` and pause rule are used.
    connection : callable or None
        ``connection()``: a context manager giving a database session, to see the owners
        present in other processes (it should give up after :data:`PRESENCE_CHECK_S`, raising
        a :class:`psycopg.Error`); None: this process only.
    clock : callable
        Monotonic clock of ``not_before`` [s] (tests give their own). The work of an import is
        measured with :func:`time.perf_counter`.

    Attributes
    ----------
    sleep : callable
        ``await sleep(seconds)``: how a paced import waits (tests record instead).
    """

    def __init__(
        self,
        presence: Presence,
        connection: Callable[[], AbstractContextManager[psycopg.Connection]] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.presence = presence
        self.connection = connection
        self.clock = clock
        self.sleep: Callable[[float], Awaitable[None]] = anyio.sleep
        self.not_before: dict[str, float] = {}

    def delay_s(self, owner: str) -> float:
        """How long an import of ``owner`` arriving now must wait [s] (0: none)."""
        until = self.not_before.get(owner)
        if until is None:
            return 0.0
        delay = until - self.clock()
        if delay <= 0.0:
            self.not_before.pop(owner, None)
            return 0.0
        return delay

    async def wait(self, owner: str) -> float:
        """Wait until ``owner`` may import (before its slot and body); the wait [s]."""
        delay = self.delay_s(owner)
        if delay > 0.0:
            await self.sleep(delay)
        return delay

    def _others_present(self, owner: str) -> bool:
        """Whether another owner within its share is present anywhere (blocking)."""
        if self.connection is None or self.presence.url is None:
            return False
        with self.connection() as conn:
            return self.presence.others_present(conn, owner)

    async def ended(self, owner: str, work_s: float) -> float:
        """An import of ``owner`` that took ``work_s`` [s] ended: set its ``not_before``.

        Returns
        -------
        float
            The pause before the owner's next import [s] (0 when nobody else is present).
        """
        end = self.clock()
        pause = self.presence.pause_s(work_s)
        if pause <= 0.0:
            return 0.0
        if not self.presence.present_here(owner):
            try:
                present = await anyio.to_thread.run_sync(self._others_present, owner)
            except psycopg.Error:  # no connection in time: only this process's presence counts
                present = False
            if not present:
                return 0.0
        self.not_before[owner] = max(self.not_before.get(owner, 0.0), end + pause)
        return pause

    @staticmethod
    def work_clock() -> float:
        """The clock of an import's work [s]."""
        return time.perf_counter()
