"""``workbench fit compressor`` and ``workbench calibrate``: maps from catalogues, cycles to data.

Both need only the core package; ``calibrate --note`` imports the note database (the ``notes``
extra) when it is given. Exit codes: 0 success, 1 a calibration that is not a success (a point
failed, or the optimiser stopped on its evaluation budget), 2 bad input (a bad column, path,
unit or file; the message names it).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path
from typing import Any

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from workbench.cli.run_notes import add_note_arguments, note_arguments_problem, write_text_atomic

__all__ = ["parse_assignment", "register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``fit`` (``fit compressor``) and ``calibrate`` to the ``workbench`` parser."""
    fit = subparsers.add_parser(
        "fit",
        help="fit component parameters to a catalogue table",
        description="Fit a component's parameters to a catalogue table.",
    )
    kinds = fit.add_subparsers(dest="fit_kind", metavar="KIND")
    comp = kinds.add_parser(
        "compressor",
        help="AHRI 540 ten-coefficient maps of mass flow and power from a catalogue CSV",
        description="Fit the AHRI 540 maps (mass_flow_map_kg_s, power_map_w) of a compressor to "
        "a catalogue CSV. Columns: t_evap, t_cond (suction and discharge dew temperatures), "
        "mass_flow, power and optionally capacity, each with its unit in the header "
        "(t_evap_c or 't_evap [F]', mass_flow_kg_s or mass_flow_kg_h, power_w or power_kw ...). "
        "Prints the parameters as JSON, ready to paste into a Compressor; the errors and any "
        "coverage warnings go to standard error.",
    )
    comp.add_argument("table", type=Path, help="catalogue CSV")
    comp.add_argument("-o", "--output", type=Path, metavar="JSON", help="write the JSON here")
    comp.set_defaults(func=run_fit_compressor)
    fit.set_defaults(func=lambda _args: _usage(fit))

    cal = subparsers.add_parser(
        "calibrate",
        help="fit free scenario parameters to measured operating points",
        description="Fit free parameters of a scenario (UA values, efficiencies, calibration "
        "factors) to a CSV of measured operating points by weighted least squares. Columns: "
        "conditions (sweep paths such as evaporator.air_inlet_temp_c) and measured quantities "
        "(summary.heating_capacity_w, compressor.power, edges.compressor:outlet.t_c ...). "
        "Exit 0 when every point solved and the optimiser converged, 1 otherwise, 2 bad input.",
    )
    cal.add_argument("file", type=Path, help="scenario JSON file")
    cal.add_argument("measurements", type=Path, help="CSV, one row per operating point")
    cal.add_argument(
        "--free",
        nargs="+",
        required=True,
        metavar="PATH",
        help="parameters to fit, e.g. condenser.ua",
    )
    cal.add_argument(
        "--start", action="append", default=[], metavar="PATH=VALUE", help="a start value"
    )
    cal.add_argument(
        "--bounds",
        action="append",
        default=[],
        metavar="PATH=LOW:HIGH",
        help="bounds of a free parameter (either side may be empty)",
    )
    cal.add_argument(
        "--sigma",
        action="append",
        default=[],
        metavar="QUANTITY=VALUE",
        help="standard uncertainty of a measured column, in its units",
    )
    cal.add_argument(
        "--loss",
        default="linear",
        choices=["linear", "soft_l1", "huber", "cauchy", "arctan"],
        help="robust loss (default: linear, plain least squares)",
    )
    cal.add_argument(
        "-o", "--output", type=Path, metavar="JSON", help="write the calibrated scenario"
    )
    cal.add_argument(
        "--residuals", type=Path, metavar="CSV", help="write the residuals per point and quantity"
    )
    cal.add_argument("--json", action="store_true", help="print the result as JSON")
    add_note_arguments(cal, "the calibration (the fit in words, the residuals kept)")
    cal.set_defaults(func=run_calibrate)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_BAD_INPUT


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    """``PATH=VALUE`` split into the path and the value text.

    Raises
    ------
    ValueError
        Not of that form; the message quotes the argument.
    """
    path, sep, value = text.partition("=")
    if not sep or not path.strip() or not value.strip():
        raise ValueError(f"{option} {text!r}: expected PATH=VALUE")
    return path.strip(), value.strip()


def _number(text: str, option: str, whole: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{option} {whole!r}: {text!r} is not a number") from None


def _bounds(texts: list[str]) -> dict[str, tuple[float | None, float | None]]:
    out: dict[str, tuple[float | None, float | None]] = {}
    for text in texts:
        path, value = parse_assignment(text, "--bounds")
        low, sep, high = value.partition(":")
        if not sep:
            raise ValueError(f"--bounds {text!r}: expected PATH=LOW:HIGH")
        out[path] = (
            _number(low, "--bounds", text) if low.strip() else None,
            _number(high, "--bounds", text) if high.strip() else None,
        )
    return out


def _values(texts: list[str], option: str) -> dict[str, float]:
    out = {}
    for text in texts:
        path, value = parse_assignment(text, option)
        out[path] = _number(value, option, text)
    return out


def run_fit_compressor(args: argparse.Namespace) -> int:
    """``workbench fit compressor TABLE.csv``."""
    from workbench.calibrate import fit_compressor_map, read_compressor_table

    if not args.table.exists():
        print(f"error: {args.table}: no such file", file=sys.stderr)
        return EXIT_BAD_INPUT
    fit = fit_compressor_map(read_compressor_table(args.table))
    text = json.dumps(fit.compressor_parameters(), indent=2) + "\n"
    if args.output:
        write_text_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    print(f"{len(fit.table)} points fitted", file=sys.stderr)
    for quantity, row in fit.errors.iterrows():
        print(
            f"{quantity}: RMS {row['rms_relative_pct']:.3g} %, worst {row['worst_relative_pct']:.3g} % "
            f"at t_evap {row['worst_t_evap_c']:g} C, t_cond {row['worst_t_cond_c']:g} C",
            file=sys.stderr,
        )
    if fit.capacity_map_w is not None:
        print(f"capacity_map_w: {json.dumps(fit.capacity_map_w)}", file=sys.stderr)
    for warning in fit.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return EXIT_OK


def _result_json(result: Any) -> dict[str, Any]:
    def clean(v: float) -> float | None:
        return v if v == v and abs(v) != float("inf") else None

    return {
        "values": result.values,
        "std_errors": {k: clean(v) for k, v in result.std_errors.items()},
        "intervals": {k: [clean(a), clean(b)] for k, (a, b) in result.intervals.items()},
        "unidentifiable": result.unidentifiable,
        "start": result.start,
        "success": result.success,
        "message": result.message,
        "residual_sigma": clean(result.residual_sigma),
        "outliers": result.outliers[["point", "quantity"]].values.tolist(),
        "failed": result.failed.to_dict(orient="records"),
        "evaluations": result.evaluations,
        "solves": result.solves,
        "elapsed_s": result.elapsed_s,
    }


def run_calibrate(args: argparse.Namespace) -> int:
    """``workbench calibrate SCENARIO MEASUREMENTS.csv --free PATH ...``."""
    from workbench.calibrate import calibrate
    from workbench.scenario import load_scenario

    for path in (args.file, args.measurements):
        if not path.exists():
            print(f"error: {path}: no such file", file=sys.stderr)
            return EXIT_BAD_INPUT
    if problem := note_arguments_problem(args):
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        start = _values(args.start, "--start")
        sigma = _values(args.sigma, "--sigma")
        bounds = _bounds(args.bounds)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    scenario = load_scenario(args.file)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = calibrate(
            scenario,
            args.measurements,
            args.free,
            start=start or None,
            bounds=bounds or None,
            sigma=sigma or None,
            loss=args.loss,
        )
    if args.json:
        sys.stdout.write(json.dumps(_result_json(result), indent=2) + "\n")
    else:
        print(result.report())
    if args.output:
        write_text_atomic(args.output, json.dumps(result.scenario, indent=2) + "\n")
        print(f"calibrated scenario written to {args.output}", file=sys.stderr)
    if args.residuals:
        args.residuals.parent.mkdir(parents=True, exist_ok=True)
        result.residuals.to_csv(args.residuals, index=False)
    if args.note:
        from workbench.notes.runs.calibrations import save_calibration

        run = save_calibration(result, scenario, owner=args.owner)
        print(f"stored as note {run.id} of {args.owner}: {run.title}", file=sys.stderr)
        print(run.id)
    return EXIT_OK if result.success and result.failed.empty else EXIT_FAILED
