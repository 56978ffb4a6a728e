"""Nobody without a token costs anything; every route has a bounded cost per owner (issue 42).

Real servers on loopback (uvicorn threads with the service's protocol), a real PostgreSQL and
the real query model; every loop is bounded. The items of the issue:

1. slow uploads (with or without a token) take no import slot and time out: 401 / 408;
2. junk bodies: without a token never read or parsed; with one, refused by their shape before
   they become objects (the server's resident size stays put); creates wait for a write slot;
3. list pages are bounded in bytes, and an owner's unread answers count against its requests;
4. one owner's budget is shared by the API and the tool server (advisory locks) and covers the
   query's embedding;
5. ``/readyz`` answers from a cached state; requests without a token are rate-limited;
8. a search hands over to a worker thread once, and embeds inside the owner's slot;
9. every tool-server error is a JSON-RPC error object; ``limit: true`` is refused.

Items 6 (``DATABASE_URL`` secrets) and 7 (concurrent starts) are in
``tests/test_service_start_lock.py``.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import numpy as np
import psycopg
import pytest

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.service.app import create_app
from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.bodies import Shape, shape_problem
from workbench.notes.service.fairness import BUDGET_LOCK_CLASS, SharedBudget
from workbench.notes.service.memory import rss_bytes
from workbench.notes.service.protocol import JsonErrorH11Protocol
from workbench.notes.service.routers.notes import MAX_PAGE_BYTES
from workbench.notes.service.schemas import ImportRequest
from workbench.notes.service.services import Services, start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.tools import create_tools_app

pytest_plugins = ["notes_fixtures"]

ALICE, BOB, CAROL = "alice-g-token-0123456789", "bob-g-token-0123456789", "carol-g-token-01234567"
MIB = 1024 * 1024


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _tokens() -> TokenRegistry:
    return TokenRegistry(
        [
            (ALICE, Principal("alice"), "t"),
            (BOB, Principal("bob"), "t"),
            (CAROL, Principal("carol"), "t"),
        ]
    )


def json_error(resp: httpx.Response, status: int, code: str) -> dict:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json"), resp.headers
    body = resp.json()
    assert body["error"] == code, body
    assert body["message"]
    return body


def rpc_error(resp: httpx.Response, status: int, code: str) -> dict:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json"), resp.headers
    body = resp.json()
    assert body["jsonrpc"] == "2.0", body
    assert "result" not in body, body
    assert isinstance(body["error"]["code"], int), body
    assert body["error"]["message"], body
    assert body["error"]["data"]["error"] == code, body
    return body


class WatchingProvider(EmbeddingProvider):
    """The real model; records whether the owner's shared slot was held at each embedding."""

    def __init__(self, model: EmbeddingProvider) -> None:
        self.model = model
        self.model_id, self.dimension = model.model_id, model.dimension
        self.batch_size = model.batch_size
        self.url: str | None = None
        self.budget: SharedBudget | None = None
        self.seen: list[int] = []

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        if self.url and self.budget and texts and texts[0].startswith("watched"):
            with psycopg.connect(self.url, autocommit=True) as conn:
                self.seen.append(self.budget.held(conn, "alice"))
        return self.model.embed(texts)


@pytest.fixture(scope="module")
def watcher(minilm) -> WatchingProvider:
    return WatchingProvider(minilm)


@pytest.fixture(scope="module")
def settings(module_db_url: str) -> ServiceSettings:
    return ServiceSettings(
        database_url=module_db_url,
        db_wait_s=10,
        pool_size=8,
        owner_connections=1,
        owner_requests=4,
        max_imports=2,
        owner_imports=1,
        max_writes=2,
        body_timeout_s=2.0,
        ready_interval_s=1.0,
        open_rate=30.0,
    )


@pytest.fixture(scope="module")
def services(settings: ServiceSettings, watcher: WatchingProvider) -> Iterator[Services]:
    running = start_services(settings, _tokens(), provider=watcher)
    watcher.url, watcher.budget = settings.database_url, running.budget
    yield running
    running.close()


@pytest.fixture(scope="module")
def server(services: Services) -> Iterator[ServerThread]:
    with ServerThread(create_app(services)) as srv:
        yield srv


@pytest.fixture(scope="module")
def tool_services(settings: ServiceSettings, minilm) -> Iterator[Services]:
    """The tool server's own services: its own pool, as another process would have."""
    running = start_services(settings, _tokens(), provider=minilm)
    yield running
    running.close()


@pytest.fixture(scope="module")
def tool_server(tool_services: Services) -> Iterator[ServerThread]:
    with ServerThread(create_tools_app(tool_services)) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(server: ServerThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def _open(port: int, head: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(head)
    return sock


def _read_all(sock: socket.socket, limit_s: float = 30.0) -> bytes:
    sock.settimeout(limit_s)
    out = b""
    with contextlib.suppress(ConnectionResetError, TimeoutError):
        while chunk := sock.recv(65536):
            out += chunk
    return out


def _import(client: httpx.Client, token: str, tag: str) -> httpx.Response:
    notes = [{"title": f"Note {tag}", "content": f"condenser fan {tag}", "external_id": tag}]
    return client.post("/api/notes/import", json={"notes": notes}, headers=auth(token))


def _search(client: httpx.Client, token: str, q: str = "condenser fan") -> httpx.Response:
    return client.post("/api/notes/search", params={"q": q, "limit": 3}, headers=auth(token))


# -- 1. slow uploads take nothing without a token, and time out with one ----------------------


@pytest.mark.db
def test_service_slow_uploads_without_token_leave_imports_to_others(
    server: ServerThread, client: httpx.Client
) -> None:
    head = (
        b"POST /api/notes/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100000\r\n\r\n"
    )
    slow = [_open(server.port, head) for _ in range(4)]  # more than WORKBENCH_MAX_IMPORTS
    stop = threading.Event()

    def trickle() -> None:  # a byte every 0.3 s on each, for at most 6 s
        for _ in range(20):
            if stop.wait(0.3):
                return
            for sock in slow:
                with contextlib.suppress(OSError):
                    sock.send(b" ")

    feeder = threading.Thread(target=trickle)
    feeder.start()
    try:
        answers = [_import(client, BOB, f"bob-slow-{i}") for i in range(3)]
        for r in answers:
            assert r.status_code == 200, r.text
    finally:
        stop.set()
        feeder.join(10)
    for sock in slow:  # each got its 401 and was closed, before its body arrived
        out = _read_all(sock)
        sock.close()
        assert out.startswith(b"HTTP/1.1 401"), out[:200]
        assert b'"unauthorized"' in out


@pytest.mark.db
def test_service_slow_upload_with_token_times_out_and_frees_its_slot(
    server: ServerThread, client: httpx.Client
) -> None:
    head = (
        b"POST /api/notes/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + f"Authorization: Bearer {ALICE}\r\nContent-Length: 100000\r\n\r\n".encode()
        + b'{"notes": ['
    )
    sock = _open(server.port, head)
    try:
        # alice holds her one import slot while her body trickles; bob imports meanwhile
        assert _import(client, BOB, "bob-beside-alice").status_code == 200
        json_error(_import(client, ALICE, "alice-second"), 429, "too_many_imports")
        out = _read_all(sock)  # WORKBENCH_BODY_TIMEOUT_S = 2 s after admission
    finally:
        sock.close()
    assert out.startswith(b"HTTP/1.1 408"), out[:200]
    assert b'"body_timeout"' in out
    assert _import(client, ALICE, "alice-after").status_code == 200  # her slot is free again


@pytest.mark.db
def test_service_slow_request_head_is_closed(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(JsonErrorH11Protocol, "header_timeout_s", 1.0)
    sock = _open(server.port, b"GET /healthz HTTP/1.1\r\n")
    closed = False
    try:
        for _ in range(40):  # a header byte every 0.2 s: at most 8 s
            try:
                sock.send(b"X")
                time.sleep(0.2)
            except OSError:
                closed = True
                break
            sock.setblocking(False)
            try:
                if sock.recv(1) == b"":
                    closed = True
                    break
            except BlockingIOError:
                pass
            finally:
                sock.setblocking(True)
    finally:
        sock.close()
    assert closed, "the server kept a connection whose request head never ended"


# -- 2. junk bodies: not read without a token; bounded by their shape with one ----------------


class PeakRss:
    """Peak resident size of this process (the servers run in it) while the block runs."""

    def __init__(self) -> None:
        self.base = rss_bytes()
        self.peak = self.base
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, rss_bytes())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    @property
    def grew_mib(self) -> float:
        return (self.peak - self.base) / MIB


@pytest.mark.db
def test_service_junk_bodies_are_never_parsed_without_token(
    server: ServerThread, client: httpx.Client
) -> None:
    junk = b'{"notes": [' + b",".join([b"{}"] * (5 * MIB // 3)) + b"]}"  # 5 MiB of {}
    small = junk[: 512 * 1024 - 2] + b"]}"
    with PeakRss() as rss:
        for path in ("/api/notes/import", "/api/notes", "/api/notes/search?q=x"):
            r = client.post(path, content=small, headers={"Content-Type": "application/json"})
            json_error(r, 401, "unauthorized")
            # the server reads at most 1 MiB of a body it has no token for, then closes: the
            # client sees its 401 or, still sending, a closed connection
            try:
                r = client.post(path, content=junk, headers={"Content-Type": "application/json"})
            except httpx.TransportError:
                continue
            json_error(r, 401, "unauthorized")
    # parsed, 5 MiB of {} would be 1.7 million dictionaries: over 100 MiB
    assert rss.grew_mib < 40, rss.grew_mib
    # a body announced but never sent still gets its 401 (the gate does not wait for it)
    sock = _open(
        server.port,
        b"POST /api/notes HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n"
        b"Content-Type: application/json\r\n\r\n",
    )
    try:
        assert _read_all(sock).startswith(b"HTTP/1.1 401")
    finally:
        sock.close()


@pytest.mark.db
def test_service_junk_import_with_token_is_refused_by_its_shape(client: httpx.Client) -> None:
    junk = b'{"notes": [' + b",".join([b"{}"] * (5 * MIB // 3)) + b"]}"
    numbers = b'{"notes": [' + b",".join([b"1"] * (5 * MIB // 2)) + b"]}"
    with PeakRss() as rss:
        for body in (junk, numbers):
            r = client.post(
                "/api/notes/import",
                content=body,
                headers={**auth(ALICE), "Content-Type": "application/json"},
            )
            body_json = json_error(r, 422, "invalid_request")
            assert "fit this route" in body_json["message"]
    assert rss.grew_mib < 40, rss.grew_mib
    # a create's body is capped at 2 MiB from its headers
    r = client.post(
        "/api/notes",
        content=b"x" * (3 * MIB),
        headers={**auth(ALICE), "Content-Type": "application/json"},
    )
    json_error(r, 413, "payload_too_large")


def test_service_shape_check_passes_real_imports_only() -> None:
    shape = ImportRequest.body_shape
    note = {"_id": "a", "title": 'x, {y} [z] "q"', "text": "a, b, c" * 100, "metadata": {}}
    real = json.dumps({"notes": [note] * 10_000}).encode()
    assert shape_problem(real, shape) is None
    assert "objects and arrays" in (shape_problem(b"[" + b"{}," * 50_000 + b"{}]", shape) or "")
    assert "strings" in (shape_problem(b"[" + b'"",' * 400_000 + b'""]', shape) or "")
    assert "values" in (shape_problem(b"[" + b"1," * 200_000 + b"1]", shape) or "")
    one = Shape()
    assert shape_problem(b'{"title": "t", "content": "c"}', one) is None


@pytest.mark.db
def test_service_owner_requests_in_flight_are_capped_from_headers(
    server: ServerThread, client: httpx.Client
) -> None:
    head = (
        b"POST /api/notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + f"Authorization: Bearer {CAROL}\r\nContent-Length: 500\r\n\r\n".encode()
    )
    held = [_open(server.port, head) for _ in range(4)]  # WORKBENCH_OWNER_REQUESTS = 4
    try:
        time.sleep(0.3)  # let the server admit them (their bodies never come)
        json_error(_search(client, CAROL), 429, "too_many_requests")
        assert _search(client, BOB).status_code == 200  # another owner passes
    finally:
        for sock in held:
            sock.close()
    for _ in range(50):  # closed connections leave within the body deadline (2 s)
        r = _search(client, CAROL)
        if r.status_code == 200:
            break
        time.sleep(0.1)
    assert r.status_code == 200, r.text


# -- 3. list pages bounded in bytes; unread answers count against the owner -----------------


@pytest.mark.db
def test_service_list_pages_are_bounded_in_bytes(
    server: ServerThread, client: httpx.Client
) -> None:
    big = "refrigerant charge " * 10_000  # 190,000 characters
    for start in range(0, 30, 10):
        notes = [
            {"title": f"Big {i}", "content": big, "external_id": f"big{i}"}
            for i in range(start, start + 10)
        ]
        r = client.post("/api/notes/import", json={"notes": notes}, headers=auth(CAROL))
        assert r.status_code == 200, r.text
    r = client.get("/api/notes", params={"limit": 500}, headers=auth(CAROL))
    assert r.status_code == 200, r.text
    page = r.json()
    assert page["total"] == 30
    assert 1 <= len(page["notes"]) < 30
    assert len(r.content) < MAX_PAGE_BYTES + 2 * len(big) + 10_000
    seen = [n["id"] for n in page["notes"]]
    offset = page["next_offset"]
    for _ in range(30):  # the pages together hold every note once
        if offset is None:
            break
        nxt = client.get(
            "/api/notes", params={"limit": 500, "offset": offset}, headers=auth(CAROL)
        ).json()
        seen += [n["id"] for n in nxt["notes"]]
        offset = nxt["next_offset"]
    assert len(seen) == len(set(seen)) == 30

    # clients that do not read their page keep counting against carol's requests in flight
    head = (
        b"GET /api/notes?limit=500 HTTP/1.1\r\nHost: x\r\n"
        + f"Authorization: Bearer {CAROL}\r\n\r\n".encode()
    )
    readers = []
    for _ in range(4):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a reader that stalls
        sock.connect(("127.0.0.1", server.port))
        sock.sendall(head)
        readers.append(sock)
    try:
        time.sleep(1.0)  # the server admits the four from their headers
        json_error(_search(client, CAROL), 429, "too_many_requests")
        assert _search(client, BOB).status_code == 200
        # an answer left unread past the deadline (WORKBENCH_BODY_TIMEOUT_S, 2 s) is cut off
        for _ in range(100):
            r = _search(client, CAROL)
            if r.status_code == 200:
                break
            time.sleep(0.2)
        assert r.status_code == 200, r.text
    finally:
        for sock in readers:
            sock.close()


# -- 4. one owner's budget over both servers, covering the query's embedding -----------------


@pytest.mark.db
def test_service_owner_budget_is_shared_by_api_and_tool_server(
    services: Services,
    tool_services: Services,
    client: httpx.Client,
    tool_server: ServerThread,
    settings: ServiceSettings,
) -> None:
    assert _import(client, ALICE, "alice-budget").status_code == 200
    short = SharedBudget(services.budget.per_owner, wait_s=1.0)
    services.budget, tool_services.budget = short, short
    url = settings.database_url
    assert url is not None
    # another session (another process) holds alice's only slot on the database
    with psycopg.connect(url, autocommit=True) as other:
        for key in short.keys("alice"):
            assert other.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (BUDGET_LOCK_CLASS, key)
            ).fetchone()[0]
        json_error(_search(client, ALICE), 503, "busy")
        assert _search(client, BOB).status_code == 200
        call = {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "search_notes", "arguments": {"query": "condenser", "limit": 2}},
        }
        r = httpx.post(f"{tool_server.url}/mcp", json=call, headers=_mcp_headers(ALICE), timeout=30)
        assert r.status_code == 200, r.text
        result = r.json()["result"]
        assert result["isError"] is True
        assert "busy" in result["content"][0]["text"]
    assert _search(client, ALICE).status_code == 200  # released with the other session
    # the query is embedded inside the owner's slot
    watched = client.post(
        "/api/notes/search", params={"q": "watched query", "limit": 1}, headers=auth(ALICE)
    )
    assert watched.status_code == 200, watched.text
    assert services.provider.seen[-1] == 1  # type: ignore[attr-defined]


# -- 5. /readyz from a cached state; requests without a token at a bounded rate ---------------


@pytest.mark.db
def test_service_readyz_is_cached_and_open_routes_are_rate_limited(
    server: ServerThread, client: httpx.Client
) -> None:
    app = server._server.config.app
    start = time.monotonic()
    answers = [client.get("/readyz") for _ in range(20)]
    elapsed = time.monotonic() - start
    assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
    assert answers[-1].json()["status"] == "ready"
    assert app.state.health.checks <= 2 + elapsed / 1.0  # at most one check per second
    statuses = [client.get("/healthz").status_code for _ in range(80)]  # over the 30/s bucket
    assert 429 in statuses
    refused = client.get("/healthz")
    for _ in range(3):
        if refused.status_code == 429:
            break
        refused = client.get("/healthz")
    json_error(refused, 429, "too_many_requests")
    assert refused.headers["retry-after"] == "1"
    assert _search(client, BOB).status_code == 200  # owners with a token are not affected


# -- 8. one hand-over to a thread per search; embedding inside the owner's slot --------------


@pytest.mark.db
def test_service_search_embeds_in_one_thread_inside_the_slot(client: httpx.Client) -> None:
    r = _search(client, BOB, "fan noise at night")
    assert r.status_code == 200, r.text
    phases = [p.split(";")[0].strip() for p in r.headers["server-timing"].split(",")]
    assert phases.count("thread") == 1, phases
    order = [p for p in phases if p in ("slot", "thread", "pool", "budget", "embed", "sql")]
    assert order == ["slot", "thread", "pool", "budget", "embed", "sql"], phases


# -- 9. the tool server answers JSON-RPC error objects ----------------------------------------


def _mcp_headers(token: str | None, ctype: str = "application/json") -> dict[str, str]:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": ctype}
    if token:
        headers.update(auth(token))
    return headers


@pytest.mark.db
def test_service_tool_server_errors_are_json_rpc(tool_server: ServerThread) -> None:
    url = f"{tool_server.url}/mcp"
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    with httpx.Client(timeout=30) as c:
        r = c.post(url, content=b"x" * (2 * MIB), headers=_mcp_headers(ALICE))
        rpc_error(r, 413, "payload_too_large")
        r = c.post(url, content=json.dumps(ping), headers=_mcp_headers(ALICE, "text/plain"))
        rpc_error(r, 415, "unsupported_media_type")
        r = c.post(url, content=b"{not json", headers=_mcp_headers(ALICE))
        assert rpc_error(r, 400, "parse_error")["error"]["code"] == -32700
        bad_id = {"jsonrpc": "2.0", "id": {}, "method": "tools/list"}
        r = c.post(url, json=bad_id, headers=_mcp_headers(ALICE))
        assert rpc_error(r, 400, "invalid_request")["error"]["code"] == -32600
        r = c.post(url, json=ping, headers=_mcp_headers(None))
        rpc_error(r, 401, "unauthorized")
        assert r.headers["www-authenticate"].startswith("Bearer")
        for limit in (True, "5", 2.5):
            call = {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "search_notes", "arguments": {"query": "fan", "limit": limit}},
            }
            r = c.post(url, json=call, headers=_mcp_headers(ALICE))
            assert r.status_code == 200, r.text
            result = r.json()["result"]
            assert result["isError"] is True, (limit, result)
            assert "limit" in result["content"][0]["text"], result
