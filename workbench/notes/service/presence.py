"""An owner over its share is paced while another owner within its share is being served.

Why: on a machine with few cores, an owner's searches cost CPU far beyond the statement and the
embedding its database slot covers: its server's event loop renders its answers, its clients
parse them, the tool server wraps them. An owner over its share (more of its requests wait than
it has slots, :meth:`~.fairness.OwnerSlots.over_share`, or its slot over every process was
taken when it asked, :meth:`~.fairness.SharedBudget.hold`) already embeds and queries at a lower
CPU priority (:mod:`.lanes`), yet with one slot it still keeps that slot busy all the time, and
the work around it took the cores from another owner's searches (p95 2-3x).

What: while another owner *within* its share has been served in the last :data:`PRESENT_S`
seconds by any process on the database, a search of an owner over its share keeps its slot,
after its work (query embedding and statement, ``work_s`` of wall time), for
``work_s * (1 / share - 1)`` more (phase ``paced``), at most :data:`MAX_PAUSE_S`. Its slot is
the owner's slot over every process (an advisory lock, :class:`~.fairness.SharedBudget`), so the
owner holds it busy at most ``share`` (``WORKBENCH_BUSY_SHARE``, 0.25) of the time, over the
API and the tool server together: a token bucket of server time without a burst, whose
requests queue (in the event loop, then in the database) instead of being refused. Its queued
requests hold no core; the other owner's requests never wait behind them (they have their own
slots). Alone, or beside owners over their share too, nobody is paced: the cores are not
left idle for nobody.

Who is present, over every process: :class:`Presence` remembers the owners it served within
their share, and a thread of its own holds a *shared* advisory lock (class
:data:`PRESENCE_CLASS`) for each of them on its own database session, released
:data:`PRESENT_S` after the owner's last such request. A process deciding on a pause looks at
its own memory, then at the other sessions' presence locks in ``pg_locks``. Requests within
their share only stamp a dictionary; only the requests of an owner over its share ask the
database, once each.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import zlib
from collections.abc import Callable

import psycopg

from workbench.notes.service import timing

__all__ = [
    "MAX_PAUSE_S",
    "PRESENCE_CLASS",
    "PRESENT_S",
    "SYNC_S",
    "Presence",
    "presence_key",
]

PRESENCE_CLASS = 0x4E4F5446
"""First key of the presence locks (the bytes of "NOTF"); the second is the owner's."""

PRESENT_S = 1.0
"""How long an owner counts as present after its last request within its share [s]."""

SYNC_S = 0.2
"""Longest delay of the presence locks behind this process's memory [s]."""

MAX_PAUSE_S = 2.0
"""Longest pause of one request [s]."""

_log = logging.getLogger("workbench.notes.service")


def presence_key(owner: str) -> int:
    """The second key of ``owner``'s presence lock (signed 32-bit) [-]."""
    key = zlib.crc32(owner.encode("utf-8", "surrogatepass"))
    return key - (1 << 32) if key >= 1 << 31 else key


class Presence:
    """Owners within their share served lately, shared over the database; pauses (module doc).

    Parameters
    ----------
    url : str or None
        The database; None keeps the presence in this process only (no thread, no session).
    share : float
        Part of the time an owner over its share may hold its slot while another owner is
        present (0 < share <= 1; 1 never pauses) [-].
    window_s : float
        How long an owner counts as present after its last request [s].
    clock : callable
        Monotonic clock [s] (tests give their own).
    """

    def __init__(
        self,
        url: str | None,
        share: float = 0.25,
        *,
        window_s: float = PRESENT_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not 0.0 < share <= 1.0:
            raise ValueError(f"share must be in (0, 1], got {share}")
        self.url = url
        self.share = share
        self.window_s = window_s
        self.clock = clock
        self.sleep: Callable[[float], None] = time.sleep
        self._seen: dict[str, float] = {}
        self._held: set[int] = set()
        self._conn: psycopg.Connection | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._sync_lock = threading.Lock()

    def seen(self, owner: str) -> None:
        """``owner`` is being served within its share (a dictionary stamp; no database)."""
        now = self.clock()
        last = self._seen.get(owner)
        self._seen[owner] = now
        if last is None or now - last >= self.window_s:
            self._wake.set()  # newly present: publish it now

    def present_here(self, owner: str) -> bool:
        """Whether an owner other than ``owner`` was served within its share by this process."""
        since = self.clock() - self.window_s
        return any(o != owner and t > since for o, t in list(self._seen.items()))

    def others_present(self, conn: psycopg.Connection, owner: str) -> bool:
        """Whether an owner other than ``owner`` is present here or in any process.

        ``conn`` is the caller's session on the database (one query when this process has
        seen nobody else).
        """
        if self.present_here(owner):
            return True
        if self.url is None:
            return False
        row = conn.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND classid::bigint = %s AND objsubid = 2 AND objid::bigint <> %s)",
            (PRESENCE_CLASS, presence_key(owner) & 0xFFFFFFFF),
        ).fetchone()
        return bool(row and row[0])

    def pause_s(self, work_s: float) -> float:
        """The pause after ``work_s`` [s] of work of an owner over its share [s]."""
        return min(MAX_PAUSE_S, max(0.0, work_s) * (1.0 / self.share - 1.0))

    def pace(self, conn: psycopg.Connection, owner: str, work_s: float) -> float:
        """Pause ``owner`` (over its share, holding its slot) when another owner is present.

        Returns
        -------
        float
            The pause [s] (0 when nobody else is present or ``share`` is 1).
        """
        pause = self.pause_s(work_s)
        if pause <= 0.0 or not self.others_present(conn, owner):
            return 0.0
        with timing.phase("paced"):
            self.sleep(pause)
        return pause

    def sync(self) -> None:
        """Hold a presence lock for each owner present here, release the others' (one pass)."""
        with self._sync_lock:
            self._sync()

    def _sync(self) -> None:
        now = self.clock()
        for owner, t in list(self._seen.items()):
            if now - t >= self.window_s:
                self._seen.pop(owner, None)
        want = {presence_key(o) for o in list(self._seen)}
        if want == self._held or self.url is None:
            return
        if self._conn is None or self._conn.closed:
            self._held = set()
            self._conn = psycopg.connect(self.url, autocommit=True)
        for key in want - self._held:
            self._conn.execute("SELECT pg_advisory_lock_shared(%s, %s)", (PRESENCE_CLASS, key))
            self._held.add(key)
        for key in self._held - want:
            self._conn.execute("SELECT pg_advisory_unlock_shared(%s, %s)", (PRESENCE_CLASS, key))
            self._held.discard(key)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(SYNC_S)
            self._wake.clear()
            try:
                self.sync()
            except Exception as exc:  # the database went away: its locks went with it
                _log.info("presence locks lost (%s); retrying", type(exc).__name__)
                self._drop()
                self._stop.wait(1.0)

    def _drop(self) -> None:
        with self._sync_lock:
            conn, self._conn, self._held = self._conn, None, set()
            if conn is not None:
                with contextlib.suppress(psycopg.Error):
                    conn.close()

    def start(self) -> None:
        """Start the thread that keeps the presence locks (nothing without a database)."""
        if self.url is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, daemon=True, name="wb-presence")
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and close its session (its locks go with it)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None
        self._drop()
