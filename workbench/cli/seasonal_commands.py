"""``workbench seasonal``: rate a scenario to EN 14825 (SCOP, eta_s) from its ``seasonal`` block.

Prints the figures, the test points and the bins as tables, or one JSON object with ``--json``
(keys ``scop``, ``scop_on``, ``scop_net``, ``eta_s``, ``test_points``, ``bins``, ...).
``--plot PNG`` writes the bins chart; ``--note --owner OWNER`` stores the rating in the run log
(run kind ``rating``).

Exit codes: 0 a complete rating, 1 incomplete (a test point did not converge: named with its
hint, no figures), 2 bad input.

``workbench seasonal --declared TABLE.csv [--climate C] [-o rated.csv] [--json]`` rates a table
of certified declarations instead (one row per product and application, columns in
docs/seasonal.md; :mod:`workbench.seasonal.declared_table`): SCOP, SCOPon, SCOPnet, eta_s, the
stated figures, their differences, the convention the stated SCOP matches and the flags. Exit 0,
or 2 for a bad column or cell (row and column named).

``workbench seasonal fit --declared TABLE.csv --scenario BASE.json [--scheduler ADDRESS]`` fits
the base scenario to each product's declared points (:func:`workbench.seasonal.fit_declared`,
points given as ``t_c``, ``supply_c``, ``capacity_kw``, ``cop`` rows with a ``product`` column),
on a Dask cluster when an address is given, as sweeps do. Exit 0 all fitted, 1 some failed, 2
bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from workbench.cli.run_notes import add_note_arguments, note_arguments_problem

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``seasonal`` to the ``workbench`` parser."""
    p = subparsers.add_parser(
        "seasonal",
        help="seasonal rating (EN 14825 SCOP, eta_s) of a scenario with a seasonal block",
        description="Solve the EN 14825 test points of a scenario (capacity control meets the "
        "part load) and apply the bin method; exit 0 complete, 1 incomplete, 2 bad input.",
    )
    p.add_argument(
        "file",
        type=Path,
        nargs="?",
        help="scenario JSON file with a seasonal block (or the word 'fit': fit --declared "
        "products to --scenario)",
    )
    p.add_argument(
        "--declared",
        type=Path,
        metavar="TABLE.csv",
        help="rate a table of declarations (one row per product and application), or with "
        "'fit' the declared points to fit",
    )
    p.add_argument("-o", "--output", type=Path, metavar="CSV", help="write the table here")
    p.add_argument("--scenario", type=Path, metavar="BASE.json", help="base scenario of 'fit'")
    p.add_argument(
        "--scheduler", metavar="ADDRESS", help="Dask scheduler for 'fit' (one product a task)"
    )
    p.add_argument(
        "--free",
        action="append",
        metavar="PATH",
        help="free path of 'fit' (repeat; default: displacement, isentropic efficiency, both UAs)",
    )
    p.add_argument(
        "--climate", choices=("average", "warmer", "colder"), help="override seasonal.climate"
    )
    p.add_argument("--application", choices=("low", "medium"), help="override seasonal.application")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument("--plot", type=Path, metavar="PNG", help="write the bins chart")
    add_note_arguments(p, "the rating")
    p.set_defaults(func=run_seasonal)


def run_seasonal(args: argparse.Namespace) -> int:
    """Run ``workbench seasonal`` (see the module docstring)."""
    from workbench.seasonal import rate

    if args.file is not None and str(args.file) == "fit":
        return _run_fit(args)
    if args.declared is not None:
        if args.file is not None:
            print("error: give a scenario file or --declared TABLE.csv, not both", file=sys.stderr)
            return EXIT_BAD_INPUT
        return _run_declared(args)
    if args.file is None:
        print("error: give a scenario file, --declared TABLE.csv or 'fit'", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.file.exists():
        print(f"error: {args.file}: no such file", file=sys.stderr)
        return EXIT_BAD_INPUT
    problem = note_arguments_problem(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    rating = rate(args.file, climate=args.climate, application=args.application)
    note_id = None
    if args.note:
        from workbench.notes.runs.ratings import save_rating
        from workbench.scenario import read_json

        doc, _ = read_json(args.file)
        stored = save_rating(rating, doc, owner=args.owner)
        note_id = stored.id
        print(f"stored as note {stored.id} of {args.owner}: {stored.title}", file=sys.stderr)
    if args.json:
        out = rating.to_dict()
        if note_id:
            out["note_id"] = note_id
        print(json.dumps(out, indent=2))
    else:
        _print_tables(rating)
        if note_id:
            print(note_id)
    if args.plot:
        from workbench.plotting.seasonal import plot_bins

        if rating.bins is None:
            print("no chart: the rating is incomplete", file=sys.stderr)
        else:
            fig, _ax = plot_bins(rating)
            fig.savefig(args.plot, dpi=120, bbox_inches="tight")
            print(f"chart written to {args.plot}", file=sys.stderr)
    return EXIT_OK if rating.complete else EXIT_FAILED


def _run_declared(args: argparse.Namespace) -> int:
    """Rate a table of declarations (``--declared``)."""
    from workbench.seasonal.declared_table import DeclaredTableError, rate_declared_table

    if not args.declared.exists():
        print(f"error: {args.declared}: no such file", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        rated = rate_declared_table(args.declared, climate=args.climate or "average")
    except DeclaredTableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.output:
        rated.to_csv(args.output, index=False)
        print(f"{len(rated)} declarations rated; table written to {args.output}", file=sys.stderr)
    if args.json:
        records = rated.astype(object).where(rated.notna(), None).to_dict(orient="records")
        print(json.dumps(records, indent=2))
    elif not args.output:
        import pandas as pd

        with pd.option_context("display.width", 250, "display.max_columns", 30):
            shown = ["product", "application", "scop", "scop_on", "scop_net", "eta_s"]
            shown += ["scop_stated", "convention", "flags"]
            print(rated[shown].to_string(index=False, float_format="%.3f"))
    flagged = int((rated["flags"] != "").sum())
    print(f"{len(rated)} declarations, {flagged} flagged", file=sys.stderr)
    return EXIT_OK


def _run_fit(args: argparse.Namespace) -> int:
    """Fit a base scenario to each product of a points table (``fit``)."""
    from workbench.cli.sweep_commands import SchedulerError, _client
    from workbench.errors import ScenarioError
    from workbench.seasonal.product_table import (
        PointsTableError,
        fit_declared_table,
        read_points_table,
    )

    for flag, value in (("--declared", args.declared), ("--scenario", args.scenario)):
        if value is None:
            print(f"error: fit needs {flag}", file=sys.stderr)
            return EXIT_BAD_INPUT
        if not value.exists():
            print(f"error: {value}: no such file", file=sys.stderr)
            return EXIT_BAD_INPUT
    try:
        table = read_points_table(args.declared)
        with _client(args.scheduler) as client:
            fitted = fit_declared_table(table, args.scenario, free=args.free, client=client)
    except (PointsTableError, ScenarioError, SchedulerError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.output:
        fitted.to_csv(args.output, index=False)
        print(f"{len(fitted)} products fitted; table written to {args.output}", file=sys.stderr)
    if args.json:
        records = fitted.astype(object).where(fitted.notna(), None).to_dict(orient="records")
        print(json.dumps(records, indent=2))
    elif not args.output:
        print(fitted.to_string(index=False, float_format="%.6g"))
    ok = int(fitted["success"].astype(bool).sum())
    print(f"{len(fitted)} products, {ok} fitted", file=sys.stderr)
    return EXIT_OK if ok == len(fitted) else EXIT_FAILED


def _print_tables(rating: object) -> None:
    import pandas as pd

    from workbench.seasonal.rating import SeasonalRating

    assert isinstance(rating, SeasonalRating)
    s = rating.settings
    if s.mode == "cooling":
        print(
            f"{rating.name}: EN 14825:2018, cooling, {s.application} application, Pdesignc "
            f"{s.design_load_kw:g} kW"
        )
    else:
        print(
            f"{rating.name}: EN 14825:2018, {s.climate} climate, {s.application} temperature "
            f"application, Pdesignh {s.design_load_kw:g} kW"
        )
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print()
        shown = rating.test_points.drop(columns=["hint"]).astype({"limit": object})
        shown["limit"] = shown["limit"].where(shown["limit"].notna(), "")
        print(shown.to_string(index=False, float_format="%.3f"))
        print()
        if not rating.complete:
            for _, row in rating.test_points[~rating.test_points["converged"]].iterrows():
                print(f"test point {row['name']} did not converge: {row['hint']}")
            print("rating incomplete: no seasonal figures")
            return
        assert rating.bins is not None
        cols = ["t_c", "hours", "load_kw", "capacity_kw", "cop", "backup_kw"]
        print(rating.bins[cols].to_string(index=False, float_format="%.3f"))
    print()
    if s.mode == "cooling":
        print(
            f"SEER {rating.seer:.2f}  SEERon {rating.seer_on:.2f}  eta_s,c {rating.eta_s:.0f} %  "
            f"(SEER is limited most by test point {rating.limiting_point}; lowest EER at "
            f"{rating.lowest_cop_point})"
        )
        return
    print(
        f"SCOP {rating.scop:.2f}  SCOPon {rating.scop_on:.2f}  SCOPnet {rating.scop_net:.2f}  "
        f"eta_s {rating.eta_s:.0f} %  (SCOP is limited most by test point "
        f"{rating.limiting_point}; lowest COP at {rating.lowest_cop_point})"
    )
    for issue in rating.inconsistencies:
        print(f"warning: {issue.message}")
