"""Cold solves with and without the exchangers' step bound (what share of a gap a step keeps).

A Newton step keeps at least ``GAP_KEPT`` of each exchanger's driving temperature difference
(:mod:`workbench.components.exchangers.zones.step_share`): a UA coil's saturation temperature against its
secondary inlet, a thermal coupling's two saturation temperatures. Two families of cold solves:

- **coils**: every example with UA coils against air or water, each such coil in turn with its
  secondary inlet moved by -6, -3, 0, 3 and 6 K and its ``ua`` times 0.5, 1 and 2;
- **cascades**: the three cascade examples with the coupling's ``ua`` (600, 1200, 2400 W/K),
  the low stage's evaporator air (-30, -20, -10 C), the high stage's condenser air (25, 35,
  45 C) and the low stage's compressor displacement (0.7, 1.0, 1.4 x) varied (243 solves).

Each family is solved without the bound (the ``step_fraction`` methods replaced by ones that
return the step unchanged) and with the bound at several shares. The table counts converged
solves, Newton iterations and residual evaluations (the iterations' own plus the line search's
rejected trials) over the solves that converge both ways, and the cases that got better or
worse (by ``iterations + residual evaluations``). Counts, not times: they do not depend on the
machine's load. Written into ``docs/benchmarks.md`` between the ``bench:step-share`` markers.

    python -m benchmarks.bench_step_share [--no-write] [--share S ...]
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.bench_docs import machine_line, write_section
from workbench.components.exchangers.coils.component import Coil
from workbench.components.exchangers.zones import step_share
from workbench.solver import solve
from workbench.solver.couplings import ThermalCoupling
from workbench.solver.solve import prepare

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "scenarios"
CASCADES = ("cascade_v2", "r744_r717_cascade_v2", "r744_r290_cascade_v2")
SECONDARY_KEYS = ("air_inlet_temp_c", "secondary_inlet_temp_k")
Row = tuple[str, int, int, bool]


def coil_variants() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every example's UA coils, one at a time, moved and resized."""
    for path in sorted(EXAMPLES.glob("*.json")):
        base = json.loads(path.read_text(encoding="utf-8"))
        coils = [
            (ci, k)
            for ci, circuit in enumerate(base.get("circuits", []))
            for k, comp in enumerate(circuit["components"])
            if "ua" in comp and any(key in comp for key in SECONDARY_KEYS)
        ]
        for (ci, k), dt, factor in itertools.product(coils, (-6, -3, 0, 3, 6), (0.5, 1.0, 2.0)):
            doc = copy.deepcopy(base)
            comp = doc["circuits"][ci]["components"][k]
            key = next(key for key in SECONDARY_KEYS if key in comp)
            comp[key] += dt
            comp["ua"] *= factor
            yield f"{path.stem} {comp['name']} {dt:+d} K ua x{factor:g}", doc


def cascade_variants() -> Iterator[tuple[str, dict[str, Any]]]:
    """The cascade examples with the coupling and both stages varied."""
    for name in CASCADES:
        base = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
        for ua, low, high, factor in itertools.product(
            (600.0, 1200.0, 2400.0), (-30.0, -20.0, -10.0), (25.0, 35.0, 45.0), (0.7, 1.0, 1.4)
        ):
            doc = copy.deepcopy(base)
            doc["thermal_couplings"][0]["ua"] = ua
            low_circuit, high_circuit = doc["circuits"]
            for comp in low_circuit["components"]:
                if comp["name"] == "lt_evaporator":
                    comp["air_inlet_temp_c"] = low
                if comp["name"] == "lt_compressor":
                    comp["displacement_m3"] *= factor
            for comp in high_circuit["components"]:
                if comp["name"] == "ht_condenser":
                    comp["air_inlet_temp_c"] = high
            yield f"{name} ua={ua:g} low={low:g} high={high:g} x{factor:g}", doc


def count(label: str, doc: dict[str, Any]) -> Row:
    """Iterations, residual evaluations and convergence of a cold solve."""
    system = prepare(doc)
    result = solve(doc, system=system)
    return label, result.iterations, system.evaluations, result.converged


def run(variants: list[tuple[str, dict[str, Any]]], share: float | None) -> list[Row]:
    """A family with the bound at ``share`` (None: without the bound)."""
    saved = step_share.GAP_KEPT, Coil.step_fraction, ThermalCoupling.step_fraction
    try:
        if share is None:
            Coil.step_fraction = lambda self, xs, ds, alpha: alpha  # type: ignore[method-assign]
            ThermalCoupling.step_fraction = lambda self, xs, ds, alpha: alpha  # type: ignore[method-assign]
        else:
            step_share.GAP_KEPT = share
        return [count(label, doc) for label, doc in variants]
    finally:
        step_share.GAP_KEPT, Coil.step_fraction, ThermalCoupling.step_fraction = saved


def line(label: str, rows: list[Row], without: list[Row]) -> str:
    """One row of the table, compared with the solves without the bound."""
    both = [(a, b) for a, b in zip(without, rows, strict=True) if a[3] and b[3]]
    better = sum(1 for a, b in both if b[1] + b[2] < a[1] + a[2])
    worse = sum(1 for a, b in both if b[1] + b[2] > a[1] + a[2])
    return (
        f"| {label} | {sum(r[3] for r in rows)} of {len(rows)} | {sum(b[1] for _, b in both)} | "
        f"{sum(b[2] for _, b in both)} | {better} | {worse} |"
    )


def table(shares: list[float]) -> str:
    """The markdown section."""
    lines = [
        "### Step bound of the exchangers (`benchmarks/bench_step_share.py`)",
        "",
        f"{machine_line()}. Cold solves; iterations and residual evaluations (rejected line-"
        "search trials included) summed over the solves that converge with and without the "
        "bound; better/worse by iterations + evaluations against no bound. Coils: every "
        "example's UA coils against air or water, one at a time, secondary inlet -6..+6 K and "
        "ua x0.5..2. Cascades: the three cascade examples, coupling ua 600-2400 W/K, stage air "
        "temperatures and low-stage displacement varied.",
        "",
        "| family, share kept | converged | iterations | residual evaluations | better | worse |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, variants in (
        ("coils", list(coil_variants())),
        ("cascades", list(cascade_variants())),
    ):
        without = run(variants, None)
        lines.append(line(f"{name}, no bound", without, without))
        for share in shares:
            mark = " (GAP_KEPT)" if share == step_share.GAP_KEPT else ""
            lines.append(line(f"{name}, {share:g}{mark}", run(variants, share), without))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the families, print the table and write it into docs/benchmarks.md."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--share", type=float, nargs="*", default=[0.3, 0.45, 0.55, 0.7])
    args = parser.parse_args(argv)
    markdown = table(args.share)
    print(markdown)
    if not args.no_write:
        write_section("step-share", markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
