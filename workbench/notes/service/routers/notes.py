"""``/api/notes``: search, create, read, replace, delete, list and bulk import (owner-scoped).

``GET /api/notes/{id}/scenario`` answers the scenario document kept with a run or sweep note
(the run log, :mod:`workbench.notes.runs`): 404 ``not_found`` for no such note of the caller,
404 ``no_run`` for a note that holds no run.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import psycopg
from fastapi import APIRouter, Query, Response, status

from workbench.errors import NoteStoreError, RunNotFoundError
from workbench.notes import store
from workbench.notes.bulk import records_to_embed
from workbench.notes.embeddings import embedding_text
from workbench.notes.service.bodies import OffLoopBodyRoute
from workbench.notes.service.dependencies import (
    CallerDep,
    ConnectionDep,
    PrincipalDep,
    ServicesDep,
)
from workbench.notes.service.errors import ERROR_RESPONSES, ApiError
from workbench.notes.service.schemas import (
    ErrorBody,
    ImportRequest,
    ImportResultOut,
    NoteCreate,
    NoteList,
    NoteOut,
    NoteReplace,
    ScenarioDocument,
    SearchHitOut,
    SearchResponse,
)
from workbench.notes.service.services import MAX_RESULTS, query_problem, search_as
from workbench.notes.service.writes import embed_for_write, in_database

__all__ = ["router"]

router = APIRouter(
    prefix="/api/notes",
    tags=["notes"],
    responses=ERROR_RESPONSES,
    route_class=OffLoopBodyRoute,  # bodies parsed in a worker thread, within a bound
)
_NOT_FOUND = {404: {"model": ErrorBody, "description": "No such note of the caller"}}
_NO_RUN = {
    404: {
        "model": ErrorBody,
        "description": "No such note of the caller (`not_found`), or the note holds no run "
        "(`no_run`)",
    }
}
MAX_PAGE_BYTES = 4 * 1024 * 1024
"""Text (titles and contents, UTF-8) of one page of ``GET /api/notes`` beyond which it ends [bytes]."""

_CONFLICT = {409: {"model": ErrorBody, "description": "External id already used by the caller"}}


def _out(note: store.Note) -> NoteOut:
    return NoteOut(
        id=note.id,
        owner=note.owner,
        external_id=note.external_id,
        title=note.title,
        content=note.content,
        created_at=note.created_at,
        updated_at=note.updated_at,
    )


@router.post("/search", response_model=SearchResponse, summary="Hybrid search of your notes")
async def search_notes(
    principal: PrincipalDep,
    services: ServicesDep,
    q: Annotated[str | None, Query(description="The search text, 1 to 1,000 characters.")] = None,
    limit: Annotated[
        int, Query(ge=1, le=MAX_RESULTS, description="Results wanted, 1 to 100.")
    ] = 10,
    mode: Annotated[
        Literal["hybrid", "keyword", "semantic"],
        Query(description="Fused ranking, or one branch alone for comparison."),
    ] = "hybrid",
) -> SearchResponse:
    """Keyword (full-text) and semantic (cosine) rankings fused with Reciprocal Rank Fusion."""
    problem = query_problem(q, "query parameter 'q'")
    if problem:
        raise ApiError(422, "invalid_request", problem)
    hits, took_ms = await search_as(services, q, owner=principal.owner, limit=limit, mode=mode)
    return SearchResponse(
        query=q,
        took_ms=round(took_ms, 3),
        results=[SearchHitOut(**hit.__dict__) for hit in hits],
    )


@router.post(
    "",
    response_model=NoteOut,
    status_code=status.HTTP_201_CREATED,
    responses=_CONFLICT,
    summary="Create a note",
)
async def create_note(
    body: NoteCreate,
    response: Response,
    principal: PrincipalDep,
    services: ServicesDep,
) -> NoteOut:
    """Store a note of the caller with its embedding."""
    owner = principal.owner
    provider = await embed_for_write(services, owner, [embedding_text(body.title, body.content)])
    try:
        note = await in_database(
            services,
            owner,
            lambda conn: store.add_note(
                conn,
                owner,
                body.title,
                body.content,
                external_id=body.external_id,
                provider=provider,
            ),
        )
    except NoteStoreError as exc:
        if isinstance(exc.__cause__, psycopg.errors.UniqueViolation):
            raise ApiError(409, "conflict", str(exc)) from exc
        raise
    response.headers["Location"] = f"/api/notes/{note.id}"
    return _out(note)


@router.get("", response_model=NoteList, summary="List your notes")
def list_notes(
    principal: CallerDep,
    conn: ConnectionDep,
    limit: Annotated[int, Query(ge=1, le=500, description="Notes per page, 1 to 500.")] = 50,
    offset: Annotated[
        int,
        Query(
            ge=0,
            le=store.MAX_OFFSET,
            description=f"Notes to skip, 0 to {store.MAX_OFFSET} (PostgreSQL's bigint).",
        ),
    ] = 0,
) -> NoteList:
    """The caller's notes, newest first; a page holds at most 4 MiB of text.

    Notes are taken in order until their titles and contents pass :data:`MAX_PAGE_BYTES`
    (the note that passes it is the page's last; the first is always sent); ``next_offset``
    is where the next page starts, or null after the last note.
    """
    owner = principal.owner
    notes = store.list_notes(
        conn, owner=owner, limit=limit, offset=offset, max_bytes=MAX_PAGE_BYTES
    )
    total = store.count_notes(conn, owner=owner)
    after = offset + len(notes)
    return NoteList(
        notes=[_out(n) for n in notes],
        total=total,
        limit=limit,
        offset=offset,
        next_offset=after if after < total else None,
    )


@router.post("/import", response_model=ImportResultOut, summary="Import notes in bulk")
async def import_notes(
    body: ImportRequest,
    principal: PrincipalDep,
    services: ServicesDep,
) -> ImportResultOut:
    """Insert or update up to 10,000 notes in one transaction (idempotent by external id)."""
    records = [
        store.NoteInput(
            title=r.title, content=r.content, external_id=r.external_id, source=f"body.notes[{i}]"
        )
        for i, r in enumerate(body.notes)
    ]
    first_seen: dict[str, int] = {}
    for i, rec in enumerate(records):
        if rec.external_id is None:
            continue
        if rec.external_id in first_seen:
            raise ApiError(
                422,
                "invalid_request",
                f"body.notes[{i}].external_id: {rec.external_id!r} already appears at "
                f"body.notes[{first_seen[rec.external_id]}]",
            )
        first_seen[rec.external_id] = i
    owner = principal.owner
    model = services.writer.model_id
    todo = await in_database(
        services, owner, lambda conn: records_to_embed(conn, owner, records, model)
    )
    texts = (embedding_text(records[i].title, records[i].content) for i in todo)
    provider = await embed_for_write(services, owner, texts)  # a few batches of texts at a time
    result = await in_database(
        services, owner, lambda conn: store.import_notes(conn, owner, records, provider=provider)
    )
    return ImportResultOut(**result.__dict__)


@router.get("/{note_id}", response_model=NoteOut, responses=_NOT_FOUND, summary="Read a note")
def read_note(
    note_id: str,
    principal: CallerDep,
    conn: ConnectionDep,
) -> NoteOut:
    """One note of the caller (another owner's note answers 404)."""
    return _out(store.get_note(conn, note_id, owner=principal.owner))


@router.put("/{note_id}", response_model=NoteOut, responses=_NOT_FOUND, summary="Replace a note")
async def replace_note(
    note_id: str,
    body: NoteReplace,
    principal: PrincipalDep,
    services: ServicesDep,
) -> NoteOut:
    """Replace title and content; the embedding is recomputed when the text changed."""
    owner = principal.owner
    provider = await embed_for_write(services, owner, [embedding_text(body.title, body.content)])
    note = await in_database(
        services,
        owner,
        lambda conn: store.update_note(
            conn,
            note_id,
            owner=owner,
            title=body.title,
            content=body.content,
            provider=provider,
        ),
    )
    return _out(note)


@router.delete(
    "/{note_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=_NOT_FOUND,
    summary="Delete a note",
)
def delete_note(
    note_id: str,
    principal: CallerDep,
    conn: ConnectionDep,
) -> Response:
    """Delete a note of the caller and its embedding."""
    store.delete_note(conn, note_id, owner=principal.owner)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/{note_id}/scenario",
    response_model=ScenarioDocument,
    responses=_NO_RUN,
    summary="The scenario kept with a run note",
)
def read_run_scenario(
    note_id: str,
    principal: CallerDep,
    conn: ConnectionDep,
) -> dict[str, Any]:
    """The scenario of a run or sweep note of the caller: solve it to get the stored figures."""
    from workbench.notes.runs import get_run

    try:
        run = get_run(conn, note_id, owner=principal.owner)
    except RunNotFoundError as exc:
        raise ApiError(404, "no_run", str(exc)) from exc
    return run.scenario
