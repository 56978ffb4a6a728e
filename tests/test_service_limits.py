"""Limits and protocol-level errors of the real servers (issue 28, items 1, 4, 5, 6, 7).

Imports beyond ``max_imports`` answer 429 with ``Retry-After`` before their body is read; the
reindex route answers 404 for an id the database cannot hold; ``GET /mcp`` answers 405; requests
uvicorn cannot parse, and the tool server's 413 for a chunked body, answer JSON; bad
``DATABASE_URL`` / ``WORKBENCH_HOME`` settings give one line and exit 2.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
import httpx
import pytest
from service_gate_helpers import auth, json_error, rpc_error

from workbench.notes.service.app import create_app
from workbench.notes.service.auth import ADMIN_OWNER, Principal, TokenRegistry
from workbench.notes.service.errors import ApiError
from workbench.notes.service.fairness import OwnerSlots
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.tools import create_tools_app

pytest_plugins = ["notes_fixtures"]

REPO = Path(__file__).resolve().parents[1]
ALICE, ADMIN = "alice-l-token-0123456789", "admin-l-token-0123456789"
CAP = 200_000  # bytes


def _tokens() -> TokenRegistry:
    return TokenRegistry(
        [(ALICE, Principal("alice"), "t"), (ADMIN, Principal(ADMIN_OWNER, admin=True), "t")]
    )


@pytest.fixture(scope="module")
def services(module_db_url: str, minilm):
    settings = ServiceSettings(
        database_url=module_db_url,
        db_wait_s=10,
        max_body_bytes=CAP,
        max_imports=1,
        search_timeout_ms=500,
    )
    running = start_services(settings, _tokens(), provider=minilm)
    yield running
    running.close()


@pytest.fixture(scope="module")
def server(services):
    with ServerThread(create_app(services)) as srv:
        yield srv


def _raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        # answered and closed before all was sent: the answer is still readable
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(data)
        out = b""
        try:
            while chunk := sock.recv(65536):
                out += chunk
        except ConnectionResetError:
            pass
    return out


# -- 1. a second import while one runs: 429 with Retry-After, before its body is read --------


@pytest.mark.db
def test_service_import_beyond_the_slots_is_429(server: ServerThread) -> None:
    release = threading.Event()
    answers: list[httpx.Response] = []

    def slow_body():  # the first import holds its slot while its body trickles in
        yield b'{"notes": [{"title": "Slow", "content": "slow import", "external_id": "s1"}'
        release.wait(30)
        yield b"]}"

    def first() -> None:
        with httpx.Client(base_url=server.url, timeout=60) as c:
            answers.append(
                c.post(
                    "/api/notes/import",
                    content=slow_body(),
                    headers={**auth(ALICE), "Content-Type": "application/json"},
                )
            )

    thread = threading.Thread(target=first)
    thread.start()
    try:
        time.sleep(1.0)
        with httpx.Client(base_url=server.url, timeout=30) as c:
            second = c.post(
                "/api/notes/import",
                json={"notes": [{"title": "Fast", "content": "x", "external_id": "f1"}]},
                headers=auth(ALICE),
            )
            json_error(second, 429, "too_many_imports")
            assert int(second.headers["retry-after"]) > 0
            assert "WORKBENCH_MAX_IMPORTS" in second.json()["message"]
            # other routes are not limited meanwhile
            assert c.get("/api/notes", headers=auth(ALICE)).status_code == 200
    finally:
        release.set()
        thread.join(60)
    assert answers[0].status_code == 200, answers[0].text
    assert answers[0].json()["inserted"] == 1
    with httpx.Client(base_url=server.url, timeout=30) as c:  # the slot is free again
        again = c.post(
            "/api/notes/import",
            json={"notes": [{"title": "Fast", "content": "x", "external_id": "f1"}]},
            headers=auth(ALICE),
        )
        assert again.status_code == 200, again.text


# -- 2. one owner's requests queue behind each other, not in front of others --------------------


def test_service_owner_slots_queue_one_owner_only() -> None:
    slots = OwnerSlots(per_owner=1, wait_s=0.5)
    order: list[str] = []

    async def hold(owner: str, seconds: float, tag: str) -> None:
        async with slots.slot(owner):
            order.append(f"{tag} in")
            await anyio.sleep(seconds)
            order.append(f"{tag} out")

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(hold, "bob", 0.3, "bob1")
            await anyio.sleep(0.05)
            tg.start_soon(hold, "bob", 0.0, "bob2")
            await anyio.sleep(0.05)
            tg.start_soon(hold, "alice", 0.0, "alice")
        async with anyio.create_task_group() as tg:  # a slot that never comes free: 503 busy
            tg.start_soon(hold, "bob", 1.0, "bob3")
            await anyio.sleep(0.05)
            with pytest.raises(ApiError) as err:
                await hold("bob", 0.0, "bob4")
        assert err.value.status == 503
        assert err.value.code == "busy"
        assert err.value.headers == {"Retry-After": "2"}

    anyio.run(main)
    # alice passed while bob1 held bob's only slot; bob2 waited for bob1
    assert order[:5] == ["bob1 in", "alice in", "alice out", "bob1 out", "bob2 in"], order
    assert "bob4 in" not in order


# -- 2. snippets from a bounded prefix; a search over its statement timeout -------------------


@pytest.mark.db
def test_service_snippet_comes_from_the_first_characters(server: ServerThread) -> None:
    filler = "plain words about the plant room " * 200  # 6,600 characters
    notes = [
        {"title": "Early", "content": "glycol leak near the pump. " + filler, "external_id": "e"},
        {"title": "Late", "content": filler + " glycol leak near the pump.", "external_id": "l"},
    ]
    with httpx.Client(base_url=server.url, timeout=60) as c:
        assert c.post("/api/notes/import", json={"notes": notes}, headers=auth(ALICE)).is_success
        r = c.post(
            "/api/notes/search", params={"q": "glycol leak", "limit": 5}, headers=auth(ALICE)
        )
    assert r.status_code == 200, r.text
    snippets = {h["external_id"]: h["snippet"] for h in r.json()["results"]}
    assert "<b>glycol</b>" in snippets["e"]
    assert "<b>" not in snippets["l"]  # the match lies past the first 3,000 characters
    assert snippets["l"].startswith("plain words")


@pytest.mark.db
def test_service_search_over_its_timeout_is_503_for_its_caller(
    server: ServerThread, module_db_url: str
) -> None:
    import psycopg

    with httpx.Client(base_url=server.url, timeout=60) as c:
        with psycopg.connect(module_db_url) as blocker:  # the search waits for this lock
            blocker.execute('LOCK TABLE "Note" IN ACCESS EXCLUSIVE MODE')
            r = c.post("/api/notes/search", params={"q": "glycol"}, headers=auth(ALICE))
            blocker.rollback()
        body = json_error(r, 503, "query_timeout")
        assert "500 ms" in body["message"]
        assert "WORKBENCH_SEARCH_TIMEOUT_MS" in body["message"]
        assert int(r.headers["retry-after"]) > 0
        after = c.post("/api/notes/search", params={"q": "glycol"}, headers=auth(ALICE))
        assert after.status_code == 200, after.text


# -- 4. a reindex job id the database cannot hold ---------------------------------------------


@pytest.mark.db
@pytest.mark.parametrize("job", ["%00", "a%00b", "%ED%A0%80", "x" * 600])
def test_service_reindex_progress_of_unstorable_id_is_404(server: ServerThread, job: str) -> None:
    r = httpx.get(f"{server.url}/api/notes/reindex/{job}", headers=auth(ADMIN), timeout=30)
    json_error(r, 404, "not_found")


# -- 7. requests uvicorn cannot parse answer JSON ---------------------------------------------


@pytest.mark.db
@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GARBAGE\r\n\r\n",
        b"POST /api/notes HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n",
        b"POST /api/notes HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        b"GET /" + b"a" * 300_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
    ],
    ids=["garbage", "conflicting-length", "negative-length", "long-line", "bad-header"],
)
def test_service_unparsable_request_is_json_400(server: ServerThread, request_bytes: bytes) -> None:
    raw = _raw(server.port, request_bytes)
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), raw[:200]
    assert b"content-type: application/json" in head.lower()
    assert b'"error": "bad_request"' in body


# -- 5 and 7. the tool server: GET /mcp is 405, an oversized chunked body a JSON 413 ----------


@pytest.mark.db
def test_service_tools_get_is_405_and_chunked_413_is_json(module_db_url: str, minilm) -> None:
    settings = ServiceSettings(database_url=module_db_url, db_wait_s=10, max_body_bytes=CAP)
    services = start_services(settings, _tokens(), provider=minilm)
    with ServerThread(create_tools_app(services)) as srv, httpx.Client(timeout=10) as c:
        r = c.get(
            f"{srv.url}/mcp", headers={**auth(ALICE), "Accept": "text/event-stream"}
        )  # a stream would never end: the timeout would fail the test
        rpc_error(r, 405, "method_not_allowed")
        assert r.headers["allow"] == "POST"

        def chunks():
            for _ in range(30):
                yield b"x" * 10_000

        r = c.post(
            f"{srv.url}/mcp",
            content=chunks(),
            headers={
                **auth(ALICE),
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
            },
        )
        rpc_error(r, 413, "payload_too_large")


# -- 6. bad settings on the command line: one line naming the setting, exit 2 -----------------


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("DATABASE_URL", "postgresql://%zz@/", "DATABASE_URL"),
        ("DATABASE_URL", "not a url at all", "DATABASE_URL"),
        ("WORKBENCH_HOME", "{file}", "WORKBENCH_HOME"),
        ("WORKBENCH_HOME", "{file}/below", "WORKBENCH_HOME"),
        ("WORKBENCH_HOME", "/proc/no-such-place", "WORKBENCH_HOME"),
    ],
)
@pytest.mark.parametrize("command", [["notes", "search", "frost"], ["serve", "--port", "1"]])
def test_service_cli_bad_setting_is_one_line_exit_2(
    tmp_path: Path, setting: str, value: str, says: str, command: list[str]
) -> None:
    file = tmp_path / "a-file"
    file.write_text("not a folder")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "WORKBENCH_HOME")}
    env["WORKBENCH_HOME"] = str(tmp_path / "home")
    env[setting] = value.format(file=file)
    proc = subprocess.run(
        [sys.executable, "-m", "workbench.cli.main", *command],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, proc.stderr
    assert says in lines[0]
    if setting == "DATABASE_URL":
        assert value not in lines[0]  # a URL may hold a password: never echoed
