"""Request size and concurrency caps: ASGI middlewares that answer before a large body is read.

:class:`ImportSlots` serves at most ``WORKBENCH_MAX_IMPORTS`` imports (``POST /api/notes/import``)
at a time: one more answers 429 with ``Retry-After`` without keeping its body (read and dropped
chunk by chunk, so that the client can read the answer), so the memory of imports is bounded by that number times what one import of the largest body holds. When the
last running import ends, the allocator's free pages go back to the system
(:func:`~.memory.release_memory`).


A body announced larger than the cap (``Content-Length``) is refused at once, without reading it.
A body without ``Content-Length`` (chunked transfer) is counted as it streams in and refused as
soon as it passes the cap, so the server never holds more than the cap of it in memory. The cap
is ``WORKBENCH_MAX_BODY_BYTES`` (default 16 MiB, :class:`~.settings.ServiceSettings`).
"""

from __future__ import annotations

import json

import anyio.to_thread
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workbench.notes.service.memory import release_memory

__all__ = ["BodySizeLimit", "BodyTooLarge", "ImportSlots", "answer_json"]


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
                await answer_json(
                    send, 400, "bad_request", "the Content-Length header is not a number"
                )
                return
            if announced > self.max_bytes:
                await answer_json(
                    send, 413, "payload_too_large", BodyTooLarge(self.max_bytes).detail
                )
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
            await answer_json(send, 413, "payload_too_large", exc.detail)


class ImportSlots:
    """Serve at most ``slots`` requests of ``method path`` at once; answer 429 beyond that.

    Parameters
    ----------
    app : ASGI application
    slots : int
        Requests served at the same time [-].
    path, method : str
        The route that is limited (the bulk import by default).
    retry_after_s : int
        ``Retry-After`` of a 429 answer [s].
    """

    def __init__(
        self,
        app: ASGIApp,
        slots: int,
        *,
        path: str = "/api/notes/import",
        method: str = "POST",
        retry_after_s: int = 5,
        drain_bytes: int = 16 * 1024 * 1024,
    ) -> None:
        self.app = app
        self.slots = slots
        self.drain_bytes = drain_bytes
        self.path = path
        self.method = method
        self.retry_after_s = retry_after_s
        self.running = 0  # touched only by the event loop's thread

    async def _drain(self, receive: Receive) -> None:
        """Read and drop the body (up to ``drain_bytes``), so the client reads the 429.

        A server that closes a connection with unread request bytes makes the kernel reset
        it, and the client may lose the answer; dropping the chunks as they come holds none.
        """
        seen = 0
        while seen <= self.drain_bytes:
            message = await receive()
            if message["type"] != "http.request":
                return
            seen += len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection; a limited request beyond the slots answers 429.

        The refused request's body is read and dropped chunk by chunk (never held).
        """
        if (
            scope["type"] != "http"
            or scope["path"] != self.path
            or scope.get("method") != self.method
        ):
            await self.app(scope, receive, send)
            return
        if self.running >= self.slots:
            await self._drain(receive)
            await answer_json(
                send,
                429,
                "too_many_imports",
                f"{self.running} imports are running, the most this server takes at once "
                f"(WORKBENCH_MAX_IMPORTS); retry in {self.retry_after_s} s",
                headers=[(b"retry-after", str(self.retry_after_s).encode())],
            )
            return
        self.running += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.running -= 1
            if self.running == 0:  # give the pages of the parsed bodies back to the system
                await anyio.to_thread.run_sync(release_memory)


async def answer_json(
    send: Send,
    status: int,
    code: str,
    message: str,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """Send a whole JSON error response ``{"error": code, "message": message}`` and close."""
    body = json.dumps({"error": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
