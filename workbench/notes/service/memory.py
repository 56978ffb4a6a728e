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
    "EMBEDDING_WORKSPACE_BYTES",
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
EMBEDDING_WORKSPACE_BYTES = 256 * 1024 * 1024
"""Working memory of one background embedding worker [bytes]: a second copy of the model and
onnxruntime's buffers for a batch of 4 texts of 256 tokens (given back after each batch)."""


def import_memory_bound(settings) -> int:
    """Most memory concurrent imports add to an idle API process [bytes].

    ``max_imports * BODY_COPIES * max_body_bytes + embed_workers * EMBEDDING_WORKSPACE_BYTES``:
    2 * 5 * 16 MiB + 256 MiB = 416 MiB with the defaults. Imports beyond ``max_imports`` are
    refused (429) before their body is read, and the embedding of every write runs on the
    bounded worker pool in batches of 4 texts whose tokens are bounded too.

    Parameters
    ----------
    settings : ServiceSettings
        ``max_imports``, ``max_body_bytes`` and ``embed_workers`` of the server.
    """
    return (
        settings.max_imports * BODY_COPIES * settings.max_body_bytes
        + settings.embed_workers * EMBEDDING_WORKSPACE_BYTES
    )


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
