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
body over the size cap      413     ``payload_too_large``
any other exception         500     ``internal_error``
==========================  ======  ====================

:func:`describe_exception` is that map; the MCP tool server uses it too, so a tool error says
why (``the note database is unavailable; retry shortly (database_unavailable)``).
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

__all__ = [
    "ERROR_RESPONSES",
    "HTTP_CODES",
    "ApiError",
    "describe_exception",
    "error_body",
    "install_error_handlers",
]

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


def _respond(status: int, code: str, message: str, details=None, headers=None) -> JSONResponse:
    return JSONResponse(error_body(code, message, details), status_code=status, headers=headers)


def _location(loc: tuple) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("query", "path", "header"):
        kind = {"query": "query parameter", "path": "path parameter", "header": "header"}[parts[0]]
        return f"{kind} {'.'.join(parts[1:])!r}"
    if parts and parts[0] == "body":
        return "body" + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in parts[1:])
    return ".".join(parts)


_DB_DOWN = "the note database is unavailable; retry shortly"
_POOL_TIMEOUT = (
    "no database connection became available in time (the database is down or every "
    "connection is busy); retry shortly"
)
_NOT_MIGRATED = "the note database schema is not current: run 'workbench notes migrate'"


def describe_exception(exc: BaseException) -> tuple[int, str, str]:
    """``(status, code, message)`` of an exception: the one map of the HTTP API and the MCP tool.

    A bug (any exception not listed in the module docstring) gives 500 ``internal_error``
    naming only the exception type.
    """
    if isinstance(exc, ApiError):
        return exc.status, exc.code, exc.message
    if isinstance(exc, NoteNotFoundError):
        return 404, "not_found", str(exc)
    if isinstance(exc, EmbeddingError):
        return 502, "embedding_failed", str(exc)
    if isinstance(exc, MigrationError):
        return 503, "not_migrated", str(exc)
    if isinstance(exc, NoteStoreError):
        return 400, "bad_request", str(exc)
    if isinstance(exc, PoolTimeout):
        return 503, "database_unavailable", _POOL_TIMEOUT
    if isinstance(exc, psycopg.errors.UndefinedTable | psycopg.errors.UndefinedColumn):
        return 503, "not_migrated", _NOT_MIGRATED
    if isinstance(exc, psycopg.OperationalError):
        return 503, "database_unavailable", _DB_DOWN
    return 500, "internal_error", f"internal error ({type(exc).__name__})"


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn exceptions into JSON error bodies."""

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
        code = HTTP_CODES.get(exc.status_code, "http_error")
        return _respond(exc.status_code, code, str(exc.detail), headers=exc.headers)

    async def _mapped(_: Request, exc: Exception) -> JSONResponse:
        status, code, message = describe_exception(exc)
        if status == 502:
            _log.warning("embedding provider failed: %s", exc)
        elif code == "database_unavailable":
            _log.warning("database unavailable: %s", exc)
        headers = exc.headers if isinstance(exc, ApiError) else None
        # a bug: Starlette logs the traceback, the caller gets a JSON body without internals
        return _respond(status, code, message, headers=headers)

    for exc_class in (
        ApiError,
        NoteNotFoundError,
        EmbeddingError,
        MigrationError,
        NoteStoreError,
        PoolTimeout,
        psycopg.errors.UndefinedTable,
        psycopg.errors.UndefinedColumn,
        psycopg.OperationalError,
        Exception,
    ):
        app.add_exception_handler(exc_class, _mapped)


HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    429: "too_many_requests",
}
"""Error codes of the HTTP statuses that Starlette raises itself."""


ERROR_RESPONSES: dict[int | str, dict] = {
    401: {"model": ErrorBody, "description": "Missing or unknown bearer token"},
    413: {"model": ErrorBody, "description": "Request body over the size cap"},
    422: {"model": ErrorBody, "description": "Invalid parameters or body"},
    503: {"model": ErrorBody, "description": "Database unavailable or busy"},
}
"""OpenAPI ``responses`` shared by the authenticated routes."""
