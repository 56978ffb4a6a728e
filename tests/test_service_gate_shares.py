"""What one owner may hold (issue 42, items 3, 4, 5, 8 and 9).

Real servers on loopback, a real PostgreSQL and the real query model
(``service_gate_fixtures``); every loop is bounded:

3. list pages are bounded in bytes, and an owner's unread answers count against its requests;
4. one owner's budget is shared by the API and the tool server (advisory locks) and covers the
   query's embedding;
5. ``/readyz`` answers from a cached state; requests without a token are rate-limited;
8. a search hands over to a worker thread once, and embeds inside the owner's slot;
9. every tool-server error is a JSON-RPC error object; ``limit: true`` is refused.
"""

from __future__ import annotations

import json
import socket
import time

import httpx
import psycopg
import pytest
from service_gate_helpers import (
    ALICE,
    BOB,
    CAROL,
    MIB,
    auth,
    import_note,
    json_error,
    rpc_error,
    search_notes,
)

from workbench.notes.service.fairness import BUDGET_LOCK_CLASS, SharedBudget
from workbench.notes.service.routers.notes import MAX_PAGE_BYTES
from workbench.notes.service.services import Services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings

pytest_plugins = ["notes_fixtures", "service_gate_fixtures"]

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
        json_error(search_notes(client, CAROL), 429, "too_many_requests")
        assert search_notes(client, BOB).status_code == 200
        # an answer left unread past the deadline (WORKBENCH_BODY_TIMEOUT_S, 2 s) is cut off
        for _ in range(100):
            r = search_notes(client, CAROL)
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
    assert import_note(client, ALICE, "alice-budget").status_code == 200
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
        json_error(search_notes(client, ALICE), 503, "busy")
        assert search_notes(client, BOB).status_code == 200
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
    assert search_notes(client, ALICE).status_code == 200  # released with the other session
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
    assert search_notes(client, BOB).status_code == 200  # owners with a token are not affected


# -- 8. one hand-over to a thread per search; embedding inside the owner's slot --------------


@pytest.mark.db
def test_service_search_embeds_in_one_thread_inside_the_slot(client: httpx.Client) -> None:
    r = search_notes(client, BOB, "fan noise at night")
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
