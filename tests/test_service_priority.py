"""Searches before background embedding (issue 28, item 8).

The embedding worker runs at a lower CPU priority (nice 10 and ``SCHED_BATCH``, or
``SCHED_IDLE``) on every one of its threads, while the API's threads keep theirs. A write waits
for its embeddings holding none of its owner's database slots: with one slot per owner, the
owner's own search answers while the owner's import is still being embedded (shown by the order
of events, not by timing). Every answer names its phases in a ``Server-Timing`` header.
"""

from __future__ import annotations

import os
import threading
import time

import httpx
import numpy as np
import pytest

from workbench.notes.service.app import create_app
from workbench.notes.service.auth import ADMIN_OWNER, Principal, TokenRegistry
from workbench.notes.service.embedder import BackgroundEmbedder, thread_nice
from workbench.notes.service.services import start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.writes import PrecomputedProvider, text_key

pytest_plugins = ["notes_fixtures"]
linux_only = pytest.mark.skipif(
    os.uname().sysname != "Linux", reason="per-thread nice and scheduling policy are Linux"
)
ALICE, ADMIN = "alice-p-token-0123456789", "admin-p-token-0123456789"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def server_timing(resp: httpx.Response) -> dict[str, float]:
    out = {}
    for part in resp.headers["server-timing"].split(","):
        name, _, dur = part.strip().partition(";dur=")
        out[name] = float(dur)
    return out


@linux_only
@pytest.mark.parametrize(("policy", "expected"), [("batch", "SCHED_BATCH"), ("idle", "SCHED_IDLE")])
def test_service_embedding_worker_threads_run_below_the_api(minilm, policy, expected) -> None:
    embedder = BackgroundEmbedder(minilm, workers=1, batch_size=4, nice=10, policy=policy)
    try:
        got = embedder.embed(["oil return in the riser", "evaporator frost"])
        pid, policies = embedder.worker_policies()
        _, nice = embedder.worker_nice()
    finally:
        embedder.close()
    assert pid != os.getpid()
    assert len(policies) > 1  # its main thread and onnxruntime's (started after the change)
    assert set(policies.values()) == {getattr(os, expected)}, policies
    assert set(nice.values()) == {10}, nice
    # the API's own threads keep the normal policy and nice 0
    assert os.sched_getscheduler(threading.get_native_id()) == os.SCHED_OTHER
    assert thread_nice() == 0
    np.testing.assert_allclose(
        got, minilm.embed(["oil return in the riser", "evaporator frost"]), atol=2e-5
    )


def test_service_precomputed_vectors_and_the_fallback(minilm) -> None:
    texts = ["condenser fouling", "suction superheat"]
    vectors = dict(zip(texts, minilm.embed(texts), strict=True))
    provider = PrecomputedProvider({text_key(t): v for t, v in vectors.items()}, minilm)
    got = provider.embed(["suction superheat", "a text changed meanwhile", "condenser fouling"])
    assert provider.missed == 1  # only the text it was not given went to the model
    np.testing.assert_array_equal(got[0], vectors["suction superheat"])
    np.testing.assert_array_equal(got[2], vectors["condenser fouling"])
    np.testing.assert_allclose(got[1], minilm.embed_one("a text changed meanwhile"), atol=2e-5)
    assert provider.model_id == minilm.model_id
    assert provider.dimension == minilm.dimension


@pytest.fixture(scope="module")
def server(module_db_url: str, minilm):
    settings = ServiceSettings(
        database_url=module_db_url,
        db_wait_s=10,
        owner_connections=1,  # one database slot per owner: a write holding it would block
        embed_workers=1,
    )
    tokens = TokenRegistry(
        [(ALICE, Principal("alice"), "t"), (ADMIN, Principal(ADMIN_OWNER, admin=True), "t")]
    )
    running = start_services(settings, tokens, provider=minilm)
    with ServerThread(create_app(running)) as srv:
        srv.services = running
        yield srv
    running.close()


@pytest.mark.db
def test_service_owner_search_answers_while_its_import_is_embedded(server) -> None:
    services = server.services
    with httpx.Client(base_url=server.url, timeout=60) as c:
        created = c.post(
            "/api/notes",
            json={"title": "Riser", "content": "Oil trap at the foot of every riser."},
            headers=auth(ALICE),
        )
        assert created.status_code == 201, created.text
        phases = server_timing(created)
        assert {"embed_wait", "slot", "db", "app"} <= phases.keys(), phases

    # 120 long notes: 30 batches for the one worker, far longer than a search
    text = " ".join(f"compressor{k} discharge superheat log entry" for k in range(250))
    notes = [
        {"external_id": f"log-{i}", "title": f"Log {i}", "content": f"{i} {text}"}
        for i in range(120)
    ]
    events: list[str] = []
    answers: dict[str, httpx.Response] = {}

    def import_all() -> None:
        with httpx.Client(base_url=server.url, timeout=300) as c:
            answers["import"] = c.post(
                "/api/notes/import", json={"notes": notes}, headers=auth(ALICE)
            )
        events.append("import answered")

    thread = threading.Thread(target=import_all)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while services.embed_slots.running("alice") == 0:  # the import reached the embedder
            assert thread.is_alive(), "the import answered before it was seen embedding"
            assert time.monotonic() < deadline, "the import never reached the embedder"
            time.sleep(0.01)
        events.append("import embedding")
        with httpx.Client(base_url=server.url, timeout=60) as c:
            found = c.post(
                "/api/notes/search", params={"q": "oil riser", "limit": 5}, headers=auth(ALICE)
            )
        # alice's only database slot was free although her import was running
        embedding_still = services.embed_slots.running("alice") == 1
        events.append("search answered")
    finally:
        thread.join(300)
    assert found.status_code == 200, found.text
    assert found.json()["results"][0]["title"] == "Riser"
    assert embedding_still, events
    assert events == ["import embedding", "search answered", "import answered"], events
    phases = server_timing(found)
    assert {"embed", "slot", "pool", "sql", "app"} <= phases.keys(), phases
    assert phases["app"] >= phases["sql"]
    imported = answers["import"]
    assert imported.status_code == 200, imported.text
    assert imported.json()["inserted"] == 120
    assert imported.json()["embedded"] == 120
    with httpx.Client(base_url=server.url, timeout=60) as c:
        report = c.post("/api/admin/embeddings/validate", headers=auth(ADMIN)).json()
    assert report["ok"], report  # every note with the embedding of its own text


def test_service_query_model_runs_on_the_request_thread(monkeypatch) -> None:
    from workbench.notes.embeddings.local import LocalMiniLMProvider
    from workbench.notes.service.services import query_provider

    monkeypatch.delenv("WORKBENCH_EMBEDDING_PROVIDER", raising=False)
    monkeypatch.delenv("WORKBENCH_EMBEDDING_THREADS", raising=False)
    provider = query_provider()
    assert isinstance(provider, LocalMiniLMProvider)
    options = provider._session.get_session_options()
    assert options.intra_op_num_threads == 1  # no onnxruntime pool threads to hand work to
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    monkeypatch.setenv("WORKBENCH_EMBEDDING_THREADS", "2")  # the setting still decides
    assert query_provider()._session.get_session_options().intra_op_num_threads == 2
