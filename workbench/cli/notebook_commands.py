"""``workbench run-notebook``.

``run-notebook`` imports papermill when it runs, so this module loads without the notebooks
extra (``workbench sweep`` is :mod:`workbench.cli.sweep_commands`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK
from workbench.progress import interactive

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``run-notebook`` to the ``workbench`` parser."""
    p = subparsers.add_parser(
        "run-notebook",
        help="execute a notebook with papermill (parameterised batch run)",
        description="Execute notebooks/NAME.ipynb (or a path) with papermill. Exit 0 on "
        "success, 1 when a cell failed (the executed notebook shows the traceback), 2 bad "
        "input.",
    )
    p.add_argument("name", help="notebook name (02_parameter_sweep, 02) or path")
    p.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("KEY", "VALUE"),
        help="notebook parameter; VALUE is parsed as JSON when it can be, else a string",
    )
    p.add_argument("-o", "--output", type=Path, help="executed notebook (default DIR/NAME.ipynb)")
    p.add_argument(
        "--output-dir",
        type=Path,
        default=Path("output") / "notebooks",
        metavar="DIR",
        help="folder for executed notebooks and artefacts (default output/notebooks)",
    )
    p.add_argument("--kernel", help="Jupyter kernel name (default: one running this Python)")
    p.set_defaults(func=run_notebook_command)


def run_notebook_command(args: argparse.Namespace) -> int:
    try:
        import papermill
    except ModuleNotFoundError:
        print(
            "error: run-notebook needs papermill: pip install 'thermal-workbench[notebooks]'",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    from workbench.notebook_ui.run import parse_parameter, run_notebook

    params = {key: parse_parameter(value) for key, value in args.parameter}
    try:
        target = run_notebook(
            args.name,
            params,
            output=args.output,
            output_dir=args.output_dir,
            kernel_name=args.kernel,
            progress=interactive(),
        )
    except papermill.PapermillExecutionError as exc:
        print(
            f"error: notebook {args.name} failed in cell {exc.exec_count}: {exc.ename}: "
            f"{exc.evalue}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    print(f"executed notebook written to {target}", file=sys.stderr)
    return EXIT_OK
