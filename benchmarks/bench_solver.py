"""Cycle solver against TESPy: cold build+solve, warm sweeps, property calls against the floor.

Usage::

    python -m benchmarks.bench_solver [--repeat 7] [--points 100] [--profile] [--no-write]

Cases, all in one process and one run (TESPy needs ``pip install tespy``):

1. Cold build+solve of the R-134a cycle (0.14 / 0.8 MPa, 0.05 kg/s, eta_s 0.75, 5 K
   superheat, 3 K subcooling): ours is ``solve(scenario_dict)`` (validate, flatten, build,
   solve, result tables); TESPy builds a ``Network`` (CycleCloser, Compressor,
   SimpleHeatExchanger condenser and evaporator, Valve) and solves it in design mode. Both
   must agree on Q_evap, W and COP within 0.1 % (the script exits 1 otherwise).
2. A warm sweep of the evaporator pressure over ``--points`` points from 0.10 to 0.20 MPa:
   TESPy re-solves in design mode from the previous point (``init_previous``); ours sets
   ``t_evap_k`` on the prepared system's evaporator and calls
   ``solve(..., system=prepared, initial=previous)`` (also shown: no warm start, and the
   tabular backend). Every point of both is checked against the other within 0.1 %.
3. The floor: a hand-written cycle (five ``AbstractState.update`` calls, and the same with
   ``PropsSI``) against our property calls and time per solve.
4. The UA-mode goals of issue 15 (``benchmarks/bench_ua.py``): the R410A split unit with UA
   coils, with a fixed superheat and with a superheat control loop, and the R134a
   water-to-water heat pump side by side with TESPy's equivalent; each against the floor
   measured on its own fluid: cold solve <= 250 floors, a ``workbench.sweep`` point <= 60
   floors, a sweep point within 1.5 prepared re-solves.

Times of 1-3 are medians of ``--repeat`` runs after a warm-up (runs of both tools
interleaved, so a busy machine slows both alike), of 4 minimums over ``--repeat`` runs. The
table is printed and written into ``docs/benchmarks.md`` between the ``bench:solver`` markers
(``--no-write`` only prints); ``--profile`` prints cProfile's top functions by internal time.
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import datetime as dt
import io
import os
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import CoolProp
import CoolProp.CoolProp as CP
import numpy as np
import scipy

from benchmarks.bench_docs import write_section as write_doc_section
from benchmarks.bench_ua import CASES as UA_CASES
from benchmarks.bench_ua import measure as measure_ua
from benchmarks.bench_ua import render as render_ua
from workbench.scenario.reference_cases import textbook_r134a
from workbench.solver import prepare, solve
from workbench.sweep import sweep as workbench_sweep

ROOT = Path(__file__).resolve().parents[1]

DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- bench:solver:start -->", "<!-- bench:solver:end -->"
HEADER = (
    "# Benchmarks\n\n"
    "Each benchmark script in `benchmarks/` replaces only its own section below "
    "(between its `bench:NAME` markers) with the table of its last run.\n"
)
FLUID = "R134a"
P_EVAP, P_COND, M_DOT = 0.14e6, 0.8e6, 0.05
ETA_S, SUPERHEAT_K, SUBCOOLING_K = 0.75, 5.0, 3.0
SWEEP_P = (0.10e6, 0.20e6)
AGREEMENT = 1e-3
COLD_GOAL, WARM_GOAL = 5.0, 10.0


# -- helpers -------------------------------------------------------------------------------
def median_s(fns: dict[str, Callable[[], Any]], repeat: int) -> dict[str, float]:
    """Median wall time [s] of each callable over ``repeat`` interleaved runs (one warm-up)."""
    for fn in fns.values():
        fn()
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for key, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[key].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def rel(a: float, b: float) -> float:
    """Relative difference |a - b| / |b| [-]."""
    return abs(a - b) / abs(b)


def t_dew(p: float) -> float:
    """Dew temperature of the working fluid at ``p`` [Pa] [K]."""
    return CP.PropsSI("T", "P", p, "Q", 1, FLUID)


def ours_scenario() -> dict[str, Any]:
    """The benchmark cycle as a workbench scenario (the textbook R-134a cycle, module constants)."""
    return textbook_r134a(eta_s=ETA_S, superheat_k=SUPERHEAT_K, subcooling_k=SUBCOOLING_K)


def ours_numbers(result: Any) -> dict[str, float]:
    """Cooling capacity ``q`` [W], compressor power ``w`` [W] and ``cop`` [-] of a solve result."""
    s = result.summary
    return {"q": s["cooling_capacity_w"], "w": s["compressor_power_w"], "cop": s["cop_cooling"]}


# -- TESPy model ---------------------------------------------------------------------------
class TespyCycle:
    """The textbook cycle as a TESPy network (SI default units; no iteration printout)."""

    def __init__(self, p_evap: float = P_EVAP) -> None:
        from tespy.components import Compressor, CycleCloser, SimpleHeatExchanger, Valve
        from tespy.connections import Connection
        from tespy.networks import Network

        self.nw = Network(iterinfo=False)
        closer = CycleCloser("closer")
        self.comp = Compressor("comp")
        self.cond = SimpleHeatExchanger("cond")
        valve = Valve("valve")
        self.evap = SimpleHeatExchanger("evap")
        self.suction = Connection(closer, "out1", self.comp, "in1", label="suction")
        discharge = Connection(self.comp, "out1", self.cond, "in1", label="discharge")
        liquid = Connection(self.cond, "out1", valve, "in1", label="liquid")
        wet = Connection(valve, "out1", self.evap, "in1", label="wet")
        back = Connection(self.evap, "out1", closer, "in1", label="back")
        self.nw.add_conns(self.suction, discharge, liquid, wet, back)
        self.comp.set_attr(eta_s=ETA_S)
        self.cond.set_attr(dp=0.0)
        self.evap.set_attr(dp=0.0)
        self.suction.set_attr(fluid={FLUID: 1.0}, p=p_evap, td_dew=SUPERHEAT_K, m=M_DOT)
        discharge.set_attr(p=P_COND)
        liquid.set_attr(td_bubble=SUBCOOLING_K)

    def solve(self, p_evap: float | None = None) -> dict[str, float]:
        """Design-mode solve (from the previous solution when there is one)."""
        if p_evap is not None:
            self.suction.set_attr(p=p_evap)
        self.nw.solve("design", print_results=False)
        if not self.nw.converged:
            raise RuntimeError(f"TESPy did not converge at p_evap = {p_evap} Pa")
        q, w = float(self.evap.Q.val_SI), float(self.comp.P.val_SI)
        return {"q": q, "w": w, "cop": q / w}


def tespy_version() -> str | None:
    """TESPy's version number, or None when TESPy is not installed."""
    try:
        import tespy
    except ImportError:
        return None
    return str(tespy.__version__).split(" ")[0]


# -- the floor -----------------------------------------------------------------------------
def floor_abstractstate(state: CP.AbstractState, p_evap: float = P_EVAP) -> tuple[float, float]:
    """Q_evap and W [W] of the cycle by hand: five ``AbstractState.update`` calls."""
    state.update(CP.PQ_INPUTS, p_evap, 1.0)
    t_e = state.T()
    state.update(CP.PT_INPUTS, p_evap, t_e + SUPERHEAT_K)
    h1, s1 = state.hmass(), state.smass()
    state.update(CP.PSmass_INPUTS, P_COND, s1)
    h2s = state.hmass()
    state.update(CP.PQ_INPUTS, P_COND, 0.0)
    t_c = state.T()
    state.update(CP.PT_INPUTS, P_COND, t_c - SUBCOOLING_K)
    h3 = state.hmass()
    return M_DOT * (h1 - h3), M_DOT * (h2s - h1) / ETA_S


def floor_propssi(p_evap: float = P_EVAP) -> tuple[float, float]:
    """The same cycle with ``PropsSI`` (six calls)."""
    ps = CP.PropsSI
    t_e = ps("T", "P", p_evap, "Q", 1, FLUID)
    h1 = ps("H", "P", p_evap, "T", t_e + SUPERHEAT_K, FLUID)
    s1 = ps("S", "P", p_evap, "T", t_e + SUPERHEAT_K, FLUID)
    h2s = ps("H", "P", P_COND, "S", s1, FLUID)
    t_c = ps("T", "P", P_COND, "Q", 0, FLUID)
    h3 = ps("H", "P", P_COND, "T", t_c - SUBCOOLING_K, FLUID)
    return M_DOT * (h1 - h3), M_DOT * (h2s - h1) / ETA_S


# -- cases ---------------------------------------------------------------------------------
def cold_case(repeat: int, with_tespy: bool) -> dict[str, Any]:
    """Cold build+solve of the textbook cycle, ours and TESPy; agreement of the results."""
    scenario = ours_scenario()
    ours = solve(copy.deepcopy(scenario))  # the process's first solve: a new backend
    assert ours.converged, ours.report()
    out: dict[str, Any] = {
        "ours": ours_numbers(ours),
        "calls": ours.property_calls,
        "flashes": ours.property_flashes,
        "iterations": ours.iterations,
    }
    fns: dict[str, Callable[[], Any]] = {"ours": lambda: solve(copy.deepcopy(scenario))}
    if with_tespy:
        out["tespy"] = TespyCycle().solve()
        fns["tespy"] = lambda: TespyCycle().solve()
    out["time"] = median_s(fns, repeat)
    state = CP.AbstractState("HEOS", FLUID)
    floor = median_s(
        {"as": lambda: floor_abstractstate(state), "propssi": floor_propssi}, max(repeat, 50)
    )
    out["floor"] = floor
    q_floor, w_floor = floor_abstractstate(state)
    out["floor_numbers"] = {"q": q_floor, "w": w_floor, "cop": q_floor / w_floor}
    return out


def sweep_case(points: int, repeat: int, with_tespy: bool) -> dict[str, Any]:
    """Warm sweep of the evaporator pressure: ms per point and agreement at every point."""
    pressures = np.linspace(*SWEEP_P, points)
    t_evaps = [t_dew(float(p)) for p in pressures]
    scenario = ours_scenario()
    variants = {
        "ours, warm start": (prepare(copy.deepcopy(scenario)), True),
        "ours, no warm start": (prepare(copy.deepcopy(scenario)), False),
        "ours, warm start, tabular": (prepare(copy.deepcopy(scenario), tabular=True), True),
    }

    def ours_sweep(system: Any, warm: bool) -> tuple[list[float], list[dict], int, int]:
        evap = system.components["evap"]

        def set_point(t: float) -> None:
            evap.params["t_evap_k"] = t
            evap.given["t_evap_k"] = t

        set_point(t_evaps[0])
        prev = solve(scenario, system=system)
        times, numbers, calls, iterations = [], [], 0, 0
        for t in t_evaps:
            t0 = time.perf_counter()
            set_point(t)
            res = solve(scenario, system=system, initial=prev if warm else None)
            times.append(time.perf_counter() - t0)
            if not res.converged:
                raise RuntimeError(f"ours did not converge at t_evap_k = {t}: {res.message}")
            numbers.append(ours_numbers(res))
            calls += res.property_calls
            iterations += res.iterations
            prev = res
        return times, numbers, calls, iterations

    def tespy_sweep(model: TespyCycle) -> tuple[list[float], list[dict], int, int]:
        model.solve(float(pressures[0]))
        times, numbers = [], []
        for p in pressures:
            t0 = time.perf_counter()
            numbers.append(model.solve(float(p)))
            times.append(time.perf_counter() - t0)
        return times, numbers, 0, 0

    runs: dict[str, Callable[[], tuple]] = {
        name: (lambda s=system, w=warm: ours_sweep(s, w))
        for name, (system, warm) in variants.items()
    }
    if with_tespy:
        model = TespyCycle(float(pressures[0]))
        runs["TESPy (init_previous)"] = lambda: tespy_sweep(model)
    per_sweep: dict[str, list[float]] = {k: [] for k in runs}
    per_point: dict[str, list[float]] = {k: [] for k in runs}
    last: dict[str, tuple] = {}
    for k, fn in runs.items():  # warm-up (tabular tables, TESPy's first solve)
        last[k] = fn()
    for _ in range(repeat):
        for k, fn in runs.items():
            last[k] = fn()
            per_sweep[k].append(sum(last[k][0]))
            per_point[k].extend(last[k][0])
    out: dict[str, Any] = {"rows": {}, "pressures": pressures}
    ref = last.get("TESPy (init_previous)")
    for k in runs:
        _times, numbers, calls, iterations = last[k]
        row = {
            "mean_ms": statistics.median(per_sweep[k]) / points * 1e3,
            "median_ms": statistics.median(per_point[k]) * 1e3,
            "calls": calls / points if calls else None,
            "iterations": iterations / points
            if iterations
            else (0.0 if k != "TESPy (init_previous)" else None),
            "max_rel": None,
        }
        if ref is not None and k != "TESPy (init_previous)":
            row["max_rel"] = max(
                rel(a[key], b[key])
                for a, b in zip(numbers, ref[1], strict=True)
                for key in ("q", "w", "cop")
            )
        out["rows"][k] = row
    return out


def profile_ours(points: int) -> str:
    """The top functions by internal time under ``cProfile``.

    Profiled: the textbook cycle, and each UA case cold and swept.
    """
    scenario = ours_scenario()
    system = prepare(copy.deepcopy(scenario))
    evap = system.components["evap"]
    ts = [t_dew(float(p)) for p in np.linspace(*SWEEP_P, points)]
    jobs: dict[str, Callable[[], Any]] = {
        "cold textbook x20": lambda: [solve(copy.deepcopy(scenario)) for _ in range(20)],
        f"warm sweep of {points} points": lambda: _sweep_for_profile(scenario, system, evap, ts),
    }
    for case in UA_CASES:
        jobs[f"cold {case.label} x10"] = lambda c=case: [
            solve(copy.deepcopy(c.doc) | {"name": f"{c.label} {k}"}) for k in range(10)
        ]
        jobs[f"sweep of 20 points: {case.label}"] = lambda c=case: workbench_sweep(
            c.doc, {c.sweep_path: c.values}, processes=1, progress=False
        )
    text = io.StringIO()
    for name, job in jobs.items():
        job()
        prof = cProfile.Profile()
        prof.enable()
        job()
        prof.disable()
        text.write(f"\n=== {name} ===\n")
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(20)
    return text.getvalue()


def _sweep_for_profile(scenario: dict, system: Any, evap: Any, temps: list[float]) -> None:
    prev = None
    for t in temps:
        evap.params["t_evap_k"] = evap.given["t_evap_k"] = t
        prev = solve(scenario, system=system, initial=prev)


# -- report --------------------------------------------------------------------------------
def machine() -> str:
    """Date, host, CPU, load and versions."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"{dt.datetime.now().isoformat(timespec='minutes')} on {platform.node() or 'unknown'}: "
        f"{platform.platform()}, {cpu}, {os.cpu_count()} CPUs (load average {load} at the start), "
        f"Python {platform.python_version()}, CoolProp {CoolProp.__version__}, numpy "
        f"{np.__version__}, scipy {scipy.__version__}, TESPy {tespy_version() or 'not installed'}."
    )


def verdict(ratio: float | None, goal: float) -> str:
    """``PASS`` when the speed-up ``ratio`` [-] reaches ``goal``, else ``MISS``; ``n/a`` without."""
    if ratio is None:
        return "n/a"
    return "PASS" if ratio >= goal else "MISS"


def render(info: str, cold: dict, sweep: dict, repeat: int, points: int) -> str:
    """Markdown section of the results."""
    t = cold["time"]
    ours_ms = t["ours"] * 1e3
    tespy_ms = t["tespy"] * 1e3 if "tespy" in t else None
    cold_ratio = tespy_ms / ours_ms if tespy_ms else None
    floor_us = cold["floor"]["as"] * 1e6
    lines = [
        START,
        "## Cycle solver against TESPy (`benchmarks/bench_solver.py`)",
        "",
        info + f" Median of {repeat} interleaved runs after a warm-up.",
        "",
        "R-134a cycle between 0.14 and 0.8 MPa at 0.05 kg/s, eta_s 0.75, 5 K superheat, 3 K "
        "subcooling (`textbook_r134a(eta_s=0.75, superheat_k=5, subcooling_k=3)` of "
        "`workbench/scenario/reference_cases.py`); TESPy: CycleCloser, Compressor, two SimpleHeatExchangers, Valve "
        "with `p`, `td_dew` and `td_bubble` on the connections. Cold = from the scenario dict "
        "(validate, flatten, build, solve, result tables) against building the `Network` and "
        "solving it in design mode, both with CoolProp HEOS.",
        "",
        "| case | ours [ms] | TESPy [ms] | TESPy / ours | goal | |",
        "|---|---:|---:|---:|---:|---|",
        f"| cold build+solve | {ours_ms:.2f} | {_fmt(tespy_ms)} | {_fmt(cold_ratio, 1)} | "
        f">= {COLD_GOAL:g}x | {verdict(cold_ratio, COLD_GOAL)} |",
    ]
    tespy_row = sweep["rows"].get("TESPy (init_previous)")
    main = sweep["rows"]["ours, warm start"]
    warm_ratio = tespy_row["mean_ms"] / main["mean_ms"] if tespy_row else None
    lines.append(
        f"| warm sweep, per point | {main['mean_ms']:.2f} | "
        f"{_fmt(tespy_row['mean_ms'] if tespy_row else None)} | {_fmt(warm_ratio, 1)} | "
        f">= {WARM_GOAL:g}x | {verdict(warm_ratio, WARM_GOAL)} |"
    )
    lines += ["", _agreement(cold), ""]
    lines += [
        f"Warm sweep: evaporator pressure over {points} points from "
        f"{SWEEP_P[0] / 1e6:.2f} to {SWEEP_P[1] / 1e6:.2f} MPa. Ours sets `t_evap_k` on the "
        "evaporator of a prepared system (`prepare`) and calls `solve(..., system=prepared, "
        "initial=previous)`; TESPy sets `p` on the suction connection and re-solves in design "
        "mode from the previous point. Per point = sweep time / points (median over the sweeps); "
        "the agreement column is the largest relative difference from TESPy in Q_evap, W or COP "
        "over the sweep.",
        "",
        "| variant | ms per point | median point [ms] | Newton iterations per point | "
        "property calls per point | max rel. diff from TESPy | TESPy / this |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, row in sweep["rows"].items():
        ratio = tespy_row["mean_ms"] / row["mean_ms"] if tespy_row else None
        lines.append(
            f"| {name} | {row['mean_ms']:.2f} | {row['median_ms']:.2f} | "
            f"{_fmt(row['iterations'], 1)} | {_fmt(row['calls'], 0)} | "
            f"{_sci(row['max_rel'])} | {_fmt(ratio, 1)} |"
        )
    tab = sweep["rows"].get("ours, warm start, tabular")
    if tab and tab["max_rel"] is not None and tab["max_rel"] > AGREEMENT:
        lines += [
            "",
            f"The tabular variant (`tabular=True`, CoolProp `BICUBIC&HEOS`) is off by up to "
            f"{tab['max_rel'] * 100:.1f} %: CoolProp's bicubic tables answer (p, T) inputs a few "
            "kelvin below saturation with the wrong phase (CoolProp issue #629), so the 3 K "
            "subcooled condenser outlet comes out wrong; its time is shown for information only.",
        ]
    warm_us = main["mean_ms"] * 1e3
    lines += [
        "",
        "The floor: the same cycle by hand, state by state, with no solver (Q_evap and W "
        "from five `AbstractState('HEOS')` updates, and from six `PropsSI` calls).",
        "",
        "| | time per cycle [us] | property calls | x floor |",
        "|---|---:|---:|---:|",
        f"| hand-written, `AbstractState` (the floor) | {floor_us:.1f} | 5 | 1.0 |",
        f"| hand-written, `PropsSI` | {cold['floor']['propssi'] * 1e6:.1f} | 6 | "
        f"{cold['floor']['propssi'] * 1e6 / floor_us:.1f} |",
        f"| ours, cold build+solve | {ours_ms * 1e3:.0f} | {cold['calls']} "
        f"({cold['flashes']} CoolProp updates) | {ours_ms * 1e3 / floor_us:.0f} |",
        f"| ours, warm sweep point | {warm_us:.0f} | {_fmt(main['calls'], 0)} | "
        f"{warm_us / floor_us:.0f} |",
    ]
    if tespy_ms:
        lines.append(
            f"| TESPy, cold build+solve | {tespy_ms * 1e3:.0f} | | {tespy_ms * 1e3 / floor_us:.0f} |"
        )
    lines += [
        "",
        f"Ours took {cold['iterations']} Newton iterations on the cold cycle: the starting values "
        "derived from the ideal-mode specs already solve it, so its time is set-up and results.",
        "",
        *render_ua(UA_CASES, repeat),
        "",
        f"Goals (issue 4): at least {COLD_GOAL:g}x faster than TESPy on a cold build+solve and "
        f"{WARM_GOAL:g}x per warm sweep point. `--profile` prints where our solver spends its time.",
        END,
    ]
    return "\n".join(lines)


def _agreement(cold: dict) -> str:
    ours, hand = cold["ours"], cold["floor_numbers"]
    tespy = cold.get("tespy")
    parts = []
    for key, label in (("q", "Q_evap"), ("w", "W"), ("cop", "COP")):
        unit = "" if key == "cop" else " W"
        fmt = ".4f" if key == "cop" else ".2f"
        text = f"{label} ours {ours[key]:{fmt}}{unit}"
        if tespy:
            text += f", TESPy {tespy[key]:{fmt}}{unit} ({_sci(rel(ours[key], tespy[key]))})"
        text += f", by hand {hand[key]:{fmt}}{unit}"
        parts.append(text)
    return "Agreement (relative difference, limit 0.1 %): " + "; ".join(parts) + "."


def _fmt(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _sci(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1e}"


def write_section(section: str) -> None:
    """Replace this benchmark's section of ``docs/benchmarks.md``."""
    body = section.removeprefix(START).removesuffix(END)
    write_doc_section("solver", body, DOC)


def agreement_failures(cold: dict, sweep: dict) -> list[str]:
    """Disagreements beyond 0.1 % between ours, TESPy and the hand calculation."""
    bad = []
    refs = {"hand calculation": cold["floor_numbers"]}
    if "tespy" in cold:
        refs["TESPy"] = cold["tespy"]
    for name, ref in refs.items():
        for key in ("q", "w", "cop"):
            if rel(cold["ours"][key], ref[key]) > AGREEMENT:
                bad.append(f"cold {key}: ours {cold['ours'][key]} vs {name} {ref[key]}")
    for name, row in sweep["rows"].items():
        if "tabular" in name:  # interpolated properties: reported, not required to agree
            continue
        if row["max_rel"] is not None and row["max_rel"] > AGREEMENT:
            bad.append(f"sweep {name}: {row['max_rel']:.2e} from TESPy")
    return bad


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table and (unless ``--no-write``) update the docs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--points", type=int, default=100)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    with_tespy = tespy_version() is not None
    if not with_tespy:
        print("TESPy is not installed (pip install tespy): timing ours only", file=sys.stderr)
    info = machine()
    cold = cold_case(args.repeat, with_tespy)
    sweep = sweep_case(args.points, max(args.repeat // 2, 1), with_tespy)
    for case in UA_CASES:
        case.results = measure_ua(case, args.repeat, with_tespy)
    section = render(info, cold, sweep, args.repeat, args.points)
    print(section)
    if args.profile:
        print(profile_ours(args.points))
    bad = agreement_failures(cold, sweep)
    for line in bad:
        print("DISAGREEMENT beyond 0.1 %:", line, file=sys.stderr)
    if not args.no_write and not bad:
        write_section(section)
        print(f"\nwritten to {DOC}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
