"""Every example scenario, cold and warm, in-process: time, iterations and property calls.

For each ``examples/scenarios/*.json``:

- **cold**: ``solve(path_document)`` (validate, flatten, build, solve, result tables), the
  minimum over ``--repeat`` runs after one warm-up run (which loads CoolProp's fluid); the
  runs go in rounds, each solving every example once in turn;
- **warm**: the same document with the first secondary inlet temperature (air or water) raised
  by 1 K, solved with ``initial=`` the base solution (what a sweep or a notebook slider does),
  minimum over ``--repeat`` runs, and its iterations next to a cold solve of that case.

The goal of issue 27 is a cold solve under 15 ms per example on this machine. The table is
printed and written into ``docs/benchmarks.md`` between the ``bench:examples`` markers with the
date, the machine and its load (the machine may be shared: the load average says how busy).

    python -m benchmarks.bench_examples [--repeat 7] [--no-write]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_docs import machine_line, write_section
from workbench.solver import solve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "scenarios"
GOAL_MS = 15.0
"""Cold in-process solve time every example should stay under [ms]."""


def _stepped(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The document with its first secondary inlet temperature 1 K higher, or None."""
    out = copy.deepcopy(doc)
    for circuit in out.get("circuits", []):
        for comp in circuit.get("components", []):
            for key in ("air_inlet_temp_c", "secondary_inlet_temp_k"):
                if isinstance(comp.get(key), int | float):
                    comp[key] += 1.0
                    return out
    return None


def prepare(path: Path) -> dict[str, Any]:
    """An example's documents and results before timing: base, stepped, cold of the step."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    base = solve(doc)  # warm-up: loads the fluid
    case: dict[str, Any] = {
        "name": path.stem,
        "doc": doc,
        "base": base,
        "stepped": None,
        "cold_cpu": [],
        "cold_wall": [],
        "warm_cpu": [],
        "warm_wall": [],
    }
    stepped = _stepped(doc)
    if stepped is not None and base.converged:
        case["stepped"] = stepped
        case["cold_step"] = solve(stepped)
    return case


def time_once(case: dict[str, Any]) -> None:
    """One cold solve and (when there is a step) one warm solve, timed into ``case``."""
    t0, c0 = time.perf_counter(), time.process_time()
    case["base"] = solve(case["doc"])
    case["cold_cpu"].append(time.process_time() - c0)
    case["cold_wall"].append(time.perf_counter() - t0)
    if case["stepped"] is not None:
        t0, c0 = time.perf_counter(), time.process_time()
        case["warm"] = solve(case["stepped"], initial=case["base"])
        case["warm_cpu"].append(time.process_time() - c0)
        case["warm_wall"].append(time.perf_counter() - t0)


def row_of(case: dict[str, Any]) -> dict[str, Any]:
    """The table row of a timed case (minimum over its runs)."""
    base = case["base"]
    row: dict[str, Any] = {
        "name": case["name"],
        "converged": base.converged,
        "cold_ms": 1e3 * min(case["cold_wall"]),
        "cold_cpu_ms": 1e3 * min(case["cold_cpu"]),
        "iterations": base.iterations,
        "calls": base.property_calls,
    }
    if case["stepped"] is not None:
        warm = case["warm"]
        row.update(
            warm_ms=1e3 * min(case["warm_wall"]),
            warm_cpu_ms=1e3 * min(case["warm_cpu"]),
            warm_iterations=warm.iterations,
            warm_calls=warm.property_calls,
            step_cold_iterations=case["cold_step"].iterations,
        )
    return row


def measure(paths: list[Path], repeat: int) -> list[dict[str, Any]]:
    """Every example's row: ``repeat`` rounds, each solving every example once in turn.

    Interleaving the examples (rather than repeating one before the next) lets each see the
    same spells of a shared machine's load, so the minimum over the rounds compares them
    under the same conditions.
    """
    cases = [prepare(p) for p in paths]
    for _ in range(repeat):
        for case in cases:
            time_once(case)
    return [row_of(case) for case in cases]


def render(rows: list[dict[str, Any]], repeat: int, load: str) -> str:
    """The markdown section."""
    lines = [
        "### Every example, cold and warm (`benchmarks/bench_examples.py`)",
        "",
        f"{machine_line()}; load average {load} at the start (the machine is shared with "
        "other jobs: wall times are inflated by the load, CPU times (`time.process_time`) "
        "less so, iterations and property calls not at all). "
        f"Minimum of {repeat} in-process runs after a warm-up, in rounds that solve every "
        "example in turn (so each sees the same spells of load). Cold: `solve(document)` "
        "(validate, build, solve, tables). Warm: the first secondary inlet temperature + 1 K, "
        "`solve(..., initial=base_result)`; its iterations next to a cold solve of that case. "
        f"Goal: cold under {GOAL_MS:g} ms.",
        "",
        "| example | cold wall [ms] | cold CPU [ms] | iterations | property calls "
        "| warm +1 K wall [ms] | warm CPU [ms] | warm iterations | cold iterations of that case "
        "| warm property calls | cold CPU under goal |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for r in rows:
        warm = (
            f"{r['warm_ms']:.1f} | {r['warm_cpu_ms']:.1f} | {r['warm_iterations']} | "
            f"{r['step_cold_iterations']} | {r['warm_calls']:,}"
            if "warm_ms" in r
            else "n/a | n/a | n/a | n/a | n/a"
        )
        ok = "yes" if r["cold_cpu_ms"] < GOAL_MS else "no"
        flag = "" if r["converged"] else " (not converged)"
        lines.append(
            f"| {r['name']}{flag} | {r['cold_ms']:.1f} | {r['cold_cpu_ms']:.1f} | "
            f"{r['iterations']} | {r['calls']:,} | {warm} | {ok} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure every example, print the table and (unless ``--no-write``) update the docs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", nargs="*", default=None, help="example names (stems)")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    paths = sorted(EXAMPLES.glob("*.json"))
    if args.only:
        paths = [p for p in paths if p.stem in args.only]
    rows = measure(paths, args.repeat)
    section = render(rows, args.repeat, load)
    print(section)
    if not args.no_write and not args.only:
        write_section("examples", section)
        print("\nwritten to docs/benchmarks.md", file=sys.stderr)
    return 0 if all(r["converged"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
