"""The run log: runs, sweeps, calibrations and ratings kept as searchable notes.

Where the two halves of the workbench meet. A run note is an ordinary note of its owner (found by
keyword and semantic search like any other) whose title and content are written from the result
(:mod:`.describe`, :mod:`.sweeps`, :mod:`.calibrations`, :mod:`.ratings`, in words from
:mod:`.words`), plus the exact scenario document and the result summary kept as structured data
(table ``"NoteRun"`` of one of the kinds :data:`RUN_KINDS`, :mod:`.store`), so a run can be
reopened and solved again. :mod:`.related` searches the notes that match the scenario and
result at hand.

::

    from workbench.notes import save_run, related, get_run
    run = save_run(result, scenario, owner="alice", conn=conn)      # -> StoredRun (.id, .title)
    hits = related(result, scenario=scenario, owner="alice", conn=conn)
    doc = get_run(conn, run.id, owner="alice").scenario             # solve(doc) gives the figures
"""

from __future__ import annotations

from workbench.notes.runs.calibrations import (
    calibration_note,
    calibration_summary,
    save_calibration,
)
from workbench.notes.runs.describe import NoteText, run_note, run_summary, run_title
from workbench.notes.runs.documents import document_changes, document_text, scenario_document
from workbench.notes.runs.ratings import rating_note, rating_summary, save_rating
from workbench.notes.runs.related import related, related_query
from workbench.notes.runs.store import (
    RUN_KINDS,
    StoredRun,
    get_run,
    list_runs,
    run_scenario,
    save_run,
    save_sweep,
)
from workbench.notes.runs.sweeps import sweep_csv, sweep_note, sweep_summary

__all__ = [
    "RUN_KINDS",
    "NoteText",
    "StoredRun",
    "calibration_note",
    "calibration_summary",
    "document_changes",
    "document_text",
    "get_run",
    "list_runs",
    "rating_note",
    "rating_summary",
    "related",
    "related_query",
    "run_note",
    "run_scenario",
    "run_summary",
    "run_title",
    "save_calibration",
    "save_rating",
    "save_run",
    "save_sweep",
    "scenario_document",
    "sweep_csv",
    "sweep_note",
    "sweep_summary",
]
