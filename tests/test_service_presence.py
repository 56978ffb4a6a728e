"""An owner over its share is paced while another owner is served, over every process.

Two :class:`Services` on one database stand for the HTTP API and the tool server (each has its
own pools, slots and memory; they share only the database), and a real second Python process
shows that the presence of an owner reaches a process that never served it. The pauses are
recorded, not slept (``Presence.sleep``), and the order of events is asserted, not their times.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from workbench.notes.bulk import import_notes
from workbench.notes.models import NoteInput
from workbench.notes.service.auth import TokenRegistry
from workbench.notes.service.fairness import BUDGET_LOCK_CLASS
from workbench.notes.service.presence import MAX_PAUSE_S, Presence
from workbench.notes.service.services import Services, run_search, start_services
from workbench.notes.service.settings import ServiceSettings

pytest_plugins = ["notes_fixtures"]
REPO = Path(__file__).resolve().parents[1]

_OTHER_PROCESS = """
import sys
from workbench.notes.service.presence import Presence
presence = Presence(sys.argv[1], window_s=600)
presence.seen("calm")
presence.sync()
print("present", flush=True)
sys.stdin.readline()
presence.close()
"""


def _gone(conn: psycopg.Connection, presence: Presence, owner: str) -> bool:
    """Whether nobody but ``owner`` is present, within a bounded wait for ended sessions."""
    for _ in range(200):
        if not presence.others_present(conn, owner):
            return True
        threading.Event().wait(0.05)
    return False


def test_service_pause_is_the_work_times_the_rest_of_the_share() -> None:
    presence = Presence(None, share=0.25)
    assert presence.pause_s(0.1) == pytest.approx(0.3)  # busy 0.1 of every 0.4 s
    assert presence.pause_s(10.0) == MAX_PAUSE_S
    assert Presence(None, share=1.0).pause_s(5.0) == 0.0
    with pytest.raises(ValueError, match="share"):
        Presence(None, share=0.0)


@pytest.mark.db
def test_service_presence_reaches_another_process_through_the_database(module_db_url: str) -> None:
    here = Presence(module_db_url)
    with psycopg.connect(module_db_url, autocommit=True) as conn:
        assert _gone(conn, here, "flood")
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        other = subprocess.Popen(
            [sys.executable, "-c", _OTHER_PROCESS, module_db_url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            assert other.stdout is not None
            assert other.stdin is not None
            assert other.stdout.readline().strip() == "present"
            # this process served nobody, yet sees the other process's owner
            assert not here.present_here("flood")
            assert here.others_present(conn, "flood")
            # an owner's own presence is not another owner's
            assert not here.others_present(conn, "calm")
        finally:
            if other.stdin is not None:
                other.stdin.write("\n")
                other.stdin.flush()
            assert other.wait(60) == 0
        # its session ended, and its presence with it
        assert _gone(conn, here, "flood")


@pytest.mark.db
def test_service_presence_ends_a_window_after_the_owners_last_request(module_db_url: str) -> None:
    now = [0.0]
    mine = Presence(module_db_url, window_s=1.0, clock=lambda: now[0])
    other = Presence(module_db_url)
    try:
        with psycopg.connect(module_db_url, autocommit=True) as conn:
            assert _gone(conn, other, "flood")
            mine.seen("calm")
            mine.sync()
            assert other.others_present(conn, "flood")
            now[0] = 0.5
            mine.seen("calm")
            now[0] = 1.2  # 0.7 s after its last request: still present
            mine.sync()
            assert other.others_present(conn, "flood")
            now[0] = 1.6  # 1.1 s after: gone
            mine.sync()
            assert not other.others_present(conn, "flood")
    finally:
        mine.close()


@pytest.fixture(scope="module")
def two_servers(module_db_url: str, minilm) -> Iterator[tuple[Services, Services]]:
    """Two :class:`Services` on one database: the API and the tool server."""
    with psycopg.connect(module_db_url, autocommit=True) as conn:
        for owner in ("calm", "flood"):
            notes = [
                NoteInput(f"{owner} condenser fan", "fan blade noise at night", f"{owner}-1"),
                NoteInput(f"{owner} oil return", "oil return in the suction riser", f"{owner}-2"),
            ]
            import_notes(conn, owner, notes, provider=minilm)
    settings = ServiceSettings(database_url=module_db_url, db_wait_s=10, owner_connections=1)
    servers = []
    try:
        for _ in range(2):
            running = start_services(settings, TokenRegistry([]), provider=minilm, warm_up=False)
            assert running.presence is not None
            running.presence.window_s = 600.0  # present for the whole test, however slow
            running.budget.wait_s = 120.0
            servers.append(running)
        yield servers[0], servers[1]
    finally:
        for running in servers:
            running.close()


def _waiting_for_a_slot(conn: psycopg.Connection) -> int:
    return conn.execute(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND classid::bigint = %s",
        (BUDGET_LOCK_CLASS,),
    ).fetchone()[0]


@pytest.mark.db
def test_service_owner_over_its_share_is_paced_over_both_servers_and_the_other_goes_first(
    module_db_url: str, two_servers: tuple[Services, Services]
) -> None:
    api, tools = two_servers
    assert api.presence is not None
    assert tools.presence is not None
    events: list[str] = []
    pauses: list[tuple[str, float]] = []
    pausing, resume = threading.Event(), threading.Event()

    def held_pause(seconds: float) -> None:  # the tool server's pause: held until released
        pauses.append(("tools", seconds))
        events.append("flood paused on the tool server")
        pausing.set()
        assert resume.wait(120), "the test did not end the pause"

    def noted_pause(seconds: float) -> None:  # the API's pause: noted, not slept
        pauses.append(("api", seconds))
        events.append("flood paused on the API")

    tools.presence.sleep = held_pause
    api.presence.sleep = noted_pause

    # alone, an owner over its share is not paced: nobody is kept from the cores
    hits = run_search(tools, "condenser fan", owner="flood", limit=2, low=True)
    assert hits[0].title == "flood condenser fan"
    assert pauses == []

    # the other owner is served by the API (the tool server never sees it) ...
    assert run_search(api, "condenser fan", owner="calm", limit=2)[0].title == "calm condenser fan"
    api.presence.sync()
    answers: dict[str, str] = {}

    def flood(where: Services, name: str, low: bool) -> None:
        found = run_search(where, "oil return", owner="flood", limit=2, low=low)
        answers[name] = found[0].title
        events.append(f"{name} answered")

    # ... so the flood's search on the tool server keeps its slot for a pause after its work
    first = threading.Thread(target=flood, args=(tools, "flood on the tool server", True))
    first.start()
    assert pausing.wait(120)
    # the flood's next search, on the API, waits for the owner's slot over both servers
    second = threading.Thread(target=flood, args=(api, "flood on the API", False))
    second.start()
    with psycopg.connect(module_db_url, autocommit=True) as conn:
        for _ in range(1200):
            if _waiting_for_a_slot(conn) == 1:
                break
            threading.Event().wait(0.05)
        assert _waiting_for_a_slot(conn) == 1
    # the other owner is admitted and answered meanwhile, ahead of the queued flood
    assert run_search(api, "oil return", owner="calm", limit=2)[0].title == "calm oil return"
    events.append("calm answered")
    resume.set()
    first.join(120)
    second.join(120)
    assert events.index("flood paused on the tool server") == 0
    assert events.index("calm answered") == 1
    # the API's flood search had waited for its slot: over its share there too, and paced
    assert events.index("flood paused on the API") > 1
    assert [where for where, _ in pauses] == ["tools", "api"]
    assert all(0.0 < seconds <= MAX_PAUSE_S for _, seconds in pauses)
    assert answers == {
        "flood on the tool server": "flood oil return",
        "flood on the API": "flood oil return",
    }
