"""``workbench notes ...``: the note database, migrations, import, search and maintenance.

The run log (:mod:`workbench.notes.runs`): ``runs`` lists an owner's stored runs and sweeps,
``scenario NOTE_ID -o FILE`` writes the scenario kept with one, ``table NOTE_ID -o CSV`` a
sweep's table.

Exit codes: 0 success, 1 ``validate`` found bad rows, 2 bad input (unknown file, bad record,
refused migration, unknown note, a note that holds no run; raised as
:class:`~workbench.errors.WorkbenchError`).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import sys
from dataclasses import asdict
from pathlib import Path

__all__ = ["register"]

EXIT_OK, EXIT_FAILED = 0, 1


def _connect():
    from workbench.notes.db import connect

    return connect()


def _migrated():
    from workbench.notes.migrations import require_current_schema

    conn = _connect()
    try:
        require_current_schema(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _print_json(obj: object) -> None:
    print(json.dumps(obj, indent=2, default=str))


def _db(args: argparse.Namespace) -> int:
    from workbench.notes import db

    if args.action == "start":
        print(db.start_embedded())
    elif args.action == "stop":
        print("stopped" if db.stop_embedded() else "not running")
    elif args.action == "status":
        if os.environ.get(db.ENV_DATABASE_URL):
            print("DATABASE_URL is set; the embedded server is not used")
        st = db.embedded_status()
        state = "running" if st.running else ("stopped" if st.initialised else "not initialised")
        print(f"embedded PostgreSQL {db.POSTGRES_VERSION}: {state}")
        print(f"data: {st.data_dir}")
        if st.running:
            print(f"pid: {st.pid}\nurl: {st.url}")
        return EXIT_OK if st.running else EXIT_FAILED
    else:  # url
        print(db.database_url(start=False))
    return EXIT_OK


def _migrate(args: argparse.Namespace) -> int:
    from workbench.notes.migrations import applied_migrations, migrate, pending_migrations, rollback

    with _connect() as conn:
        if args.status:
            for m in applied_migrations(conn):
                print(f"applied  {m.id}_{m.name}  {m.applied_at:%Y-%m-%d %H:%M:%S}")
            for m in pending_migrations(conn):
                print(f"pending  {m.id}_{m.name}")
            return EXIT_OK
        if args.down:
            done = rollback(conn)
            print("\n".join(f"undone {i}" for i in done) or "nothing to undo")
        else:
            done = migrate(conn, to=args.to)
            print("\n".join(f"migrated {i}" for i in done) or "already up to date")
    return EXIT_OK


def _import(args: argparse.Namespace) -> int:
    from workbench.notes.importers import read_notes_file
    from workbench.notes.store import import_notes

    records = read_notes_file(Path(args.file))
    with _migrated() as conn:
        result = import_notes(
            conn, args.owner, records, progress=not args.quiet, rebuild_index=args.rebuild_index
        )
    print(
        f"{result.total} notes: {result.inserted} new, {result.updated} updated, "
        f"{result.unchanged} unchanged; {result.embedded} embedded"
    )
    return EXIT_OK


def _add(args: argparse.Namespace) -> int:
    from workbench.notes.store import add_note

    content = Path(args.file).read_text(encoding="utf-8") if args.file else args.content
    with _migrated() as conn:
        note = add_note(conn, args.owner, args.title, content, external_id=args.external_id)
    print(note.id)
    return EXIT_OK


def _update(args: argparse.Namespace) -> int:
    from workbench.notes.store import update_note

    changes: dict[str, str] = {}
    if args.title is not None:
        changes["title"] = args.title
    if args.file:
        changes["content"] = Path(args.file).read_text(encoding="utf-8")
    elif args.content is not None:
        changes["content"] = args.content
    with _migrated() as conn:
        note = update_note(conn, args.id, owner=args.owner, **changes)
    print(f"updated {note.id}")
    return EXIT_OK


def _show(args: argparse.Namespace) -> int:
    from workbench.notes.store import get_note

    with _migrated() as conn:
        note = get_note(conn, args.id, owner=args.owner)
    _print_json(asdict(note))
    return EXIT_OK


def _delete(args: argparse.Namespace) -> int:
    from workbench.notes.store import delete_note

    with _migrated() as conn:
        delete_note(conn, args.id, owner=args.owner)
    print(f"deleted {args.id}")
    return EXIT_OK


def _search(args: argparse.Namespace) -> int:
    from workbench.notes.search import SearchSettings, search

    settings = SearchSettings()
    if args.rrf_k is not None:
        settings = settings.with_(rrf_k=args.rrf_k)
    with _migrated() as conn:
        hits = search(
            conn, args.query, owner=args.owner, limit=args.limit, mode=args.mode, settings=settings
        )
    if args.json:
        _print_json([asdict(h) for h in hits])
        return EXIT_OK
    for i, hit in enumerate(hits, start=1):
        # hits are HTML-safe (escaped, <b> around matches); a terminal shows the plain text
        title = html.unescape(hit.title) if hit.title else "(untitled)"
        snippet = html.unescape(hit.snippet.replace("<b>", "").replace("</b>", ""))
        ranks = f"kw={hit.keyword_rank or '-'} sem={hit.semantic_rank or '-'}"
        print(f"{i:>3}. {hit.score:.5f} [{ranks}] {title}  ({hit.external_id or hit.id})")
        print(f"     {' '.join(snippet.split())[:160]}")
    if not hits:
        print("no notes found")
    return EXIT_OK


def _reindex(args: argparse.Namespace) -> int:
    from workbench.notes.maintenance import reindex

    with _migrated() as conn:
        result = reindex(
            conn,
            owner=args.owner,
            batch_size=args.batch_size,
            force=args.force,
            progress=not args.quiet,
        )
    print(
        f"{result.total} notes: {result.embedded} embedded in {result.batches} batches, "
        f"{result.skipped} current"
    )
    return EXIT_OK


def _validate(args: argparse.Namespace) -> int:
    from workbench.notes.maintenance import validate

    with _migrated() as conn:
        report = validate(conn)
    if args.json:
        _print_json({**asdict(report), "ok": report.ok})
    else:
        print(
            f"model {report.model}: {report.total_notes} notes, {report.total_embeddings} embeddings"
        )
        for name, count in report.counts.items():
            ids = ", ".join(report.ids[name][:10])
            more = " ..." if count > 10 else ""
            print(f"  {name:<26} {count:>6}" + (f"  {ids}{more}" if count else ""))
        print("ok" if report.ok else "problems found: run 'workbench notes reindex'")
    return EXIT_OK if report.ok else EXIT_FAILED


def _write_or_print(text: str, output: Path | None, what: str) -> None:
    from workbench.cli.run_notes import write_text_atomic

    if output is None:
        print(text, end="")
        return
    write_text_atomic(output, text)
    print(f"{what} written to {output}", file=sys.stderr)


def _scenario(args: argparse.Namespace) -> int:
    from workbench.notes.runs import document_text, get_run

    with _migrated() as conn:
        run = get_run(conn, args.id, owner=args.owner)
    _write_or_print(document_text(run.scenario), args.output, f"scenario of note {run.id}")
    return EXIT_OK


def _table(args: argparse.Namespace) -> int:
    from workbench.errors import RunNotFoundError
    from workbench.notes.runs import get_run

    with _migrated() as conn:
        run = get_run(conn, args.id, owner=args.owner)
    if run.csv is None:
        raise RunNotFoundError(
            f"note {args.id!r} holds a single run, not a sweep, calibration or rating: it has no "
            "table ('workbench notes scenario' writes its scenario)"
        )
    _write_or_print(run.csv, args.output, f"{run.kind} table of note {run.id}")
    return EXIT_OK


def _runs(args: argparse.Namespace) -> int:
    from workbench.notes.runs import list_runs

    with _migrated() as conn:
        runs = list_runs(conn, owner=args.owner, kind=args.kind, limit=args.limit)
    if args.json:
        _print_json(
            [
                {
                    "id": r.id,
                    "owner": r.owner,
                    "kind": r.kind,
                    "title": r.title,
                    "created_at": r.created_at,
                    "summary": r.summary,
                }
                for r in runs
            ]
        )
        return EXIT_OK
    for r in runs:
        print(f"{r.created_at:%Y-%m-%d %H:%M}  {r.kind:<11}  {r.id}  {r.title}")
    if not runs:
        print("no stored runs")
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``notes`` command group."""
    notes = subparsers.add_parser(
        "notes",
        help="engineering notes: database, import, hybrid search, maintenance",
        description="Notes in PostgreSQL 16 + pgvector (DATABASE_URL, or an embedded server).",
    )
    sub = notes.add_subparsers(dest="notes_command", metavar="ACTION", required=True)

    p = sub.add_parser(
        "db", help="the embedded PostgreSQL server (ignored when DATABASE_URL is set)"
    )
    p.add_argument("action", choices=["start", "stop", "status", "url"])
    p.set_defaults(func=_db)

    p = sub.add_parser("migrate", help="apply schema migrations (default: all pending)")
    p.add_argument("--to", metavar="ID", help="migrate up or down to this migration id")
    p.add_argument("--down", action="store_true", help="undo the latest migration")
    p.add_argument("--status", action="store_true", help="list applied and pending migrations")
    p.set_defaults(func=_migrate)

    p = sub.add_parser("import", help="import notes from .jsonl (BEIR), .csv or a folder of .md")
    p.add_argument("file")
    p.add_argument("--owner", required=True)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--rebuild-index",
        action="store_true",
        help="large initial load: rebuild the HNSW index once instead of inserting into it "
        "(locks the table until the import ends)",
    )
    p.set_defaults(func=_import)

    p = sub.add_parser("add", help="add one note")
    p.add_argument("--owner", required=True)
    p.add_argument("--title", required=True)
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--content")
    group.add_argument("--file", help="read the content from this file")
    p.add_argument("--external-id")
    p.set_defaults(func=_add)

    p = sub.add_parser("update", help="change a note's title and/or content (re-embeds it)")
    p.add_argument("id")
    p.add_argument("--owner")
    p.add_argument("--title")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--content")
    group.add_argument("--file", help="read the new content from this file")
    p.set_defaults(func=_update)

    p = sub.add_parser("show", help="print one note as JSON")
    p.add_argument("id")
    p.add_argument("--owner")
    p.set_defaults(func=_show)

    p = sub.add_parser("delete", help="delete one note")
    p.add_argument("id")
    p.add_argument("--owner")
    p.set_defaults(func=_delete)

    p = sub.add_parser("search", help="hybrid keyword + semantic search")
    p.add_argument("query")
    p.add_argument("--owner", help="only this owner's notes (default: all)")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--mode", choices=["hybrid", "keyword", "semantic"], default="hybrid")
    p.add_argument("--rrf-k", type=float, help="RRF constant (default: SearchSettings.rrf_k)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_search)

    p = sub.add_parser(
        "reindex",
        help="regenerate embeddings that are missing or stale (one at a time per database, "
        "API jobs included)",
    )
    p.add_argument("--force", action="store_true", help="re-embed every note")
    p.add_argument("--owner")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_reindex)

    p = sub.add_parser(
        "scenario",
        help="write the scenario document kept with a run or sweep note",
        description="Write the scenario kept with a run or sweep note (exit 2 when the note is "
        "not found or holds no run).",
    )
    p.add_argument("id", metavar="NOTE_ID")
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: standard output")
    p.add_argument("--owner", help="only this owner's notes (another owner's note is not found)")
    p.set_defaults(func=_scenario)

    p = sub.add_parser(
        "table",
        help="write the table (CSV) kept with a sweep, calibration or seasonal rating note",
    )
    p.add_argument("id", metavar="NOTE_ID")
    p.add_argument("-o", "--output", type=Path, metavar="CSV", help="default: standard output")
    p.add_argument("--owner", help="only this owner's notes")
    p.set_defaults(func=_table)

    p = sub.add_parser(
        "runs", help="list stored runs, sweeps, calibrations and seasonal ratings, newest first"
    )
    p.add_argument("--owner", help="only this owner's runs (default: all)")
    p.add_argument("--kind", choices=["run", "sweep", "calibration", "rating"])
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_runs)

    p = sub.add_parser("validate", help="check every embedding (exit 1 when bad rows are found)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_validate)
