"""Nobody without a token costs anything (issue 42, items 1 and 2, and requests in flight).

Real servers on loopback (uvicorn threads with the service's protocol), a real PostgreSQL and
the real query model (``service_gate_fixtures``); every loop is bounded. Slow uploads (with or
without a token) take no import slot and time out: 401 / 408; a slow request head is closed;
junk bodies are never read or parsed without a token and refused by their shape with one (the
server's resident size stays put); an owner's requests in flight are capped from the headers.
The rest of issue 42 is in ``tests/test_service_gate_shares.py`` (items 3, 4, 5, 8, 9) and
``tests/test_service_start_lock.py`` (items 6 and 7).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time

import httpx
import pytest
from service_gate_helpers import (
    ALICE,
    BOB,
    CAROL,
    MIB,
    auth,
    import_note,
    json_error,
    open_socket,
    read_all,
    search_notes,
)

from workbench.notes.service.bodies import Shape, shape_problem
from workbench.notes.service.memory import rss_bytes
from workbench.notes.service.protocol import JsonErrorH11Protocol
from workbench.notes.service.schemas import ImportRequest
from workbench.notes.service.serving import ServerThread

pytest_plugins = ["notes_fixtures", "service_gate_fixtures"]

# -- 1. slow uploads take nothing without a token, and time out with one ----------------------


@pytest.mark.db
def test_service_slow_uploads_without_token_leave_imports_to_others(
    server: ServerThread, client: httpx.Client
) -> None:
    head = (
        b"POST /api/notes/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100000\r\n\r\n"
    )
    slow = [open_socket(server.port, head) for _ in range(4)]  # more than WORKBENCH_MAX_IMPORTS
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
        answers = [import_note(client, BOB, f"bob-slow-{i}") for i in range(3)]
        for r in answers:
            assert r.status_code == 200, r.text
    finally:
        stop.set()
        feeder.join(10)
    for sock in slow:  # each got its 401 and was closed, before its body arrived
        out = read_all(sock)
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
    sock = open_socket(server.port, head)
    try:
        # alice holds her one import slot while her body trickles; bob imports meanwhile
        assert import_note(client, BOB, "bob-beside-alice").status_code == 200
        json_error(import_note(client, ALICE, "alice-second"), 429, "too_many_imports")
        out = read_all(sock)  # WORKBENCH_BODY_TIMEOUT_S = 2 s after admission
    finally:
        sock.close()
    assert out.startswith(b"HTTP/1.1 408"), out[:200]
    assert b'"body_timeout"' in out
    assert import_note(client, ALICE, "alice-after").status_code == 200  # her slot is free again


@pytest.mark.db
def test_service_slow_request_head_is_closed(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(JsonErrorH11Protocol, "header_timeout_s", 1.0)
    sock = open_socket(server.port, b"GET /healthz HTTP/1.1\r\n")
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
    sock = open_socket(
        server.port,
        b"POST /api/notes HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n"
        b"Content-Type: application/json\r\n\r\n",
    )
    try:
        assert read_all(sock).startswith(b"HTTP/1.1 401")
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
    held = [open_socket(server.port, head) for _ in range(4)]  # WORKBENCH_OWNER_REQUESTS = 4
    try:
        time.sleep(0.3)  # let the server admit them (their bodies never come)
        json_error(search_notes(client, CAROL), 429, "too_many_requests")
        assert search_notes(client, BOB).status_code == 200  # another owner passes
    finally:
        for sock in held:
            sock.close()
    for _ in range(50):  # closed connections leave within the body deadline (2 s)
        r = search_notes(client, CAROL)
        if r.status_code == 200:
            break
        time.sleep(0.1)
    assert r.status_code == 200, r.text
