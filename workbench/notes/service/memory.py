"""Giving memory back to the system after a large request (glibc), and reading the process's RSS.

A CPython process that parsed a 16 MiB import frees its strings, but glibc's allocator keeps the
freed pages in its heaps (one arena per thread that allocated) unless told otherwise, so the
process stays at its peak size. Two calls of glibc (through :mod:`ctypes`; on other C libraries
they do nothing) bring it back near its idle size:

* :func:`limit_heap_growth` at start: ``mallopt(M_MMAP_THRESHOLD, 128 KiB)`` fixes the size above
  which a block gets its own ``mmap`` (returned to the system when freed). By default glibc
  raises that threshold up to 32 MiB after the first large free, so a note's 199,000-character
  text would land in a heap and stay there.
* :func:`release_memory` after a large request: ``malloc_trim(0)`` returns the free pages of
  every arena to the system (``madvise(MADV_DONTNEED)``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import threading

__all__ = [
    "BODY_COPIES",
    "REQUEST_SLACK_BYTES",
    "WORKER_RSS_BYTES",
    "import_memory_bound",
    "limit_heap_growth",
    "release_memory",
    "rss_bytes",
]

_log = logging.getLogger("workbench.notes.service")
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 128 * 1024
"""Blocks at least this large get their own mapping [bytes] (glibc's initial threshold)."""
_lock = threading.Lock()

BODY_COPIES = 5
"""Copies of an import's body one running import holds at most: the received chunks and the
joined bytes, the parsed JSON, the validated notes, the rows written to ``COPY``."""
REQUEST_SLACK_BYTES = 64 * 1024 * 1024
"""Memory of the request machinery around the bodies (threads, buffers, psycopg) [bytes]."""
WORKER_RSS_BYTES = 512 * 1024 * 1024
"""Largest resident size of one background embedding worker process [bytes]: the interpreter,
its copy of the model and onnxruntime's buffers for a batch of 4 texts of 256 tokens (given
back after each batch)."""


def _libc():  # -> ctypes.CDLL with malloc_trim, or None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim  # noqa: B018 - only glibc has it
        libc.mallopt  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _libc()


def limit_heap_growth() -> bool:
    """Keep blocks of 128 KiB and more out of the heaps (glibc ``mallopt``); False elsewhere."""
    if _LIBC is None:
        return False
    return bool(_LIBC.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES))


def release_memory() -> bool:
    """Return the allocator's free pages to the system (glibc ``malloc_trim(0)``).

    Returns
    -------
    bool
        True when glibc released memory, False when there was none or the C library is not glibc.
    """
    if _LIBC is None:
        return False
    with _lock:  # one trim at a time: it walks every arena
        return bool(_LIBC.malloc_trim(0))


def import_memory_bound(settings) -> tuple[int, int]:
    """The memory bound of concurrent imports [bytes]: API process growth, worker processes.

    The API process grows by at most ``max_imports * BODY_COPIES * max_body_bytes +
    REQUEST_SLACK_BYTES`` over its idle size (2 * 5 * 16 MiB + 64 MiB = 224 MiB with the
    defaults): imports beyond ``max_imports`` are refused (429) and their body is dropped, not
    kept. The embedding of every write runs in the ``embed_workers`` worker processes, in
    batches of 4 texts whose tokens are bounded too; together they stay under
    ``embed_workers * WORKER_RSS_BYTES`` (512 MiB with the defaults), however many notes come.

    Parameters
    ----------
    settings : ServiceSettings
        ``max_imports``, ``max_body_bytes`` and ``embed_workers`` of the server.

    Returns
    -------
    api_growth, workers : int
        Most growth of the API process over its idle size, and most resident size of the
        worker processes together [bytes].
    """
    return (
        settings.max_imports * BODY_COPIES * settings.max_body_bytes + REQUEST_SLACK_BYTES,
        settings.embed_workers * WORKER_RSS_BYTES,
    )


def rss_bytes(pid: int | None = None) -> int:
    """Resident set size of a process [bytes] (``VmRSS`` of ``/proc/<pid>/status``; Linux).

    Raises
    ------
    OSError
        No such process, or no ``/proc``.
    """
    with open(f"/proc/{pid or os.getpid()}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise OSError(f"no VmRSS for process {pid}")
