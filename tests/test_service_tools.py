"""The MCP tool server over streamable HTTP (uvicorn on a free port, real database, real client)."""

from __future__ import annotations

import asyncio

import httpx
import psycopg
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from workbench.notes.search import search
from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.tools import create_tools_app
from workbench.notes.store import NoteInput, import_notes

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

ALICE, BOB = "alice-mcp-token-0123456789", "bob-mcp-token-0123456789"


@pytest.fixture(scope="module")
def tool_server(module_db_url: str):
    with psycopg.connect(module_db_url, autocommit=True) as conn:
        import_notes(
            conn,
            "alice",
            [
                NoteInput("Evaporator frosting", "The evaporator ices up below -5 C.", "frost"),
                NoteInput("Oil return", "Oil trap at every suction riser.", "oil"),
            ],
        )
        import_notes(conn, "bob", [NoteInput("Frost", "Bob's coil ices up as well.", "bfrost")])
    tokens = TokenRegistry([(ALICE, Principal("alice"), "t"), (BOB, Principal("bob"), "t")])
    services = start_services(ServiceSettings(database_url=module_db_url, db_wait_s=10), tokens)
    srv = ServerThread(create_tools_app(services))
    with srv:
        yield srv


async def _call(url: str, token: str, arguments: dict):
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        tools = await client.list_tools()
        result = await client.call_tool("search_notes", arguments)
        return tools, result


def test_service_tools_lists_search_notes(tool_server: ServerThread) -> None:
    tools, _ = asyncio.run(_call(tool_server.url, ALICE, {"query": "frost"}))
    (tool,) = [t for t in tools.tools if t.name == "search_notes"]
    assert set(tool.input_schema["properties"]) == {"query", "limit"}
    assert tool.input_schema["required"] == ["query"]


def test_service_tools_search_matches_library(
    tool_server: ServerThread, module_db_url: str
) -> None:
    _, result = asyncio.run(
        _call(tool_server.url, ALICE, {"query": "why does the coil ice up", "limit": 5})
    )
    assert result.is_error is False
    body = result.structured_content
    assert body["query"] == "why does the coil ice up"
    assert body["took_ms"] > 0
    with psycopg.connect(module_db_url, autocommit=True) as conn:
        direct = search(conn, "why does the coil ice up", owner="alice", limit=5)
    assert [h["id"] for h in body["results"]] == [h.id for h in direct]
    assert body["results"][0]["external_id"] == "frost"
    assert [h["score"] for h in body["results"]] == pytest.approx([h.score for h in direct])


def test_service_tools_owner_scoped(tool_server: ServerThread) -> None:
    _, alice = asyncio.run(_call(tool_server.url, ALICE, {"query": "coil ices up"}))
    _, bob = asyncio.run(_call(tool_server.url, BOB, {"query": "coil ices up"}))
    assert {h["external_id"] for h in alice.structured_content["results"]} <= {"frost", "oil"}
    assert {h["external_id"] for h in bob.structured_content["results"]} == {"bfrost"}


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"query": "   "}, ["query is empty"]),
        ({"query": "x" * 1001}, ["1001", "1000"]),
        ({"query": "frost", "limit": 101}, ["limit", "100"]),
        ({"query": "frost", "limit": 0}, ["limit"]),
    ],
    ids=["blank", "too-long", "limit-high", "limit-zero"],
)
def test_service_tools_bad_arguments(tool_server: ServerThread, arguments, words) -> None:
    _, result = asyncio.run(_call(tool_server.url, ALICE, arguments))
    assert result.is_error is True
    text = result.content[0].text
    for word in words:
        assert word in text, text


@pytest.mark.parametrize(
    "headers", [{}, {"Authorization": "Bearer wrong-token"}], ids=["missing", "wrong"]
)
def test_service_tools_401(tool_server: ServerThread, headers) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }
    r = httpx.post(
        f"{tool_server.url}/mcp",
        json=init,
        headers={**headers, "Accept": "application/json, text/event-stream"},
    )
    assert r.status_code == 401
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["www-authenticate"].startswith("Bearer")


def test_service_tools_client_with_wrong_token_fails(tool_server: ServerThread) -> None:
    # the server answers 401 (checked above); the SDK client surfaces it as an MCPError
    with pytest.raises(ExceptionGroup) as info:
        asyncio.run(_call(tool_server.url, "wrong-token", {"query": "frost"}))
    assert info.group_contains(MCPError)


def test_service_tools_healthz(tool_server: ServerThread) -> None:
    assert httpx.get(f"{tool_server.url}/healthz").json() == {"status": "ok"}


_LIST = {"jsonrpc": "2.0", "id": 7, "method": "tools/list"}


@pytest.mark.parametrize(
    ("extra", "status"),
    [({"Host": "evil.example"}, 421), ({"Origin": "http://evil.example"}, 403)],
    ids=["foreign-host", "foreign-origin"],
)
def test_service_tools_sdk_refusals_are_jsonrpc_errors(
    tool_server: ServerThread, extra, status
) -> None:
    """The SDK's own refusals (DNS-rebinding protection) answer a JSON-RPC error object."""
    r = httpx.post(
        f"{tool_server.url}/mcp",
        json=_LIST,
        headers={
            "Authorization": f"Bearer {ALICE}",
            "Accept": "application/json, text/event-stream",
            **extra,
        },
    )
    assert r.status_code == status
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["jsonrpc"] == "2.0"
    assert body["id"] == 7
    assert body["error"]["data"]["status"] == status
    assert isinstance(body["error"]["code"], int)
    assert body["error"]["message"]


def test_service_tools_answers_pass_through_untouched(tool_server: ServerThread) -> None:
    r = httpx.post(
        f"{tool_server.url}/mcp",
        json=_LIST,
        headers={"Authorization": f"Bearer {ALICE}", "Accept": "application/json"},
    )
    assert r.status_code == 200
    assert r.json()["id"] == 7
    assert [t["name"] for t in r.json()["result"]["tools"]] == ["search_notes"]
