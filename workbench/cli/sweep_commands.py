"""``workbench sweep``: a scenario over a grid or list of values, locally or on a Dask cluster.

Needs only the core package; ``--scheduler ADDRESS`` imports ``distributed`` (the ``dask``
extra) when it is given.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from workbench.cli.run_notes import add_note_arguments, note_arguments_problem, store_sweep_note

__all__ = ["SCHEDULER_TIMEOUT_S", "SchedulerError", "parse_set", "register"]

SCHEDULER_TIMEOUT_S = 10
"""Seconds ``--scheduler`` waits to connect before the command exits 2."""


class SchedulerError(Exception):
    """``--scheduler`` names no reachable Dask scheduler, or ``distributed`` is missing."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``sweep`` to the ``workbench`` parser."""
    p = subparsers.add_parser(
        "sweep",
        help="solve a scenario over a grid or list of parameter values",
        description="Sweep parameters of a scenario; each case is warm-started from its "
        "neighbour. Exit 0 when every case converged, 1 when some did not (the table is "
        "still written), 2 bad input.",
    )
    p.add_argument("file", type=Path, help="scenario JSON file")
    p.add_argument(
        "--set",
        dest="sets",
        action="append",
        required=True,
        metavar="PATH=VALUES",
        help="PATH=start:stop:n (n values, linspace) or PATH=v1,v2,...; repeat for a grid. "
        "PATH: <component>.<parameter>, controls.<id>.target or solver.<field>",
    )
    p.add_argument(
        "--list", action="store_true", help="pair the k-th values of each --set (no grid)"
    )
    p.add_argument("-o", "--output", type=Path, metavar="CSV", help="write the table here")
    p.add_argument(
        "--outputs",
        nargs="+",
        default=[],
        metavar="PATH",
        help="extra columns, e.g. evap.superheat controls.sh.actuator",
    )
    p.add_argument("--processes", type=int, help="local worker processes (1: in-process)")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on an existing Dask cluster (tcp://host:8786); the workers need "
        "thermal-workbench installed (pip install 'thermal-workbench[dask]')",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--tabular",
        action="store_true",
        help="CoolProp's tabular BICUBIC&HEOS backend: faster, within 2e-7 (relative) of HEOS "
        "on the textbook cycle (docs/benchmarks.md)",
    )
    add_note_arguments(p, "the sweep (its table summarised, the CSV kept)")
    p.set_defaults(func=run_sweep)


def parse_set(text: str) -> tuple[str, list[Any]]:
    """Parse ``PATH=start:stop:n`` or ``PATH=v1,v2,...`` into the path and its values.

    Raises
    ------
    ValueError
        Not of that form; the message quotes the argument.
    """
    path, sep, spec = text.partition("=")
    path, spec = path.strip(), spec.strip()
    if not sep or not path or not spec:
        raise ValueError(f"--set {text!r}: expected PATH=start:stop:n or PATH=v1,v2,...")
    try:
        if ":" in spec:
            parts = spec.split(":")
            if len(parts) != 3:
                raise ValueError
            start, stop, n = float(parts[0]), float(parts[1]), int(parts[2])
            if n < 1:
                raise ValueError
            return path, [float(v) for v in np.linspace(start, stop, n)]
        values: list[Any] = []
        for item in spec.split(","):
            item = item.strip()
            values.append(int(item) if item.lstrip("+-").isdigit() else float(item))
        return path, values
    except ValueError:
        raise ValueError(
            f"--set {text!r}: values must be start:stop:n (numbers, n >= 1 an integer) or a "
            "comma list of numbers"
        ) from None


def _write_csv_atomic(frame: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        frame.to_csv(tmp, index=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _client(address: str | None) -> Iterator[Any]:
    """A ``distributed.Client`` connected to ``address`` for the ``with`` block (None: none)."""
    if not address:
        yield None
        return
    try:
        from distributed import Client
    except ModuleNotFoundError:
        raise SchedulerError(
            "--scheduler needs Dask's distributed: pip install 'thermal-workbench[dask]'"
        ) from None
    try:
        client = Client(address, timeout=SCHEDULER_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SchedulerError(
            f"--scheduler {address!r}: no Dask scheduler reachable ({type(exc).__name__}: {exc})"
        ) from None
    try:
        yield client
    finally:
        client.close()


def run_sweep(args: argparse.Namespace) -> int:
    from workbench.scenario import load_scenario
    from workbench.sweep import sweep

    if not args.file.exists():
        print(f"error: {args.file}: no such file", file=sys.stderr)
        return EXIT_BAD_INPUT
    if problem := note_arguments_problem(args):
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    grid: dict[str, list[Any]] = {}
    try:
        for text in args.sets:
            path, values = parse_set(text)
            if path in grid:
                raise ValueError(f"--set {text!r}: path {path!r} given twice")
            grid[path] = values
        scenario = load_scenario(args.file)
        with _client(args.scheduler) as client:
            frame = sweep(
                scenario,
                grid,
                mode="list" if args.list else "grid",
                client=client,
                processes=args.processes,
                progress=not args.no_progress,
                outputs=args.outputs,
                tabular=args.tabular,
            )
    except (ValueError, SchedulerError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    ok = int(frame["converged"].sum())
    if args.output:
        _write_csv_atomic(frame, args.output)
        print(
            f"{len(frame)} cases, {ok} converged; table written to {args.output}", file=sys.stderr
        )
    else:
        frame.to_csv(sys.stdout, index=False)
        print(f"{len(frame)} cases, {ok} converged", file=sys.stderr)
    if args.note:  # the id on standard error; on standard output too unless the CSV is there
        note_id = store_sweep_note(args, frame, grid, "list" if args.list else "grid")
        if args.output:
            print(note_id)
    return EXIT_OK if ok == len(frame) else EXIT_FAILED
