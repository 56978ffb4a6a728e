"""Load test of the HTTP API: concurrent clients search while reindex jobs run.

On a throwaway database (the embedded server in a temporary folder, or ``DATABASE_URL``), the
script imports ``--notes`` notes for four owners, starts ``workbench serve`` as a separate
process on a free loopback port, then runs ``--clients`` client threads that search for
``--seconds`` seconds while the administrator keeps a forced reindex running (a new job starts
as soon as the previous one finishes). A short baseline phase without reindex comes first.

Every query is one note's unique code word, so that note must come back (it is the only keyword
match, and its fused score beats every semantic-only hit): a miss counts as a lost note. During
the load phase one more client keeps replacing the content of random notes (``PUT``), racing the
forced reindex; afterwards no embedding may be stale (made from text the note no longer has),
the set of note ids must be unchanged and validate must pass.
Latency is measured by the clients (request to response); the table goes into
docs/benchmarks.md between the ``bench:service-load`` markers::

    python -m benchmarks.bench_service_load [--notes 2000] [--clients 8] [--seconds 30] [--no-write]
        [--writers 4] [--mixed-seconds 20] [--embed-policy batch|idle|normal] [--skip-reindex]

A last, mixed phase (issue 28) runs the search clients next to ``--writers`` writer clients that
create, replace and import notes (20 per import); it reports the search latency and each kind
of write's p50 / p95 (goal: search p95 under 150 ms while writes run), and where a search's time
went in the server, from the ``Server-Timing`` header of each answer (p50 / p95 of each phase,
search alone and with writes). ``--skip-reindex`` (with ``--no-write``) leaves out the reindex
phase for a quick look.

Exit status 1 when a request failed, a note was lost or an embedding is stale.

``--hostile`` (issue 42) runs another scenario instead: ``workbench serve`` and ``workbench
tools`` as two processes on one database; one owner's two clients search alone and beside a
hostile tenant in turn, ``--rounds`` times ``--hostile-seconds`` each (the tenant: 9 API and 3
tool-server clients of heavy searches, slow uploads and 16 MiB junk bodies with and without its
token, a ``/readyz`` flood, in a process of its own). It reports that owner's p50 / p95 and
errors in both phases, where its searches spent their time (``Server-Timing``, with each
phase's CPU and wait for a core), the CPU of each part, the API's resident size and what the
tenant's clients got, into the ``bench:service-hostile`` section (goal: p95 under 2x, API under
600 MiB, no error). ``--attack`` runs only some parts of the tenant (profiling)::

    python -m benchmarks.bench_service_load --hostile [--notes 400] [--hostile-seconds 10]
        [--rounds 3] [--attack heavy,slow,junk,flood]
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

from benchmarks.bench_notes_common import REPO, machine_line, write_section
from workbench.notes import db
from workbench.notes.migrations import migrate
from workbench.notes.service.serving import free_port
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.store import NoteInput, import_notes

OWNERS = ("ana", "ben", "cho", "dev")
ADMIN_TOKEN = "bench-admin-" + uuid.uuid4().hex
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
    "sight",
    "glass",
]


@dataclass
class Phase:
    """What the clients saw in one phase."""

    name: str
    latencies_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    phases_ms: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    misses: int = 0
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def server_timing(header: str) -> dict[str, float]:
    """The phases of a ``Server-Timing`` header, ``name;dur=ms, ...``, by name [ms]."""
    out: dict[str, float] = {}
    for part in header.split(","):
        name, _, rest = part.strip().partition(";dur=")
        if name and rest:
            out[name] = float(rest)
    return out


PHASE_NAMES = {
    "slot": "waiting for an owner slot",
    "thread": "waiting for a worker thread (one hand-over)",
    "resume": "the event loop taking the thread's result back",
    "pool": "waiting for a pooled connection",
    "budget": "taking the owner's slot over all processes",
    "embed": "embedding the query",
    "embed_cpu": "... CPU time of its thread (`WORKBENCH_TIMING_SCHED=1`)",
    "embed_runq": "... its thread waiting for a core",
    "sql": "the search statement",
    "sql_cpu": "... CPU time of its thread",
    "sql_runq": "... its thread waiting for a core",
    "app": "all of the application",
    "outside": "client latency minus `app`: sockets, HTTP parsing, the event loop, the client",
}


def phase_rows(phases: list[Phase]) -> list[str]:
    """Markdown rows: p50 / p95 [ms] of each ``Server-Timing`` phase, one column pair per phase.

    Percentiles are taken per row, so the rows do not add up to the client's latency.
    """
    rows = []
    for name, label in PHASE_NAMES.items():
        cells = []
        for phase in phases:
            values = phase.phases_ms.get(name)
            cells.append(
                f"{_percentile(values, 0.5):.1f} | {_percentile(values, 0.95):.1f}"
                if values
                else "- | -"
            )
        rows.append(f"| {name} | {label} | {' | '.join(cells)} |")
    return rows


def make_notes(n: int, rng: random.Random) -> dict[str, list[NoteInput]]:
    """Notes per owner, each with a unique code word ``u<number>x`` in its title."""
    per: dict[str, list[NoteInput]] = {o: [] for o in OWNERS}
    for i in range(n):
        owner = OWNERS[i % len(OWNERS)]
        topic = rng.sample(WORDS, 3)
        body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 40)))
        per[owner].append(
            NoteInput(f"Unit u{i:06d}x {' '.join(topic)}", f"{body}.", external_id=f"n{i}")
        )
    return per


def client_loop(
    base: str,
    tokens: dict[str, str],
    notes: dict[str, list[NoteInput]],
    phase: Phase,
    deadline: float,
    seed: int,
) -> None:
    """One client thread: search for random notes' code words until the deadline.

    Each request is ``POST /api/notes/search?q=<code word>&limit=10`` as the note's owner; the
    latency [ms] is measured from request to response. Recorded in ``phase``: the latency and the
    server's ``took_ms`` of every answered request, a miss when the note is not among the hits,
    and every error status or transport error.

    Parameters
    ----------
    base : str
        Base URL of the server.
    tokens : dict of str to str
        Bearer token of each owner.
    notes : dict of str to list of NoteInput
        Each owner's notes (:func:`make_notes`).
    phase : Phase
        Where the results go (shared by the threads, under its lock).
    deadline : float
        ``time.monotonic()`` value at which to stop [s].
    seed : int
        Seed of this client's random choices.
    """
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as client:
        while time.monotonic() < deadline:
            owner = rng.choice(OWNERS)
            note = rng.choice(notes[owner])
            # the code word alone: only this note matches it, so it ranks first in the keyword
            # branch and its fused score beats every note that only the semantic branch found
            query = note.title.split()[1]
            start = time.perf_counter()
            try:
                r = client.post(
                    "/api/notes/search",
                    params={"q": query, "limit": 10},
                    headers={"Authorization": f"Bearer {tokens[owner]}"},
                )
                elapsed = (time.perf_counter() - start) * 1e3
                if r.status_code != 200:
                    with phase.lock:
                        phase.errors.append(f"{r.status_code} {r.text[:200]}")
                    continue
                body = r.json()
                found = any(h["external_id"] == note.external_id for h in body["results"])
                timings = server_timing(r.headers.get("server-timing", ""))
                timings["outside"] = max(0.0, elapsed - timings.get("app", elapsed))
                with phase.lock:
                    phase.latencies_ms.append(elapsed)
                    phase.server_ms.append(body["took_ms"])
                    for name, ms in timings.items():
                        phase.phases_ms.setdefault(name, []).append(ms)
                    phase.misses += 0 if found else 1
            except httpx.HTTPError as exc:
                with phase.lock:
                    phase.errors.append(f"{type(exc).__name__}: {exc}")


def reindex_loop(base: str, phase: Phase, jobs: dict, deadline: float) -> None:
    """Keep a forced reindex running until the deadline; the last job is awaited.

    ``jobs["in_window"]`` counts the notes re-embedded before the deadline (from the progress
    endpoint), ``jobs["tail_s"]`` how long the last job ran on after it.
    """
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    with httpx.Client(base_url=base, timeout=30) as c:
        while time.monotonic() < deadline:
            r = c.post("/api/notes/reindex", params={"force": True}, headers=admin)
            if r.status_code != 202:
                with phase.lock:
                    phase.errors.append(f"reindex: {r.status_code} {r.text[:200]}")
                return
            job = r.json()["job"]
            done_in_window = 0
            while True:
                state = c.get(f"/api/notes/reindex/{job}", headers=admin).json()
                if time.monotonic() < deadline:
                    done_in_window = state["done"]
                if state["state"] != "running":
                    break
                time.sleep(0.2)
            jobs["in_window"] += done_in_window
            if state["state"] == "succeeded":
                jobs["completed"] += 1
            else:
                jobs["failed"] += 1
                with phase.lock:
                    phase.errors.append(f"reindex job failed: {state['error']}")
        jobs["tail_s"] = max(0.0, time.monotonic() - deadline)


def update_loop(
    base: str,
    tokens: dict[str, str],
    ids: dict[str, tuple[str, str]],
    phase: Phase,
    jobs: dict,
    deadline: float,
) -> None:
    """Replace the content of random notes (title kept) until the deadline, racing the reindex."""
    rng = random.Random(99)
    keys = sorted(ids)
    with httpx.Client(base_url=base, timeout=30) as client:
        while time.monotonic() < deadline:
            ext = rng.choice(keys)
            owner, note_id = ids[ext]
            r = client.get(
                f"/api/notes/{note_id}", headers={"Authorization": f"Bearer {tokens[owner]}"}
            )
            if r.status_code != 200:
                with phase.lock:
                    phase.errors.append(f"update read: {r.status_code} {r.text[:200]}")
                continue
            body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 40)))
            r = client.put(
                f"/api/notes/{note_id}",
                json={"title": r.json()["title"], "content": f"{body} (rev {jobs['updates']})."},
                headers={"Authorization": f"Bearer {tokens[owner]}"},
            )
            if r.status_code != 200:
                with phase.lock:
                    phase.errors.append(f"update: {r.status_code} {r.text[:200]}")
                continue
            jobs["updates"] += 1
            time.sleep(0.05)


@dataclass
class Writes:
    """Latencies of the writer clients of the mixed phase, by kind [ms]."""

    latencies_ms: dict[str, list[float]] = field(
        default_factory=lambda: {"create": [], "update": [], "import 20": []}
    )
    errors: list[str] = field(default_factory=list)
    retried: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def writer_loop(
    base: str, tokens: dict[str, str], writes: Writes, deadline: float, seed: int
) -> None:
    """One writer client: create a note, replace it, import 20 notes, in turn, until the deadline.

    Every note it writes has a code word of its own (never searched), so the searchers' notes and
    their answers do not change.
    """
    rng = random.Random(seed)
    owner = OWNERS[seed % len(OWNERS)]
    headers = {"Authorization": f"Bearer {tokens[owner]}"}
    n = 0
    with httpx.Client(base_url=base, timeout=60) as client:
        while time.monotonic() < deadline:
            n += 1
            tag = f"w{seed}x{n}"

            def text() -> str:
                return " ".join(rng.choice(WORDS) for _ in range(rng.randint(40, 120))) + "."

            for kind in ("create", "update", "import 20"):
                start = time.perf_counter()
                if kind == "create":
                    r = client.post(
                        "/api/notes",
                        json={"title": f"Write {tag}", "content": text()},
                        headers=headers,
                    )
                    note_id = r.json().get("id") if r.status_code == 201 else None
                elif kind == "update":
                    if note_id is None:
                        continue
                    r = client.put(
                        f"/api/notes/{note_id}",
                        json={"title": f"Write {tag}", "content": text()},
                        headers=headers,
                    )
                else:
                    batch = [
                        {
                            "title": f"Batch {tag} {k}",
                            "content": text(),
                            "external_id": f"{tag}-{k}",
                        }
                        for k in range(20)
                    ]
                    while True:  # beyond the server's import slots: honour Retry-After
                        r = client.post("/api/notes/import", json={"notes": batch}, headers=headers)
                        if r.status_code != 429 or time.monotonic() > deadline:
                            break
                        with writes.lock:
                            writes.retried += 1
                        time.sleep(float(r.headers.get("retry-after", "1")))
                elapsed = (time.perf_counter() - start) * 1e3
                if r.status_code == 429:  # still refused when the phase ended
                    continue
                with writes.lock:
                    if r.status_code in (200, 201):
                        writes.latencies_ms[kind].append(elapsed)
                    else:
                        writes.errors.append(f"{kind}: {r.status_code} {r.text[:200]}")


def run_mixed_phase(
    base, tokens, notes, seconds: float, clients: int, writers: int
) -> tuple[Phase, Writes]:
    """``clients`` search threads and ``writers`` writer threads (:func:`writer_loop`) at once."""
    phase = Phase("search during writes")
    writes = Writes()
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(target=client_loop, args=(base, tokens, notes, phase, deadline, 100 + s))
        for s in range(clients)
    ] + [
        threading.Thread(target=writer_loop, args=(base, tokens, writes, deadline, s))
        for s in range(writers)
    ]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    phase.seconds = time.monotonic() - start
    return phase, writes


def write_row(kind: str, values: list[float]) -> str:
    """The Markdown row of one kind of write: count, p50 and p95 [ms]."""
    if not values:
        return f"| {kind} | 0 | - | - |"
    return (
        f"| {kind} | {len(values)} | {_percentile(values, 0.5):.0f} | "
        f"{_percentile(values, 0.95):.0f} |"
    )


def run_phase(
    base, tokens, notes, name, seconds, clients, reindex: bool, ids=None
) -> tuple[Phase, dict]:
    """Run ``clients`` search threads for ``seconds``, with the reindex and update loops if asked.

    Parameters
    ----------
    base : str
        Base URL of the server.
    tokens : dict of str to str
        Bearer token of each owner.
    notes : dict of str to list of NoteInput
        Each owner's notes.
    name : str
        Name of the phase in the table.
    seconds : float
        Length of the phase [s].
    clients : int
        Number of concurrent search clients.
    reindex : bool
        Also keep a forced reindex running (:func:`reindex_loop`) and notes changing
        (:func:`update_loop`).
    ids : dict of str to tuple of (str, str), optional
        Owner and note id by external id, for the update loop (needed with ``reindex``).

    Returns
    -------
    phase : Phase
        What the clients saw, with the phase's wall time [s].
    jobs : dict
        Reindex jobs completed and failed, notes re-embedded within the window, how long the
        last job ran on after it [s], notes updated.
    """
    phase = Phase(name)
    deadline = time.monotonic() + seconds
    threads = [
        threading.Thread(target=client_loop, args=(base, tokens, notes, phase, deadline, s))
        for s in range(clients)
    ]
    jobs = {"completed": 0, "failed": 0, "in_window": 0, "tail_s": 0.0, "updates": 0}
    indexer = threading.Thread(target=reindex_loop, args=(base, phase, jobs, deadline))
    updater = threading.Thread(target=update_loop, args=(base, tokens, ids, phase, jobs, deadline))
    start = time.monotonic()
    if reindex:
        indexer.start()
        updater.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    phase.seconds = time.monotonic() - start
    if reindex:
        indexer.join()
        updater.join()
    return phase, jobs


def note_ids(url: str) -> set[str]:
    """Ids of every note in the database at ``url``."""
    with psycopg.connect(url) as conn:
        return {r[0] for r in conn.execute('SELECT id FROM "Note"')}


def ids_by_external_id(url: str) -> dict[str, tuple[str, str]]:
    """Owner and note id of every note in the database at ``url``, by external id."""
    with psycopg.connect(url) as conn:
        rows = conn.execute('SELECT "externalId", "ownerId", id FROM "Note"').fetchall()
    return {ext: (owner, note_id) for ext, owner, note_id in rows}


def wait_ready(base: str, proc: subprocess.Popen, timeout_s: float = 120) -> None:
    """Wait until the server at ``base`` answers ``/readyz`` with 200.

    Parameters
    ----------
    base : str
        Base URL of the server.
    proc : subprocess.Popen
        The ``workbench serve`` process.
    timeout_s : float
        How long to wait [s].

    Raises
    ------
    SystemExit
        The process exited, or the server was not ready within ``timeout_s``.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"workbench serve exited with {proc.returncode}")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("workbench serve did not become ready")


def row(phase: Phase, clients: int) -> str:
    """The Markdown table row of one phase.

    Requests, requests per second, client latency p50 / p95 / p99 [ms], the server's median
    ``took_ms`` [ms], errors and lost notes.
    """
    lat = phase.latencies_ms
    if not lat:
        return f"| {phase.name} | {clients} | 0 | - | - | - | - | - | {len(phase.errors)} | {phase.misses} |"
    return (
        f"| {phase.name} | {clients} | {len(lat)} | {len(lat) / phase.seconds:.1f} | "
        f"{_percentile(lat, 0.5):.1f} | {_percentile(lat, 0.95):.1f} | {_percentile(lat, 0.99):.1f} | "
        f"{statistics.median(phase.server_ms):.1f} | {len(phase.errors)} | {phase.misses} |"
    )


def main() -> int:
    """Run the load test, print the table and (unless ``--no-write``) update the docs.

    Returns
    -------
    int
        Exit status: 1 when a request failed, a note was lost, an embedding is stale or
        validation failed, else 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--baseline-seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--writers", type=int, default=4, help="writer clients of the mixed phase (0: skip it)"
    )
    parser.add_argument("--mixed-seconds", type=float, default=20.0)
    parser.add_argument("--no-write", action="store_true", help="print, do not update the docs")
    parser.add_argument(
        "--embed-policy",
        choices=("batch", "idle", "normal"),
        help="the server's WORKBENCH_EMBED_POLICY (default: its own default, batch)",
    )
    parser.add_argument(
        "--skip-reindex",
        action="store_true",
        help="leave out the reindex phase (with --no-write only: the table would lack it)",
    )
    args = parser.parse_args()
    if args.skip_reindex and not args.no_write:
        parser.error("--skip-reindex needs --no-write")
    if not (1 <= args.clients <= 64 and 1 <= args.seconds <= 600 and 1 <= args.notes <= 100_000):
        parser.error("keep it bounded: 1-64 clients, 1-600 s, 1-100000 notes")

    load_before = os.getloadavg()[0]
    rng = random.Random(args.seed)
    notes = make_notes(args.notes, rng)
    tokens = {o: f"bench-{o}-{uuid.uuid4().hex}" for o in OWNERS}
    home = Path(tempfile.mkdtemp(prefix="wb-load-"))
    if os.environ.get(db.ENV_DATABASE_URL):
        admin_url = db.with_database(os.environ[db.ENV_DATABASE_URL], "postgres")
        own_server = False
    else:
        admin_url = db.with_database(db.start_embedded(home), "postgres")
        own_server = True
    name = f"bench_load_{uuid.uuid4().hex[:8]}"
    url = db.create_database(admin_url, name)
    proc = None
    try:
        t0 = time.perf_counter()
        with psycopg.connect(url, autocommit=True) as conn:
            migrate(conn)
            for owner, records in notes.items():
                import_notes(conn, owner, records)
        import_s = time.perf_counter() - t0
        before = note_ids(url)
        print(f"imported {len(before)} notes in {import_s:.1f} s", flush=True)

        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
        env.update(
            DATABASE_URL=url,
            WORKBENCH_HOME=str(home / "service"),
            WORKBENCH_API_TOKENS=",".join(f"{t}:{o}" for o, t in tokens.items()),
            WORKBENCH_ADMIN_TOKEN=ADMIN_TOKEN,
        )
        if args.embed_policy:
            env["WORKBENCH_EMBED_POLICY"] = args.embed_policy
        proc = subprocess.Popen(
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
        )
        wait_ready(base, proc)

        base_phase, _ = run_phase(
            base, tokens, notes, "search only", args.baseline_seconds, args.clients, False
        )
        if args.skip_reindex:  # only the baseline and the mixed phase (quicker)
            load_phase = Phase("search during reindex")
            jobs = {"completed": 0, "failed": 0, "in_window": 0, "tail_s": 0.0, "updates": 0}
        else:
            load_phase, jobs = run_phase(
                base,
                tokens,
                notes,
                "search during reindex",
                args.seconds,
                args.clients,
                True,
                ids_by_external_id(url),
            )

        mixed_phase, writes = None, Writes()
        if args.writers:
            mixed_load = os.getloadavg()[0]
            mixed_phase, writes = run_mixed_phase(
                base, tokens, notes, args.mixed_seconds, args.clients, args.writers
            )

        after = note_ids(url)
        with httpx.Client(base_url=base, timeout=120) as c:
            report = c.post(
                "/api/admin/embeddings/validate", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}
            ).json()
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            proc.wait(30)
        db.drop_database(admin_url, name)
        if own_server:
            db.stop_embedded(home)

    mixed_misses = mixed_phase.misses if mixed_phase is not None else 0
    lost = len(before - after) + base_phase.misses + load_phase.misses + mixed_misses
    stale = report.get("counts", {}).get("stale_hash", -1)
    errors = len(base_phase.errors) + len(load_phase.errors)
    if mixed_phase is not None:
        errors += len(mixed_phase.errors) + len(writes.errors)
    reindex_rate = jobs["in_window"] / args.seconds
    table = "\n".join(
        [
            "## HTTP API under load (`benchmarks/bench_service_load.py`)",
            "",
            f"{machine_line()}; 1-min load average {load_before:.1f} when the run started (other "
            "jobs share the machine). `workbench serve` (uvicorn, one process, pool of 8) on loopback, "
            f"{len(before)} notes of {len(OWNERS)} owners, local embedding model; "
            f"{args.clients} client threads (httpx) in a separate process send "
            "`POST /api/notes/search?q=...&limit=10` (hybrid) back to back. Each query names one "
            "note's unique code word; a response without that note counts as a miss (lost note). "
            "Each search embeds its query with the local model, so the clients and the reindex "
            "compete for the same two cores.",
            "",
            "Latency measured by the clients [ms]; `server` is the median `took_ms` the API reports.",
            "",
            "| phase | clients | requests | req/s | p50 | p95 | p99 | server p50 | errors | misses |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            row(base_phase, args.clients),
            row(load_phase, args.clients),
            "",
            f"During the {args.seconds:.0f} s load phase a forced reindex ran all the time "
            f"(one job after the other): {jobs['in_window']} notes re-embedded in the window "
            f"({reindex_rate:.0f} notes/s next to the searches), {jobs['completed']} jobs "
            f"completed, {jobs['failed']} failed; the last job finished {jobs['tail_s']:.0f} s "
            f"after the clients stopped. Meanwhile one more client replaced the content of "
            f"{jobs['updates']} random notes (`PUT`, racing the reindex jobs): "
            f"**{stale} stale embeddings** after the run (an embedding made from text the note "
            f"no longer has; issue 14 found 1 in such a run). Notes before {len(before)}, after "
            f"{len(after)}, missing {len(before - after)}; validate after the run: "
            f"{'ok' if report.get('ok') else 'FAILED ' + str(report.get('counts'))}.",
        ]
    )
    if mixed_phase is not None:
        p95 = _percentile(mixed_phase.latencies_ms, 0.95) if mixed_phase.latencies_ms else 0.0
        table += "\n".join(
            [
                "",
                "",
                f"Mixed load (issue 28): {args.clients} search clients as above and "
                f"{args.writers} writer clients for {args.mixed_seconds:.0f} s; each writer in "
                "turn creates a note (`POST /api/notes`), replaces it (`PUT`) and imports 20 "
                "notes (`POST /api/notes/import`), 40 to 120 words each. Writes embed their "
                "texts on the server's background worker process (batches of 4, nice 10, "
                f"`{args.embed_policy or 'batch'}` scheduling) and wait for them holding no "
                "database slot; searches "
                f"embed their query at once. 1-min load average {mixed_load:.1f} when the phase "
                f"started. Goal: search p95 under 150 ms; measured **{p95:.0f} ms**.",
                "",
                "| phase | clients | requests | req/s | p50 | p95 | p99 | server p50 | errors | misses |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                row(mixed_phase, args.clients),
                "",
                "Where a search's time went, from the `Server-Timing` header the API answers "
                "with (p50 / p95 of each row on its own) [ms]:",
                "",
                "| part | what | search only p50 | p95 | with writes p50 | p95 |",
                "|---|---|---:|---:|---:|---:|",
                *phase_rows([base_phase, mixed_phase]),
                "",
                "| write (during the mixed phase) | answered | p50 [ms] | p95 [ms] |",
                "|---|---:|---:|---:|",
                *(write_row(kind, values) for kind, values in writes.latencies_ms.items()),
                f"| (errors) | {len(writes.errors)} | | |",
                "",
                f"Imports told to come back later (429, `Retry-After` honoured): {writes.retried}."
                " Latencies include that wait.",
            ]
        )
    print(table)
    more = (mixed_phase.errors + writes.errors) if mixed_phase is not None else []
    for message in (base_phase.errors + load_phase.errors + more)[:10]:
        print("error:", message, file=sys.stderr)
    if not args.no_write:
        write_section("service-load", table)
    return 1 if errors or lost or stale or not report.get("ok") else 0


# -- the hostile tenant (issue 42) ------------------------------------------------------------


def _serve(
    kind: str, url: str, home: Path, tokens: dict[str, str], code: Path = REPO
) -> tuple[subprocess.Popen, str]:
    """``workbench serve`` or ``workbench tools`` on ``url`` in a process of its own.

    ``code`` is the checkout whose ``workbench`` package serves (default this one).
    """
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env["PYTHONPATH"] = str(code)
    env.update(
        DATABASE_URL=url,
        WORKBENCH_HOME=str(home / kind),
        WORKBENCH_API_TOKENS=",".join(f"{t}:{o}" for o, t in tokens.items()),
        WORKBENCH_TIMING_SCHED="1",
    )
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "workbench.cli.main", kind, "--port", str(port)),
            *("--log-level", "warning"),
        ],
        cwd=code,
        env=env,
    )
    return proc, f"http://127.0.0.1:{port}"


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _cpu_s(pid: int) -> float:
    """User + system CPU time of process ``pid`` and its children that are still alive [s]."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    with contextlib.suppress(OSError):
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as kids:
                pids += [int(k) for k in kids.read().split()]
    for p in pids:
        with contextlib.suppress(OSError), open(f"/proc/{p}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _cpu_by_part(parts: dict[str, int]) -> dict[str, float]:
    """CPU time [s] of each part (a process and its live children), and of this benchmark."""
    out = {name: _cpu_s(pid) for name, pid in parts.items()}
    times = os.times()
    out["well-behaved clients (this process)"] = times.user + times.system
    return out


class Tally:
    """Answers of the hostile tenant's clients, by kind and status."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, int]] = {}
        self.lock = threading.Lock()

    def add(self, kind: str, status: str) -> None:
        """Count one answer of ``kind``."""
        with self.lock:
            self.counts.setdefault(kind, {})
            self.counts[kind][status] = self.counts[kind].get(status, 0) + 1

    def line(self, kind: str) -> str:
        """The answers of ``kind``, ``status: count, ...``."""
        found = self.counts.get(kind, {})
        return ", ".join(f"{k}: {v}" for k, v in sorted(found.items())) or "none"


def _victim(base: str, token: str, notes: list[NoteInput], phase: Phase, stop: float, seed: int):
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as client:
        while time.monotonic() < stop:
            note = rng.choice(notes)
            start = time.perf_counter()
            try:
                r = client.post(
                    "/api/notes/search",
                    params={"q": note.title.split()[1], "limit": 10},
                    headers={"Authorization": f"Bearer {token}"},
                )
            except httpx.HTTPError as exc:
                with phase.lock:
                    phase.errors.append(f"{type(exc).__name__}: {exc}")
                continue
            elapsed = (time.perf_counter() - start) * 1e3
            timings = server_timing(r.headers.get("server-timing", ""))
            timings["outside"] = max(0.0, elapsed - timings.get("app", elapsed))
            with phase.lock:
                if r.status_code != 200:
                    phase.errors.append(f"{r.status_code} {r.text[:200]}")
                    continue
                phase.latencies_ms.append(elapsed)
                for name, ms in timings.items():
                    phase.phases_ms.setdefault(name, []).append(ms)
                if not any(h["external_id"] == note.external_id for h in r.json()["results"]):
                    phase.misses += 1


HEAVY = " ".join(WORDS[:40])  # every word: the largest candidate sets, 100 results


def _heavy_api(base: str, token: str, tally: Tally, stop: float) -> None:
    with httpx.Client(base_url=base, timeout=60) as client:
        while time.monotonic() < stop:
            try:
                r = client.post(
                    "/api/notes/search",
                    params={"q": HEAVY, "limit": 100},
                    headers={"Authorization": f"Bearer {token}"},
                )
                tally.add("heavy search (API)", str(r.status_code))
                lane = "low" if "embed_low" in r.headers.get("server-timing", "") else "normal"
                tally.add("heavy search (API): query embedded at priority", lane)
            except httpx.HTTPError as exc:
                tally.add("heavy search (API)", type(exc).__name__)


def _heavy_mcp(base: str, token: str, tally: Tally, stop: float) -> None:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "search_notes", "arguments": {"query": HEAVY, "limit": 100}},
    }
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
    }
    with httpx.Client(base_url=base, timeout=60) as client:
        while time.monotonic() < stop:
            try:
                r = client.post("/mcp", json=call, headers=headers)
                ok = r.status_code == 200 and not r.json().get("result", {}).get("isError", True)
                tally.add("heavy search (tools)", "ok" if ok else f"{r.status_code} refused")
            except httpx.HTTPError as exc:
                tally.add("heavy search (tools)", type(exc).__name__)


def _slow_upload(port: int, token: str | None, tally: Tally, stop: float) -> None:
    """An import whose body trickles in, a byte every 2 s; reconnects when closed."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (
        "POST /api/notes/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"{auth}Content-Length: 1000000\r\n\r\n"
    ).encode()
    kind = "slow upload " + ("(token)" if token else "(no token)")
    while time.monotonic() < stop:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.sendall(head)
                answer = b""
                while time.monotonic() < stop:
                    sock.send(b" ")
                    sock.settimeout(2.0)
                    try:
                        answer = sock.recv(64)
                    except TimeoutError:
                        continue
                    break
                tally.add(kind, answer[9:12].decode() or "closed")
        except OSError as exc:
            tally.add(kind, type(exc).__name__)
            time.sleep(0.5)


def _junk(base: str, token: str | None, tally: Tally, stop: float) -> None:
    """16 MiB bodies of ``{}`` items to the import route, back to back."""
    junk = b'{"notes": [' + b",".join([b"{}"] * (16 * 1024 * 1024 // 3 - 8)) + b"]}"
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    kind = "16 MiB junk body " + ("(token)" if token else "(no token)")
    with httpx.Client(base_url=base, timeout=60) as client:
        while time.monotonic() < stop:
            try:
                r = client.post("/api/notes/import", content=junk, headers=headers)
                tally.add(kind, str(r.status_code))
            except httpx.HTTPError as exc:
                tally.add(kind, type(exc).__name__)


def _flood(base: str, tally: Tally, stop: float) -> None:
    with httpx.Client(base_url=base, timeout=10) as client:
        while time.monotonic() < stop:
            try:
                tally.add("/readyz flood", str(client.get("/readyz").status_code))
            except httpx.HTTPError as exc:
                tally.add("/readyz flood", type(exc).__name__)


ATTACKS = ("heavy", "slow", "junk", "flood")
"""The parts of the hostile tenant (``--attack``, all by default)."""


def attack_clients(
    api_url: str,
    tools_url: str,
    token: str,
    seconds: float,
    go: Any,
    queue: Any,
    attacks: tuple[str, ...] = ATTACKS,
) -> None:
    """The hostile tenant's clients, in a process of their own (started with ``spawn``).

    Its threads do not share an interpreter lock with the well-behaved owner's clients, so the
    latency those measure is the servers', as for a tenant on another machine. Puts this
    process's CPU time [s] on ``queue`` when ready, waits for ``go``, runs ``seconds`` [s], then
    puts the answers by kind and status and its CPU time again.
    """
    tally = Tally()
    port = int(api_url.rsplit(":", 1)[1])
    queue.put(sum(os.times()[:2]))
    go.wait()
    stop = time.monotonic() + seconds
    work = []
    if "heavy" in attacks:
        for _ in range(9):
            work.append(threading.Thread(target=_heavy_api, args=(api_url, token, tally, stop)))
        for _ in range(3):
            work.append(threading.Thread(target=_heavy_mcp, args=(tools_url, token, tally, stop)))
    if "slow" in attacks:
        for tok in (None, None, token, token):
            work.append(threading.Thread(target=_slow_upload, args=(port, tok, tally, stop)))
    if "junk" in attacks:
        for tok in (None, None, token):
            work.append(threading.Thread(target=_junk, args=(api_url, tok, tally, stop)))
    if "flood" in attacks:
        work.append(threading.Thread(target=_flood, args=(api_url, tally, stop)))
    for w in work:
        w.start()
    for w in work:
        w.join()
    queue.put((tally.counts, sum(os.times()[:2])))


def hostile(args: argparse.Namespace) -> int:
    """Another owner's searches alone, then beside a hostile tenant on both servers.

    Returns
    -------
    int
        1 when the well-behaved owner saw an error or a miss, else 0.
    """
    load_before = os.getloadavg()[0]
    notes = make_notes(args.notes, random.Random(args.seed))
    victim, attacker = OWNERS[0], OWNERS[1]
    tokens = {o: f"bench-{o}-{uuid.uuid4().hex}" for o in (victim, attacker)}
    home = Path(tempfile.mkdtemp(prefix="wb-hostile-"))
    admin_url = db.with_database(db.start_embedded(home), "postgres")
    name = f"bench_hostile_{uuid.uuid4().hex[:8]}"
    url = db.create_database(admin_url, name)
    procs: list[subprocess.Popen] = []
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            migrate(conn)
            for owner in (victim, attacker):
                import_notes(conn, owner, notes[owner])
        api, api_url = _serve("serve", url, home, tokens, args.server_code)
        procs.append(api)
        tools, tools_url = _serve("tools", url, home, tokens, args.server_code)
        procs.append(tools)
        wait_ready(api_url, api)
        for _ in range(600):
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{tools_url}/healthz", timeout=2).status_code == 200:
                    break
            time.sleep(0.2)
        rss = {"idle": _rss_mib(api.pid), "max": 0.0}
        parts = {
            "API": api.pid,
            "tools": tools.pid,
            "PostgreSQL": int(
                (db.embedded_data_dir(home) / "postmaster.pid").read_text().split()[0]
            ),
        }
        cpu: dict[str, dict[str, float]] = {}
        round_p95: dict[str, list[float]] = {}

        def run(phase: Phase, attack: bool, tally: Tally) -> None:
            first = len(phase.latencies_ms)
            stop = time.monotonic() + args.hostile_seconds
            work = [
                threading.Thread(
                    target=_victim, args=(api_url, tokens[victim], notes[victim], phase, stop, i)
                )
                for i in range(2)
            ]
            attack_proc = None
            if attack:
                ctx = multiprocessing.get_context("spawn")
                queue, go = ctx.Queue(), ctx.Event()
                attack_proc = ctx.Process(
                    target=attack_clients,
                    args=(
                        *(api_url, tools_url, tokens[attacker], args.hostile_seconds),
                        *(go, queue, tuple(args.attack.split(","))),
                    ),
                )
                attack_proc.start()
                attack_cpu = queue.get(timeout=120)
                go.set()
            before, start = _cpu_by_part(parts), time.monotonic()
            for w in work:
                w.start()
            while any(w.is_alive() for w in work):
                rss["max"] = max(rss["max"], _rss_mib(api.pid))
                time.sleep(0.1)
            for w in work:
                w.join()
            after, wall = _cpu_by_part(parts), time.monotonic() - start
            used = {k: (after[k] - before[k]) / wall / args.rounds for k in after}
            used["hostile clients"] = 0.0
            if attack_proc is not None:
                counts, attack_cpu_end = queue.get(timeout=120)
                attack_proc.join(30)
                used["hostile clients"] = (attack_cpu_end - attack_cpu) / wall / args.rounds
                for kind, by_status in counts.items():
                    for status, n in by_status.items():
                        for _ in range(n):
                            tally.add(kind, status)
            total = cpu.setdefault(phase.name, {})
            for k, v in used.items():
                total[k] = total.get(k, 0.0) + v
            round_p95.setdefault(phase.name, []).append(
                _percentile(phase.latencies_ms[first:], 0.95)
            )

        alone, beside, tally = Phase("alone"), Phase("hostile"), Tally()
        loads: list[float] = []
        for _ in range(args.rounds):  # alternated, so both phases see the machine's other jobs
            loads.append(os.getloadavg()[0])
            run(alone, False, tally)
            loads.append(os.getloadavg()[0])
            run(beside, True, tally)
        loads.append(os.getloadavg()[0])
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(30)
        db.drop_database(admin_url, name)
        db.stop_embedded(home)

    def cells(phase: Phase) -> str:
        lat = phase.latencies_ms
        return (
            f"{len(lat)} | {_percentile(lat, 0.5):.1f} | {_percentile(lat, 0.95):.1f} | "
            f"{len(phase.errors)} | {phase.misses}"
        )

    ratio = _percentile(beside.latencies_ms, 0.95) / _percentile(alone.latencies_ms, 0.95)
    kinds = sorted(tally.counts)
    table = "\n".join(
        [
            "## A hostile tenant beside another owner (`benchmarks/bench_service_load.py --hostile`)",
            "",
            f"{machine_line()}; 1-min load average {load_before:.1f} at the start, "
            f"{min(loads):.1f} to {max(loads):.1f} during the run (other jobs share the machine). "
            f"`workbench serve` and `workbench tools` as two processes on one database, "
            f"{args.notes} notes of {len(OWNERS)} owners (the tenants own a quarter each); "
            f"defaults (pool 8, {ServiceSettings().per_owner_connections} database slots per "
            "owner over both servers). The well-behaved "
            "owner runs 2 clients searching one note's code word back to back "
            f"(`limit=10`), alone and beside the hostile tenant in turn, {args.rounds} rounds of "
            f"{args.hostile_seconds:.0f} s each (so both phases see the machine's other jobs): "
            "the tenant (its clients in a process of their own) runs 9 API and 3 tool-server "
            "clients searching every topic word at `limit=100`, "
            "2 slow uploads (a byte every 2 s) without a token and 2 with its token, 2 clients "
            "sending 16 MiB junk bodies (`{}` items) without a token and 1 with its token, and "
            "one client calling `/readyz` back to back."
            + (
                f" Servers' code: `{args.server_code}`."
                if args.server_code.resolve() != REPO.resolve()
                else ""
            ),
            "",
            "Well-behaved owner's searches, latency measured by its clients [ms]:",
            "",
            "| phase | answered | p50 | p95 | errors | misses |",
            "|---|---:|---:|---:|---:|---:|",
            f"| alone | {cells(alone)} |",
            f"| beside the hostile tenant | {cells(beside)} |",
            "",
            f"p95 beside / alone: **{ratio:.2f}x** (goal under 2x; by round: "
            + ", ".join(f"{b / a:.2f}x" for a, b in zip(round_p95["alone"], round_p95["hostile"]))
            + "). API resident size: "
            f"{rss['idle']:.0f} MiB idle, at most **{rss['max']:.0f} MiB** during the run "
            "(goal under 600 MiB).",
            "",
            "Where the well-behaved owner's searches spent their time (`Server-Timing`, "
            "p50 | p95 [ms], alone, then beside the tenant):",
            "",
            "| phase | what | alone p50 | p95 | beside p50 | p95 |",
            "|---|---|---:|---:|---:|---:|",
            *phase_rows([alone, beside]),
            "",
            "CPU used during each phase, in cores (of 2; other jobs on the machine not counted):",
            "",
            "| part | alone | beside the tenant |",
            "|---|---:|---:|",
            *(
                f"| {k} | {cpu['alone'][k]:.2f} | {cpu['hostile'][k]:.2f} |"
                for k in cpu.get("alone", {})
            ),
            "",
            "What the hostile tenant got:",
            "",
            "| client | answers |",
            "|---|---|",
            *(f"| {kind} | {tally.line(kind)} |" for kind in kinds),
        ]
    )
    print(table)
    for message in (alone.errors + beside.errors)[:10]:
        print("error:", message, file=sys.stderr)
    if not args.no_write:
        write_section("service-hostile", table)
    return 1 if alone.errors or beside.errors or alone.misses or beside.misses else 0


if __name__ == "__main__":
    if "--hostile" in sys.argv:
        parser = argparse.ArgumentParser(description="the hostile-tenant run of issue 42")
        parser.add_argument("--hostile", action="store_true")
        parser.add_argument("--notes", type=int, default=400)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--hostile-seconds", type=float, default=10.0)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument(
            "--server-code",
            type=Path,
            default=REPO,
            help="the checkout whose workbench serves (e.g. an earlier commit, for before/after)",
        )
        parser.add_argument("--no-write", action="store_true")
        parser.add_argument(
            "--attack",
            default=",".join(ATTACKS),
            help="the tenant's parts, comma-separated (profiling): " + ", ".join(ATTACKS),
        )
        sys.exit(hostile(parser.parse_args()))
    sys.exit(main())
