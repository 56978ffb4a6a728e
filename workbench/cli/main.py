"""Entry point of the ``workbench`` command: wires the command modules together.

Each module in ``COMMAND_MODULES`` exposes ``register(subparsers)``, which adds its
sub-commands and sets ``func`` (a callable taking the parsed namespace and returning an exit
code) on each. A module whose optional extra is not installed (a third-party package it
imports is missing) is skipped with a hint in ``workbench --help`` instead of breaking every
other command; any other import error, a missing ``workbench`` module included, is a bug and
is raised.

Exit codes: 0 success, 1 a result that is not a success (for example a solve that did not
converge), 2 bad input (invalid scenario, unknown name, bad arguments).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import warnings
from collections.abc import Sequence

from workbench.errors import ScenarioError, WorkbenchError

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_OK", "build_parser", "main"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2

COMMAND_MODULES: tuple[tuple[str, str], ...] = (
    # (module, extra that provides its dependencies)
    ("workbench.cli.scenario_commands", "core"),
    ("workbench.cli.solve_commands", "core"),
    ("workbench.cli.sweep_commands", "core"),
    ("workbench.cli.calibrate_commands", "core"),
    ("workbench.cli.seasonal_commands", "core"),
    ("workbench.cli.lines_commands", "core"),
    ("workbench.cli.notes_commands", "notes"),
    ("workbench.cli.serve_commands", "serve"),
    ("workbench.cli.notebook_commands", "notebooks"),
)


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every command whose module imports."""
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="Thermal Workbench: refrigeration and heat-pump cycles, and engineering note search.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    missing: list[str] = []
    for module_name, extra in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if not exc.name or exc.name.split(".")[0] == "workbench":
                raise  # our own code is broken: not a missing extra
            missing.append(
                f"{module_name.rsplit('.', 1)[-1]} (pip install 'thermal-workbench[{extra}]': {exc.name} missing)"
            )
            continue
        module.register(subparsers)
    if missing:
        parser.epilog = "unavailable commands: " + "; ".join(missing)
    return parser


def quiet_environment_warnings() -> None:
    """Hide warnings about the environment that no workbench command depends on.

    platformdirs warns "XDG_RUNTIME_DIR is not set" (with a source line) whenever a library
    asks for the per-user runtime folder in a container or on CI, where there is none; the
    workbench keeps nothing there. The command line is the application, so it sets the
    filter; the library never touches warning filters.
    """
    warnings.filterwarnings("ignore", message=r"XDG_RUNTIME_DIR")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``workbench`` command and return its exit code."""
    quiet_environment_warnings()
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args) or 0)
    except ScenarioError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except WorkbenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
