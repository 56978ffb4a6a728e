"""An owner's imports are paced, not refused, while another owner is present (issue 42).

Real API server on loopback, real PostgreSQL and query model (``service_gate_fixtures``). The
waits of paced imports are recorded, not slept (``ImportPacing.sleep``), on a test clock of
``not_before`` that moves only when a recorded wait "sleeps": the pauses are asserted, not
timed. Junk imports (a valid token, a body of the wrong shape) answer 422 after being read.
"""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import httpx
import pytest
from service_gate_helpers import ALICE, BOB, auth, import_note, json_error, search_notes

from workbench.notes.service.import_pacing import ImportPacing
from workbench.notes.service.presence import MAX_PAUSE_S, Presence
from workbench.notes.service.services import Services

pytest_plugins = ["notes_fixtures", "service_gate_fixtures"]

JUNK = b'{"notes": [' + b",".join([b"{}"] * 200_000) + b"]}"  # 600 kB of {}: 422 by its shape


def _junk(client: httpx.Client, token: str) -> httpx.Response:
    return client.post(
        "/api/notes/import",
        content=JUNK,
        headers={**auth(token), "Content-Type": "application/json"},
    )


class Recorder:
    """A test clock for ``not_before`` and a sleep that records its waits and moves the clock."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


@pytest.fixture
def recorded(services: Services) -> Iterator[tuple[ImportPacing, Recorder]]:
    pacing = services.imports
    assert pacing is not None
    rec = Recorder()
    clock, sleep, window = pacing.clock, pacing.sleep, pacing.presence.window_s
    pacing.clock, pacing.sleep = rec.clock, rec.sleep
    pacing.not_before.clear()
    try:
        yield pacing, rec
    finally:
        pacing.clock, pacing.sleep, pacing.presence.window_s = clock, sleep, window
        pacing.not_before.clear()


def test_service_import_pause_needs_another_owner_present() -> None:
    presence = Presence(None, share=0.25, window_s=600)
    pacing = ImportPacing(presence, clock=lambda: 50.0)
    assert anyio.run(pacing.ended, "alice", 0.1) == 0.0  # alone
    assert pacing.delay_s("alice") == 0.0
    presence.seen("alice")  # the owner itself does not count
    assert anyio.run(pacing.ended, "alice", 0.1) == 0.0
    presence.seen("bob")
    assert anyio.run(pacing.ended, "alice", 0.1) == pytest.approx(0.3)  # busy 0.1 of 0.4 s
    assert pacing.delay_s("alice") == pytest.approx(0.3)
    assert pacing.delay_s("bob") == 0.0
    assert anyio.run(pacing.ended, "alice", 60.0) == MAX_PAUSE_S
    assert pacing.delay_s("alice") == MAX_PAUSE_S


def _nobody_else(services: Services, owner: str) -> bool:
    """Whether nobody but ``owner`` is present, within a bounded wait."""
    presence = services.presence
    assert presence is not None
    for _ in range(100):
        with services.pool.connection() as conn:  # type: ignore[attr-defined]
            if not presence.others_present(conn, owner):
                return True
        anyio.run(anyio.sleep, 0.05)
    return False


@pytest.mark.db
def test_service_import_retry_alone_is_admitted_at_once(
    services: Services, client: httpx.Client, recorded: tuple[ImportPacing, Recorder]
) -> None:
    pacing, rec = recorded
    assert _nobody_else(services, "alice")
    json_error(_junk(client, ALICE), 422, "invalid_request")
    assert "alice" not in pacing.not_before
    # the immediate retry, then a real import: admitted at once, never 429
    json_error(_junk(client, ALICE), 422, "invalid_request")
    r = import_note(client, ALICE, "alone")
    assert r.status_code == 200, r.text
    assert rec.waits == []


@pytest.mark.db
def test_service_import_beside_another_owner_is_delayed_then_admitted(
    services: Services, client: httpx.Client, recorded: tuple[ImportPacing, Recorder]
) -> None:
    pacing, rec = recorded
    pacing.presence.window_s = 600.0  # Bob stays present however slow the machine is
    assert search_notes(client, BOB).status_code == 200  # Bob is served within his share
    json_error(_junk(client, ALICE), 422, "invalid_request")
    pause = pacing.not_before["alice"] - rec.now
    assert 0.0 < pause <= MAX_PAUSE_S
    # Bob is not delayed by Alice's pause: his import and search are admitted at once
    r = import_note(client, BOB, "beside")
    assert r.status_code == 200, r.text
    assert search_notes(client, BOB).status_code == 200
    assert rec.waits == []
    # Alice's immediate retry waits for her pause, then is admitted (422 by its shape, not 429)
    json_error(_junk(client, ALICE), 422, "invalid_request")
    assert rec.waits == [pytest.approx(pause)]
    again = pacing.not_before["alice"] - rec.now
    assert 0.0 < again <= MAX_PAUSE_S
    # and her real import after it waits for the new pause, then imports
    r = import_note(client, ALICE, "paced")
    assert r.status_code == 200, r.text
    assert r.json()["inserted"] == 1
    assert rec.waits == [pytest.approx(pause), pytest.approx(again)]
