"""Resource fairness of the real API process (issue 28, items 1 and 2).

``workbench serve`` runs as its own process on a throwaway database of the embedded PostgreSQL:

* four clients each import 80 notes of 199,000 characters (15.9 MB, inside the body cap) at
  once; the process's RSS (``/proc/<pid>/status``), sampled every 20 ms, stays within the bound
  that docs/service.md states (:func:`~workbench.notes.service.memory.import_memory_bound`),
  and comes back near its idle size afterwards;
* while bob runs ten heavy searches at once (100 hits over notes of 199,000 characters), alice's
  searches keep a p95 under 200 ms.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from workbench.notes.migrations import migrate
from workbench.notes.service.memory import import_memory_bound, rss_bytes
from workbench.notes.service.serving import free_port
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.store import NoteInput, import_notes

pytest_plugins = ["notes_fixtures"]
pytestmark = [pytest.mark.db, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]
MiB = 1024 * 1024
NOTE_CHARS = 199_000
WORDS = [
    "evaporator",
    "condenser",
    "compressor",
    "superheat",
    "subcooling",
    "defrost",
    "frost",
    "oil",
    "riser",
    "suction",
    "discharge",
    "expansion",
    "valve",
    "glide",
    "refrigerant",
    "charge",
    "leak",
    "pressure",
    "capacity",
    "fan",
    "coil",
    "brine",
    "glycol",
    "cascade",
    "inverter",
    "scroll",
    "screw",
    "receiver",
    "accumulator",
    "filter",
    "drier",
    "fouling",
]


def _token(owner: str) -> str:
    return f"{owner}-res-token-0123456789"


def _long_text(rng: random.Random, tag: str, paragraphs: list[str]) -> str:
    parts = [tag]
    size = len(tag)
    while size < NOTE_CHARS:
        part = rng.choice(paragraphs)
        parts.append(part)
        size += len(part) + 1
    return " ".join(parts)[:NOTE_CHARS]


def _paragraphs(rng: random.Random) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(300)) + "." for _ in range(40)]


def _serve(url: str, port: int, home: Path, owners: list[str]) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(
        DATABASE_URL=url,
        WORKBENCH_HOME=str(home),
        WORKBENCH_API_TOKENS=",".join(f"{_token(o)}:{o}" for o in owners),
        PYTHONUNBUFFERED="1",
    )
    log = (home / "serve.log").open("w")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "workbench.cli.main",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def _ready(base: str, proc: subprocess.Popen, home: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, (home / "serve.log").read_text()
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError((home / "serve.log").read_text())


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def test_service_concurrent_large_imports_stay_within_the_memory_bound(
    fresh_db_url: str, tmp_path: Path
) -> None:
    owners = [f"o{i}" for i in range(4)]
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn)
    rng = random.Random(28)
    paragraphs = _paragraphs(rng)
    bodies = {
        owner: json.dumps(
            {
                "notes": [
                    {
                        "title": f"Log {owner} {i}",
                        "content": _long_text(rng, f"u{owner}n{i}x", paragraphs),
                        "external_id": f"{owner}-{i}",
                    }
                    for i in range(80)
                ]
            }
        ).encode()
        for owner in owners
    }
    settings = ServiceSettings()
    assert all(len(b) <= settings.max_body_bytes for b in bodies.values())
    assert sum(len(b) for b in bodies.values()) > 60 * MiB

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(fresh_db_url, port, tmp_path, owners)
    try:
        _ready(base, proc, tmp_path)
        with httpx.Client(base_url=base, timeout=300) as c:  # warm up: both models loaded
            h = {"Authorization": f"Bearer {_token('o0')}"}
            small = {
                "notes": [{"title": "Warm", "content": "warm up the coil", "external_id": "w"}]
            }
            assert c.post("/api/notes/import", json=small, headers=h).status_code == 200
            assert c.post("/api/notes/search", params={"q": "coil"}, headers=h).status_code == 200
        time.sleep(1.0)
        idle = rss_bytes(proc.pid)

        peak = [idle, 0]
        done = threading.Event()

        def workers_rss() -> int:  # the background embedding worker processes
            total = 0
            for task in os.listdir(f"/proc/{proc.pid}/task"):
                try:
                    with open(f"/proc/{proc.pid}/task/{task}/children") as fh:
                        children = fh.read().split()
                except FileNotFoundError:  # the thread ended since the listing
                    continue
                for child in children:
                    with contextlib.suppress(OSError):
                        total += rss_bytes(int(child))
            return total

        assert workers_rss() > 0, "no embedding worker process after the warm-up import"

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], rss_bytes(proc.pid))
                peak[1] = max(peak[1], workers_rss())
                time.sleep(0.02)

        answers: dict[str, httpx.Response] = {}
        refused: list[str] = []

        def client(owner: str) -> None:
            headers = {
                "Authorization": f"Bearer {_token(owner)}",
                "Content-Type": "application/json",
            }
            with httpx.Client(base_url=base, timeout=600) as c:
                while True:
                    r = c.post("/api/notes/import", content=bodies[owner], headers=headers)
                    if r.status_code != 429:
                        answers[owner] = r
                        return
                    refused.append(owner)
                    time.sleep(float(r.headers["retry-after"]))

        sampler = threading.Thread(target=sample)
        sampler.start()
        threads = [threading.Thread(target=client, args=(o,)) for o in owners]
        for t in threads:
            t.start()
        for t in threads:
            t.join(900)
        done.set()
        sampler.join()

        for owner in owners:
            assert answers[owner].status_code == 200, answers[owner].text[:300]
            assert answers[owner].json()["inserted"] == 80
        assert refused, "four imports at once: two of them must have been told to retry"
        bound, workers_bound = import_memory_bound(settings)
        growth = peak[0] - idle
        print(
            f"\nRSS idle {idle / MiB:.0f} MiB, peak {peak[0] / MiB:.0f} MiB "
            f"(+{growth / MiB:.0f} MiB, bound +{bound / MiB:.0f} MiB); embedding worker peak "
            f"{peak[1] / MiB:.0f} MiB (bound {workers_bound / MiB:.0f} MiB)"
        )
        assert growth <= bound, (growth / MiB, bound / MiB)
        assert peak[1] <= workers_bound, (peak[1] / MiB, workers_bound / MiB)

        deadline = time.monotonic() + 15  # back near the idle size
        after = rss_bytes(proc.pid)
        while after > idle + 100 * MiB and time.monotonic() < deadline:
            time.sleep(0.5)
            after = rss_bytes(proc.pid)
        print(f"RSS after the imports {after / MiB:.0f} MiB")
        assert after <= idle + 100 * MiB, (idle / MiB, after / MiB)
    finally:
        _stop(proc)


def test_service_heavy_searches_of_one_owner_leave_another_fast(
    fresh_db_url: str, tmp_path: Path, minilm
) -> None:
    rng = random.Random(29)
    paragraphs = _paragraphs(rng)
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn)
        heavy = [
            NoteInput(
                f"Condenser log {i}",
                _long_text(rng, f"condenser fouling case {i}", paragraphs),
                f"b{i}",
            )
            for i in range(100)
        ]
        import_notes(conn, "bob", heavy, provider=minilm)
        light = [
            NoteInput(f"Coil note {i}", " ".join(rng.choice(WORDS) for _ in range(40)), f"a{i}")
            for i in range(50)
        ]
        import_notes(conn, "alice", light, provider=minilm)

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(fresh_db_url, port, tmp_path, ["alice", "bob"])
    try:
        _ready(base, proc, tmp_path)
        bob = {"Authorization": f"Bearer {_token('bob')}"}
        alice = {"Authorization": f"Bearer {_token('alice')}"}
        with httpx.Client(base_url=base, timeout=60) as c:  # warm up
            assert c.post("/api/notes/search", params={"q": "coil"}, headers=alice).is_success
            one = c.post(
                "/api/notes/search", params={"q": "condenser fouling", "limit": 100}, headers=bob
            )
            assert one.status_code == 200, one.text
            assert len(one.json()["results"]) == 100

        stop = threading.Event()
        bob_status: list[int] = []

        def heavy_client() -> None:
            with httpx.Client(base_url=base, timeout=60) as c:
                while not stop.is_set():
                    r = c.post(
                        "/api/notes/search",
                        params={"q": "condenser fouling", "limit": 100},
                        headers=bob,
                    )
                    bob_status.append(r.status_code)

        threads = [threading.Thread(target=heavy_client) for _ in range(10)]
        for t in threads:
            t.start()
        latencies: list[float] = []
        alice_status: list[int] = []
        try:
            time.sleep(1.0)  # bob's ten searches are running
            with httpx.Client(base_url=base, timeout=60) as c:
                for i in range(60):
                    start = time.perf_counter()
                    r = c.post(
                        "/api/notes/search",
                        params={"q": f"coil note {i % 7}"},
                        headers=alice,
                    )
                    latencies.append((time.perf_counter() - start) * 1e3)
                    alice_status.append(r.status_code)
                    time.sleep(0.05)
        finally:
            stop.set()
            for t in threads:
                t.join(60)
        p95 = _percentile(latencies, 0.95)
        print(
            f"\nalice p50 {_percentile(latencies, 0.5):.0f} ms, p95 {p95:.0f} ms; bob "
            f"{len(bob_status)} heavy searches, statuses {sorted(set(bob_status))}; "
            f"load {os.getloadavg()[0]:.1f}"
        )
        assert set(alice_status) == {200}
        assert len(bob_status) >= 10
        assert set(bob_status) <= {200, 503}
        assert p95 < 200, latencies
    finally:
        _stop(proc)
