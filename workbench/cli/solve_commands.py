"""``workbench solve``: solve scenarios and print tables, JSON or CSV files.

``--note --owner OWNER`` also stores the run as a note (:mod:`workbench.cli.run_notes`) and
prints the note id: the last line of the tables, or the ``note_id`` key of ``--json``. A run
that did not converge is stored too.

Exit codes: 0 converged, 1 not converged (diagnostics still printed), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from workbench.cli.run_notes import add_note_arguments, note_arguments_problem, store_run_note

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``solve`` to the ``workbench`` parser."""
    p = subparsers.add_parser(
        "solve",
        help="solve a scenario to steady state",
        description="Solve a scenario; exit 0 converged, 1 not converged, 2 bad input.",
    )
    p.add_argument("file", type=Path, help="scenario JSON file")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument(
        "--csv", type=Path, metavar="DIR", help="write edges/components/summary CSV files"
    )
    p.add_argument("--plot", type=Path, metavar="PNG", help="write the P-h diagram")
    p.add_argument(
        "--strategy", choices=("newton", "picard", "fallback"), help="override solver.strategy"
    )
    add_note_arguments(p, "the solved run")
    p.set_defaults(func=run_solve)


def run_solve(args: argparse.Namespace) -> int:
    from workbench.scenario import load_scenario
    from workbench.solver import solve

    if not args.file.exists():
        print(f"error: {args.file}: no such file", file=sys.stderr)
        return EXIT_BAD_INPUT
    problem = note_arguments_problem(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    scenario = load_scenario(args.file)
    if args.strategy:
        scenario.solver.strategy = args.strategy
    result = solve(scenario)
    overrides = {"strategy": args.strategy} if args.strategy else None
    if args.json:
        doc = result.to_dict()
        if args.note:
            doc["note_id"] = store_run_note(args, result, overrides)
        print(json.dumps(doc, indent=2))
    else:
        _print_tables(result)
        if args.note:
            print(store_run_note(args, result, overrides))
    if args.csv:
        args.csv.mkdir(parents=True, exist_ok=True)
        result.edges.to_csv(args.csv / "edges.csv", index=False)
        result.components_table().to_csv(args.csv / "components.csv")
        result.summary_table().to_csv(args.csv / "summary.csv", header=["value"])
        if result.controls:
            pd.DataFrame(result.controls).to_csv(args.csv / "controls.csv", index=False)
        if result.lines:
            result.lines_table().to_csv(args.csv / "lines.csv")
        print(f"tables written to {args.csv}", file=sys.stderr)
    if args.plot:
        from workbench.plotting import plot_ph

        fig, _ax = plot_ph(result, scenario=scenario)
        fig.savefig(args.plot, dpi=120, bbox_inches="tight")
        print(f"P-h diagram written to {args.plot}", file=sys.stderr)
    return EXIT_OK if result.converged else EXIT_FAILED


def _print_tables(result) -> None:
    from workbench.solver.results import HEADLINE_OUTPUTS

    name = result.scenario_name or "scenario"
    print(f"== {name}: {result.report()}")
    print()
    with pd.option_context(
        "display.width", 160, "display.max_columns", 20, "display.float_format", "{:.4g}".format
    ):
        if not result.edges.empty:  # a solve that stopped before any state has no tables
            print(result.edges.to_string(index=False))
            print()
        comp = result.components_table()
        keep = [c for c in HEADLINE_OUTPUTS if c in comp.columns]
        if keep and not comp.empty:
            print(comp[keep].to_string())
            print()
        for key, value in result.summary.items():
            print(f"{key:>22}: {json.dumps(value) if value is None else f'{value:.6g}'}")
        if result.controls:
            print()
            print(pd.DataFrame(result.controls).to_string(index=False))
        if result.lines:  # refrigerant lines (docs/lines.md)
            lines = result.lines_table()
            shown = ["role", "pressure_drop_pa", "saturation_temperature_drop_k", "heat_gain_w",
                     "velocity_m_s", "charge_kg"]  # fmt: skip
            print()
            print(lines[shown].to_string())
        if result.safety:
            print()
            print(f"safety ({result.safety['standard']}): {result.safety['message']}")
