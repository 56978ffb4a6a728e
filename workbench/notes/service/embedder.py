"""Background embedding of writes: a bounded pool of worker processes at a lower CPU priority.

Searches embed their query at once, on the request's thread, with the service's provider (an
owner over its share, :meth:`~.fairness.OwnerSlots.over_share`, on this worker instead, so that
it gets the CPU the others leave). The texts of writes (create, replace, import, reindex) go
through :class:`BackgroundEmbedder` always: in batches of ``batch_size`` texts (4 by default), one batch at a time per worker
(``workers``, 1 by default), first come first served. So

* the memory of embedding is bounded by the workers and the batch size, however many writes
  arrive at once: onnxruntime's working memory for 4 texts of 256 tokens (some 150 MB), given
  back after every batch, plus the worker's copy of the model;
* concurrent writes take turns batch by batch, and a write never waits for another to finish;
* searches keep the CPU: every thread of the workers runs at nice ``nice`` (10 by default)
  under the scheduling policy ``policy`` (``SCHED_BATCH`` by default, :func:`lower_priority`);
* a write can wait for its vectors in the event loop (:meth:`BackgroundEmbedder.embed_async`),
  holding no thread (:mod:`.writes`).

Why processes and not threads: on Linux the nice value belongs to each thread
(``setpriority(2)``, NOTES), so a thread *can* run at nice 10 inside the API process; but the
thread still takes CPython's global interpreter lock between the model's calls, and a thread the
scheduler holds back (that is what nice 10 does on busy cores) while it holds that lock stops
every other thread of the process, the searches included (priority inversion). Measured with a
nice-10 thread: search p95 842 ms next to writes (335 to 450 ms with the worker process). A worker process
(``spawn``) has its own interpreter. Because nice is per thread, ``os.nice`` in the worker
would lower only its main thread, not the BLAS threads numpy started on import: the worker
sets the value on each of its threads (``setpriority`` on every id of ``/proc/self/task``), then
loads its own copy of the local model, whose onnxruntime threads inherit it. Under the CFS
scheduler a process at nice 10 gets about a tenth of the CPU of a nice-0 one competing for the
same core, and all of an idle core. A provider other than
the local model (an HTTP API) is shared as it is on a pool of threads: the pool then only bounds
how many requests it sends at once.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import numpy as np

from workbench.errors import EmbeddingError
from workbench.notes.embeddings import EmbeddingProvider

__all__ = [
    "POLICIES",
    "BackgroundEmbedder",
    "lower_priority",
    "process_nice",
    "process_policies",
    "thread_nice",
]

_worker: EmbeddingProvider | None = None
"""The model of a worker process (set by :func:`_start_worker` in that process)."""


def thread_nice(tid: int | None = None, pid: int | str = "self") -> int:
    """The nice value of a thread (Linux ``/proc``; default the caller's thread)."""
    tid = tid or threading.get_native_id()
    with open(f"/proc/{pid}/task/{tid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[16])  # field 19 of proc(5); fields[0] is field 3 (state)


def process_nice() -> tuple[int, dict[int, int]]:
    """The id of the calling process and the nice value of each of its threads (Linux)."""
    tids = [int(t) for t in os.listdir("/proc/self/task")]
    return os.getpid(), {tid: thread_nice(tid) for tid in tids}


def process_policies() -> tuple[int, dict[int, int]]:
    """The id of the calling process and the scheduling policy of each of its threads (Linux).

    Policies are ``os.SCHED_OTHER``, ``os.SCHED_BATCH``, ``os.SCHED_IDLE`` ...
    """
    tids = [int(t) for t in os.listdir("/proc/self/task")]
    return os.getpid(), {tid: os.sched_getscheduler(tid) for tid in tids}


def _exit_with(parent: int) -> None:
    """End this worker when the API process that started it is gone (killed with -9)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


POLICIES = ("batch", "idle", "normal")
"""CPU scheduling policies of the workers (Linux): ``SCHED_BATCH``, ``SCHED_IDLE``, ``SCHED_OTHER``."""


def lower_priority(nice: int, policy: str = "batch") -> None:
    """Put every thread of this process at ``nice`` and under the scheduling ``policy``.

    On Linux both belong to each thread, not to the process (``setpriority(2)``,
    ``sched_setscheduler(2)``): threads already running (numpy's BLAS threads) are changed one by
    one, by their ids in ``/proc/self/task``; threads started later (onnxruntime's) inherit them.
    ``batch`` (``SCHED_BATCH``): the scheduler treats the threads as CPU-bound and never lets them
    preempt another thread when they wake; ``idle`` (``SCHED_IDLE``): they run only on a core no
    other thread wants (below nice 19); ``normal`` keeps ``SCHED_OTHER``. Elsewhere only the
    process's nice value is set.

    Parameters
    ----------
    nice : int
        Nice value, 0 to 19 (higher is lower priority) [-].
    policy : {"batch", "idle", "normal"}
        Scheduling policy.
    """
    if not os.path.isdir("/proc/self/task"):
        if nice:
            os.nice(nice)
        return
    sched = {"batch": "SCHED_BATCH", "idle": "SCHED_IDLE"}.get(policy)
    for tid in (int(t) for t in os.listdir("/proc/self/task")):
        if nice:
            os.setpriority(os.PRIO_PROCESS, tid, nice)
        if sched is not None and hasattr(os, sched):
            os.sched_setscheduler(tid, getattr(os, sched), os.sched_param(0))


def _start_worker(
    model_path: str, tokenizer_path: str, batch_size: int, nice: int, policy: str = "batch"
) -> None:
    from workbench.notes.embeddings.local import LocalMiniLMProvider

    global _worker
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True, name="wb-parent").start()
    lower_priority(nice, policy)  # before the model: its onnxruntime threads inherit it
    _worker = LocalMiniLMProvider(
        Path(model_path),
        Path(tokenizer_path),
        batch_size=batch_size,
        allow_spinning=False,
        release_memory=True,
    )


def _embed_in_worker(texts: list[str]) -> np.ndarray:
    assert _worker is not None, "worker not started"
    return _worker._embed_batch(texts)


class BackgroundEmbedder(EmbeddingProvider):
    """An embedding provider that runs ``provider``'s batches on a bounded, low-priority pool.

    Parameters
    ----------
    provider : EmbeddingProvider
        The service's provider (used as it is by searches).
    workers : int
        Worker processes, each with its own copy of the local model [-].
    batch_size : int
        Texts per batch [-].
    nice : int
        Nice value of the workers (0 to 19; higher is lower priority) [-].
    policy : {"batch", "idle", "normal"}
        Their CPU scheduling policy (:func:`lower_priority`).
    """

    def __init__(
        self,
        provider: EmbeddingProvider,
        *,
        workers: int = 1,
        batch_size: int = 4,
        nice: int = 10,
        policy: str = "batch",
    ) -> None:
        from workbench.notes.embeddings.local import LocalMiniLMProvider

        self.model_id = provider.model_id
        self.dimension = provider.dimension
        self.batch_size = batch_size
        self.inner = provider
        self.nice = nice
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        self.policy = policy
        self._executor: Executor
        self._lock = threading.Lock()
        if isinstance(provider, LocalMiniLMProvider):
            self._new_pool = lambda: ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(
                    str(provider.model_path),
                    str(provider.tokenizer_path),
                    batch_size,
                    nice,
                    policy,
                ),
            )
            self._executor = self._new_pool()
            self.in_process = False
        else:
            self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="wb-embed")
            self.in_process = True

    def _submit(self, texts: list[str]) -> Future:
        """Queue one batch on the pool (a new pool first when the old one broke)."""
        if self.in_process:
            return self._executor.submit(self.inner._embed_batch, texts)
        return self._executor.submit(_embed_in_worker, texts)

    def _renew(self, broken: Executor) -> None:
        """Replace a broken process pool (once, whichever caller notices first)."""
        with self._lock:
            if self._executor is broken:
                self._executor = self._new_pool()

    def _failed(self, exc: BaseException, again: bool) -> EmbeddingError:
        how = "failed twice" if again else "failed"
        return EmbeddingError(
            f"{self.model_id}: the background embedding worker {how}: {type(exc).__name__}: {exc}"
        )

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        executor = self._executor
        try:
            return self._submit(texts).result()
        except EmbeddingError:
            raise
        except BrokenProcessPool:  # the worker died (killed, out of memory): a new one, once
            self._renew(executor)
            try:
                return self._submit(texts).result()
            except Exception as exc:
                raise self._failed(exc, True) from exc
        except Exception as exc:  # a worker that failed to start
            raise self._failed(exc, False) from exc

    async def _embed_batch_async(self, texts: list[str]) -> np.ndarray:
        executor = self._executor
        try:
            return await asyncio.wrap_future(self._submit(texts))
        except EmbeddingError:
            raise
        except BrokenProcessPool:
            self._renew(executor)
            try:
                return await asyncio.wrap_future(self._submit(texts))
            except Exception as exc:
                raise self._failed(exc, True) from exc
        except Exception as exc:
            raise self._failed(exc, False) from exc

    async def embed_async(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts batch by batch, waiting in the event loop (no thread held meanwhile).

        One batch of the call is queued at a time, so concurrent writes take turns batch by
        batch on the workers.

        Returns
        -------
        numpy.ndarray
            Shape (len(texts), :attr:`dimension`), float32, rows of unit length [-].

        Raises
        ------
        EmbeddingError
            The worker failed (twice, when it died), or returned a wrong shape or values.
        """
        texts = list(texts)
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            chunk = texts[start : start + self.batch_size]
            vecs = np.asarray(await self._embed_batch_async(chunk), dtype=np.float32)
            if vecs.shape != (len(chunk), self.dimension) or not np.all(np.isfinite(vecs)):
                raise EmbeddingError(
                    f"{self.model_id}: returned shape {vecs.shape} (or non-finite values) for "
                    f"{len(chunk)} texts, expected ({len(chunk)}, {self.dimension})"
                )
            out[start : start + len(chunk)] = vecs
        return out

    def start(self) -> None:
        """Start the workers now (a first batch in the background), not at the first write.

        A worker process loads its own copy of the model, some seconds at its low priority; the
        first writes would otherwise wait for that.
        """
        if not self.in_process:
            self._executor.submit(_embed_in_worker, ["warm up"])

    def worker_nice(self) -> tuple[int, dict[int, int]]:
        """A worker's process id and the nice value of its threads (for tests and checks)."""
        if self.in_process:
            return process_nice()
        return self._executor.submit(process_nice).result()

    def worker_policies(self) -> tuple[int, dict[int, int]]:
        """A worker's process id and the scheduling policy of its threads (tests and checks)."""
        if self.in_process:
            return process_policies()
        return self._executor.submit(process_policies).result()

    def close(self) -> None:
        """Drop the queued batches and stop the workers."""
        self._executor.shutdown(wait=True, cancel_futures=True)
