"""Start order without Docker: the API and the tool server wait for the database, then serve.

The real case runs ``workbench serve`` and ``workbench tools`` as processes pointed at a
``DATABASE_URL`` whose server does not exist yet, then starts that server (a second embedded
PostgreSQL) and checks both become ready, with one waiting line each in their logs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import psycopg
import pytest

from workbench.errors import NoteStoreError
from workbench.notes import db
from workbench.notes.migrations import available_migrations, migrate
from workbench.notes.service.app import create_app
from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread, free_port
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.startup import Backoff, describe_url, wait_for_database

pytest_plugins = ["notes_fixtures"]

REPO = Path(__file__).resolve().parents[1]
WAITING = "waiting for the note database"


def test_service_backoff_grows_and_caps() -> None:
    b = Backoff(initial_s=0.25, factor=2.0, max_s=5.0)
    delays = [b.delay(n) for n in range(1, 9)]
    assert delays[:5] == [0.25, 0.5, 1.0, 2.0, 4.0]
    assert delays[5:] == [5.0, 5.0, 5.0]


def test_service_describe_url_hides_password() -> None:
    text = describe_url("postgresql://postgres:s3cret@db:5432/workbench")
    assert text == "db:5432/workbench"
    assert "s3cret" not in text


def test_service_wait_for_database_gives_up_with_one_log_line(caplog) -> None:
    port = free_port()  # nothing listens there
    url = f"postgresql://postgres:pw@127.0.0.1:{port}/workbench"
    caplog.set_level(logging.INFO, logger="workbench.notes.service")
    with pytest.raises(NoteStoreError) as info:
        wait_for_database(url, timeout_s=0.6, backoff=Backoff(0.05, 2.0, 0.2))
    message = str(info.value)
    assert f"127.0.0.1:{port}/workbench" in message
    assert "did not answer within" in message
    assert "pw" not in message
    waiting = [r for r in caplog.records if WAITING in r.getMessage()]
    attempts = int(message.split("(")[1].split(" attempts")[0])
    assert attempts >= 3
    assert len(waiting) == 1


def _env(home: Path, database_url: str, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("WORKBENCH_") and k != "DATABASE_URL"
    }
    env.update(
        DATABASE_URL=database_url,
        WORKBENCH_HOME=str(home),
        WORKBENCH_EMBEDDING_THREADS="1",
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    out = log.open("w")
    return subprocess.Popen(
        [sys.executable, "-m", "workbench.cli.main", *args],
        cwd=REPO,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )


def _wait_for_text(log: Path, text: str, proc: subprocess.Popen, timeout_s: float = 60) -> str:
    deadline = time.monotonic() + timeout_s
    while True:
        content = log.read_text()
        if text in content:
            return content
        assert proc.poll() is None, f"process exited with {proc.returncode}:\n{content}"
        assert time.monotonic() < deadline, f"{text!r} not seen in:\n{content}"
        time.sleep(0.1)


def _wait_status(url: str, status: int, timeout_s: float = 60) -> httpx.Response:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            r = httpx.get(url, timeout=5)
            if r.status_code == status:
                return r
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"{url} never answered {status}"
        time.sleep(0.2)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


async def _tool_call(url: str, token: str) -> dict:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        result = await client.call_tool("search_notes", {"query": "frost", "limit": 3})
    assert result.is_error is False, result.content
    return result.structured_content


@pytest.mark.db
@pytest.mark.slow
def test_service_api_and_tools_wait_for_database(tmp_path: Path) -> None:
    # the server runs as its own system user: keep its data out of pytest's 0700 temp root
    pg_home = Path(tempfile.mkdtemp(prefix="wb-start-")) / "pg"
    home = tmp_path / "home"
    socket_dir = pg_home / "pgdata"  # the embedded server puts its socket in its data folder
    url = f"postgresql://postgres@/workbench?host={quote(str(socket_dir), safe='/')}"
    env = _env(home, url)
    api_port, tools_port = free_port(), free_port()
    api_log, tools_log = tmp_path / "api.log", tmp_path / "tools.log"
    api = _start(["serve", "--port", str(api_port)], env, api_log)
    tools = None
    try:
        text = _wait_for_text(api_log, WAITING, api)
        # nothing configured: the first start created and printed a token
        assert "Created an API token" in text
        token = text.split("Created an API token", 1)[1].splitlines()[1].strip()
        assert (home / "tokens.json").stat().st_mode & 0o777 == 0o600
        assert token in (home / "tokens.json").read_text()
        with pytest.raises(httpx.ConnectError):  # not serving before the database is up
            httpx.get(f"http://127.0.0.1:{api_port}/healthz", timeout=2)

        tools = _start(["tools", "--port", str(tools_port)], env, tools_log)
        tools_text = _wait_for_text(tools_log, WAITING, tools)
        assert "Created an API token" not in tools_text  # it reuses the API's token file

        started_url = db.start_embedded(pg_home)
        assert started_url == url, "the embedded server chose another socket folder"

        ready = _wait_status(f"http://127.0.0.1:{api_port}/readyz", 200).json()
        assert ready["status"] == "ready"
        assert ready["pending_migrations"] == []
        r = httpx.post(
            f"http://127.0.0.1:{api_port}/api/notes/search",
            params={"q": "frost"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200
        assert r.json()["results"] == []
        _wait_status(f"http://127.0.0.1:{tools_port}/healthz", 200)
        assert asyncio.run(_tool_call(f"http://127.0.0.1:{tools_port}", token))["results"] == []

        for log in (api_log, tools_log):
            content = log.read_text()
            assert content.count(WAITING) == 1, content
            assert "is up after" in content, content

        # the database goes away: the process stays up, readiness says why
        db.stop_embedded(pg_home)
        down = _wait_status(f"http://127.0.0.1:{api_port}/readyz", 503).json()
        assert down["status"] == "not_ready"
        assert down["database"] == "unreachable"
        assert httpx.get(f"http://127.0.0.1:{api_port}/healthz").status_code == 200
        r = httpx.post(
            f"http://127.0.0.1:{api_port}/api/notes/search",
            params={"q": "frost"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,  # the pool waits up to 10 s for a connection before answering 503
        )
        assert r.status_code == 503
        assert r.json()["error"] == "database_unavailable"
    finally:
        _stop(api)
        if tools is not None:
            _stop(tools)
        db.stop_embedded(pg_home)
        shutil.rmtree(pg_home.parent, ignore_errors=True)


def test_service_serve_exits_1_when_database_never_comes(tmp_path: Path) -> None:
    port = free_port()
    env = _env(
        tmp_path,
        f"postgresql://postgres@127.0.0.1:{port}/workbench",
        WORKBENCH_DB_WAIT_S="1",
        WORKBENCH_API_TOKENS="t0123456789:alice",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "workbench.cli.main", "serve", "--port", str(free_port())],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert "did not answer within 1 s" in proc.stderr
    assert proc.stderr.count(WAITING) == 1


def test_service_serve_exits_2_on_bad_token_setting(tmp_path: Path) -> None:
    env = _env(tmp_path, "postgresql://127.0.0.1:1/x", WORKBENCH_API_TOKENS="tok:alice,broken")
    proc = subprocess.run(
        [sys.executable, "-m", "workbench.cli.main", "serve"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "WORKBENCH_API_TOKENS entry 2" in proc.stderr


@pytest.mark.db
def test_service_readyz_reports_pending_migrations(fresh_db_url: str) -> None:
    tokens = TokenRegistry([("tok-0123456789", Principal("alice"), "t")])
    settings = ServiceSettings(database_url=fresh_db_url, db_wait_s=5, migrate_on_start=False)
    services = start_services(settings, tokens, warm_up=False)
    with ServerThread(create_app(services)) as srv:
        r = httpx.get(f"{srv.url}/readyz")
        assert r.status_code == 503
        body = r.json()
        assert body["database"] == "ok"
        assert body["schema_version"] is None
        assert body["pending_migrations"] == [m.id for m in available_migrations()]
        r = httpx.get(f"{srv.url}/api/notes", headers={"Authorization": "Bearer tok-0123456789"})
        assert r.status_code == 503
        assert r.json()["error"] == "not_migrated"
        assert "workbench notes migrate" in r.json()["message"]
        with psycopg.connect(fresh_db_url, autocommit=True) as conn:
            migrate(conn)
        for _ in range(30):  # /readyz answers a state cached for up to 1 s (issue 42)
            status = httpx.get(f"{srv.url}/readyz").json()["status"]
            if status == "ready":
                break
            time.sleep(0.2)
        assert status == "ready"


@pytest.mark.db
def test_service_factory_app_starts_from_environment(
    module_db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``uvicorn --factory workbench.notes.service.app:create_app``: settings from the env."""
    for name in [k for k in os.environ if k.startswith("WORKBENCH_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("DATABASE_URL", module_db_url)
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path))
    monkeypatch.setenv("WORKBENCH_API_TOKENS", "env-token-0123456789:erin")
    with ServerThread(create_app()) as srv:
        # generous timeouts: the first note loads the embedding model, slow on a loaded machine
        assert httpx.get(f"{srv.url}/readyz", timeout=60).json()["status"] == "ready"
        headers = {"Authorization": "Bearer env-token-0123456789"}
        r = httpx.post(f"{srv.url}/api/notes", json={"title": "Env"}, headers=headers, timeout=60)
        assert r.status_code == 201
        assert r.json()["owner"] == "erin"
    assert not (tmp_path / "tokens.json").exists()  # tokens were configured: none created
