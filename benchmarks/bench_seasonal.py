"""How long an EN 14825 rating of the example takes: ``workbench.seasonal.rate`` end to end.

Measured in one process after CoolProp is imported (its import is a one-off cost of any
workbench process, shown on its own line): the rating of
``examples/scenarios/air_water_heat_pump_seasonal_v2.json`` (load and check the document,
flatten, build the system, solve the test points with the speed found by root finding, apply the
bin method) for each climate, with the solver calls it needed, and the pure bin method alone.
Times are minimums over repeats (the machine is shared); the last row is one whole new Python
process (imports included), as the command line pays it. The goal: rating the example in under
5 s. Run ``python -m benchmarks.bench_seasonal`` (``--no-write`` only prints); it replaces the
``bench:seasonal`` section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.bench_docs import machine_line, write_section

EXAMPLE = (
    Path(__file__).resolve().parents[1]
    / "examples"
    / "scenarios"
    / "air_water_heat_pump_seasonal_v2.json"
)
GOAL_S = 5.0
"""Rating the example takes at most this long [s]."""

__all__ = ["GOAL_S", "main", "measure"]


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Shortest wall time [s] over ``repeat`` calls (collector paused) and the last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            out = fn()
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
    return best, out


def measure(repeat: int = 3) -> str:
    """Run the measurements and return the markdown table.

    Parameters
    ----------
    repeat : int
        Repeats per row (the minimum is reported).

    Returns
    -------
    str
        The section's markdown.
    """
    t0 = time.perf_counter()
    import CoolProp  # noqa: F401

    import_s = time.perf_counter() - t0
    from workbench.seasonal import rate, scop_from_declared

    rows = [f"| import CoolProp (once per process) | {import_s:.2f} | | |"]
    worst = 0.0
    for climate in ("average", "warmer", "colder"):
        seconds, rating = _best(lambda c=climate: rate(EXAMPLE, climate=c), repeat)
        worst = max(worst, seconds)
        rows.append(
            f"| rate example, {climate} climate | {seconds:.2f} | {rating.solves} | "
            f"SCOP {rating.scop:.3f} |"
        )
    points = rating.test_points[["t_c", "capacity_kw", "cop"]].to_dict(orient="records")
    seconds, _pure = _best(lambda: scop_from_declared(points, 9.5, "colder"), repeat * 10)
    rows.append(f"| bin method alone (declared points) | {seconds * 1e3:.2f} ms | 0 | |")
    code = f"from workbench.seasonal import rate; rate({str(EXAMPLE)!r})"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    rows.append(
        f"| a new process: imports and the average rating | {time.perf_counter() - t0:.2f} | | |"
    )
    verdict = "met" if worst < GOAL_S else "NOT met"
    return "\n".join(
        [
            "### Seasonal rating (EN 14825) of the example",
            "",
            machine_line(),
            f"(load average {os.getloadavg()[0]:.1f} while measuring: the machine is shared)",
            "",
            f"Goal: rating the example in under {GOAL_S:g} s in a process that has its imports "
            f"({verdict}: slowest climate {worst:.2f} s); a new process adds the imports, "
            "CoolProp's above all (last row). `python -m benchmarks.bench_seasonal`.",
            "",
            "| what | time [s] | solver calls | result |",
            "|---|---|---|---|",
            *rows,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Measure, print and (unless ``--no-write``) write the docs section."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="only print the table")
    parser.add_argument("--repeat", type=int, default=3, help="repeats per row")
    args = parser.parse_args(argv)
    table = measure(args.repeat)
    print(table)
    if not args.no_write:
        write_section("seasonal", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
