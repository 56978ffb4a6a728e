"""Bodies in and answers out, within deadlines and caps (used by :mod:`.gate`).

* :func:`read_body` reads a request body whole, refusing it (413) past a cap and (408) past a
  deadline: a body trickling in costs a socket, for the deadline only;
* :func:`drain_body` drops what arrives of a refused request's body, bounded in bytes and time, so
  the client can read the answer;
* :func:`paced` hands a large answer to the connection in pieces, each after the previous ones
  went to the kernel, with a deadline per piece: the application (and the owner's admission)
  ends only when the answer is out, and unread answers do not pile up in the server;
* :func:`send_error` answers a :class:`Refusal` as ``{"error", "message"}`` or, for the tool
  server, as a JSON-RPC error object.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import anyio
from starlette.types import Message, Receive, Send

__all__ = [
    "SEND_CHUNK_BYTES",
    "ClientTooSlow",
    "Refusal",
    "drain_body",
    "paced",
    "read_body",
    "send_error",
]

_DRAIN_S = 2.0
"""Longest time a refused request's body is read and dropped, so the client reads the answer [s]."""

_RPC_CODES = {400: -32600, 401: -32001, 408: -32002, 413: -32003, 415: -32600, 429: -32004}


@dataclass(frozen=True)
class Refusal:
    """An answer the gate gives instead of the application."""

    status: int
    code: str
    message: str
    headers: tuple[tuple[bytes, bytes], ...] = ()


async def send_error(
    send: Send,
    refusal: Refusal,
    *,
    jsonrpc: bool = False,
    rpc_id: object = None,
    rpc_code: int | None = None,
) -> None:
    """Send ``refusal`` as a whole JSON answer and close the connection.

    Parameters
    ----------
    send : ASGI send
    refusal : Refusal
        Status, error code, message and extra headers.
    jsonrpc : bool
        Answer a JSON-RPC error object (the tool server) instead of ``{"error", "message"}``.
    rpc_id : str or int or None
        The JSON-RPC id of the request, when it was readable.
    rpc_code : int, optional
        The JSON-RPC error code (default: one per HTTP status, ``-32000`` for the others).
    """
    if jsonrpc:
        payload: dict = {
            "jsonrpc": "2.0",
            "id": rpc_id,
            "error": {
                "code": rpc_code or _RPC_CODES.get(refusal.status, -32000),
                "message": refusal.message,
                "data": {"status": refusal.status, "error": refusal.code},
            },
        }
    else:
        payload = {"error": refusal.code, "message": refusal.message}
    body = json.dumps(payload).encode()
    await send(
        {
            "type": "http.response.start",
            "status": refusal.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *refusal.headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


SEND_CHUNK_BYTES = 64 * 1024
"""Largest piece of an answer handed to the connection at once [bytes]."""


class ClientTooSlow(Exception):
    """The client did not take a piece of its answer within the deadline."""


def paced(send: Send, deadline_s: float) -> Send:
    """``send`` handing a large answer body over in pieces of :data:`SEND_CHUNK_BYTES`.

    uvicorn writes a body message into the connection's buffer at once and waits for a slow
    client only before the *next* message: a page sent as one message ends the application
    (and so the owner's admission) while megabytes wait in user space for a client that may
    never read them. In pieces, each waits until the previous ones have gone to the kernel;
    a piece the client does not make room for within ``deadline_s`` [s] ends the answer
    (:class:`ClientTooSlow`, the connection is closed).
    """

    async def timed(message: Message) -> None:
        with anyio.move_on_after(deadline_s) as timer:
            await send(message)
        if timer.cancelled_caught:
            raise ClientTooSlow

    async def paced(message: Message) -> None:
        body = message.get("body", b"")
        if message["type"] != "http.response.body" or len(body) <= SEND_CHUNK_BYTES:
            await timed(message)
            return
        more = message.get("more_body", False)
        view = memoryview(body)
        for start in range(0, len(body), SEND_CHUNK_BYTES):
            last = start + SEND_CHUNK_BYTES >= len(body)
            await timed(
                {
                    "type": "http.response.body",
                    "body": bytes(view[start : start + SEND_CHUNK_BYTES]),
                    "more_body": more or not last,
                }
            )

    return paced


async def read_body(receive: Receive, cap: int, deadline: float) -> bytes | Refusal:
    """The whole body, or the refusal: 413 over ``cap``, 408 after ``deadline`` (monotonic)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        with anyio.move_on_after(max(0.0, deadline - time.monotonic())) as timer:
            message = await receive()
        if timer.cancelled_caught:
            return Refusal(
                408,
                "body_timeout",
                "the request body did not arrive within WORKBENCH_BODY_TIMEOUT_S; "
                "the connection is closed",
            )
        if message["type"] != "http.request":
            return Refusal(0, "disconnected", "the client went away")
        part = message.get("body", b"")
        size += len(part)
        if size > cap:
            return Refusal(
                413,
                "payload_too_large",
                f"the request body is larger than {cap} bytes, the most this route takes "
                "(WORKBENCH_MAX_BODY_BYTES for imports); send fewer notes per request",
            )
        if part:
            chunks.append(part)
        if not message.get("more_body", False):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


async def drain_body(receive: Receive, limit: int) -> int:
    """Read and drop up to ``limit`` bytes of the body for at most :data:`_DRAIN_S`.

    A server that closes a connection with unread request bytes makes the kernel reset it, and
    the client may lose the answer; dropping the chunks as they come holds none of them.

    Returns
    -------
    int
        The bytes read and dropped [bytes].
    """
    seen = 0
    with anyio.move_on_after(_DRAIN_S):
        while seen <= limit:
            message = await receive()
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if not message.get("more_body", False):
                break
    return seen
