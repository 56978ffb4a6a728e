"""Where a request's time goes: named phases, answered in a ``Server-Timing`` header.

:class:`ServerTiming` (an ASGI middleware) gives each HTTP request a :class:`RequestTimings`
in a context variable; code on the request's path adds the time of a phase with :func:`phase`
(or :func:`add`). The variable is copied into the worker threads that run sync routes, so the
same object collects the phases of the event loop and of the thread. The response carries them
as ``Server-Timing: slot;dur=0.1, thread;dur=0.3, embed;dur=2.1, pool;dur=0.0, sql;dur=9.8,
app;dur=14.2`` (milliseconds; ``app`` is the whole time in the application, from the request's
arrival to its response headers) and, at DEBUG level, one log line per request on the logger
``workbench.notes.service.timing``.

Phases of a search (``POST /api/notes/search``):

=========  =====================================================================================
``thread`` handing work to a worker thread (twice: the query's embedding, the statement)
``resume`` the event loop taking the finished work back (a busy or blocked loop shows here)
``embed``  embedding the query text with the API's model (holding no slot, no connection)
``slot``   waiting for one of the owner's database slots (:mod:`.fairness`), in the event loop
``pool``   waiting for a pooled connection
``sql``    the search statement, rows fetched
``app``    everything, including the above, validation and the JSON encoding of the answer
=========  =====================================================================================

Writes add ``embed_wait`` (their texts embedded by the background worker, :mod:`.embedder`)
and ``db`` (their transaction).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["RequestTimings", "ServerTiming", "add", "current", "in_thread", "phase"]

_log = logging.getLogger("workbench.notes.service.timing")
T = TypeVar("T")


class RequestTimings:
    """The phases of one request [ms], in the order they were first added."""

    __slots__ = ("phases", "start")

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.phases: dict[str, float] = {}

    def add(self, name: str, ms: float) -> None:
        """Add ``ms`` [ms] to phase ``name``."""
        self.phases[name] = self.phases.get(name, 0.0) + ms

    def header(self) -> str:
        """The ``Server-Timing`` header value, ``app`` last."""
        app_ms = (time.perf_counter() - self.start) * 1e3
        parts = [f"{name};dur={ms:.2f}" for name, ms in self.phases.items()]
        parts.append(f"app;dur={app_ms:.2f}")
        return ", ".join(parts)


_current: ContextVar[RequestTimings | None] = ContextVar("workbench_request_timings", default=None)


def current() -> RequestTimings | None:
    """The timings of the request being served, or None (outside a request, the MCP server)."""
    return _current.get()


def add(name: str, ms: float) -> None:
    """Add ``ms`` [ms] to phase ``name`` of the current request (nothing outside one)."""
    timings = _current.get()
    if timings is not None:
        timings.add(name, ms)


_SCHED = os.environ.get("WORKBENCH_TIMING_SCHED", "").strip() in ("1", "true", "yes", "on")


def _schedstat() -> tuple[float, float]:
    """The calling thread's CPU time and time waiting on a run queue so far [ms] (Linux)."""
    tid = threading.get_native_id()
    with open(f"/proc/self/task/{tid}/schedstat", encoding="ascii") as stat:
        cpu_ns, wait_ns, _ = stat.read().split()
    return int(cpu_ns) / 1e6, int(wait_ns) / 1e6


@contextmanager
def phase(name: str) -> Iterator[None]:
    """Count the time spent in the ``with`` block as phase ``name`` of the current request.

    With ``WORKBENCH_TIMING_SCHED=1`` (profiling, Linux) the block's thread CPU time and its
    wait for a core are added too, as ``<name>_cpu`` and ``<name>_runq``; the rest of the
    phase is time the thread was blocked (input/output, a lock, the interpreter lock).
    """
    timings = _current.get()
    if timings is None:
        yield
        return
    sched = _schedstat() if _SCHED else None
    start = time.perf_counter()
    try:
        yield
    finally:
        timings.add(name, (time.perf_counter() - start) * 1e3)
        if sched is not None:
            cpu, wait = _schedstat()
            timings.add(f"{name}_cpu", cpu - sched[0])
            timings.add(f"{name}_runq", wait - sched[1])


async def in_thread(work: Callable[[], T]) -> T:
    """``work()`` in a worker thread.

    The wait for a thread counts as phase ``thread``, the wait of the finished work for the
    event loop to take it up again as ``resume`` (long when the loop is busy or blocked).
    """
    asked = time.perf_counter()
    done = [0.0]

    def run() -> T:
        add("thread", (time.perf_counter() - asked) * 1e3)
        try:
            return work()
        finally:
            done[0] = time.perf_counter()

    result = await anyio.to_thread.run_sync(run)
    add("resume", (time.perf_counter() - done[0]) * 1e3)
    return result


class ServerTiming:
    """ASGI middleware: collect a request's phases and send them as ``Server-Timing``.

    Parameters
    ----------
    app : ASGI application
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request with a fresh :class:`RequestTimings` in the context."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        timings = RequestTimings()
        token = _current.set(timings)

        async def send_with_timing(message: Message) -> None:
            if message["type"] == "http.response.start":
                value = timings.header()
                message = {
                    **message,
                    "headers": [*message.get("headers", ()), (b"server-timing", value.encode())],
                }
                if _log.isEnabledFor(logging.DEBUG):
                    _log.debug("%s %s %s", scope.get("method"), scope.get("path"), value)
            await send(message)

        try:
            await self.app(scope, receive, send_with_timing)
        finally:
            _current.reset(token)
