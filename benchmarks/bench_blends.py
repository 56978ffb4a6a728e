"""Blends: building a blend's tables, and a blend cycle's cold solve against pure fluids and HEOS.

Measured, in one process:

- the time to build R454B's tables and store them (:func:`~workbench.fluids.blend.table_build.load_or_build`
  into a new, empty ``WORKBENCH_HOME``; the default grid), once;
- a cold solve of ``examples/scenarios/r454b_split_unit_v2.json`` (UA coils against air) once
  the tables exist, and of the same unit with ``fluid`` set to R410A and to R32: each repeat
  moves the indoor air temperature by 1e-6 K so that no state is remembered from the last one
  (the backends and the tables stay loaded, as in a notebook); minimum over repeats with the
  garbage collector paused;
- direct HEOS: the cost of one CoolProp HEOS mixture (p, h) flash of R454B times the property
  calls the blend solve made (an estimate: such a solve was not run, it would take minutes).

Run: ``python -m benchmarks.bench_blends`` (about a minute); the table goes to
docs/benchmarks.md between the ``bench:blends`` markers.
"""

from __future__ import annotations

import copy
import gc
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import CoolProp
import CoolProp.CoolProp as CP

from workbench.fluids import get_backend
from workbench.fluids.blend.spec import parse_blend
from workbench.fluids.blend.table_build import load_or_build
from workbench.solver import solve

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples" / "scenarios" / "r454b_split_unit_v2.json"
)
REPEATS = 5


def cold_solve_ms(doc: dict[str, Any]) -> tuple[float, int]:
    """Minimum cold solve time [ms] over :data:`REPEATS`, and the property calls of one solve."""
    best, calls = float("inf"), 0
    for i in range(REPEATS):
        case = copy.deepcopy(doc)
        case["circuits"][0]["components"][3]["air_inlet_temp_c"] += 1e-6 * (i + 1)
        gc.disable()
        try:
            start = time.perf_counter()
            result = solve(case)
            elapsed = time.perf_counter() - start
        finally:
            gc.enable()
        assert result.converged, result.report()
        best, calls = min(best, elapsed), result.property_calls
    return 1e3 * best, calls


def heos_flash_ms() -> float:
    """One HEOS (p, h) flash of R454B inside the dome and one outside [ms], mean."""
    spec = parse_blend("R454B")
    state = CP.AbstractState("HEOS", spec.coolprop_fluids)
    state.set_mole_fractions(list(spec.mole_fractions))
    times = []
    for p, h in ((10.6e5, 278e3), (10.6e5, 477e3), (26e5, 520e3)):
        start = time.perf_counter()
        state.update(CP.HmassP_INPUTS, h, p)
        times.append(time.perf_counter() - start)
    return 1e3 * sum(times) / len(times)


def main() -> str:
    """Measure and return the markdown table."""
    spec = parse_blend("R454B")
    start = time.perf_counter()
    load_or_build(spec, progress=False)  # WORKBENCH_HOME is a new folder: built and stored
    build_s = time.perf_counter() - start
    get_backend("R454B", "CoolProp")  # loads the tables just stored
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    rows = []
    blend_calls = 0
    for fluid in ("R454B", "R410A", "R32"):
        case = copy.deepcopy(doc)
        case["fluid"] = fluid
        ms, calls = cold_solve_ms(case)
        blend_calls = blend_calls or calls
        rows.append(f"| {fluid} | {ms:.1f} | {calls} |")
    flash = heos_flash_ms()
    rows.append(
        f"| R454B, direct HEOS (p, h) flashes (estimate: {blend_calls} calls x {flash:.0f} ms, "
        "the mean of three flashes) "
        f"| {blend_calls * flash:.0f} | {blend_calls} |"
    )
    from benchmarks.bench_docs import machine_line

    return "\n".join(
        [
            "### Blends: tables and the R454B split unit",
            "",
            f"{machine_line()}; CoolProp {CoolProp.__version__}, {os.cpu_count()} cores.",
            "",
            f"Building R454B's tables (default grid, single process): {build_s:.1f} s, once.",
            "",
            "Cold solve of `r454b_split_unit_v2.json` (UA coils) and the same unit in other fluids:",
            "",
            "| fluid | cold solve [ms] | property calls |",
            "|---|---|---|",
            *rows,
        ]
    )


if __name__ == "__main__":
    from benchmarks.bench_docs import write_section

    with tempfile.TemporaryDirectory() as home:
        os.environ["WORKBENCH_HOME"] = home
        table = main()
    print(table)
    write_section("blends", table)
