"""The MCP tool server: ``search_notes(query, limit)`` over streamable HTTP at ``/mcp``.

It uses the ``mcp`` SDK (2.x, :class:`mcp.server.mcpserver.MCPServer`) with the same bearer tokens
as the HTTP API: the SDK's bearer middleware asks :class:`RegistryTokenVerifier`, which answers
with the token's owner, and the tool searches that owner's notes only through
the same :func:`~workbench.notes.service.services.search_as` as ``POST /api/notes/search``. A request
without a valid token is refused with 401 before it reaches the tool. ``GET /healthz`` answers
without a token.

The server is stateless (each request stands alone) and answers with JSON, so that any number of
clients can call it without sessions. It therefore has no event stream to offer: ``GET /mcp``
(which would open one) answers 405 with ``Allow: POST`` and a JSON error body, before the SDK
would hold an idle stream open.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

import anyio.to_thread
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workbench.notes.service.auth import TokenRegistry
from workbench.notes.service.errors import HTTP_CODES, describe_exception, error_body
from workbench.notes.service.gate import Gate, Refusal, send_error
from workbench.notes.service.rpc_errors import JsonRpcErrors, rpc_id_of
from workbench.notes.service.schemas import SearchHitOut, SearchResponse
from workbench.notes.service.services import MAX_RESULTS, Services, query_problem, search_as

__all__ = [
    "ADMIN_SCOPE",
    "JsonRpcEnvelope",
    "RegistryTokenVerifier",
    "StrictLimit",
    "build_tool_server",
    "create_tools_app",
]

_log = logging.getLogger("workbench.notes.service")

ADMIN_SCOPE = "notes:admin"
"""Scope carried by the administrator's token."""


StrictLimit = Annotated[int, Field(strict=True, ge=1, le=MAX_RESULTS)]
"""``limit`` of ``search_notes``: a JSON integer, 1 to 100 (``true`` or ``"5"`` are refused)."""


class RegistryTokenVerifier:
    """Token verifier of the MCP SDK backed by the service's :class:`TokenRegistry`."""

    def __init__(self, tokens: TokenRegistry) -> None:
        self._tokens = tokens

    async def verify_token(self, token: str) -> AccessToken | None:
        """The access of a bearer token: ``client_id`` and ``subject`` are its owner."""
        principal = self._tokens.lookup(token)
        if principal is None:
            return None
        return AccessToken(
            token=token,
            client_id=principal.owner,
            subject=principal.owner,
            scopes=[ADMIN_SCOPE] if principal.admin else [],
        )


def build_tool_server(
    services: Services, *, public_url: str = "http://127.0.0.1:3001"
) -> MCPServer:
    """The MCP server with the ``search_notes`` tool.

    Parameters
    ----------
    services : Services
        Started services (pool and tokens).
    public_url : str
        This server's base URL, announced as the token issuer.
    """
    server = MCPServer(
        "workbench-notes",
        instructions="Search the caller's engineering notes (refrigeration, heat pumps).",
        token_verifier=RegistryTokenVerifier(services.tokens),
        auth=AuthSettings(issuer_url=public_url, resource_server_url=None),
    )

    @server.tool()
    async def search_notes(query: str, limit: StrictLimit = 10) -> SearchResponse:
        """Hybrid keyword + semantic search of your notes, best first.

        Args:
            query: What to look for, in words (1 to 1,000 characters).
            limit: How many results, 1 to 100.
        """
        access = get_access_token()
        if access is None:  # the bearer middleware refuses such requests first
            raise ToolError("not authenticated: send 'Authorization: Bearer <token>'")
        problem = query_problem(query, "query")
        if problem:
            raise ToolError(problem)
        if isinstance(limit, bool) or not 1 <= limit <= MAX_RESULTS:
            raise ToolError(f"limit must be an integer from 1 to {MAX_RESULTS}, got {limit!r}")
        try:
            hits, took_ms = await search_as(services, query, owner=access.client_id, limit=limit)
        except Exception as exc:  # the HTTP API's map: say why, never only "error executing"
            status, code, message = describe_exception(exc)
            if status >= 500:
                _log.warning("search_notes failed: %s: %s", type(exc).__name__, exc)
            raise ToolError(f"{message} ({code})") from exc
        return SearchResponse(
            query=query,
            took_ms=round(took_ms, 3),
            results=[SearchHitOut(**hit.__dict__) for hit in hits],
        )

    @server.custom_route("/healthz", methods=["GET"])
    async def healthz(_: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    return server


def create_tools_app(
    services: Services, *, host: str = "127.0.0.1", port: int = 3001, public_url: str | None = None
) -> Starlette:
    """The ASGI application of the tool server (``/mcp`` and ``/healthz``).

    Parameters
    ----------
    services : Services
        Started services; closed when the application stops.
    host : str
        The interface it listens on (loopback turns on the SDK's DNS-rebinding protection).
    port : int
        The port it listens on (for the default ``public_url``).
    public_url : str, optional
        Base URL announced as token issuer (default ``http://<host>:<port>``).
    """
    server = build_tool_server(services, public_url=public_url or f"http://{host}:{port}")
    inner = server.streamable_http_app(
        streamable_http_path="/mcp", stateless_http=True, json_response=True, host=host
    )
    inner.add_exception_handler(HTTPException, _json_http_error)  # 413 of a chunked body

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        try:
            async with inner.router.lifespan_context(inner):
                yield
        finally:
            await anyio.to_thread.run_sync(services.close)

    app = Starlette(routes=[Mount("/", app=JsonRpcErrors(inner))], lifespan=lifespan)
    app.add_middleware(JsonRpcEnvelope, path="/mcp")
    app.add_middleware(NoEventStream, path="/mcp")
    app.add_middleware(  # outermost: who, how big and how much, from the headers
        Gate,
        settings=services.settings,
        tokens=lambda _scope: None if services.closed else services.tokens,
        jsonrpc=True,
    )
    return app


async def _json_http_error(_: Request, exc: Exception) -> JSONResponse:
    """An HTTP error raised inside the MCP application, as the service's JSON error body."""
    assert isinstance(exc, HTTPException)
    code = HTTP_CODES.get(exc.status_code, "http_error")
    return JSONResponse(
        error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
    )


class NoEventStream:
    """Answer ``GET`` on the stateless MCP endpoint with 405 (no server-sent event stream).

    Parameters
    ----------
    app : ASGI application
    path : str
        The MCP endpoint.
    """

    def __init__(self, app: ASGIApp, path: str) -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection; ``GET`` of the endpoint answers 405 at once."""
        if (
            scope["type"] == "http"
            and scope.get("method") == "GET"
            and scope["path"].rstrip("/") == self.path
        ):
            await send_error(
                send,
                Refusal(
                    405,
                    "method_not_allowed",
                    "this MCP server is stateless and answers in JSON: send requests with POST; "
                    "it opens no event stream",
                    ((b"allow", b"POST"),),
                ),
                jsonrpc=True,
            )
            return
        await self.app(scope, receive, send)


def _envelope_problem(message: object) -> tuple[int, str] | None:
    """``(JSON-RPC code, reason)`` when ``message`` is not one JSON-RPC 2.0 message, or None."""
    if not isinstance(message, dict):
        return -32600, "the body must be one JSON-RPC 2.0 object (batches are not supported)"
    if message.get("jsonrpc") != "2.0":
        return -32600, "'jsonrpc' must be \"2.0\""
    if "id" in message:
        rpc_id = message["id"]
        if isinstance(rpc_id, bool) or not isinstance(rpc_id, str | int):
            return -32600, "'id' must be a string or an integer"
    if "method" in message and not isinstance(message["method"], str):
        return -32600, "'method' must be a string"
    if "method" not in message and "result" not in message and "error" not in message:
        return -32600, "a JSON-RPC message needs 'method' (or 'result' / 'error')"
    return None


def _parse_envelope(body: bytes) -> tuple[object, tuple[int, str] | None]:
    try:
        message = json.loads(body)
    except (ValueError, RecursionError) as exc:
        return None, (-32700, f"parse error: the body is not JSON ({type(exc).__name__})")
    return message, _envelope_problem(message)


class JsonRpcEnvelope:
    """Refuse a ``POST`` to the MCP endpoint that is not one JSON-RPC message, as JSON-RPC.

    The SDK answers a wrong content type in plain text and takes ``"id": {}`` for a notification
    (202, empty body); here a content type other than ``application/json`` answers 415, a body
    that is not JSON 400 (``-32700``) and a message with a bad ``jsonrpc``, ``id`` or
    ``method`` 400 (``-32600``), each a JSON-RPC error object. The body (at most
    :data:`~.gate.TOOL_BODY_BYTES`, read whole by the gate) is parsed in a worker thread.

    Parameters
    ----------
    app : ASGI application
    path : str
        The MCP endpoint.
    """

    def __init__(self, app: ASGIApp, path: str) -> None:
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection; a malformed MCP ``POST`` answers a JSON-RPC error."""
        if (
            scope["type"] != "http"
            or scope.get("method") != "POST"
            or scope["path"].rstrip("/") != self.path
        ):
            await self.app(scope, receive, send)
            return
        ctype = b""
        for name, value in scope.get("headers", ()):
            if name == b"content-type":
                ctype = value.split(b";")[0].strip().lower()
        if ctype != b"application/json":
            await send_error(
                send,
                Refusal(
                    415,
                    "unsupported_media_type",
                    "send the JSON-RPC message with 'Content-Type: application/json'",
                ),
                jsonrpc=True,
            )
            return
        first = await receive()
        body = first.get("body", b"") if first["type"] == "http.request" else b""
        message, problem = await anyio.to_thread.run_sync(_parse_envelope, body)
        if problem is not None:
            code, reason = problem
            rpc_id = rpc_id_of(message)
            status = 400
            await send_error(
                send,
                Refusal(status, "parse_error" if code == -32700 else "invalid_request", reason),
                jsonrpc=True,
                rpc_id=rpc_id,
                rpc_code=code,
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return first
            return await receive()

        await self.app(scope, replay, send)
