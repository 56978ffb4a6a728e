"""Every error answer of the MCP application as a JSON-RPC error object.

The MCP SDK answers some refusals itself, before any JSON-RPC handling, in plain text: a
``Host`` header it does not serve (421 ``Invalid Host header``, its DNS-rebinding protection on
a loopback server), a foreign ``Origin`` (403), and a body too large for a chunked request
raised inside Starlette answers the service's ``{"error", "message"}``. A JSON-RPC client reads
neither. :class:`JsonRpcErrors` wraps the SDK's application: an answer with a status of 400 or
more whose body is not already a JSON-RPC message is replaced by one, with the same status and
headers (``WWW-Authenticate``, ``Retry-After``, ``Allow``), the SDK's text as ``message`` and
``{"status", "error"}`` as ``data``. Successful answers pass through untouched and unbuffered.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workbench.notes.service.errors import HTTP_CODES
from workbench.notes.service.transfer import Refusal, send_error

__all__ = ["ERROR_TEXT_BYTES", "MESSAGE_CHARS", "JsonRpcErrors", "rpc_id_of"]

ERROR_TEXT_BYTES = 64 * 1024
"""Most of an error answer's original body held back to rewrite it [bytes]."""

MESSAGE_CHARS = 1000
"""Longest ``message`` taken over from an error answer's text [characters]."""

_EXTRA_CODES = {403: "forbidden", 406: "not_acceptable", 421: "misdirected_request"}
_DROPPED_HEADERS = {b"content-type", b"content-length", b"connection"}


def rpc_id_of(message: object) -> str | int | None:
    """The ``id`` of a JSON-RPC message when it is a valid one (a string or an integer)."""
    rpc_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(rpc_id, bool) or not isinstance(rpc_id, str | int):
        return None
    return rpc_id


def _parsed(text: bytes) -> object:
    """The JSON value of an answer's body, or None when it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _reason(parsed: object, text: bytes) -> tuple[str, str | None]:
    """The message of an error body, and its service error code when it had one."""
    if isinstance(parsed, dict) and isinstance(parsed.get("message"), str):
        code = parsed.get("error")
        return parsed["message"][:MESSAGE_CHARS], code if isinstance(code, str) else None
    decoded = text.decode("utf-8", "replace").strip()[:MESSAGE_CHARS]
    return decoded or "the tool server refused the request", None


class JsonRpcErrors:
    """Rewrite the wrapped application's error answers as JSON-RPC error objects.

    Parameters
    ----------
    app : ASGI application
        The MCP SDK's application.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection, holding back only an error answer's start and body."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_body = bytearray()
        held: Message | None = None
        kept = bytearray()

        async def tapped_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request" and len(request_body) < 65536:
                request_body.extend(message.get("body", b"")[: 65536 - len(request_body)])
            return message

        async def rewriting_send(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start" and message["status"] >= 400:
                held = message
                return
            if held is None:
                await send(message)
                return
            if message["type"] != "http.response.body":
                return
            room = ERROR_TEXT_BYTES - len(kept)
            kept.extend(message.get("body", b"")[: max(room, 0)])
            if message.get("more_body", False):
                return
            await self._answer(send, held, bytes(kept), bytes(request_body))

        await self.app(scope, tapped_receive, rewriting_send)

    @staticmethod
    async def _answer(send: Send, start: Message, text: bytes, request_body: bytes) -> None:
        status = int(start["status"])
        headers = tuple(
            (bytes(k).lower(), bytes(v))
            for k, v in start.get("headers", ())
            if bytes(k).lower() not in _DROPPED_HEADERS
        )
        parsed = _parsed(text)
        if isinstance(parsed, dict) and parsed.get("jsonrpc") == "2.0":
            await send(
                {
                    "type": "http.response.start",
                    "status": status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(text)).encode()),
                        *headers,
                    ],
                }
            )
            await send({"type": "http.response.body", "body": text})
            return
        message, code = _reason(parsed, text)
        code = code or HTTP_CODES.get(status) or _EXTRA_CODES.get(status, "http_error")
        await send_error(
            send,
            Refusal(status, code, message, headers),
            jsonrpc=True,
            rpc_id=rpc_id_of(_parsed(request_body)),
        )
