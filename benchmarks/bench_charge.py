"""Refrigerant charge: the cost of a fixed charge and of each void fraction model.

Usage::

    python -m benchmarks.bench_charge [--repeat 5] [--no-write]

The R290 heat pump of ``examples/scenarios/r290_heat_pump_charge_v2.json``, cold solves
(validate, flatten, build, solve, result tables; median wall time, Newton iterations, property
calls): with a fixed 3 K subcooling (the inventory only in the results), then with the charge
that solve reports fixed instead (the inventory's row in the Newton system), for each void
fraction model; the subcooling column shows the round trip. The table is printed and written
into ``docs/benchmarks.md`` between the ``bench:charge`` markers (``--no-write`` only prints).
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import time
from pathlib import Path

from benchmarks.bench_docs import machine_line, write_section
from workbench.solver import solve

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "scenarios" / "r290_heat_pump_charge_v2.json"
MODELS = ("homogeneous", "zivi", "smith", "lockhart_martinelli", "premoli")


def variant(model: str, charge_kg: float | None) -> dict:
    """The example with a fixed charge, or with 3 K subcooling when ``charge_kg`` is None."""
    doc = json.loads(EXAMPLE.read_text())
    doc["charge"] = {"void_fraction": model}
    circuit = doc["circuits"][0]
    circuit.pop("charge_kg")
    if charge_kg is None:
        circuit["components"][1]["subcooling_k"] = 3.0
    else:
        circuit["charge_kg"] = charge_kg
    return doc


def timed(doc: dict, repeat: int):
    """Median wall time [s] of ``repeat`` cold solves, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = solve(copy.deepcopy(doc))
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> None:
    """Run the benchmark and write its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    solve(variant("zivi", None))  # warm the backend
    rows = [
        "| void fraction | fixed | charge [g] | subcooling [K] | median time [ms] | iterations "
        "| property calls |",
        "|---|---|---|---|---|---|---|",
    ]
    for model in MODELS:
        t_sub, r_sub = timed(variant(model, None), args.repeat)
        charge = r_sub.summary["charge_kg"]
        t_chg, r_chg = timed(variant(model, charge), args.repeat)
        for label, t, r in (("subcooling 3 K", t_sub, r_sub), ("charge", t_chg, r_chg)):
            rows.append(
                f"| {model} | {label} | {1e3 * r.summary['charge_kg']:.2f} | "
                f"{r.components['condenser']['subcooling']:.5f} | {1e3 * t:.0f} | "
                f"{r.iterations} | {r.property_calls} |"
            )
    table = "\n".join(
        [
            "## Refrigerant charge (`benchmarks/bench_charge.py`)",
            "",
            machine_line(),
            "",
            "Cold solves of the R290 example: 3 K subcooling fixed, then the charge that solve "
            "reports fixed instead (the subcooling comes back). Premoli's viscosity and "
            "surface-tension calls go to CoolProp directly and are not counted. See "
            "docs/charge.md.",
            "",
            *rows,
        ]
    )
    print(table)
    if not args.no_write:
        write_section("charge", table)


if __name__ == "__main__":
    main()
