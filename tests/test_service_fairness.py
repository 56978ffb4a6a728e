"""One owner flooding the server neither delays another owner's admission nor keeps the CPU first.

Each owner waits only behind its own requests (:class:`OwnerSlots`): an owner with twelve
searches queued holds one slot like an owner with one, and the other owner's request is
admitted at once, before any of the flood's queued ones. An owner with more requests waiting
than it has slots is over its share: its searches embed their query on the low-priority
background worker (phase ``embed_low``) and run their statement on a database session at nice
10 (the low pool), an owner within its share on its own thread (``embed``) and a normal session.
Shown by the order of admissions and by each answer's ``Server-Timing`` phases, not by timing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from types import SimpleNamespace

import anyio
import httpx
import numpy as np
import pytest

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.service.app import create_app
from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.fairness import OwnerSlots
from workbench.notes.service.lanes import LOW_NICE, backend_nice, lower_backend
from workbench.notes.service.services import Services, start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings

pytest_plugins = ["notes_fixtures"]
ALICE, BOB = "alice-f-token-0123456789", "bob-f-token-0123456789"


async def settle() -> None:
    """Let every ready task run until it waits (a few rounds of the event loop)."""
    for _ in range(10):
        await anyio.sleep(0)


@pytest.mark.anyio
async def test_service_flooding_owner_leaves_another_owner_admitted_within_one_round() -> None:
    slots = OwnerSlots(per_owner=1, wait_s=30)
    admitted: list[str] = []
    release = {name: anyio.Event() for name in [f"flood{i}" for i in range(12)] + ["calm"]}

    async def request(owner: str, name: str) -> None:
        async with slots.slot(owner):
            admitted.append(name)
            await release[name].wait()

    async with anyio.create_task_group() as tg:
        for i in range(12):
            tg.start_soon(request, "flood", f"flood{i}")
            await settle()
        assert admitted == ["flood0"]
        assert slots.waiting("flood") == 11
        assert slots.over_share("flood")  # 11 waiting for 1 slot: over its share
        tg.start_soon(request, "calm", "calm")
        await settle()
        # the other owner is admitted at once, before any of the flood's queued requests
        assert admitted == ["flood0", "calm"]
        assert not slots.over_share("calm")
        release["calm"].set()
        # the flood's own requests follow one at a time, in their order of arrival
        for i in range(11):
            release[f"flood{i}"].set()
            await settle()
            assert admitted[-1] == f"flood{i + 1}"
            assert slots.running("flood") == 1
        release["flood11"].set()
    assert not slots.over_share("flood")


@pytest.mark.anyio
async def test_service_an_owner_with_one_request_waiting_is_within_its_share() -> None:
    slots = OwnerSlots(per_owner=1, wait_s=30)
    go = anyio.Event()

    async def request() -> None:
        async with slots.slot("calm"):
            await go.wait()

    async with anyio.create_task_group() as tg:
        tg.start_soon(request)
        tg.start_soon(request)  # two clients back to back: one runs, one waits
        await settle()
        assert (slots.running("calm"), slots.waiting("calm")) == (1, 1)
        assert not slots.over_share("calm")
        tg.start_soon(request)
        await settle()
        assert slots.over_share("calm")  # a third at once: its backlog is over one round
        go.set()


class HoldingProvider(EmbeddingProvider):
    """The real model; a text starting with ``hold`` waits until the test releases it."""

    def __init__(self, model: EmbeddingProvider) -> None:
        self.model = model
        self.model_id, self.dimension = model.model_id, model.dimension
        self.batch_size = model.batch_size
        self.holding = threading.Event()
        self.release = threading.Event()

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        if texts and texts[0].startswith("hold"):
            self.holding.set()
            assert self.release.wait(60), "the test did not release the held search"
        return self.model.embed(texts)


@pytest.fixture(scope="module")
def holder(minilm) -> HoldingProvider:
    return HoldingProvider(minilm)


@pytest.fixture(scope="module")
def services(module_db_url: str, holder: HoldingProvider) -> Iterator[Services]:
    settings = ServiceSettings(
        database_url=module_db_url, db_wait_s=10, owner_connections=1, owner_requests=8
    )
    tokens = TokenRegistry([(ALICE, Principal("alice"), "t"), (BOB, Principal("bob"), "t")])
    running = start_services(settings, tokens, provider=holder)
    yield running
    running.close()


def _phases(resp: httpx.Response) -> list[str]:
    assert resp.status_code == 200, resp.text
    return [p.split(";")[0].strip() for p in resp.headers["server-timing"].split(",")]


@pytest.mark.db
def test_service_owner_over_its_share_embeds_at_low_priority(
    services: Services, holder: HoldingProvider
) -> None:
    with (
        ServerThread(create_app(services)) as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        for token, owner in ((ALICE, "alice"), (BOB, "bob")):
            notes = [
                {"title": f"{owner} condenser fan", "content": "fan blade noise at night"},
                {"title": f"{owner} oil return", "content": "oil return in the suction riser"},
            ]
            r = client.post("/api/notes/import", json={"notes": notes}, headers=_auth(token))
            assert r.status_code == 200, r.text

        answers: dict[str, httpx.Response] = {}

        def search(name: str, token: str, q: str) -> None:
            with httpx.Client(base_url=server.url, timeout=60) as own:
                answers[name] = own.post(
                    "/api/notes/search", params={"q": q, "limit": 2}, headers=_auth(token)
                )

        # alice's first search holds her one slot (its embedding is held) ...
        first = threading.Thread(target=search, args=("held", ALICE, "hold condenser fan"))
        first.start()
        assert holder.holding.wait(60)
        # ... and three more of hers wait behind it: she is over her share
        queued = [
            threading.Thread(target=search, args=(f"queued{i}", ALICE, "condenser fan"))
            for i in range(3)
        ]
        for t in queued:
            t.start()
        for _ in range(600):
            if services.slots.waiting("alice") == 3:
                break
            threading.Event().wait(0.05)
        assert services.slots.waiting("alice") == 3
        # bob, within his share, is admitted meanwhile and embeds on his own request's thread
        bob = client.post(
            "/api/notes/search", params={"q": "condenser fan", "limit": 2}, headers=_auth(BOB)
        )
        assert "embed" in _phases(bob)
        assert "embed_low" not in _phases(bob)
        assert not answers  # alice's searches are all still waiting or held
        assert bob.json()["results"][0]["title"] == "bob condenser fan"
        holder.release.set()
        first.join(60)
        for t in queued:
            t.join(60)

    lanes = sorted("embed_low" in _phases(answers[f"queued{i}"]) for i in range(3))
    # the first admitted of the queued three still had two behind it (over its share: low
    # priority); the next ones had one and none (within its share: its own thread)
    assert lanes == [False, False, True], lanes
    for i in range(3):  # the same answers from either lane
        titles = [h["title"] for h in answers[f"queued{i}"].json()["results"]]
        assert titles[0] == "alice condenser fan", titles


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.db
def test_service_low_lane_sessions_run_at_a_lower_cpu_priority(
    module_db_url: str, holder: HoldingProvider
) -> None:
    settings = ServiceSettings(database_url=module_db_url, db_wait_s=10)
    running = start_services(settings, TokenRegistry([]), provider=holder, warm_up=False)
    try:
        # the test database is a local server on its Unix socket: the low pool is open
        assert running.low_pool is not None
        with running.low_pool.connection() as low, running.pool.connection() as normal:
            assert backend_nice(low.info.backend_pid) == LOW_NICE
            # no parallel workers (started by the postmaster at nice 0) and no JIT there
            assert low.execute("SHOW max_parallel_workers_per_gather").fetchone()[0] == "0"
            assert low.execute("SHOW jit").fetchone()[0] == "off"
            assert normal.execute("SHOW max_parallel_workers_per_gather").fetchone()[0] != "0"
            before = backend_nice(normal.info.backend_pid)
            # the same process id seen through a server on another host means nothing here:
            # it is left alone
            remote = SimpleNamespace(
                info=SimpleNamespace(host="db.example.org", backend_pid=normal.info.backend_pid)
            )
            assert not lower_backend(remote)  # type: ignore[arg-type]
            assert backend_nice(normal.info.backend_pid) == before
    finally:
        running.close()
