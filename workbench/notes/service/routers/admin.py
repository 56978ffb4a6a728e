"""Administrator routes: background reindex with progress, and embedding validation."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response, status

from workbench.notes.maintenance import validate
from workbench.notes.service.dependencies import AdminDep, ConnectionDep, ServicesDep
from workbench.notes.service.errors import ERROR_RESPONSES, ApiError
from workbench.notes.service.jobs import ReindexConflict
from workbench.notes.service.schemas import ErrorBody, ReindexJobOut, ValidationOut

__all__ = ["router"]

_ADMIN = {
    **ERROR_RESPONSES,
    403: {"model": ErrorBody, "description": "The token is not the administrator's"},
}
router = APIRouter(tags=["admin"], responses=_ADMIN)


@router.post(
    "/api/notes/reindex",
    response_model=ReindexJobOut,
    status_code=status.HTTP_202_ACCEPTED,
    responses={409: {"model": ErrorBody, "description": "A reindex is already running"}},
    summary="Regenerate embeddings in the background",
)
def start_reindex(
    response: Response,
    _: AdminDep,
    services: ServicesDep,
    force: Annotated[bool, Query(description="Re-embed every note, current or not.")] = False,
) -> ReindexJobOut:
    """Start a reindex of every note; poll its progress at ``GET /api/notes/reindex/{job}``."""
    try:
        job = services.jobs.start(force=force)
    except ReindexConflict as exc:
        raise ApiError(409, "reindex_running", str(exc)) from exc
    response.headers["Location"] = f"/api/notes/reindex/{job['job']}"
    return ReindexJobOut(**job)


@router.get(
    "/api/notes/reindex/{job}",
    response_model=ReindexJobOut,
    responses={404: {"model": ErrorBody, "description": "Unknown job id"}},
    summary="Progress of a reindex job",
)
def reindex_progress(
    job: str,
    _: AdminDep,
    services: ServicesDep,
) -> ReindexJobOut:
    """State, notes done out of total, and the counts once finished (from any API process)."""
    found = services.jobs.get(job)
    if found is None:
        raise ApiError(404, "not_found", f"reindex job {job!r} not found (or expired)")
    return ReindexJobOut(**found)


@router.post(
    "/api/admin/embeddings/validate",
    response_model=ValidationOut,
    summary="Check every stored embedding",
)
def validate_embeddings(
    _: AdminDep,
    services: ServicesDep,
    conn: ConnectionDep,
) -> ValidationOut:
    """Check the stored embeddings.

    One embedding per note, 1536 dimensions, the configured model, no NaN or zero vector, made
    from the current text.
    """
    report = validate(conn, provider=services.provider)
    return ValidationOut(
        ok=report.ok,
        model=report.model,
        total_notes=report.total_notes,
        total_embeddings=report.total_embeddings,
        counts=report.counts,
        ids=report.ids,
    )
