"""``workbench size-line``: the smallest standard copper tube for the line of one edge.

``workbench size-line FILE EDGE [--max-drop 1.0] [--series astm_b280_drawn] [--json]`` runs
:func:`workbench.lines.size` (docs/lines.md): ``EDGE`` is the edge's label
(``"evaporator:outlet -> compressor:inlet"``), its JSON path (``circuits[0].edges[3]``) or the
line's name. Prints the proposal, the charge it costs and the table of the sizes tried, or one
JSON object with ``--json``.

Exit codes: 0 a size meets the drop and the oil return, 1 none meets both (or none meets the
drop), 2 bad input (invalid scenario, unknown edge or series).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``size-line`` to the ``workbench`` parser."""
    p = subparsers.add_parser(
        "size-line",
        help="smallest standard copper tube for an edge's line (saturation drop, oil return)",
        description="Re-solve the scenario with standard tubes on the line of EDGE; exit 0 a "
        "size meets both limits, 1 none does, 2 bad input.",
    )
    p.add_argument("file", type=Path, help="scenario JSON file")
    p.add_argument("edge", help="edge label 'a:outlet -> b:inlet', JSON path or line name")
    p.add_argument(
        "--max-drop", type=float, default=1.0, metavar="K", help="saturation drop limit [K]"
    )
    p.add_argument("--series", default="astm_b280_drawn", help="tube series (docs/lines.md)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run_size_line)


def run_size_line(args: argparse.Namespace) -> int:
    """Size the line and print the report; the exit code says whether a size complies."""
    import sys

    from workbench.lines import size

    try:
        report = size(args.file, args.edge, args.max_drop, series=args.series)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, default=str))
    else:
        print(report.message)
        print(report.table.to_string(index=False))
    return EXIT_OK if report.complies else EXIT_FAILED
