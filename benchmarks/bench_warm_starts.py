"""Newton iterations of warm starts on every example: cold, from the result, from the bare vector.

For each ``examples/scenarios/*.json`` with a secondary inlet temperature (air or water), the
first one is stepped by +1 K, -1 K and +0.1 K and the stepped document is solved three ways:

- **cold**: ``solve(document)``;
- **result**: ``solve(document, initial=base)`` with the base document's result (tangent
  predictor, then the chord-corrected start; what a notebook slider does);
- **vector**: ``solve(document, initial=base.x)`` (the bare state vector, no parameters).

A second table steps every temperature parameter of every component (air or water inlet,
superheat, subcooling) by +1 K and -1 K and counts, per example, the warm starts from the result
that take at most half of cold's iterations, fewer, as many, or more.

Iteration counts do not depend on the machine's load. Issue 27 asks that a warm start never
be slower than a cold one and save at least half of the iterations for a 1 K step. The table is
printed and written into ``docs/benchmarks.md`` between the ``bench:warm-starts`` markers.

    python -m benchmarks.bench_warm_starts [--no-write] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
from pathlib import Path
from typing import Any

from benchmarks.bench_docs import machine_line, write_section
from workbench.solver import solve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "scenarios"
STEPS_K = (1.0, -1.0, 0.1)
"""Steps of the first secondary inlet temperature [K]."""


def _stepped(doc: dict[str, Any], delta: float) -> dict[str, Any] | None:
    """The document with its first secondary inlet temperature moved by ``delta`` [K]."""
    out = copy.deepcopy(doc)
    for circuit in out.get("circuits", []):
        for comp in circuit.get("components", []):
            for key in ("air_inlet_temp_c", "secondary_inlet_temp_k"):
                if isinstance(comp.get(key), int | float):
                    comp[key] += delta
                    return out
    return None


def measure(path: Path) -> dict[str, Any] | None:
    """Iterations of the three starts per step for one example, or None without a step."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    base = solve(doc)
    if not base.converged or _stepped(doc, 1.0) is None:
        return None
    row: dict[str, Any] = {"name": path.stem}
    for delta in STEPS_K:
        stepped = _stepped(doc, delta)
        assert stepped is not None
        cold, warm, vector = (
            solve(stepped),
            solve(stepped, initial=base),
            solve(stepped, initial=base.x),
        )
        ok = cold.converged and warm.converged and vector.converged
        row[delta] = (cold.iterations, warm.iterations, vector.iterations, ok)
    return row


TEMPERATURES = ("air_inlet_temp_c", "secondary_inlet_temp_k", "superheat_k", "subcooling_k")
"""Component parameters a user steps by 1 K (a Celsius temperature or a difference in K)."""


def every_step(path: Path) -> dict[str, Any] | None:
    """Cold and warm (from the result) iterations after a 1 K step of every temperature parameter.

    Every air or water inlet temperature, superheat and subcooling of every component, +1 K and
    -1 K (a superheat or subcooling kept >= 0). None when the example does not converge.
    """
    doc = json.loads(path.read_text(encoding="utf-8"))
    base = solve(doc)
    if not base.converged:
        return None
    cases = []
    for i, circuit in enumerate(doc.get("circuits", [])):
        for j, comp in enumerate(circuit.get("components", [])):
            for key in TEMPERATURES:
                value = comp.get(key)
                if not isinstance(value, int | float) or isinstance(value, bool):
                    continue
                for delta in (1.0, -1.0):
                    if key in ("superheat_k", "subcooling_k") and value + delta < 0:
                        continue
                    stepped = copy.deepcopy(doc)
                    stepped["circuits"][i]["components"][j][key] = value + delta
                    cold, warm = solve(stepped), solve(stepped, initial=base)
                    ok = cold.converged and warm.converged
                    cases.append((comp["name"], key, delta, cold.iterations, warm.iterations, ok))
    return {"name": path.stem, "cases": cases} if cases else None


def every_step_table(rows: list[dict[str, Any]]) -> str:
    """The markdown table of :func:`every_step` and the cases that miss half of cold."""
    lines = [
        "Every 1 K step of every temperature parameter (air or water inlet, superheat, "
        "subcooling of every component, either way), warm from the result: how many steps save "
        "half of cold's iterations (rounded up), fewer, none, or are slower.",
        "",
        "| example | steps | at most half of cold | fewer than cold | as many as cold | slower "
        "| not converged |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    misses = []
    for row in rows:
        cases = row["cases"]
        half = sum(1 for *_, c, w, ok in cases if ok and w <= math.ceil(c / 2))
        fewer = sum(1 for *_, c, w, ok in cases if ok and w < c)
        same = sum(1 for *_, c, w, ok in cases if ok and w == c)
        slower = sum(1 for *_, c, w, ok in cases if ok and w > c)
        failed = sum(1 for *_, ok in cases if not ok)
        lines.append(
            f"| {row['name']} | {len(cases)} | {half} | {fewer} | {same} | {slower} | {failed} |"
        )
        misses += [
            f"{row['name']} {comp}.{key} {delta:+g} K ({w} vs {c})"
            for comp, key, delta, c, w, ok in cases
            if ok and w > math.ceil(c / 2)
        ]
    lines += ["", "More than half of cold: " + ("; ".join(misses) if misses else "none") + "."]
    return "\n".join(lines)


def _cell(value: tuple[int, int, int, bool]) -> str:
    cold, warm, vector, ok = value
    return f"{cold} / {warm} / {vector}" + ("" if ok else " (not converged)")


def table(rows: list[dict[str, Any]]) -> str:
    """The markdown section."""
    head = "| example | " + " | ".join(f"{d:+g} K" for d in STEPS_K) + " |"
    lines = [
        "### Warm starts on every example (`benchmarks/bench_warm_starts.py`)",
        "",
        f"{machine_line()}. Newton iterations, cold / warm from the result / warm from the bare "
        "vector, after stepping the first secondary inlet temperature (air or water). Goal "
        "(issue 27): a warm start never slower than cold, and half of cold's iterations at most "
        "for a 1 K step.",
        "",
        head,
        "|---|" + "---|" * len(STEPS_K),
    ]
    for row in rows:
        lines.append(f"| {row['name']} | " + " | ".join(_cell(row[d]) for d in STEPS_K) + " |")
    slower = [
        f"{row['name']} {d:+g} K ({kind})"
        for row in rows
        for d in STEPS_K
        for kind, k in (("result", 1), ("vector", 2))
        if row[d][k] > row[d][0]
    ]
    lines += ["", "Slower than cold: " + (", ".join(slower) if slower else "none") + "."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; write the section unless ``--no-write``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--only", nargs="*", help="example names (file stems)")
    args = parser.parse_args(argv)
    paths = sorted(EXAMPLES.glob("*.json"))
    if args.only:
        paths = [p for p in paths if p.stem in set(args.only)]
    rows = [row for path in paths if (row := measure(path)) is not None]
    steps = [row for path in paths if (row := every_step(path)) is not None]
    markdown = table(rows) + "\n\n" + every_step_table(steps)
    print(markdown)
    if not args.no_write:
        write_section("warm-starts", markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
