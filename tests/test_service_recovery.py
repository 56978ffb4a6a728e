"""The first request after a database restart answers 200 (issue 28, item 3).

The API keeps serving while its embedded PostgreSQL is stopped and started again (as
``workbench notes db stop`` / ``start`` do); the pool checks a connection before handing it out
and retries lost connections every 2 s at most during the outage, so the first search after
the restart gets a live one at once (psycopg_pool's doubling backoff alone made it wait for the
pool timeout and answer 503 after an outage of 8 s).
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import psycopg
import pytest

from workbench.notes import db
from workbench.notes.migrations import migrate
from workbench.notes.service.app import create_app
from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.store import NoteInput, import_notes

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

ALICE = "alice-r-token-0123456789"


@pytest.mark.slow
def test_service_first_search_after_database_restart_is_200(
    pg_home: Path, pg_admin_url: str, minilm
) -> None:
    name, url = "recovery_db", db.create_database(pg_admin_url, "recovery_db", exist_ok=True)
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
        import_notes(conn, "alice", [NoteInput("Frost", "frost on the coil", "f")], provider=minilm)
    settings = ServiceSettings(database_url=url, db_wait_s=10)
    services = start_services(
        settings, TokenRegistry([(ALICE, Principal("alice"), "t")]), provider=minilm
    )
    headers = {"Authorization": f"Bearer {ALICE}"}
    try:
        with (
            ServerThread(create_app(services)) as srv,
            httpx.Client(base_url=srv.url, timeout=30) as c,
        ):
            # every pooled connection has been used once before the restart
            for _ in range(3):
                assert (
                    c.post("/api/notes/search", params={"q": "frost"}, headers=headers).status_code
                    == 200
                )
            db.stop_embedded(pg_home)
            down = c.post("/api/notes/search", params={"q": "frost"}, headers=headers)
            assert down.status_code == 503, down.text
            assert down.json()["error"] == "database_unavailable"
            time.sleep(8.0)  # a longer outage: the pool's retries of the lost connections back off
            assert db.start_embedded(pg_home).startswith("postgresql://")
            time.sleep(2.0)  # idle after the restart, as an operator would leave it
            start = time.monotonic()
            first = c.post("/api/notes/search", params={"q": "frost"}, headers=headers)
            took_s = time.monotonic() - start
            assert first.status_code == 200, first.text
            assert first.json()["results"][0]["external_id"] == "f"
            assert took_s < 3.0, took_s  # no wait for the pool timeout (10 s)
            second = c.post("/api/notes/search", params={"q": "frost"}, headers=headers)
            assert second.status_code == 200
    finally:
        services.close()
        db.drop_database(pg_admin_url, name)
