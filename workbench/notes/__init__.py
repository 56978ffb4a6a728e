"""Engineering notes in PostgreSQL 16 + pgvector with hybrid keyword + semantic search.

Modules, in the order data flows:

- :mod:`~workbench.notes.db`: the embedded server, ``DATABASE_URL``, connections and pools
- :mod:`~workbench.notes.migrations`: SQL migrations and their runner
- :mod:`~workbench.notes.embeddings`: embedding providers (local MiniLM, OpenAI-compatible, Ollama)
- :mod:`~workbench.notes.models`: the typed records (``Note``, ``NoteInput``, ``ImportResult``)
- :mod:`~workbench.notes.store`: add, get, update, delete, list
- :mod:`~workbench.notes.bulk`: bulk import through COPY
- :mod:`~workbench.notes.importers`: reading JSONL, CSV and Markdown folders
- :mod:`~workbench.notes.search`: the one-statement hybrid search with RRF
- :mod:`~workbench.notes.maintenance`: reindex and validate
- :mod:`~workbench.notes.runs`: the run log (runs, sweeps, calibrations and seasonal ratings as
  notes, related notes)

Typical use::

    from workbench.notes import connect, migrate, add_note, search
    with connect() as conn:
        migrate(conn)
        add_note(conn, "alice", "Frost", "Evaporator frosts below -5 C suction.")
        hits = search(conn, "why does the evaporator ice up", owner="alice")
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from workbench.notes.db import (
    connect,
    create_pool,
    database_url,
    embedded_status,
    start_embedded,
    stop_embedded,
)
from workbench.notes.importers import read_notes_file
from workbench.notes.maintenance import ReindexResult, ValidationReport, reindex, validate
from workbench.notes.migrations import current_version, migrate, pending_migrations, rollback
from workbench.notes.search import SearchHit, SearchSettings, search
from workbench.notes.store import (
    ImportResult,
    Note,
    NoteInput,
    add_note,
    count_notes,
    delete_note,
    get_note,
    import_notes,
    list_notes,
    update_note,
)

__all__ = [
    "ImportResult",
    "Note",
    "NoteInput",
    "ReindexResult",
    "SearchHit",
    "SearchSettings",
    "StoredRun",
    "ValidationReport",
    "add_note",
    "connect",
    "count_notes",
    "create_pool",
    "current_version",
    "database_url",
    "delete_note",
    "embedded_status",
    "get_note",
    "get_run",
    "import_notes",
    "list_notes",
    "list_runs",
    "migrate",
    "pending_migrations",
    "read_notes_file",
    "reindex",
    "related",
    "related_query",
    "rollback",
    "run_scenario",
    "save_calibration",
    "save_rating",
    "save_run",
    "save_sweep",
    "search",
    "start_embedded",
    "stop_embedded",
    "update_note",
    "validate",
]

_RUN_LOG = frozenset(
    (
        *("StoredRun", "save_run", "save_sweep", "get_run", "run_scenario", "list_runs"),
        *("related", "related_query", "save_calibration", "save_rating"),
    )
)
"""Names of :mod:`workbench.notes.runs`, imported on first use: the run log reads scenarios
and results (the simulation half), which a search server or ``workbench notes search`` never
needs to load."""


def __getattr__(name: str) -> Any:
    if name in _RUN_LOG:
        return getattr(import_module("workbench.notes.runs"), name)
    raise AttributeError(f"module 'workbench.notes' has no attribute {name!r}")
