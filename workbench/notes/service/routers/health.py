"""``/healthz`` (the process is up) and ``/readyz`` (database reachable, migrations applied).

Neither needs a token, so neither may cost the database a query per call: ``/readyz`` answers
the state cached by :class:`HealthCache`, refreshed at most once per
``WORKBENCH_READY_INTERVAL_S`` (1 s); both routes share the gate's rate for requests without a
token (:mod:`.gate`).
"""

from __future__ import annotations

import time
from typing import Any

import anyio
import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from workbench.notes.migrations import current_version, pending_migrations
from workbench.notes.service.schemas import HealthOut, ReadyOut

__all__ = ["HealthCache", "router"]

router = APIRouter(tags=["health"])
_READY_TIMEOUT_S = 2.0


@router.get("/healthz", response_model=HealthOut, summary="The process is up")
def healthz() -> HealthOut:
    """Always 200 while the process serves; no token needed."""
    return HealthOut(status="ok")


@router.get(
    "/readyz",
    response_model=ReadyOut,
    responses={503: {"model": ReadyOut, "description": "Database unreachable or not migrated"}},
    summary="The service can answer",
)
async def readyz(request: Request) -> JSONResponse:
    """200 when the database answers and every migration is applied, else 503; no token needed.

    Answered from the cached state of :class:`HealthCache`: the database is asked at most once
    per ``WORKBENCH_READY_INTERVAL_S``, by one request at a time, whatever the rate of calls.
    """
    services = getattr(request.app.state, "services", None)
    if services is None or services.closed:
        body = ReadyOut(status="not_ready", database="unreachable", message="starting")
        return JSONResponse(body.model_dump(), status_code=503)
    cache = getattr(request.app.state, "health", None)
    if cache is None:
        cache = request.app.state.health = HealthCache(services.settings.ready_interval_s)
    status, body = await cache.state(services.pool)
    return JSONResponse(body.model_dump(), status_code=status)


class HealthCache:
    """The readiness of the database, checked at most once per ``interval_s``.

    Parameters
    ----------
    interval_s : float
        Shortest time between two checks [s].
    """

    def __init__(self, interval_s: float) -> None:
        self.interval_s = interval_s
        self.checked_at = -float("inf")
        self.checks = 0
        self.answer: tuple[int, ReadyOut] | None = None
        self._lock = anyio.Lock()

    async def state(self, pool: Any) -> tuple[int, ReadyOut]:
        """``(status, body)`` of the last check, checking again once it is ``interval_s`` old."""
        if self.answer is not None and time.monotonic() - self.checked_at < self.interval_s:
            return self.answer
        async with self._lock:  # one check at a time; the others take its answer
            if self.answer is None or time.monotonic() - self.checked_at >= self.interval_s:
                self.answer = await anyio.to_thread.run_sync(_check, pool)
                self.checked_at = time.monotonic()
                self.checks += 1
            return self.answer


def _check(pool: Any) -> tuple[int, ReadyOut]:
    """Ask the database (one pooled connection, one round of queries)."""
    try:
        with pool.connection(timeout=_READY_TIMEOUT_S) as conn:
            conn.execute("SELECT 1")
            version = current_version(conn)
            pending = [m.id for m in pending_migrations(conn)]
    except Exception as exc:  # any failure to reach the database means "not ready"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return 503, ReadyOut(status="not_ready", database="unreachable", message=first)
    if pending:
        return 503, ReadyOut(
            status="not_ready",
            database="ok",
            schema_version=version,
            pending_migrations=pending,
            message="run 'workbench notes migrate'",
        )
    return 200, ReadyOut(status="ready", database="ok", schema_version=version)
