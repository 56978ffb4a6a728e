"""Regression tests of issue 14 through the real servers (uvicorn, embedded PostgreSQL).

NUL characters and huge offsets answer 4xx, other owners never shift a ranking, hits are
HTML-safe, bodies over the cap answer 413 early, the MCP tool says why the database failed and
recovers, and reindex jobs are seen by every API process on the database.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from workbench.notes.service.app import create_app
from workbench.notes.service.auth import ADMIN_OWNER, Principal, TokenRegistry
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread, free_port
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.tools import create_tools_app
from workbench.notes.store import NoteInput, import_notes

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

REPO = Path(__file__).resolve().parents[1]
ALICE, BOB, ADMIN = "alice-h-token-0123456789", "bob-h-token-0123456789", "admin-h-token-012345"
CAP = 100_000  # bytes


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _tokens() -> TokenRegistry:
    return TokenRegistry(
        [
            (ALICE, Principal("alice"), "t"),
            (BOB, Principal("bob"), "t"),
            (ADMIN, Principal(ADMIN_OWNER, admin=True), "t"),
        ]
    )


@pytest.fixture(scope="module")
def server(module_db_url: str, minilm):
    settings = ServiceSettings(database_url=module_db_url, db_wait_s=10, max_body_bytes=CAP)
    services = start_services(settings, _tokens(), provider=minilm)
    with ServerThread(create_app(services)) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(server: ServerThread):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def error(resp: httpx.Response, status: int, code: str, *words: str) -> dict:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json")
    body = resp.json()
    assert body["error"] == code, body
    for word in words:
        assert word in body["message"], body["message"]
    return body


# -- 1. NUL characters (and lone surrogates) -----------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body", "where"),
    [
        ("POST", "/api/notes", {"title": "a\x00b"}, "body.title"),
        ("POST", "/api/notes", {"title": "t", "content": "\x00"}, "body.content"),
        ("POST", "/api/notes", {"title": "t", "external_id": "x\x00"}, "body.external_id"),
        ("PUT", "/api/notes/any", {"title": "t", "content": "c\x00"}, "body.content"),
        ("POST", "/api/notes/import", {"notes": [{"_id": "a\x00", "title": "t"}]}, "body.notes[0]"),
        ("POST", "/api/notes/import", {"notes": [{"title": "t", "text": "\x00"}]}, "body.notes[0]"),
    ],
)
def test_service_nul_in_text_is_422(client: httpx.Client, method, path, body, where) -> None:
    r = client.request(method, path, json=body, headers=auth(ALICE))
    error(r, 422, "invalid_request", where, "NUL character (U+0000)")


def test_service_lone_surrogate_is_422(client: httpx.Client) -> None:
    raw = b'{"title": "frost \\ud800 coil"}'
    r = client.post(
        "/api/notes", content=raw, headers={**auth(ALICE), "content-type": "application/json"}
    )
    error(r, 422, "invalid_request", "body.title", "surrogate")


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_service_nul_in_note_id_is_404(client: httpx.Client, method: str) -> None:
    body = {"title": "t", "content": "c"} if method == "PUT" else None
    r = client.request(method, "/api/notes/abc%00def", json=body, headers=auth(ALICE))
    error(r, 404, "not_found", "abc")


def test_service_nul_in_query_is_422(client: httpx.Client) -> None:
    r = client.post("/api/notes/search", params={"q": "frost\x00"}, headers=auth(ALICE))
    error(r, 422, "invalid_request", "'q'", "NUL")


# -- 2. offsets -----------------------------------------------------------------------------------


@pytest.mark.parametrize("offset", ["9223372036854775808", "1e20", "-1", "99999999999999999999"])
def test_service_offset_out_of_range_is_422(client: httpx.Client, offset: str) -> None:
    r = client.get("/api/notes", params={"offset": offset}, headers=auth(ALICE))
    error(r, 422, "invalid_request", "'offset'")


def test_service_largest_offset_is_an_empty_page(client: httpx.Client) -> None:
    r = client.get("/api/notes", params={"offset": 2**63 - 1}, headers=auth(ALICE))
    assert r.status_code == 200
    assert r.json()["notes"] == []


# -- 3. one owner's notes never shift another owner's ranking --------------------------------------


def test_service_other_owner_import_leaves_ranking_alone(client: httpx.Client) -> None:
    bob_notes = [
        {"_id": f"b{i}", "title": title, "text": text}
        for i, (title, text) in enumerate(
            [
                ("Oil trap", "oil trap at the foot of the riser"),
                ("Oil level", "compressor oil level low after defrost"),
                ("Riser", "double suction riser for oil return"),
                ("Fan", "condenser fan noise"),
            ]
        )
    ]
    assert client.post("/api/notes/import", json={"notes": bob_notes}, headers=auth(BOB)).is_success

    def bob_ranking() -> list[tuple[str, float]]:
        r = client.post(
            "/api/notes/search",
            params={"q": "oil riser trap", "mode": "keyword", "limit": 10},
            headers=auth(BOB),
        )
        return [(h["external_id"], h["keyword_score"]) for h in r.json()["results"]]

    before = bob_ranking()
    flood = [
        {"_id": f"a{i}", "title": f"Riser {i}", "text": "riser " * (1 + i % 7) + "pump brine"}
        for i in range(300)
    ]
    r = client.post("/api/notes/import", json={"notes": flood}, headers=auth(ALICE))
    assert r.json()["inserted"] == 300
    assert bob_ranking() == before  # the same order and the same scores


# -- 5. HTML in titles and snippets -------------------------------------------------------------


def test_service_hits_are_html_safe(client: httpx.Client) -> None:
    note = {
        "title": "<script>alert(1)</script>Glycol",
        "content": 'Glycol <img src=x onerror="alert(2)"> pump & brine',
    }
    assert client.post("/api/notes", json=note, headers=auth(ALICE)).status_code == 201
    for mode in ("hybrid", "keyword", "semantic"):
        r = client.post(
            "/api/notes/search", params={"q": "glycol pump", "mode": mode}, headers=auth(ALICE)
        )
        hit = next(h for h in r.json()["results"] if "Glycol" in (h["title"] or ""))
        assert hit["title"] == "&lt;script&gt;alert(1)&lt;/script&gt;Glycol"
        markup = hit["snippet"].replace("<b>", "").replace("</b>", "")
        assert "<" not in markup, hit["snippet"]
        assert ">" not in markup, hit["snippet"]
        assert "&amp;" in markup, hit["snippet"]


# -- 7. request size cap ------------------------------------------------------------------------


def _big_import(n_bytes: int) -> bytes:
    text = "x" * 1000
    count = n_bytes // 1020 + 1
    notes = ",".join(f'{{"_id": "big{i}", "title": "{text}"}}' for i in range(count))
    return f'{{"notes": [{notes}]}}'.encode()


def test_service_body_over_cap_is_413_early(client: httpx.Client) -> None:
    body = _big_import(3 * CAP)
    headers = {**auth(ALICE), "content-type": "application/json"}
    r = client.post("/api/notes/import", content=body, headers=headers)
    error(r, 413, "payload_too_large", str(CAP), "WORKBENCH_MAX_BODY_BYTES")

    def chunks():  # no Content-Length: chunked transfer
        for start in range(0, len(body), 8192):
            yield body[start : start + 8192]

    r = client.post("/api/notes/import", content=chunks(), headers=headers)
    assert "content-length" not in r.request.headers
    error(r, 413, "payload_too_large", str(CAP))
    # under the cap the request goes through as before
    small = _big_import(CAP // 2)
    r = client.post("/api/notes/import", content=small, headers=headers)
    assert r.status_code == 200, r.text
    assert r.json()["inserted"] > 40, r.text


def test_service_tools_body_over_cap_is_413(module_db_url: str, minilm) -> None:
    settings = ServiceSettings(database_url=module_db_url, db_wait_s=10, max_body_bytes=CAP)
    services = start_services(settings, _tokens(), provider=minilm)
    with ServerThread(create_tools_app(services)) as srv:
        r = httpx.post(
            f"{srv.url}/mcp",
            content=b"[" + b"1," * CAP + b"1]",
            headers={**auth(ALICE), "content-type": "application/json"},
        )
        assert r.status_code == 413, r.text  # a JSON-RPC error object (issue 42, item 9)
        assert r.json()["error"]["data"]["error"] == "payload_too_large", r.text


# -- 9. the MCP tool says why the database failed, and recovers -----------------------------------


async def _tool_search(url: str, token: str, query: str):
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    http = create_mcp_http_client(headers=auth(token))
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        return await client.call_tool("search_notes", {"query": query, "limit": 3})


@pytest.mark.slow
def test_service_tool_says_database_unavailable_and_recovers(
    fresh_db_url: str, pg_admin_url: str, minilm
) -> None:
    name = conninfo_to_dict(fresh_db_url)["dbname"]
    settings = ServiceSettings(database_url=fresh_db_url, db_wait_s=10)
    services = start_services(settings, _tokens(), provider=minilm)
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        import_notes(conn, "alice", [NoteInput("Frost", "frost on the coil", "f")], provider=minilm)
    with (
        ServerThread(create_tools_app(services)) as srv,
        psycopg.connect(pg_admin_url, autocommit=True) as admin,
    ):
        ok = asyncio.run(_tool_search(srv.url, ALICE, "frost"))
        assert ok.is_error is False
        # the database goes away: no new connections, the open ones are cut
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        down = asyncio.run(_tool_search(srv.url, ALICE, "frost"))
        assert down.is_error is True
        text = down.content[0].text
        assert "database" in text, text
        assert "unavailable" in text, text
        assert "retry" in text, text
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        deadline = time.monotonic() + 60
        while True:  # back without a restart of the tool server
            again = asyncio.run(_tool_search(srv.url, ALICE, "frost"))
            if not again.is_error or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert again.is_error is False
        assert again.structured_content["results"][0]["external_id"] == "f"


# -- 11. two API processes on one database -------------------------------------------------------


def _serve(url: str, port: int, log: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(
        DATABASE_URL=url,
        WORKBENCH_HOME=str(log.parent),
        WORKBENCH_API_TOKENS=f"{ALICE}:alice",
        WORKBENCH_ADMIN_TOKEN=ADMIN,
        WORKBENCH_REINDEX_BATCH_SIZE="1",
        WORKBENCH_EMBEDDING_THREADS="1",
        PYTHONUNBUFFERED="1",
    )
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "workbench.cli.main", "serve", "--port", str(port)),
            *("--log-level", "warning"),
        ],
        cwd=REPO,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )


def _ready(base: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{base} never became ready:\n{log.read_text()}")


def _until(client: httpx.Client, job: str, done, timeout_s: float = 120) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        r = client.get(f"/api/notes/reindex/{job}", headers=auth(ADMIN))
        assert r.status_code == 200, r.text
        body = r.json()
        if done(body):
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.1)


@pytest.mark.slow
def test_service_two_api_processes_share_reindex_jobs(
    fresh_db_url: str, minilm, tmp_path: Path
) -> None:
    from workbench.notes.migrations import migrate

    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn)
        notes = [NoteInput(f"Log {i}", f"compressor log entry {i}", f"n{i}") for i in range(150)]
        import_notes(conn, "alice", notes, provider=minilm)
    ports = free_port(), free_port()
    logs = tmp_path / "a.log", tmp_path / "b.log"
    procs = [_serve(fresh_db_url, port, log) for port, log in zip(ports, logs, strict=True)]
    try:
        bases = [f"http://127.0.0.1:{p}" for p in ports]
        for base, proc, log in zip(bases, procs, logs, strict=True):
            _ready(base, proc, log)
        a, b = (httpx.Client(base_url=base, timeout=60) for base in bases)
        with a, b:
            r = a.post("/api/notes/reindex", params={"force": True}, headers=auth(ADMIN))
            assert r.status_code == 202, r.text
            job = r.json()["job"]
            seen = b.get(f"/api/notes/reindex/{job}", headers=auth(ADMIN))
            assert seen.status_code == 200
            assert seen.json()["job"] == job
            conflict = b.post("/api/notes/reindex", headers=auth(ADMIN))
            error(conflict, 409, "reindex_running", job)
            running = _until(b, job, lambda s: s["done"] > 0)
            assert running["state"] in ("running", "succeeded")
            assert running["total"] == 150
            finished = _until(b, job, lambda s: s["state"] != "running")
            assert finished["state"] == "succeeded"
            assert finished["embedded"] == 150

            # a process dies during a job: the other one says so and can start the next one
            r = a.post("/api/notes/reindex", params={"force": True}, headers=auth(ADMIN))
            dead_job = r.json()["job"]
            _until(b, dead_job, lambda s: s["done"] > 0)
            procs[0].kill()  # kill -9
            procs[0].wait(10)
            failed = _until(b, dead_job, lambda s: s["state"] != "running", timeout_s=60)
            assert failed["state"] == "failed", failed
            assert "process" in failed["error"], failed
            r = b.post("/api/notes/reindex", headers=auth(ADMIN))
            assert r.status_code == 202, r.text
            assert _until(b, r.json()["job"], lambda s: s["state"] != "running")["state"] == (
                "succeeded"
            )
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(15)
