"""uvicorn's HTTP/1.1 protocol (h11) answering malformed requests with a JSON error body.

uvicorn answers a request it cannot parse (a garbage request line, conflicting or negative
``Content-Length``, a request line or header block over h11's 16 KiB limit, bad header
characters) itself, before any application code runs, with ``400 Invalid HTTP request received.``
in ``text/plain``. :class:`JsonErrorH11Protocol` sends the same 400 as the service's other errors,
``{"error": "bad_request", "message": ...}`` in ``application/json``, then closes the connection
as uvicorn does. Pass it as ``uvicorn.run(app, http=JsonErrorH11Protocol)``.

What still cannot be JSON (no HTTP answer is possible or the server never sees a request): a
client that is still sending when the server closes the connection after that 400 (a 300 KB
request line) may see a TCP reset before it reads the body; a connection closed or timed out
before a full request line arrived gets no answer at all; TLS errors happen below HTTP.
"""

from __future__ import annotations

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEADER_TIMEOUT_S", "INVALID_REQUEST_MESSAGE", "JsonErrorH11Protocol"]

INVALID_REQUEST_MESSAGE = (
    "invalid HTTP request: a malformed request line or header, conflicting or negative "
    "Content-Length, or a request line or header block over 16 KiB"
)


HEADER_TIMEOUT_S = 10.0
"""Longest time from a connection's start (or its previous answer) to a whole request head [s]."""


class JsonErrorH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with the 400 for an unparsable request as a JSON error body.

    It also closes a connection whose request line and headers have not all arrived within
    :data:`HEADER_TIMEOUT_S` of its start or of its previous answer. uvicorn has no such
    deadline (its keep-alive timer stops at the first byte), so a client sending a header byte
    every few seconds kept a connection, and its buffers, forever; the body's deadline is the
    gate's (``WORKBENCH_BODY_TIMEOUT_S``, :mod:`.gate`).
    """

    header_timeout_s = HEADER_TIMEOUT_S

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start serving the connection, and its deadline for the first request head."""
        super().connection_made(transport)
        self._arm_header_deadline()

    def on_response_complete(self) -> None:
        """An answer was sent: the next request head has its own deadline."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_header_deadline()

    def _arm_header_deadline(self) -> None:
        waiting_for = self.cycle
        self.loop.call_later(self.header_timeout_s, self._header_deadline, waiting_for)

    def _header_deadline(self, waiting_for: object) -> None:
        """Close the connection if no new request head arrived since the deadline was set."""
        if (
            self.cycle is waiting_for
            and self.conn.their_state is h11.IDLE
            and not self.transport.is_closing()
        ):
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """Answer 400 ``bad_request`` in JSON and close the connection (``msg`` is uvicorn's)."""
        body = json.dumps({"error": "bad_request", "message": INVALID_REQUEST_MESSAGE}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        try:
            self.transport.write(
                self.conn.send(
                    h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
                )
            )
            self.transport.write(self.conn.send(h11.Data(data=body)))
            self.transport.write(self.conn.send(h11.EndOfMessage()))
        except h11.LocalProtocolError:  # a response was already under way: only close
            pass
        self.transport.close()
