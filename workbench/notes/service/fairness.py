"""A fair share of the database per owner: each owner's requests queue behind each other.

The connection pool (``WORKBENCH_DB_POOL_SIZE``, 8) is shared by every caller. Without a rule,
one owner sending ten slow searches at once takes every connection and the next owner waits for
the pool (and times out). :class:`OwnerSlots` gives each owner at most ``per_owner`` requests
that hold or wait for a connection at a time (``WORKBENCH_OWNER_CONNECTIONS``, default a quarter
of the pool); the owner's further requests wait in the event loop, holding neither a connection
nor a worker thread, until one of the owner's own requests finishes. Other owners pass by: each
owner waits only behind its own requests, so an owner flooding the server with twelve searches
holds one slot like an owner with one, and the next request of another owner is admitted as soon
as that owner's own slot is free. A request that waits longer than ``wait_s`` answers 503
``busy`` with ``Retry-After``. An owner with more requests waiting than it has slots is over its
share (:meth:`OwnerSlots.over_share`): its searches run at a lower CPU priority.

:class:`OwnerSlots` counts in one process. :class:`SharedBudget` makes the same share hold over
every process on the database (several API processes and the tool server): the request holds
one of the owner's slots as a PostgreSQL advisory lock while it embeds its query and runs its
statement.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress

import anyio
import psycopg

from workbench.notes.service.errors import ApiError

__all__ = ["BUDGET_LOCK_CLASS", "OwnerSlots", "SharedBudget"]


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

    def waiting(self, owner: str) -> int:
        """Requests of ``owner`` waiting for one of its slots now [-]."""
        sem = self._slots.get(owner)
        return 0 if sem is None else sem.statistics().tasks_waiting

    def over_share(self, owner: str) -> bool:
        """Whether ``owner`` asks for more than its share: more requests wait than it has slots.

        Such an owner's backlog is over one round of its slots (a client sending more at once
        than it can be served); its searches then run at a lower CPU priority (:mod:`.services`),
        so that an owner within its share keeps the cores first.
        """
        return self.waiting(owner) > self.per_owner


BUDGET_LOCK_CLASS = 0x4E4F5445
"""First key of the owners' advisory locks (the bytes of "NOTE"); the second is the slot's."""


class SharedBudget:
    """Each owner's database slots over every process on the database (API and tool server).

    A request of ``owner`` that uses the database (and, for a search, embeds its query) holds one
    of the owner's ``per_owner`` slots: a PostgreSQL session advisory lock on its pooled
    connection, keyed by :data:`BUDGET_LOCK_CLASS` and a number made from the owner and the slot.
    Several API processes and the tool server on one database thus share each owner's budget,
    and a process that dies releases its slots with its sessions. A request first tries every
    slot without waiting (one round trip when one is free); when all are taken it waits in the
    database for one of them, at most ``wait_s``, then answers 503 ``busy``. Two owners whose
    numbers collide (a 1 in 67 million chance per pair) share their slots.

    Parameters
    ----------
    per_owner : int
        Slots of one owner on the whole database [-].
    wait_s : float
        Longest wait for a slot before 503 ``busy`` [s].
    """

    def __init__(self, per_owner: int, wait_s: float = 10.0) -> None:
        self.per_owner = per_owner
        self.wait_s = wait_s

    def keys(self, owner: str) -> list[int]:
        """The second lock keys of ``owner``'s slots (signed 32-bit) [-]."""
        base = (zlib.crc32(owner.encode("utf-8", "surrogatepass")) * 64) & 0xFFFFFFFF
        out = []
        for i in range(self.per_owner):
            key = (base + i) & 0xFFFFFFFF
            out.append(key - (1 << 32) if key >= 1 << 31 else key)
        return out

    @contextmanager
    def hold(self, conn: psycopg.Connection, owner: str) -> Iterator[bool]:
        """Hold one of ``owner``'s slots on ``conn`` (an autocommit connection) for the block.

        Yields whether the request had to wait for it: every slot of the owner was taken, by
        this process or another one (the owner asks for more than its share, :mod:`.presence`).

        Raises
        ------
        ApiError
            503 ``busy`` when no slot came free within ``wait_s``.
        """
        keys = self.keys(owner)
        held = None
        waited = False
        for key in keys:
            if conn.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (BUDGET_LOCK_CLASS, key)
            ).fetchone()[0]:
                held = key
                break
        if held is None:
            held = random.choice(keys)
            waited = True
            try:
                conn.execute(
                    "SELECT set_config('lock_timeout', %s, false)", (str(int(self.wait_s * 1e3)),)
                )
                conn.execute("SELECT pg_advisory_lock(%s, %s)", (BUDGET_LOCK_CLASS, held))
            except psycopg.errors.LockNotAvailable:
                raise ApiError(
                    503,
                    "busy",
                    f"owner {owner!r} already has {self.per_owner} requests using the database "
                    f"(over every server on it) and waited {self.wait_s:.0f} s for one of them "
                    "to finish; send fewer requests at once",
                    headers={"Retry-After": "2"},
                ) from None
            finally:
                with suppress(psycopg.Error):
                    conn.execute("SELECT set_config('lock_timeout', '0', false)")
        try:
            yield waited
        finally:
            with suppress(psycopg.Error):  # a broken connection has lost its locks anyway
                conn.execute("SELECT pg_advisory_unlock(%s, %s)", (BUDGET_LOCK_CLASS, held))

    def held(self, conn: psycopg.Connection, owner: str) -> int:
        """Slots of ``owner`` held now on the database, by any session [-]."""
        keys = self.keys(owner)
        return conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid::bigint = %s AND objid::bigint = ANY(%s) AND objsubid = 2",
            (BUDGET_LOCK_CLASS, [k & 0xFFFFFFFF for k in keys]),
        ).fetchone()[0]
