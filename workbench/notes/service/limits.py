"""Request body size cap: an ASGI middleware that answers 413 before a large body is read.

A body announced larger than the cap (``Content-Length``) is refused at once, without reading it.
A body without ``Content-Length`` (chunked transfer) is counted as it streams in and refused as
soon as it passes the cap, so the server never holds more than the cap of it in memory. The cap
is ``WORKBENCH_MAX_BODY_BYTES`` (default 16 MiB, :class:`~.settings.ServiceSettings`).
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodySizeLimit", "BodyTooLarge"]


class BodyTooLarge(HTTPException):
    """The request body passed the cap (raised from ``receive``; answered 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            413,
            f"the request body is larger than {limit} bytes (WORKBENCH_MAX_BODY_BYTES); "
            "send fewer notes per request",
        )


class BodySizeLimit:
    """Refuse request bodies over ``max_bytes`` with 413 and a JSON error body.

    Parameters
    ----------
    app : ASGI application
    max_bytes : int
        Largest accepted body [bytes].
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection, refusing an HTTP body over the cap with 413.

        A ``Content-Length`` over the cap is answered before the body is read (400 when the header
        is not a number); otherwise the body is counted as the application reads it. Connections
        other than HTTP (lifespan, websockets) pass through unchanged.
        """
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                length = value
        if length is not None:
            try:
                announced = int(length)
            except ValueError:
                await _answer(send, 400, "bad_request", "the Content-Length header is not a number")
                return
            if announced > self.max_bytes:
                await _answer(send, 413, "payload_too_large", BodyTooLarge(self.max_bytes).detail)
                return

        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except BodyTooLarge as exc:
            if started:
                raise
            await _answer(send, 413, "payload_too_large", exc.detail)


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
