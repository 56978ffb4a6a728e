"""Background reindex jobs with progress, one at a time.

``POST /api/notes/reindex`` starts a job in a thread and answers at once with its id; the job
reports ``(done, total)`` after every batch through the reindex progress callback. Only one
reindex runs at a time: in this process (a second start raises :class:`ReindexConflict`) and
across processes sharing the database (a session advisory lock held by the job's connection).
On shutdown the running job is stopped after its current batch (batches already written stay,
as after any reindex failure).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime

from workbench.notes.maintenance import reindex

__all__ = ["REINDEX_LOCK_KEY", "ReindexConflict", "ReindexJob", "ReindexJobs"]

REINDEX_LOCK_KEY = 0x7265696E646578
"""Session advisory lock held while a reindex job runs (the bytes of "reindex")."""
_KEEP_JOBS = 20
_log = logging.getLogger("workbench.notes.service")


class ReindexConflict(Exception):
    """A reindex is already running (message says where)."""


class _Cancelled(Exception):
    pass


@dataclass
class ReindexJob:
    """State of one reindex job (mutated by its thread under ``lock``)."""

    id: str
    force: bool
    started_at: datetime
    state: str = "running"
    done: int = 0
    total: int | None = None
    embedded: int | None = None
    skipped: int | None = None
    batches: int | None = None
    error: str | None = None
    finished_at: datetime | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def snapshot(self) -> dict:
        """A consistent copy of the public fields (the body of the progress endpoint)."""
        with self.lock:
            total = self.total
            if self.state == "succeeded":
                progress = 1.0
            elif total:
                progress = min(1.0, self.done / total)
            else:
                progress = 0.0
            return {
                "job": self.id,
                "state": self.state,
                "force": self.force,
                "done": self.done,
                "total": total,
                "progress": progress,
                "embedded": self.embedded,
                "skipped": self.skipped,
                "batches": self.batches,
                "error": self.error,
                "started_at": self.started_at,
                "finished_at": self.finished_at,
            }


class ReindexJobs:
    """Starts reindex jobs on connections of ``pool`` and keeps the latest ones.

    Parameters
    ----------
    pool : psycopg_pool.ConnectionPool
        The service's pool (a running job holds one connection).
    batch_size : int
        Notes per batch and transaction.
    """

    def __init__(self, pool, *, batch_size: int = 64) -> None:  # noqa: ANN001
        self._pool = pool
        self._batch_size = batch_size
        self._jobs: OrderedDict[str, ReindexJob] = OrderedDict()
        self._lock = threading.Lock()
        self._running: tuple[ReindexJob, threading.Thread] | None = None
        self._stop = threading.Event()

    def get(self, job_id: str) -> ReindexJob | None:
        """A job by id (the latest 20 jobs are kept), or None."""
        with self._lock:
            return self._jobs.get(job_id)

    def running(self) -> ReindexJob | None:
        """The job that is running in this process, if any."""
        with self._lock:
            if self._running is not None and self._running[1].is_alive():
                return self._running[0]
            return None

    def start(self, *, force: bool = False) -> ReindexJob:
        """Start a reindex in the background.

        Raises
        ------
        ReindexConflict
            A reindex runs already, in this process or in another one on the same database.
        """
        with self._lock:
            if self._running is not None and self._running[1].is_alive():
                raise ReindexConflict(f"reindex job {self._running[0].id} is still running")
            conn = self._pool.getconn()
            try:
                got = conn.execute(
                    "SELECT pg_try_advisory_lock(%s)", (REINDEX_LOCK_KEY,)
                ).fetchone()[0]
            except BaseException:
                self._pool.putconn(conn)
                raise
            if not got:
                self._pool.putconn(conn)
                raise ReindexConflict("a reindex is running in another process on this database")
            job = ReindexJob(id=uuid.uuid4().hex, force=force, started_at=datetime.now(UTC))
            thread = threading.Thread(
                target=self._run, args=(job, conn), name=f"reindex-{job.id[:8]}", daemon=True
            )
            self._jobs[job.id] = job
            while len(self._jobs) > _KEEP_JOBS:
                self._jobs.popitem(last=False)
            self._running = (job, thread)
            thread.start()
            return job

    def _progress(self, job: ReindexJob):  # noqa: ANN202
        def report(done: int, total: int) -> None:
            with job.lock:
                job.done, job.total = done, total
            if self._stop.is_set():
                raise _Cancelled

        return report

    def _run(self, job: ReindexJob, conn) -> None:  # noqa: ANN001
        _log.info("reindex job %s started (force=%s)", job.id, job.force)
        try:
            with job.lock:
                job.total = conn.execute('SELECT count(*) FROM "Note"').fetchone()[0]
            result = reindex(
                conn, batch_size=self._batch_size, force=job.force, progress=self._progress(job)
            )
        except _Cancelled:
            self._finish(job, "failed", error="stopped at shutdown after a committed batch")
        except Exception as exc:  # reported through the progress endpoint
            _log.warning("reindex job %s failed: %s", job.id, exc)
            self._finish(job, "failed", error=f"{type(exc).__name__}: {exc}")
        else:
            with job.lock:
                job.done, job.total = result.total, result.total
                job.embedded, job.skipped, job.batches = (
                    result.embedded,
                    result.skipped,
                    result.batches,
                )
            self._finish(job, "succeeded")
            _log.info(
                "reindex job %s done: %d notes, %d embedded, %d skipped",
                job.id,
                result.total,
                result.embedded,
                result.skipped,
            )
        finally:
            try:
                conn.execute("SELECT pg_advisory_unlock(%s)", (REINDEX_LOCK_KEY,))
            except Exception:  # the connection broke: the server releases the lock itself
                _log.debug("could not release the reindex lock", exc_info=True)
            self._pool.putconn(conn)

    @staticmethod
    def _finish(job: ReindexJob, state: str, error: str | None = None) -> None:
        with job.lock:
            job.state = state
            job.error = error
            job.finished_at = datetime.now(UTC)

    def shutdown(self, timeout_s: float = 30.0) -> None:
        """Stop a running job after its current batch and wait for it [s]."""
        self._stop.set()
        with self._lock:
            running = self._running
        if running is not None:
            running[1].join(timeout_s)
