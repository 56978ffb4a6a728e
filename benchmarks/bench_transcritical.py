"""Transcritical R744: solve times of the examples, the gas-cooler model's segments, the check.

Usage::

    python -m benchmarks.bench_transcritical [--repeat 5] [--no-write]

1. Cold solves (validate, flatten, build, solve, result tables) of the R744 examples:
   median wall time, Newton iterations, property calls and flashes.
2. The UA gas-cooler model alone (``gas_cooler_heat_flow``) at 10 to 80 segments against a
   1000-segment PropsSI integration of the same exchanger (90 bar, 110 C inlet, water at
   20 C, 0.05 kg/s CO2, UA 2 kW/K): heat-flow and outlet-temperature error, time per call with
   a cold table, property calls.
3. The fine-profile check (``secondary_profile``, 64 segments) on one solved condenser: time
   and property calls per result.

The table is printed and written into ``docs/benchmarks.md`` between the
``bench:transcritical`` markers (``--no-write`` only prints).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
from CoolProp.CoolProp import PropsSI
from scipy.optimize import brentq

from benchmarks.bench_docs import machine_line, write_section
from workbench.components.exchangers.gas_cooler.component import gas_cooler_heat_flow
from workbench.components.exchangers.zones.profile import secondary_profile
from workbench.fluids import get_backend
from workbench.scenario import load_scenario
from workbench.solver import solve

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("r744_heat_pump_v2", "r744_transcritical_fixed_v1", "heat_pump_v1")


def median_time(fn, repeat: int) -> float:
    """Median wall time of ``repeat`` calls of ``fn`` after one untimed call [s]."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def reference(p, h_in, m, t_sec, c_sec, ua, n=1000):
    """Heat flow and outlet temperature of the gas cooler on ``n`` PropsSI segments."""

    def g(q):
        hs = np.linspace(h_in, h_in - q / m, n + 1)
        dt = PropsSI("T", "P", p, "H", hs, "CO2") - (t_sec + m * (hs - hs[-1]) / c_sec)
        if dt.min() <= 0:
            return 0.5
        a, b = dt[:-1], dt[1:]
        lmtd = np.where(np.abs(a - b) > 1e-9, (a - b) / np.log(a / b), a)
        total = float(np.sum(m * (hs[:-1] - hs[1:]) / lmtd))
        return total / (total + ua) - 0.5

    t_in = PropsSI("T", "P", p, "H", h_in, "CO2")
    q_hi = min(m * (h_in - PropsSI("H", "P", p, "T", t_sec, "CO2")), c_sec * (t_in - t_sec))
    q = brentq(g, 1e-9 * q_hi, q_hi * (1 - 1e-12), xtol=1e-9 * q_hi)
    return q, PropsSI("T", "P", p, "H", h_in - q / m, "CO2")


def examples_table(repeat: int) -> list[str]:
    """Markdown rows: each R744 example's cold solve.

    Median wall time [ms] of a cold solve (see the module docstring), Newton iterations,
    property calls and flashes.
    """
    rows = [
        "| example | cold solve [ms] | iterations | property calls | flashes |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in EXAMPLES:
        scenario = load_scenario(ROOT / "examples" / "scenarios" / f"{name}.json")
        result = solve(scenario)
        assert result.converged, result.report()
        t = median_time(lambda scenario=scenario: solve(scenario), repeat)
        rows.append(
            f"| `{name}` | {1e3 * t:.1f} | {result.iterations} | {result.property_calls} | "
            f"{result.property_flashes} |"
        )
    return rows


def segments_table(repeat: int) -> list[str]:
    """Markdown lines: the UA gas-cooler model at 10 to 80 segments against the reference.

    The reference integrates the same exchanger on 1000 PropsSI segments. Per segment count:
    heat-flow error [%], outlet temperature error [K], time per call with a cold table [ms],
    property calls.
    """
    p, m, t_sec, c_sec, ua = 90e5, 0.05, 293.15, 0.1 * 4186.0, 2000.0
    h_in = PropsSI("H", "P", p, "T", 383.15, "CO2")
    q_ref, t_ref = reference(p, h_in, m, t_sec, c_sec, ua)
    rows = [
        f"Reference (1000 PropsSI segments): Q = {q_ref:.1f} W, outlet {t_ref - 273.15:.3f} C.",
        "",
        "| segments | heat flow error [%] | outlet temperature error [K] | time per call, cold table [ms] | property calls |",
        "|---:|---:|---:|---:|---:|",
    ]
    for segments in (10, 20, 40, 80):
        backend = get_backend("CO2", "CoolProp")
        before = backend.stats

        def call(backend=backend, segments=segments):
            return gas_cooler_heat_flow(backend, p, 0.0, h_in, m, t_sec, c_sec, ua, segments)

        result = call()
        calls = (backend.stats - before).calls
        t_out = PropsSI("T", "P", p, "H", result.h_out, "CO2")
        times = []
        for _ in range(repeat):
            fresh = get_backend("CO2", "CoolProp")
            t0 = time.perf_counter()
            gas_cooler_heat_flow(fresh, p, 0.0, h_in, m, t_sec, c_sec, ua, segments)
            times.append(time.perf_counter() - t0)
        rows.append(
            f"| {segments} | {100 * (result.q / q_ref - 1):+.3f} | {t_out - t_ref:+.3f} | "
            f"{1e3 * statistics.median(times):.1f} | {calls} |"
        )
    return rows


def check_table(repeat: int) -> list[str]:
    """Markdown rows: time [ms] and property calls of the fine-profile check of one condenser."""
    scenario = load_scenario(ROOT / "examples" / "scenarios" / "heat_pump_v1.json")
    result = solve(scenario)
    cond = result.components["condenser"]
    inlet = next(e for e in result.edge_states if e.dst == "condenser")
    outlet = next(e for e in result.edge_states if e.src == "condenser")
    c_sec = cond["capacity"] / (
        cond["secondary_outlet_temperature"] - cond["secondary_inlet_temperature"]
    )
    backend = get_backend("R134a", "CoolProp")

    def check():
        return secondary_profile(
            backend,
            (inlet.p_pa, inlet.h_j_kg),
            (outlet.p_pa, outlet.h_j_kg),
            inlet.m_kg_s,
            cond["secondary_inlet_temperature"],
            c_sec,
            True,
        )

    before = backend.stats
    check()
    calls = (backend.stats - before).calls
    t = median_time(
        lambda: secondary_profile(
            get_backend("R134a", "CoolProp"),
            (inlet.p_pa, inlet.h_j_kg),
            (outlet.p_pa, outlet.h_j_kg),
            inlet.m_kg_s,
            cond["secondary_inlet_temperature"],
            c_sec,
            True,
        ),
        repeat,
    )
    return [
        "| profile check (heat_pump_v1 condenser, 64 segments) | time [ms] | property calls |",
        "|---|---:|---:|",
        f"| per exchanger and result | {1e3 * t:.1f} | {calls} |",
    ]


def _load_note() -> str:
    """The load average at the start: the machine may be shared, which inflates wall times."""
    import os

    if not hasattr(os, "getloadavg"):
        return ""
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return f"; load average {load} at the start (a shared machine: wall times are inflated)"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table and (unless ``--no-write``) update the docs.

    Parameters
    ----------
    argv : list of str, optional
        Command-line arguments (default ``sys.argv[1:]``); ``--help`` lists them.

    Returns
    -------
    int
        Exit status: 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    lines = [
        "## Transcritical R744 (`benchmarks/bench_transcritical.py`)",
        "",
        machine_line() + _load_note(),
        "",
        *examples_table(args.repeat),
        "",
        "UA gas-cooler model against its segment count (90 bar, 110 C inlet, water at 20 C):",
        "",
        *segments_table(args.repeat),
        "",
        *check_table(args.repeat),
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        write_section("transcritical", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
