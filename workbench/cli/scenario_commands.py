"""``workbench validate``, ``workbench flatten`` and ``workbench schema``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from workbench.errors import ScenarioError
from workbench.scenario import flatten, load_scenario, scenario_json_schema

__all__ = ["register"]

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def register(subparsers: Any) -> None:
    """Add the scenario commands to the ``workbench`` parser."""
    p = subparsers.add_parser(
        "validate",
        help="validate scenario files (one summary line each, or every error)",
        description="Validate scenario files. Prints one summary line per valid file; prints "
        "every error of every invalid file on stderr and exits 2 if any file is invalid.",
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE", help="scenario JSON file")
    p.set_defaults(func=_validate)

    p = subparsers.add_parser(
        "flatten",
        help="print the flat scenario (templates expanded) as JSON",
        description="Expand subsystem templates and print the flat scenario document as JSON.",
    )
    p.add_argument("file", type=Path, metavar="FILE", help="scenario JSON file")
    p.add_argument(
        "-o", "--output", type=Path, metavar="OUT", help="write to OUT instead of stdout"
    )
    p.set_defaults(func=_flatten)

    p = subparsers.add_parser(
        "schema",
        help="print the JSON Schema of a scenario (for editors)",
        description="Print the JSON Schema (draft 2020-12) of a scenario document.",
    )
    p.add_argument(
        "-o", "--output", type=Path, metavar="OUT", help="write to OUT instead of stdout"
    )
    p.set_defaults(func=_schema)


def _validate(args: argparse.Namespace) -> int:
    failed = 0
    for path in args.files:
        try:
            scenario = load_scenario(path)
            flat = flatten(scenario)
        except ScenarioError as exc:
            failed += 1
            print(str(exc), file=sys.stderr)
            continue
        name = json.dumps(flat.name) if flat.name else "(unnamed)"
        print(
            f"{path}: ok: {name}, schema version {flat.schema_version}, "
            f"{len(flat.circuits)} circuit{'s' if len(flat.circuits) != 1 else ''}, "
            f"{len(flat.components)} components after flattening"
        )
    if failed and len(args.files) > 1:
        print(f"{failed} of {len(args.files)} files invalid", file=sys.stderr)
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _flatten(args: argparse.Namespace) -> int:
    flat = flatten(load_scenario(args.file))
    _emit(flat.to_dict(), args.output)
    return EXIT_OK


def _schema(args: argparse.Namespace) -> int:
    _emit(scenario_json_schema(), args.output)
    return EXIT_OK


def _emit(document: dict[str, Any], output: Path | None) -> None:
    """Print ``document`` as JSON, or write it to ``output`` atomically (never half-written)."""
    text = json.dumps(document, indent=2) + "\n"
    if output is None:
        sys.stdout.write(text)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, output)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
