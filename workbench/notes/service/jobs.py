"""Background reindex jobs with progress, kept in the database so that every API process sees them.

``POST /api/notes/reindex`` starts a job in a thread of the process that received it and answers
at once with its id. The job's row in ``"NoteReindexJob"`` (migration ``20260601100000``) holds
its state; the thread writes ``(done, total)`` after every batch and the counts at the end, so
``GET /api/notes/reindex/{job}`` answers the same in every process on the database (several
processes behind a load balancer, or ``uvicorn --workers``).

Only one reindex runs at a time per database: the job's connection holds the session advisory
lock of :func:`workbench.notes.maintenance.reindex_lock`, the same lock ``workbench notes
reindex`` takes, so a second start answers 409 whoever runs the first. The row records the
database session holding the lock: a ``running`` job whose session no longer holds it belongs to
a process that died, and is reported (and stored) as failed. On shutdown the running job is
stopped after its current batch (batches already written stay, as after any reindex failure).
"""

from __future__ import annotations

import logging
import threading
import uuid

import psycopg
from psycopg import sql

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.maintenance import REINDEX_LOCK_KEY, reindex
from workbench.notes.text import MAX_ID_CHARS, text_problem

__all__ = ["KEEP_JOBS", "REINDEX_LOCK_KEY", "ReindexConflict", "ReindexJobs"]

KEEP_JOBS = 100
"""Jobs kept in the table (older ones are deleted when a job starts)."""
_log = logging.getLogger("workbench.notes.service")

_COLUMNS = sql.SQL(
    'id, state, "force", done, total, embedded, skipped, batches, error, "startedAt",'
    ' "finishedAt", "backendPid"'
)
_GET = sql.SQL('SELECT {} FROM "NoteReindexJob" WHERE id = %s').format(_COLUMNS)
_MARK_DEAD = sql.SQL(
    'UPDATE "NoteReindexJob" SET state = %s, error = %s, "finishedAt" = now()'
    " WHERE id = %s AND state = 'running' RETURNING {}"
).format(_COLUMNS)
_INSERT = sql.SQL(
    'INSERT INTO "NoteReindexJob" (id, state, "force", "backendPid")'
    " VALUES (%s, 'running', %s, pg_backend_pid()) RETURNING {}"
).format(_COLUMNS)
_DEAD = "the process running this job stopped before it finished"


class ReindexConflict(Exception):
    """A reindex is already running (message says where)."""


class _Cancelled(Exception):
    pass


def _snapshot(row: tuple) -> dict:
    """The body of the progress endpoint from a ``"NoteReindexJob"`` row."""
    job, state, force, done, total, embedded, skipped, batches, error, started, finished, _ = row
    if state == "succeeded":
        progress = 1.0
    elif total:
        progress = min(1.0, done / total)
    else:
        progress = 0.0
    return {
        "job": job,
        "state": state,
        "force": force,
        "done": done,
        "total": total,
        "progress": progress,
        "embedded": embedded,
        "skipped": skipped,
        "batches": batches,
        "error": error,
        "started_at": started,
        "finished_at": finished,
    }


class ReindexJobs:
    """Starts reindex jobs on connections of ``pool`` and reads any job from the database.

    Parameters
    ----------
    pool : psycopg_pool.ConnectionPool
        The service's pool (a running job holds one connection).
    provider : EmbeddingProvider
        The service's embedding provider.
    batch_size : int
        Notes per batch and transaction.
    """

    def __init__(self, pool, provider: EmbeddingProvider, *, batch_size: int = 64) -> None:
        self._pool = pool
        self._provider = provider
        self._batch_size = batch_size
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._job_id: str | None = None
        self._stop = threading.Event()

    def get(self, job_id: str) -> dict | None:
        """A job's state by id, from whichever process runs or ran it; None if unknown.

        An id the database cannot hold (a NUL character, a lone surrogate, over 512 characters)
        is unknown without a query.
        """
        if len(job_id) > MAX_ID_CHARS or text_problem(job_id, "job id") is not None:
            return None
        with self._pool.connection() as conn:
            row = conn.execute(_GET, (job_id,)).fetchone()
            if row is None:
                return None
            if row[1] == "running" and not self._holds_lock(conn, row[-1]):
                dead = conn.execute(_MARK_DEAD, ("failed", _DEAD, job_id)).fetchone()
                row = dead or conn.execute(_GET, (job_id,)).fetchone()
        return _snapshot(row)

    @staticmethod
    def _holds_lock(conn: psycopg.Connection, backend_pid: int | None) -> bool:
        return bool(
            conn.execute(
                "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
                " AND pid = %s AND classid::bigint = %s AND objid::bigint = %s AND objsubid = 1)",
                (backend_pid, REINDEX_LOCK_KEY >> 32, REINDEX_LOCK_KEY & 0xFFFFFFFF),
            ).fetchone()[0]
        )

    def start(self, *, force: bool = False) -> dict:
        """Start a reindex in the background and return its state.

        Raises
        ------
        ReindexConflict
            A reindex runs already, in any process on the same database (the message names the
            job when an API process runs it).
        """
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                raise ReindexConflict(f"reindex job {self._job_id} is still running")
            conn = self._pool.getconn()
            try:
                got = conn.execute(
                    "SELECT pg_try_advisory_lock(%s)", (REINDEX_LOCK_KEY,)
                ).fetchone()[0]
                if not got:
                    running = conn.execute(
                        'SELECT id FROM "NoteReindexJob" WHERE state = %s'
                        ' ORDER BY "startedAt" DESC LIMIT 1',
                        ("running",),
                    ).fetchone()
                    where = (
                        f"reindex job {running[0]} is still running"
                        if running
                        else "a reindex is running in another process on this database"
                    )
                    raise ReindexConflict(where)
                job_id = uuid.uuid4().hex
                with conn.transaction():
                    conn.execute(
                        'DELETE FROM "NoteReindexJob" WHERE id IN (SELECT id FROM'
                        ' "NoteReindexJob" ORDER BY "startedAt" DESC OFFSET %s)',
                        (KEEP_JOBS - 1,),
                    )
                    row = conn.execute(_INSERT, (job_id, force)).fetchone()
            except BaseException:
                self._release(conn)
                raise
            self._stop.clear()
            self._job_id = job_id
            self._thread = threading.Thread(
                target=self._run, args=(job_id, force, conn), name=f"reindex-{job_id[:8]}"
            )
            self._thread.daemon = True
            self._thread.start()
            return _snapshot(row)

    def _release(self, conn: psycopg.Connection) -> None:
        try:
            conn.execute("SELECT pg_advisory_unlock_all()")
        except psycopg.Error:  # the connection broke: the server released the lock itself
            _log.debug("could not release the reindex lock", exc_info=True)
        self._pool.putconn(conn)

    def _run(self, job_id: str, force: bool, conn: psycopg.Connection) -> None:
        _log.info("reindex job %s started (force=%s)", job_id, force)

        def report(done: int, total: int) -> None:
            conn.execute(
                'UPDATE "NoteReindexJob" SET done = %s, total = %s WHERE id = %s',
                (done, total, job_id),
            )
            if self._stop.is_set():
                raise _Cancelled

        try:
            conn.execute(
                'UPDATE "NoteReindexJob" SET total = (SELECT count(*) FROM "Note") WHERE id = %s',
                (job_id,),
            )
            result = reindex(
                conn,
                provider=self._provider,
                batch_size=self._batch_size,
                force=force,
                progress=report,
            )
        except _Cancelled:
            self._finish(conn, job_id, "failed", "stopped at shutdown after a committed batch")
        except Exception as exc:  # reported through the progress endpoint
            _log.warning("reindex job %s failed: %s", job_id, exc)
            self._finish(conn, job_id, "failed", f"{type(exc).__name__}: {exc}")
        else:
            self._finish(
                conn,
                job_id,
                "succeeded",
                None,
                (result.total, result.total, result.embedded, result.skipped, result.batches),
            )
            _log.info(
                "reindex job %s done: %d notes, %d embedded, %d skipped",
                job_id,
                result.total,
                result.embedded,
                result.skipped,
            )
        finally:
            self._release(conn)

    @staticmethod
    def _finish(
        conn: psycopg.Connection,
        job_id: str,
        state: str,
        error: str | None,
        counts: tuple[int, int, int, int, int] | None = None,
    ) -> None:
        """Record the end of a job (before its lock is released)."""
        try:
            if counts is None:
                conn.execute(
                    'UPDATE "NoteReindexJob" SET state = %s, error = %s, "finishedAt" = now()'
                    " WHERE id = %s",
                    (state, error, job_id),
                )
            else:
                conn.execute(
                    'UPDATE "NoteReindexJob" SET state = %s, error = %s, "finishedAt" = now(),'
                    " done = %s, total = %s, embedded = %s, skipped = %s, batches = %s"
                    " WHERE id = %s",
                    (state, error, *counts, job_id),
                )
        except psycopg.Error:  # the database went away: readers see the lock gone and say so
            _log.warning("could not record the end of reindex job %s", job_id, exc_info=True)

    def shutdown(self, timeout_s: float = 30.0) -> None:
        """Stop a running job after its current batch and wait for it [s]."""
        self._stop.set()
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join(timeout_s)
