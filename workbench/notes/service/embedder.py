"""Background embedding of writes: a bounded pool of worker threads at a lower CPU priority.

Searches embed their query at once, on the request's thread, with the service's provider. The
texts of writes (create, replace, import, reindex) go through :class:`BackgroundEmbedder`
instead: in batches of ``batch_size`` texts (4 by default), one batch at a time per worker
(``workers``, 1 by default), first come first served. So

* the memory of embedding is bounded by the workers and the batch size, however many writes
  arrive at once: onnxruntime's working memory for 4 texts of 256 tokens (some 150 MB), given
  back after every batch, plus a second copy of the model (some 100 MB with its session);
* concurrent writes take turns batch by batch, and a write never waits for another to finish;
* searches keep the CPU: the worker threads run at nice ``nice`` (10 by default).

On Linux the nice value is a property of each thread, not of the process (``setpriority(2)``,
NOTES: "under the current Linux/NPTL implementation of POSIX threads, the nice value is a
per-thread attribute"), and a new thread starts with the nice value of the thread that creates
it. A worker therefore lowers its own priority first and then builds its own copy of the local
model, so that onnxruntime's pool threads, created with the model's session, inherit the lower
priority while the query model's threads keep the normal one. Under the CFS scheduler a thread
at nice 10 gets about a tenth of the CPU of a nice-0 thread competing for the same core, and
all of an idle core. A provider other than the local model (an HTTP API) is shared as it is:
the pool then only bounds how many requests it sends at once.
"""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from workbench.notes.embeddings import EmbeddingProvider

__all__ = ["BackgroundEmbedder", "thread_nice"]

_log = logging.getLogger("workbench.notes.service")


def thread_nice(tid: int | None = None) -> int:
    """The nice value of a thread of this process (Linux ``/proc``; default the caller's)."""
    tid = tid or threading.get_native_id()
    with open(f"/proc/self/task/{tid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[16])  # field 19 of proc(5); fields[0] is field 3 (state)


class BackgroundEmbedder(EmbeddingProvider):
    """An embedding provider that runs ``provider``'s batches on a bounded, low-priority pool.

    Parameters
    ----------
    provider : EmbeddingProvider
        The service's provider (used as it is by searches).
    workers : int
        Worker threads, each with its own copy of a local model [-].
    batch_size : int
        Texts per batch [-].
    nice : int
        Nice value of the workers (0 to 19; higher is lower priority) [-].
    """

    def __init__(
        self, provider: EmbeddingProvider, *, workers: int = 1, batch_size: int = 4, nice: int = 10
    ) -> None:
        self.model_id = provider.model_id
        self.dimension = provider.dimension
        self.batch_size = batch_size
        self.inner = provider
        self.nice = nice
        self._local = threading.local()
        self.worker_ids: list[int] = []
        self._executor = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="wb-embed", initializer=self._start_worker
        )

    def _start_worker(self) -> None:
        tid = threading.get_native_id()
        if self.nice:
            try:  # per thread on Linux; elsewhere this lowers the whole process, so only Linux
                if os.uname().sysname == "Linux":
                    os.setpriority(os.PRIO_PROCESS, tid, self.nice)
            except OSError as exc:  # pragma: no cover - a sandbox that forbids it
                _log.warning("could not lower the embedding worker's priority: %s", exc)
        self._local.provider = self._copy()
        self.worker_ids.append(tid)

    def _copy(self) -> EmbeddingProvider:
        from workbench.notes.embeddings.local import LocalMiniLMProvider

        inner = self.inner
        if isinstance(inner, LocalMiniLMProvider):
            return LocalMiniLMProvider(
                inner.model_path,
                inner.tokenizer_path,
                batch_size=self.batch_size,
                allow_spinning=False,
                release_memory=True,
            )
        return inner

    def _run(self, texts: list[str]) -> np.ndarray:
        return self._local.provider._embed_batch(texts)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return self._executor.submit(self._run, texts).result()

    def close(self) -> None:
        """Finish the queued batches and stop the workers."""
        self._executor.shutdown(wait=True, cancel_futures=True)
