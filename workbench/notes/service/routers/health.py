"""``/healthz`` (the process is up) and ``/readyz`` (database reachable, migrations applied)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from workbench.notes.migrations import current_version, pending_migrations
from workbench.notes.service.schemas import HealthOut, ReadyOut

__all__ = ["router"]

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
def readyz(request: Request) -> JSONResponse:
    """200 when the database answers and every migration is applied, else 503; no token needed."""
    services = getattr(request.app.state, "services", None)
    if services is None or services.closed:
        body = ReadyOut(status="not_ready", database="unreachable", message="starting")
        return JSONResponse(body.model_dump(), status_code=503)
    try:
        with services.pool.connection(timeout=_READY_TIMEOUT_S) as conn:
            conn.execute("SELECT 1")
            version = current_version(conn)
            pending = [m.id for m in pending_migrations(conn)]
    except Exception as exc:  # any failure to reach the database means "not ready"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        body = ReadyOut(status="not_ready", database="unreachable", message=first)
        return JSONResponse(body.model_dump(), status_code=503)
    if pending:
        body = ReadyOut(
            status="not_ready",
            database="ok",
            schema_version=version,
            pending_migrations=pending,
            message="run 'workbench notes migrate'",
        )
        return JSONResponse(body.model_dump(), status_code=503)
    return JSONResponse(
        ReadyOut(status="ready", database="ok", schema_version=version).model_dump()
    )
