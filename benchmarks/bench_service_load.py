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

``--hostile`` (issue 42) runs another scenario instead, another owner's searches beside a
hostile tenant on both servers: :mod:`benchmarks.bench_service_hostile` (its options there)::

    python -m benchmarks.bench_service_load --hostile [--hostile-seconds 10] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

from benchmarks.bench_notes_common import REPO, machine_line, write_section
from workbench.notes import db
from workbench.notes.migrations import migrate
from workbench.notes.service.serving import free_port
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


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (linear between the two nearest ranks)."""
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
                f"{percentile(values, 0.5):.1f} | {percentile(values, 0.95):.1f}"
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
        f"| {kind} | {len(values)} | {percentile(values, 0.5):.0f} | "
        f"{percentile(values, 0.95):.0f} |"
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
        f"{percentile(lat, 0.5):.1f} | {percentile(lat, 0.95):.1f} | {percentile(lat, 0.99):.1f} | "
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
        p95 = percentile(mixed_phase.latencies_ms, 0.95) if mixed_phase.latencies_ms else 0.0
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


if __name__ == "__main__":
    if "--hostile" in sys.argv:
        from benchmarks.bench_service_hostile import hostile, parse_args

        sys.exit(hostile(parse_args()))
    sys.exit(main())
