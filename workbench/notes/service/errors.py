"""JSON error bodies of the HTTP API.

Every error answers ``{"error": CODE, "message": TEXT}`` (validation errors add ``details``: one
``{"location", "message"}`` per problem). The library's exceptions map to statuses here, in one
place:

==========================  ======  ====================
exception                   status  code
==========================  ======  ====================
``ApiError``                its own its own
``RequestValidationError``  422     ``invalid_request``
``NoteNotFoundError``       404     ``not_found``
``EmbeddingError``          502     ``embedding_failed``
``MigrationError``          503     ``not_migrated``
``NoteStoreError``          400     ``bad_request``
``UndefinedTable``/``Column`` 503   ``not_migrated``
``psycopg.OperationalError``503     ``database_unavailable``
``PoolTimeout``             503     ``database_unavailable``
any other exception         500     ``internal_error``
==========================  ======  ====================
"""

from __future__ import annotations

import logging

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from psycopg_pool import PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from workbench.errors import EmbeddingError, MigrationError, NoteNotFoundError, NoteStoreError
from workbench.notes.service.schemas import ErrorBody

__all__ = ["ApiError", "error_body", "install_error_handlers", "ERROR_RESPONSES"]

_log = logging.getLogger("workbench.notes.service")


class ApiError(Exception):
    """An error answered as ``{"error": code, "message": message}`` with ``status``."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def error_body(code: str, message: str, details: list[dict] | None = None) -> dict:
    """The JSON body of an error."""
    body: dict = {"error": code, "message": message}
    if details:
        body["details"] = details
    return body


def _respond(status: int, code: str, message: str, details=None, headers=None) -> JSONResponse:  # noqa: ANN001
    return JSONResponse(error_body(code, message, details), status_code=status, headers=headers)


def _location(loc: tuple) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("query", "path", "header"):
        kind = {"query": "query parameter", "path": "path parameter", "header": "header"}[parts[0]]
        return f"{kind} {'.'.join(parts[1:])!r}"
    if parts and parts[0] == "body":
        return "body" + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in parts[1:])
    return ".".join(parts)


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn exceptions into JSON error bodies."""

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return _respond(exc.status, exc.code, exc.message, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"location": _location(tuple(err.get("loc", ()))), "message": err.get("msg", "")}
            for err in exc.errors()
        ]
        message = "; ".join(f"{d['location']}: {d['message']}" for d in details)
        return _respond(422, "invalid_request", message or "invalid request", details)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _respond(exc.status_code, code, str(exc.detail), headers=exc.headers)

    @app.exception_handler(NoteNotFoundError)
    async def _not_found(_: Request, exc: NoteNotFoundError) -> JSONResponse:
        return _respond(404, "not_found", str(exc))

    @app.exception_handler(EmbeddingError)
    async def _embedding(_: Request, exc: EmbeddingError) -> JSONResponse:
        _log.warning("embedding provider failed: %s", exc)
        return _respond(502, "embedding_failed", str(exc))

    @app.exception_handler(MigrationError)
    async def _migration(_: Request, exc: MigrationError) -> JSONResponse:
        return _respond(503, "not_migrated", str(exc))

    @app.exception_handler(NoteStoreError)
    async def _store(_: Request, exc: NoteStoreError) -> JSONResponse:
        return _respond(400, "bad_request", str(exc))

    @app.exception_handler(PoolTimeout)
    async def _busy(_: Request, exc: PoolTimeout) -> JSONResponse:
        return _respond(
            503,
            "database_unavailable",
            "no database connection became available in time (the database is down or every "
            "connection is busy); retry shortly",
        )

    @app.exception_handler(psycopg.errors.UndefinedTable)
    @app.exception_handler(psycopg.errors.UndefinedColumn)
    async def _schema(_: Request, exc: psycopg.Error) -> JSONResponse:
        return _respond(
            503,
            "not_migrated",
            "the note database schema is not current: run 'workbench notes migrate'",
        )

    @app.exception_handler(Exception)
    async def _internal(_: Request, exc: Exception) -> JSONResponse:
        # Starlette logs the traceback; the caller gets a JSON body without internals
        return _respond(500, "internal_error", f"internal error ({type(exc).__name__})")

    @app.exception_handler(psycopg.OperationalError)
    async def _db_down(_: Request, exc: psycopg.OperationalError) -> JSONResponse:
        _log.warning("database unavailable: %s", exc)
        return _respond(503, "database_unavailable", "the note database is unavailable")


ERROR_RESPONSES: dict[int | str, dict] = {
    401: {"model": ErrorBody, "description": "Missing or unknown bearer token"},
    422: {"model": ErrorBody, "description": "Invalid parameters or body"},
    503: {"model": ErrorBody, "description": "Database unavailable or busy"},
}
"""OpenAPI ``responses`` shared by the authenticated routes."""
