"""``--note --owner OWNER`` of ``workbench solve`` and ``workbench sweep``: store the run as a note.

The flags and the storing live here so that the solve and sweep commands each gain two short
calls (:func:`add_note_arguments`, then :func:`store_run_note` or :func:`store_sweep_note`).
The note database is imported only when ``--note`` is given: both commands work on the core
install without it.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.errors import NoteStoreError

__all__ = [
    "add_note_arguments",
    "note_arguments_problem",
    "store_run_note",
    "store_sweep_note",
    "write_text_atomic",
]


def add_note_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--note`` and ``--owner`` to a command that solves ``what`` (``the run``, ...)."""
    parser.add_argument(
        "--note",
        action="store_true",
        help=f"store {what} as a note of --owner in the note database (DATABASE_URL or the "
        "embedded server; see 'workbench notes migrate') and print the note id",
    )
    parser.add_argument("--owner", metavar="OWNER", help="owner of the note (with --note)")


def note_arguments_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--note`` / ``--owner`` (None when nothing): checked before solving."""
    if args.note and not (args.owner or "").strip():
        return "--note needs --owner OWNER (whose note the run becomes)"
    if args.owner is not None and not args.note:
        return "--owner is only used with --note"
    if args.note:
        try:
            import psycopg  # noqa: F401
        except ModuleNotFoundError:
            return "--note needs the note database: pip install 'thermal-workbench[notes]'"
    return None


def _document(path: Path) -> dict[str, Any]:
    from workbench.scenario import read_json

    doc, _label = read_json(path)
    if not isinstance(doc, dict):
        raise NoteStoreError(f"{path}: a scenario document is a JSON object")
    return doc


def store_run_note(
    args: argparse.Namespace, result: Any, overrides: Mapping[str, Any] | None = None
) -> str:
    """Store a solve of ``args.file`` as a note of ``args.owner``; return the note id.

    Parameters
    ----------
    args : argparse.Namespace
        ``file`` and ``owner``.
    result : SolveResult
        The result.
    overrides : mapping, optional
        Solver settings the command line changed (``{"strategy": "newton"}``): the stored
        document is the file with them applied, and the note lists them as changes from the file.
    """
    from workbench.notes.runs import save_run

    base = _document(args.file)
    doc = copy.deepcopy(base)
    if overrides:
        doc.setdefault("solver", {}).update(overrides)
    run = save_run(
        result,
        doc,
        owner=args.owner,
        base=base if overrides else None,
        base_label=f"{args.file.name} (command line overrides)",
    )
    print(f"stored as note {run.id} of {args.owner}: {run.title}", file=sys.stderr)
    return run.id


def store_sweep_note(
    args: argparse.Namespace, frame: Any, grid: Mapping[str, Sequence[Any]], mode: str
) -> str:
    """Store a sweep of ``args.file`` as one note of ``args.owner``; return the note id."""
    from workbench.notes.runs import save_sweep

    run = save_sweep(frame, _document(args.file), owner=args.owner, grid=grid, mode=mode)
    print(f"stored as note {run.id} of {args.owner}: {run.title}", file=sys.stderr)
    return run.id


def write_text_atomic(path: Path, text: str) -> None:
    """Write a file through a temporary file renamed over it (no half-written file is left)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, (path.stat().st_mode & 0o777) if path.exists() else 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
