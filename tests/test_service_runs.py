"""The run log over HTTP: runs are notes (search finds them), ``GET /api/notes/{id}/scenario``.

uvicorn on a free port against the real database; alice's run, bob's token, a plain note.
"""

from __future__ import annotations

import json

import httpx
import psycopg
import pytest

import workbench
from workbench.notes import add_note, save_run
from workbench.notes.service.app import create_app
from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

ALICE, BOB = "alice-token-0123456789", "bob-token-0123456789"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def stored(module_db_url, minilm):
    with open("examples/scenarios/heat_pump_v1.json", encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["fluid"], doc["name"] = "R290", "Air-to-water heat pump, R290"
    with psycopg.connect(module_db_url, autocommit=True) as conn:
        run = save_run(workbench.solve(doc), doc, owner="alice", conn=conn, provider=minilm)
        plain = add_note(conn, "alice", "Defrost", "Hot gas defrost every 6 h", provider=minilm)
    return doc, run, plain


@pytest.fixture(scope="module")
def client(module_db_url, minilm, stored):
    tokens = TokenRegistry([(ALICE, Principal("alice"), "t"), (BOB, Principal("bob"), "t")])
    settings = ServiceSettings(database_url=module_db_url, db_wait_s=10)
    services = start_services(settings, tokens, provider=minilm)
    with ServerThread(create_app(services)) as srv, httpx.Client(base_url=srv.url, timeout=60) as c:
        yield c


def test_scenario_of_a_run_note_comes_back_exactly(client, stored):
    doc, run, _plain = stored
    r = client.get(f"/api/notes/{run.id}/scenario", headers=auth(ALICE))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == doc
    assert list(json.loads(r.text)) == list(doc)  # key order kept
    again = workbench.solve(r.json())
    for key, value in run.summary["summary"].items():
        assert again.summary[key] == pytest.approx(value, rel=1e-9, abs=1e-9)


def test_scenario_is_owner_checked_and_needs_a_run(client, stored):
    _doc, run, plain = stored
    r = client.get(f"/api/notes/{run.id}/scenario", headers=auth(BOB))
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"
    assert run.id in r.json()["message"]
    r = client.get(f"/api/notes/{plain.id}/scenario", headers=auth(ALICE))
    assert r.status_code == 404, r.text
    body = r.json()
    assert body["error"] == "no_run"
    assert "holds no stored run" in body["message"]
    r = client.get("/api/notes/nothing-here/scenario", headers=auth(ALICE))
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"
    assert client.get(f"/api/notes/{run.id}/scenario").status_code == 401


def test_search_finds_runs_like_any_note(client, stored):
    _doc, run, _plain = stored
    cop = f"{run.summary['summary']['cop_heating']:.2f}"  # as the title writes it
    r = client.post(
        "/api/notes/search", params={"q": f"R290 heat pump COP {cop}"}, headers=auth(ALICE)
    )
    assert r.status_code == 200
    hits = r.json()["results"]
    assert hits[0]["id"] == run.id
    assert f"COP {cop}" in hits[0]["title"]
    r = client.post("/api/notes/search", params={"q": "R290 heat pump"}, headers=auth(BOB))
    assert r.json()["results"] == []


def test_openapi_documents_the_scenario_endpoint(client):
    spec = client.get("/openapi.json").json()
    op = spec["paths"]["/api/notes/{note_id}/scenario"]["get"]
    assert op["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ScenarioDocument"
    }
    assert "404" in op["responses"]
    assert "no_run" in op["responses"]["404"]["description"]
