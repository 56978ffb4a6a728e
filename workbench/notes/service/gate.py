"""The gate in front of both servers: who, how much and how big, decided from the headers.

:class:`Gate` is a pure ASGI middleware, the outermost layer of the HTTP API and of the tool
server. For each request it decides, from the request line and the headers alone, before any
byte of the body is read and before a slot, a pooled connection or a worker thread is taken:

1. **who**: a protected route (``/api/...``, ``/mcp``) without a known bearer token answers 401
   at once (at most :data:`DRAIN_BYTES` of its body are read and dropped, within 2 s, then the
   connection is closed; a sender that keeps pushing refused bodies waits for its answers,
   :mod:`.pacing`); requests without a token
   (health, docs and those 401s) share a rate of ``WORKBENCH_OPEN_RATE`` per second, more
   answer 429. A client without a token thus never touches a slot, a body buffer or the parser;
2. **how big**: a ``Content-Length`` over the route's cap answers 413 (the import route takes
   ``WORKBENCH_MAX_BODY_BYTES``, a create or replace :data:`WRITE_BODY_BYTES`, the tool server
   :data:`TOOL_BODY_BYTES`, every other route :data:`SMALL_BODY_BYTES`);
3. **how much**: the owner's requests in flight in this process (``WORKBENCH_OWNER_REQUESTS``;
   429 beyond), its imports (``WORKBENCH_OWNER_IMPORTS``) within the process's
   ``WORKBENCH_MAX_IMPORTS`` (429 ``too_many_imports`` beyond), and its creates and replaces
   (as many as its database slots, within ``WORKBENCH_MAX_WRITES``; waiting in the event loop
   for at most 10 s, then 503 ``busy``); an import of an owner paced beside another owner first
   waits for its ``not_before`` (:mod:`.import_pacing`), holding its socket only.

Only then is the body read, within ``WORKBENCH_BODY_TIMEOUT_S`` from that moment (a body still
arriving then answers 408 and the connection is closed: a slowloris costs a socket) and within
the cap (a chunked body is counted as it arrives), and handed to the application whole. The
owner's admission is held until the application returns; the answer's body is handed to the
connection in pieces of :data:`SEND_CHUNK_BYTES`, each after the previous ones went to the
kernel (uvicorn waits for a slow client only between messages), so the application returns
only when all but the last piece are sent: an owner's answers waiting for clients that do not
read count against its requests in flight, and do not pile up in the server's buffers. A piece
the client leaves unread for ``WORKBENCH_BODY_TIMEOUT_S`` ends the answer and the connection.

The tool server answers every refusal as a JSON-RPC error object (``jsonrpc=True``), the HTTP
API as ``{"error": CODE, "message": TEXT}``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.import_pacing import ImportPacing
from workbench.notes.service.pacing import DrainBudget
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.transfer import (
    SEND_CHUNK_BYTES,
    ClientTooSlow,
    Refusal,
    drain_body,
    paced,
    read_body,
    send_error,
)

__all__ = [
    "SEND_CHUNK_BYTES",
    "SMALL_BODY_BYTES",
    "TOOL_BODY_BYTES",
    "WRITE_BODY_BYTES",
    "Admission",
    "Gate",
    "RateBucket",
    "send_error",
]

WRITE_BODY_BYTES = 2 * 1024 * 1024
"""Largest body of a create or replace [bytes]: 200,000 characters of content, each escaped as
up to 6 bytes of JSON (``\\uXXXX``) are 1.2 MB, with the title 1.21 MB."""

TOOL_BODY_BYTES = 1024 * 1024
"""Largest body of a tool-server request [bytes] (a ``search_notes`` call is under 8 kB)."""

SMALL_BODY_BYTES = 64 * 1024
"""Largest body of the routes that take none (search, list, read, delete, admin) [bytes]."""

DRAIN_BYTES = 1024 * 1024
"""Most of a refused request's body read and dropped before the connection is closed [bytes]:
enough for the client of a small request to read its answer, while a client pushing 16 MiB
bodies it has no token for costs the server 1 MiB of reading each, not 16."""

WRITE_WAIT_S = 10.0
"""Longest wait of a create or replace for a write slot before 503 ``busy`` [s]."""

_PROTECTED = ("/api/", "/mcp")


class RateBucket:
    """A token bucket: at most ``rate`` events per second on average, ``burst`` at once.

    Parameters
    ----------
    rate : float
        Events per second [1/s].
    burst : float, optional
        Bucket size [-] (default ``rate``).
    """

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.burst = burst or rate
        self.level = self.burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Take one token; False when the bucket is empty (the event is refused)."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


class Admission:
    """What one process admits at once, per owner and in all (touched by the event loop only).

    Parameters
    ----------
    settings : ServiceSettings
    """

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.requests: dict[str, int] = {}
        self.imports: dict[str, int] = {}
        self.imports_running = 0
        self.writes: dict[str, anyio.Semaphore] = {}
        self.all_writes = anyio.Semaphore(settings.max_writes)
        self.open = RateBucket(settings.open_rate)

    def enter(self, owner: str) -> Refusal | None:
        """Count a request of ``owner`` in flight, or the refusal when it has too many."""
        running = self.requests.get(owner, 0)
        if running >= self.settings.owner_requests:
            return Refusal(
                429,
                "too_many_requests",
                f"owner {owner!r} already has {running} requests in flight, the most one owner "
                "may have (WORKBENCH_OWNER_REQUESTS); wait for their answers",
                ((b"retry-after", b"1"),),
            )
        self.requests[owner] = running + 1
        return None

    def leave(self, owner: str) -> None:
        """The request of ``owner`` answered."""
        left = self.requests.get(owner, 1) - 1
        if left:
            self.requests[owner] = left
        else:
            self.requests.pop(owner, None)

    def enter_import(self, owner: str) -> Refusal | None:
        """Take an import slot of ``owner`` and of the process, or the refusal."""
        mine = self.imports.get(owner, 0)
        if mine >= self.settings.owner_imports or self.imports_running >= self.settings.max_imports:
            which = (
                f"{self.imports_running} imports are running, the most this server takes "
                "at once (WORKBENCH_MAX_IMPORTS)"
                if self.imports_running >= self.settings.max_imports
                else f"owner {owner!r} has {mine} imports running (WORKBENCH_OWNER_IMPORTS)"
            )
            return Refusal(
                429, "too_many_imports", f"{which}; retry in 5 s", ((b"retry-after", b"5"),)
            )
        self.imports[owner] = mine + 1
        self.imports_running += 1
        return None

    def leave_import(self, owner: str) -> None:
        """The import of ``owner`` ended."""
        self.imports_running -= 1
        left = self.imports.get(owner, 1) - 1
        if left:
            self.imports[owner] = left
        else:
            self.imports.pop(owner, None)

    def write_slot(self, owner: str) -> anyio.Semaphore:
        """The semaphore of ``owner``'s creates and replaces."""
        sem = self.writes.get(owner)
        if sem is None:
            sem = self.writes[owner] = anyio.Semaphore(self.settings.per_owner_connections)
        return sem


def _kind(method: str, path: str) -> str:
    """``open``, ``mcp``, ``import``, ``write`` or ``other`` (a protected route without a body)."""
    if path.startswith("/mcp"):
        return "mcp"
    if not path.startswith(_PROTECTED[0]):
        return "open"
    if method == "POST" and path == "/api/notes/import":
        return "import"
    if (method == "POST" and path.rstrip("/") == "/api/notes") or (
        method == "PUT" and path.startswith("/api/notes/")
    ):
        return "write"
    return "other"


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return None
    return None


def _content_length(scope: Scope) -> int | Refusal | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return Refusal(400, "bad_request", "the Content-Length header is not a number")
    return None


class Gate:
    """ASGI middleware: authenticate, cap and admit a request from its headers (module doc).

    Parameters
    ----------
    app : ASGI application
    settings : ServiceSettings
    tokens : callable
        ``tokens(scope)``: the token registry in use, or None while the server starts.
    jsonrpc : bool
        Answer refusals as JSON-RPC error objects (the tool server).
    imports : callable, optional
        ``imports(scope)``: the pacing of imports in use (:mod:`.import_pacing`), or None.
    """

    def __init__(
        self,
        app: ASGIApp,
        settings: ServiceSettings,
        tokens: Callable[[Scope], TokenRegistry | None],
        *,
        jsonrpc: bool = False,
        imports: Callable[[Scope], ImportPacing | None] | None = None,
    ) -> None:
        self.app = app
        self.settings = settings
        self.tokens = tokens
        self.jsonrpc = jsonrpc
        self.imports = imports
        self.admission = Admission(settings)
        self.drains = DrainBudget()

    def _cap(self, kind: str) -> int:
        limit = self.settings.max_body_bytes
        return {
            "import": limit,
            "write": min(limit, WRITE_BODY_BYTES),
            "mcp": min(limit, TOOL_BODY_BYTES),
        }.get(kind, min(limit, SMALL_BODY_BYTES))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection (module docstring)."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        kind = _kind(scope.get("method", ""), scope["path"])
        admission = self.admission
        if kind == "open":
            if not admission.open.take():
                await self._refuse(send, _rate_limited(), receive, sender=None)
                return
            await self.app(scope, receive, send)
            return
        registry = self.tokens(scope)
        principal: Principal | None = None
        token = _bearer(scope)
        if registry is not None and token is not None:
            principal = registry.lookup(token)
        if principal is None:
            if registry is None:
                refusal = Refusal(503, "starting", "the service is starting or stopping")
            elif not admission.open.take():
                refusal = _rate_limited()
            else:
                refusal = _unauthorized(token is not None)
            await self._refuse(send, refusal, receive, drain=True, sender=None)
            return
        cap = self._cap(kind)
        length = _content_length(scope)
        if isinstance(length, Refusal):
            await self._refuse(send, length, receive, sender=principal.owner)
            return
        if length is not None and length > cap:
            await self._refuse(send, _too_large(cap), receive, sender=principal.owner)
            return
        refusal = admission.enter(principal.owner)
        if refusal is not None:
            await self._refuse(send, refusal, receive, drain=True, sender=principal.owner)
            return
        try:
            await self._admitted(scope, receive, send, kind, cap, principal)
        finally:
            admission.leave(principal.owner)

    async def _admitted(
        self, scope: Scope, receive: Receive, send: Send, kind: str, cap: int, who: Principal
    ) -> None:
        admission = self.admission
        owner = who.owner
        if kind == "import":
            pacing = self.imports(scope) if self.imports is not None else None
            if pacing is not None:  # before the slot and the body's deadline
                await pacing.wait(owner)
            refusal = admission.enter_import(owner)
            if refusal is not None:
                await self._refuse(send, refusal, receive, drain=True, sender=owner)
                return
            begun = ImportPacing.work_clock()

            async def ending() -> None:  # before the answer ends: the retry sees the pause
                if pacing is not None:
                    await pacing.ended(owner, ImportPacing.work_clock() - begun)

            try:
                await self._pass(
                    scope, receive, send, cap, who, ending=ending if pacing is not None else None
                )
            finally:
                admission.leave_import(owner)
                if admission.imports_running == 0:
                    from workbench.notes.service.memory import release_memory

                    await anyio.to_thread.run_sync(release_memory)
            return
        if kind == "write":
            if await _acquire_both(admission.write_slot(owner), admission.all_writes):
                try:
                    await self._pass(scope, receive, send, cap, who)
                finally:
                    admission.all_writes.release()
                    admission.write_slot(owner).release()
                return
            await self._refuse(
                send,
                Refusal(
                    503,
                    "busy",
                    f"owner {owner!r} or this server already writes as many notes at once as "
                    f"it may (WORKBENCH_MAX_WRITES), and none finished within {WRITE_WAIT_S:.0f} "
                    "s; send fewer writes at once",
                    ((b"retry-after", b"2"),),
                ),
                receive,
                drain=True,
                sender=owner,
            )
            return
        await self._pass(scope, receive, send, cap, who)

    async def _pass(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        cap: int,
        who: Principal,
        *,
        ending: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Read the body within the deadline and the cap, then run the application.

        ``await ending()`` runs before the last message of the application's answer is sent
        (only when the body was read and the application answered).
        """
        body = await read_body(receive, cap, time.monotonic() + self.settings.body_timeout_s)
        if isinstance(body, Refusal):
            if body.status:
                await send_error(send, body, jsonrpc=self.jsonrpc)
            return
        scope.setdefault("state", {})["principal"] = who
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        out = paced(send, self.settings.body_timeout_s)
        if ending is not None:
            out = _before_end(out, ending)
        # uvicorn closes a connection whose answer did not end (ClientTooSlow)
        with contextlib.suppress(ClientTooSlow):
            await self.app(scope, replay, out)

    async def _refuse(
        self,
        send: Send,
        refusal: Refusal,
        receive: Receive,
        *,
        drain: bool = False,
        sender: str | None = None,
    ) -> None:
        """Answer ``refusal``; with ``drain``, first drop what arrives of the body (bounded).

        The refusal and the bytes dropped are charged to ``sender`` (the owner, None without a
        known token); a sender over its budget waits for it first (:mod:`.pacing`).
        """
        drains = self.drains
        wait = drains.wait_s(sender)
        if wait is None:  # too many refusals wait already: answer at once, read nothing
            await send_error(send, refusal, jsonrpc=self.jsonrpc)
            return
        if wait:
            drains.held += 1
            try:
                await anyio.sleep(wait)
            finally:
                drains.held -= 1
        read = 0
        if drain:
            read = await drain_body(receive, min(DRAIN_BYTES, self.settings.max_body_bytes))
        drains.charge(sender, read)
        await send_error(send, refusal, jsonrpc=self.jsonrpc)


def _before_end(send: Send, ending: Callable[[], Awaitable[None]]) -> Send:
    """``send`` that awaits ``ending()`` before the last message of the answer's body."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            await ending()
        await send(message)

    return wrapped


async def _acquire_both(mine: anyio.Semaphore, everyone: anyio.Semaphore) -> bool:
    """Take ``mine`` then ``everyone`` within :data:`WRITE_WAIT_S`; False (holding none) if not."""
    with anyio.move_on_after(WRITE_WAIT_S):
        await mine.acquire()
        try:
            await everyone.acquire()
        except BaseException:  # cancelled or timed out while waiting: give back the first
            mine.release()
            raise
        return True
    return False


def _too_large(cap: int) -> Refusal:
    return Refusal(
        413,
        "payload_too_large",
        f"the request body is larger than {cap} bytes, the most this route takes "
        "(WORKBENCH_MAX_BODY_BYTES for imports); send fewer notes per request",
    )


def _rate_limited() -> Refusal:
    return Refusal(
        429,
        "too_many_requests",
        "too many requests without a token (WORKBENCH_OPEN_RATE per second); retry in 1 s",
        ((b"retry-after", b"1"),),
    )


def _unauthorized(had_token: bool) -> Refusal:
    if had_token:
        return Refusal(
            401,
            "unauthorized",
            "unknown bearer token",
            ((b"www-authenticate", b'Bearer error="invalid_token"'),),
        )
    return Refusal(
        401,
        "unauthorized",
        "missing bearer token: send 'Authorization: Bearer <token>'",
        ((b"www-authenticate", b"Bearer"),),
    )
