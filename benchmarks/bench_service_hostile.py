"""Another owner's searches beside a hostile tenant on both servers (issue 42).

``workbench serve`` and ``workbench tools`` run as two processes on one database; one owner's
two clients search alone and beside a hostile tenant in turn, ``--rounds`` times
``--hostile-seconds`` each (the tenant: 9 API and 3 tool-server clients of heavy searches, slow
uploads and 16 MiB junk bodies with and without its token, a ``/readyz`` flood, in a process of
its own). It reports that owner's p50 / p95 and errors in both phases, where its searches spent
their time (``Server-Timing``, with each phase's CPU and wait for a core), the CPU of each part,
the API's resident size and what the tenant's clients got, into the ``bench:service-hostile``
section of docs/benchmarks.md (goal: p95 under 2x, API under 600 MiB, no error). ``--attack``
runs some parts of the tenant only (profiling); ``--server-code`` serves another checkout::

    python -m benchmarks.bench_service_load --hostile [--hostile-seconds 10] [--rounds 3] ...
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import psycopg

from benchmarks.bench_notes_common import REPO, machine_line, write_section
from benchmarks.bench_service_load import (
    OWNERS,
    WORDS,
    Phase,
    make_notes,
    percentile,
    phase_rows,
    server_timing,
    wait_ready,
)
from workbench.notes import db
from workbench.notes.migrations import migrate
from workbench.notes.service.serving import free_port
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.store import NoteInput, import_notes


def _serve(
    kind: str, url: str, home: Path, tokens: dict[str, str], code: Path = REPO
) -> tuple[subprocess.Popen, str]:
    """``workbench serve`` or ``tools`` on ``url``, a process of its own, from checkout ``code``."""
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
        self.counts: dict[str, Counter[str]] = {}
        self.lock = threading.Lock()

    def add(self, kind: str, status: str) -> None:
        """Count one answer of ``kind``."""
        with self.lock:
            self.counts.setdefault(kind, Counter())[status] += 1

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


def _burn(stop: float, share: float = 0.3) -> None:
    """Use ``share`` of a core in this process without calling any server (a control)."""
    while time.monotonic() < stop:
        busy = time.thread_time() + 0.003 * share / 0.3
        while time.thread_time() < busy:
            pass
        time.sleep(0.007)


ATTACKS = ("heavy", "slow", "junk", "flood")
"""The parts of the hostile tenant (``--attack``, all by default). ``burn`` (not a part of the
tenant, a control) only uses 0.3 of a core in the tenant's process, calling no server; an empty
``--attack ""`` starts the tenant's process idle (the benchmark's noise floor)."""


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
    if "burn" in attacks:
        work.append(threading.Thread(target=_burn, args=(stop,)))
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
        pg_pid = int((db.embedded_data_dir(home) / "postmaster.pid").read_text().split()[0])
        parts = {"API": api.pid, "tools": tools.pid, "PostgreSQL": pg_pid}
        cpu: dict[str, dict[str, float]] = {}
        round_p95: dict[str, list[float]] = {}
        round_tenant: list[tuple[float, float]] = []  # per round: its clients' cores, load
        loads: list[float] = []

        def run(phase: Phase, attack: bool, tally: Tally) -> None:
            first = len(phase.latencies_ms)
            loads.append(os.getloadavg()[0])
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
                round_tenant.append((used["hostile clients"] * args.rounds, loads[-1]))
                for kind, by_status in counts.items():  # added up over the rounds
                    tally.counts.setdefault(kind, Counter()).update(by_status)
            total = cpu.setdefault(phase.name, {})
            for k, v in used.items():
                total[k] = total.get(k, 0.0) + v
            mine = phase.latencies_ms[first:]  # none when every answer of the round failed
            round_p95.setdefault(phase.name, []).append(
                percentile(mine, 0.95) if mine else float("nan")
            )

        alone, beside, tally = Phase("alone"), Phase("hostile"), Tally()
        for _ in range(args.rounds):  # alternated, so both phases see the machine's other jobs
            run(alone, False, tally)
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
            f"{len(lat)} | {percentile(lat, 0.5):.1f} | {percentile(lat, 0.95):.1f} | "
            f"{len(phase.errors)} | {phase.misses}"
        )

    ratio = percentile(beside.latencies_ms, 0.95) / percentile(alone.latencies_ms, 0.95)
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
            + "; the tenant's client process by round, cores: "
            + ", ".join(f"{c:.2f}" for c, _ in round_tenant)
            + ", 1-min load at the round's start: "
            + ", ".join(f"{load:.1f}" for _, load in round_tenant)
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


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options of the hostile-tenant run (module docstring)."""
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
        help="the tenant's parts, comma-separated (profiling): "
        + ", ".join(ATTACKS)
        + "; or the control burn (0.3 of a core, no calls); empty: an idle tenant",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(hostile(parse_args()))
