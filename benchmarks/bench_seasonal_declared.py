"""How long rating a table of 10,000 declarations takes (``workbench seasonal --declared``).

The table is the example of made-up products (``examples/declared/heat_pumps.csv``) repeated to
10,000 rows with every capacity and COP scaled by a random factor (seeded), so no two rows are
alike. Measured: reading and checking the CSV, rating every row (the bin method with Tbiv,
per-point Cd, off modes, stated figures and flags), and the command end to end in a new process.
Times are minimums over repeats (the machine is shared). The goal: 10,000 rows in seconds.
Run ``python -m benchmarks.bench_seasonal_declared`` (``--no-write`` only prints); it replaces
the ``bench:seasonal-declared`` section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from benchmarks.bench_docs import machine_line, write_section

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "declared" / "heat_pumps.csv"
ROWS = 10_000

__all__ = ["ROWS", "main", "measure", "table"]


def table(rows: int = ROWS, seed: int = 1) -> pd.DataFrame:
    """The example table repeated to ``rows`` rows, capacities and COPs scaled by 0.9..1.1."""
    base = pd.read_csv(EXAMPLE)
    out = pd.concat([base] * (rows // len(base) + 1), ignore_index=True).iloc[:rows].copy()
    rng = np.random.default_rng(seed)
    for col in [c for c in out.columns if c.endswith(("_capacity_kw", "_cop"))]:
        out[col] = (out[col] * rng.uniform(0.9, 1.1, rows)).round(2)
    out["product"] = [f"product {i}" for i in range(rows)]
    return out


def _best(fn, repeat):  # type: ignore[no-untyped-def]
    best, out = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def measure(repeat: int = 3) -> str:
    """Run the measurements and return the markdown section."""
    from workbench.seasonal.declared_table import rate_declared_table, read_declared_table

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "declarations.csv"
        table().to_csv(path, index=False)
        read_s, frame = _best(lambda: read_declared_table(path), repeat)
        rate_s, rated = _best(lambda: rate_declared_table(frame), repeat)
        out = Path(tmp) / "rated.csv"
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "workbench.cli.main", "seasonal", "--declared", str(path),
             "-o", str(out)],
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
        )  # fmt: skip
        cli_s = time.perf_counter() - t0
    flagged = int((rated["flags"] != "").sum())
    return "\n".join(
        [
            "### Rating a table of declarations (`workbench seasonal --declared`)",
            "",
            machine_line(),
            f"(load average {os.getloadavg()[0]:.1f} while measuring: the machine is shared)",
            "",
            f"{ROWS:,} rows (the example table of made-up products, capacities and COPs scaled "
            f"by a seeded random 0.9..1.1; {flagged:,} rows flagged). Goal: seconds. "
            "`python -m benchmarks.bench_seasonal_declared`.",
            "",
            "| what | time [s] | per row [ms] |",
            "|---|---|---|",
            f"| read and check the CSV | {read_s:.2f} | {1e3 * read_s / ROWS:.3f} |",
            f"| rate every row (bin method, stated figures, flags) | {rate_s:.2f} | "
            f"{1e3 * rate_s / ROWS:.3f} |",
            f"| the command in a new process (imports, read, rate, write) | {cli_s:.2f} | |",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Measure, print and (unless ``--no-write``) write the docs section."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="only print the table")
    parser.add_argument("--repeat", type=int, default=3, help="repeats per row")
    args = parser.parse_args(argv)
    text = measure(args.repeat)
    print(text)
    if not args.no_write:
        write_section("seasonal-declared", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
