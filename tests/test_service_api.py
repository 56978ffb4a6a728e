"""The HTTP API served by uvicorn on a free port against the real embedded PostgreSQL.

One server for the module: owners alice and bob, and an administrator whose filler notes give
the reindex job something to do.
"""

from __future__ import annotations

import time

import httpx
import psycopg
import pytest

from workbench.notes.service.app import create_app
from workbench.notes.service.auth import ADMIN_OWNER, Principal, TokenRegistry
from workbench.notes.service.jobs import REINDEX_LOCK_KEY
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

ALICE, BOB, ADMIN = "alice-token-0123456789", "bob-token-0123456789", "admin-token-0123456789"
FILLER_NOTES = 160  # reindexed in batches of 4: long enough to still run at the second request

ALICE_NOTES = [
    {"_id": "frost", "title": "Evaporator frosting", "text": "The evaporator ices up below -5 C."},
    {"_id": "oil", "title": "Oil return", "text": "Install an oil trap at every suction riser."},
    {"_id": "glide", "title": "Zeotropic glide", "text": "R407C shows 7 K of glide."},
]


@pytest.fixture(scope="module")
def db_url(module_db_url: str) -> str:
    return module_db_url


@pytest.fixture(scope="module")
def server(db_url: str):
    tokens = TokenRegistry(
        [
            (ALICE, Principal("alice"), "test"),
            (BOB, Principal("bob"), "test"),
            (ADMIN, Principal(ADMIN_OWNER, admin=True), "test"),
        ]
    )
    settings = ServiceSettings(database_url=db_url, db_wait_s=10, reindex_batch_size=4)
    services = start_services(settings, tokens)
    with ServerThread(create_app(services)) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(server: ServerThread):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_error(resp: httpx.Response, status: int, code: str, *words: str) -> dict:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json")
    body = resp.json()
    assert body["error"] == code
    for word in words:
        assert word in body["message"], body["message"]
    return body


@pytest.fixture(scope="module")
def seeded(client: httpx.Client, db_url: str) -> dict[str, list[str]]:
    """Alice's three notes, one note of bob about the same topic, filler notes of carol."""
    r = client.post("/api/notes/import", json={"notes": ALICE_NOTES}, headers=auth(ALICE))
    assert r.status_code == 200, r.text
    r = client.post(
        "/api/notes",
        json={"title": "Frost on the coil", "content": "Bob's evaporator ices up too."},
        headers=auth(BOB),
    )
    assert r.status_code == 201, r.text
    with psycopg.connect(db_url) as conn:
        ids = {
            owner: [
                row[0]
                for row in conn.execute('SELECT id FROM "Note" WHERE "ownerId" = %s', (owner,))
            ]
            for owner in ("alice", "bob")
        }
    return ids


def test_service_health_and_ready(client: httpx.Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ready"
    assert body["database"] == "ok"
    assert body["pending_migrations"] == []
    assert body["schema_version"]


@pytest.mark.parametrize(
    "headers",
    [{}, auth("not-a-token"), {"Authorization": f"Basic {ALICE}"}, {"Authorization": "Bearer"}],
    ids=["missing", "wrong", "other-scheme", "empty"],
)
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/notes/search?q=frost"),
        ("GET", "/api/notes"),
        ("POST", "/api/notes/reindex"),
        ("POST", "/api/admin/embeddings/validate"),
    ],
)
def test_service_unauthorized_401(client: httpx.Client, headers, method, path) -> None:
    r = client.request(method, path, headers=headers)
    assert_error(r, 401, "unauthorized", "token")
    assert r.headers["www-authenticate"].startswith("Bearer")


def test_service_search_response_shape(client: httpx.Client, seeded) -> None:
    r = client.post("/api/notes/search", params={"q": "evaporator icing"}, headers=auth(ALICE))
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"query", "took_ms", "results"}
    assert body["query"] == "evaporator icing"
    assert body["took_ms"] > 0
    assert body["results"], "alice's frost note should be found"
    for hit in body["results"]:
        assert set(hit) == {
            "id",
            "external_id",
            "title",
            "snippet",
            "score",
            "keyword_rank",
            "semantic_rank",
            "keyword_score",
            "semantic_similarity",
        }
    assert body["results"][0]["external_id"] == "frost"
    scores = [h["score"] for h in body["results"]]
    assert scores == sorted(scores, reverse=True)


def test_service_search_sees_own_notes_only(client: httpx.Client, seeded) -> None:
    for token, owner, other in ((ALICE, "alice", "bob"), (BOB, "bob", "alice")):
        r = client.post(
            "/api/notes/search", params={"q": "evaporator ices up"}, headers=auth(token)
        )
        ids = {h["id"] for h in r.json()["results"]}
        assert ids
        assert ids <= set(seeded[owner])
        assert not ids & set(seeded[other])


def test_service_search_limit_and_modes(client: httpx.Client, seeded) -> None:
    r = client.post(
        "/api/notes/search", params={"q": "oil trap riser glide", "limit": 1}, headers=auth(ALICE)
    )
    assert len(r.json()["results"]) == 1
    kw = client.post(
        "/api/notes/search", params={"q": "oil trap", "mode": "keyword"}, headers=auth(ALICE)
    ).json()["results"]
    assert kw
    assert all(h["semantic_rank"] is None and h["keyword_rank"] for h in kw)
    sem = client.post(
        "/api/notes/search", params={"q": "oil trap", "mode": "semantic"}, headers=auth(ALICE)
    ).json()["results"]
    assert len(sem) == 3
    assert all(h["keyword_rank"] is None and h["semantic_rank"] for h in sem)


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({}, ["'q'", "required"]),
        ({"q": ""}, ["'q'", "empty"]),
        ({"q": "   "}, ["'q'", "empty"]),
        ({"q": "x" * 1001}, ["'q'", "1001", "1000"]),
        ({"q": "frost", "limit": 101}, ["'limit'", "100"]),
        ({"q": "frost", "limit": 0}, ["'limit'"]),
        ({"q": "frost", "mode": "fuzzy"}, ["'mode'", "hybrid"]),
    ],
    ids=["missing", "empty", "blank", "too-long", "limit-high", "limit-zero", "bad-mode"],
)
def test_service_search_422(client: httpx.Client, params, words) -> None:
    r = client.post("/api/notes/search", params=params, headers=auth(ALICE))
    assert_error(r, 422, "invalid_request", *words)


def test_service_search_accepts_1000_chars(client: httpx.Client, seeded) -> None:
    q = ("evaporator " * 100)[:1000]
    r = client.post("/api/notes/search", params={"q": q}, headers=auth(ALICE))
    assert r.status_code == 200, r.text


def test_service_note_crud_and_other_owner_404(client: httpx.Client, seeded) -> None:
    r = client.post(
        "/api/notes",
        json={
            "title": "Subcooling",
            "content": "Liquid line subcooling of 4 K.",
            "external_id": "sc",
        },
        headers=auth(ALICE),
    )
    assert r.status_code == 201, r.text
    note = r.json()
    assert r.headers["location"] == f"/api/notes/{note['id']}"
    assert note["owner"] == "alice"
    assert note["external_id"] == "sc"
    path = f"/api/notes/{note['id']}"
    assert client.get(path, headers=auth(ALICE)).json() == note

    assert_error(client.get(path, headers=auth(BOB)), 404, "not_found", note["id"])
    new = {"title": "Hacked", "content": "bob was here"}
    assert_error(client.put(path, json=new, headers=auth(BOB)), 404, "not_found", note["id"])
    assert_error(client.delete(path, headers=auth(BOB)), 404, "not_found", note["id"])
    assert client.get(path, headers=auth(ALICE)).json()["title"] == "Subcooling"

    r = client.put(
        path,
        json={"title": "Subcooling", "content": "Subcooler raised capacity."},
        headers=auth(ALICE),
    )
    assert r.status_code == 200
    assert r.json()["content"] == "Subcooler raised capacity."
    hits = client.post(
        "/api/notes/search",
        params={"q": "subcooler capacity", "mode": "keyword"},
        headers=auth(ALICE),
    ).json()["results"]
    assert hits[0]["id"] == note["id"]

    assert client.delete(path, headers=auth(ALICE)).status_code == 204
    assert_error(client.get(path, headers=auth(ALICE)), 404, "not_found")
    assert_error(client.get("/api/notes/no-such-id", headers=auth(ALICE)), 404, "not_found")


def test_service_note_conflict_and_bad_body(client: httpx.Client, seeded) -> None:
    r = client.post(
        "/api/notes", json={"title": "Again", "external_id": "frost"}, headers=auth(ALICE)
    )
    assert_error(r, 409, "conflict", "frost")
    # the same external id is free for another owner
    r = client.post("/api/notes", json={"title": "Mine", "external_id": "frost"}, headers=auth(BOB))
    assert r.status_code == 201
    client.delete(f"/api/notes/{r.json()['id']}", headers=auth(BOB))
    r = client.post("/api/notes", json={"title": " ", "content": ""}, headers=auth(ALICE))
    assert_error(r, 422, "invalid_request", "non-empty title or content")
    r = client.post("/api/notes", json={"title": "x" * 1001}, headers=auth(ALICE))
    assert_error(r, 422, "invalid_request", "body.title")
    r = client.put("/api/notes/whatever", json={"title": "only"}, headers=auth(ALICE))
    assert_error(r, 422, "invalid_request", "body.content")


def test_service_import_idempotent_and_duplicates(client: httpx.Client, seeded) -> None:
    r = client.post("/api/notes/import", json={"notes": ALICE_NOTES}, headers=auth(ALICE))
    assert r.json() == {"total": 3, "inserted": 0, "updated": 0, "unchanged": 3, "embedded": 0}
    dup = {
        "notes": [
            {"_id": "a", "title": "one"},
            {"_id": "b", "title": "two"},
            {"_id": "a", "text": "x"},
        ]
    }
    r = client.post("/api/notes/import", json=dup, headers=auth(ALICE))
    assert_error(r, 422, "invalid_request", "body.notes[2].external_id", "body.notes[0]")
    r = client.post("/api/notes/import", json={"notes": []}, headers=auth(ALICE))
    assert_error(r, 422, "invalid_request", "body.notes")
    listed = client.get("/api/notes", headers=auth(ALICE)).json()
    assert listed["total"] == 3
    assert {n["external_id"] for n in listed["notes"]} == {
        "frost",
        "oil",
        "glide",
    }


def test_service_admin_only_403(client: httpx.Client) -> None:
    assert_error(client.post("/api/notes/reindex", headers=auth(ALICE)), 403, "forbidden", "alice")
    r = client.post("/api/admin/embeddings/validate", headers=auth(BOB))
    assert_error(r, 403, "forbidden", "bob")
    assert_error(client.get("/api/notes/reindex/abc", headers=auth(ALICE)), 403, "forbidden")


def _wait_job(client: httpx.Client, job: str, timeout_s: float = 120) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        body = client.get(f"/api/notes/reindex/{job}", headers=auth(ADMIN)).json()
        if body["state"] != "running":
            return body
        assert 0 <= body["progress"] <= 1
        assert time.monotonic() < deadline, body
        time.sleep(0.05)


def test_service_reindex_202_progress_409(client: httpx.Client, db_url: str, seeded) -> None:
    filler = [
        {"_id": f"n{i}", "title": f"Note {i}", "text": f"Compressor log entry {i}."}
        for i in range(FILLER_NOTES)
    ]
    # the filler belongs to the administrator (owner "admin"), who may own notes too
    r = client.post("/api/notes/import", json={"notes": filler}, headers=auth(ADMIN))
    assert r.status_code == 200
    assert r.json()["inserted"] == FILLER_NOTES
    with psycopg.connect(db_url) as conn:
        before = conn.execute('SELECT count(*) FROM "Note"').fetchone()[0]

    r = client.post("/api/notes/reindex", params={"force": True}, headers=auth(ADMIN))
    assert r.status_code == 202, r.text
    job = r.json()
    assert job["state"] == "running"
    assert job["force"] is True
    assert len(job["job"]) >= 16
    assert r.headers["location"] == f"/api/notes/reindex/{job['job']}"
    second = client.post("/api/notes/reindex", headers=auth(ADMIN))
    assert_error(second, 409, "reindex_running", job["job"])

    done = _wait_job(client, job["job"])
    assert done["state"] == "succeeded", done
    assert done["done"] == done["total"] == before
    assert done["embedded"] == before
    assert done["skipped"] == 0
    assert done["progress"] == 1.0
    assert done["batches"] == -(-before // 4)

    r = client.post("/api/notes/reindex", headers=auth(ADMIN))
    assert r.status_code == 202
    again = _wait_job(client, r.json()["job"])
    assert again["state"] == "succeeded"
    assert again["embedded"] == 0
    assert again["skipped"] == before

    report = client.post("/api/admin/embeddings/validate", headers=auth(ADMIN)).json()
    assert report["ok"] is True
    assert report["total_notes"] == report["total_embeddings"] == before
    assert set(report["counts"]) >= {"missing_embedding", "wrong_dimension", "stale_hash"}
    assert_error(
        client.get("/api/notes/reindex/nope", headers=auth(ADMIN)), 404, "not_found", "nope"
    )


def test_service_reindex_409_other_process(client: httpx.Client, db_url: str) -> None:
    with psycopg.connect(db_url, autocommit=True) as other:
        assert other.execute("SELECT pg_try_advisory_lock(%s)", (REINDEX_LOCK_KEY,)).fetchone()[0]
        r = client.post("/api/notes/reindex", headers=auth(ADMIN))
        assert_error(r, 409, "reindex_running", "another process")
    # the lock went with the connection: a reindex may start again (the server backend of the
    # closed connection releases it asynchronously, and an earlier test's job may still run)
    deadline = time.monotonic() + 30.0
    r = client.post("/api/notes/reindex", headers=auth(ADMIN))
    while r.status_code == 409 and time.monotonic() < deadline:
        time.sleep(0.2)
        r = client.post("/api/notes/reindex", headers=auth(ADMIN))
    assert r.status_code == 202
    assert _wait_job(client, r.json()["job"])["state"] == "succeeded"


def test_service_validate_reports_bad_rows(client: httpx.Client, db_url: str, seeded) -> None:
    victim = seeded["bob"][0]
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute('DELETE FROM "NoteEmbedding" WHERE "noteId" = %s', (victim,))
    report = client.post("/api/admin/embeddings/validate", headers=auth(ADMIN)).json()
    assert report["ok"] is False
    assert report["counts"]["missing_embedding"] == 1
    assert report["ids"]["missing_embedding"] == [victim]
    r = client.post("/api/notes/reindex", headers=auth(ADMIN))
    assert _wait_job(client, r.json()["job"])["embedded"] == 1
    assert client.post("/api/admin/embeddings/validate", headers=auth(ADMIN)).json()["ok"] is True


def test_service_openapi_documents_bodies(client: httpx.Client) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path, method in [
        ("/api/notes/search", "post"),
        ("/api/notes/reindex", "post"),
        ("/api/notes/reindex/{job}", "get"),
        ("/api/admin/embeddings/validate", "post"),
        ("/api/notes", "post"),
        ("/api/notes/{note_id}", "put"),
        ("/api/notes/import", "post"),
        ("/healthz", "get"),
        ("/readyz", "get"),
    ]:
        assert method in paths[path], path
    schemas = spec["components"]["schemas"]
    assert set(schemas["SearchResponse"]["properties"]) == {"query", "took_ms", "results"}
    assert "409" in paths["/api/notes/reindex"]["post"]["responses"]
    assert schemas["ErrorBody"]["required"] == ["error", "message"]
