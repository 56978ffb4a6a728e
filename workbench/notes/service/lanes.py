"""The low lane: an owner over its share runs its statements on low-priority database sessions.

An owner with more requests waiting for its slots than it has slots is over its share
(:meth:`~.fairness.OwnerSlots.over_share`); its searches embed their query on the low-priority
background worker (:mod:`.embedder`) and run their statement on a connection of the *low pool*
(:func:`open_low_pool`), whose PostgreSQL server processes run at nice ``nice`` (10). So where
the cores are contended, the owners within their share get them first, in the database as in
the API; where a core is idle, the low lane costs nothing. PostgreSQL has no priority per
session: a session is a server process, and its nice value can only be set from this machine,
by the user the server runs as, and an unprivileged user cannot set it back. The low pool is
therefore only opened when the database is a local server reached over its Unix socket whose
processes this user may change (the embedded server; :func:`lower_backend` checks each one);
else the low lane's statements share the normal pool and only their embedding is lowered. A
low session also plans without parallel workers and JIT (:data:`LOW_SESSION_SQL`): parallel
workers are processes of their own, started by the postmaster at its priority.
"""

from __future__ import annotations

import logging
import os

import psycopg

__all__ = [
    "LOW_NICE",
    "LOW_POOL_SIZE",
    "LOW_SESSION_SQL",
    "backend_nice",
    "lower_backend",
    "open_low_pool",
]

LOW_NICE = 10
"""Nice value of the low pool's server processes (0 to 19; higher is lower priority) [-]."""

LOW_POOL_SIZE = 2
"""Connections of the low pool [connections]."""

LOW_SESSION_SQL = "SET max_parallel_workers_per_gather = 0; SET jit = off"
"""Settings of a low-pool session: no parallel workers (the postmaster starts them at nice 0,
outside the lowered session) and no JIT compilation [-]."""

_log = logging.getLogger("workbench.notes.service")


def backend_nice(pid: int) -> int:
    """The nice value of process ``pid`` (Linux ``/proc``) [-]."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16])


def lower_backend(conn: psycopg.Connection, nice: int = LOW_NICE) -> bool:
    """Put the server process of ``conn`` at nice ``nice``; False when it is not ours to change.

    Only a local server reached over a Unix socket, whose process is a ``postgres``, is changed
    (a process id of a remote server means nothing here); the system refuses a process of
    another user to an unprivileged one (then False).
    """
    host = conn.info.host or ""
    if not host.startswith("/"):
        return False
    pid = conn.info.backend_pid
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8") as comm:
            if comm.read().strip() != "postgres":
                return False
        os.setpriority(os.PRIO_PROCESS, pid, nice)
    except OSError:
        return False
    return True


def open_low_pool(url: str, size: int = LOW_POOL_SIZE, nice: int = LOW_NICE):  # -> pool or None
    """A pool whose server processes run at nice ``nice``, or None where that cannot be done.

    Returns
    -------
    psycopg_pool.ConnectionPool or None
        Open, autocommit connections, each checked before use; None when the database is not a
        local server of this user (:func:`lower_backend`).
    """
    from psycopg_pool import ConnectionPool

    from workbench.notes.db import create_pool

    with psycopg.connect(url, autocommit=True) as probe:
        if not lower_backend(probe, nice):
            _log.info("no low-priority database sessions: the database is not a local server")
            return None

    def configure(conn: psycopg.Connection) -> None:
        if not lower_backend(conn, nice):
            raise psycopg.OperationalError("could not lower the priority of a low-lane session")
        # parallel workers and JIT compilation would run in processes (or time) at nice 0
        conn.execute(LOW_SESSION_SQL)

    return create_pool(
        url,
        min_size=1,
        max_size=size,
        name="workbench-notes-low",
        configure=configure,
        check=ConnectionPool.check_connection,
        timeout=10.0,
    )
