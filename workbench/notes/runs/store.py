"""Runs and sweeps stored as notes: save, read back, list (table ``"NoteRun"``).

A run note is a note of its owner (title and content written by :mod:`.describe` or
:mod:`.sweeps`, embedded and indexed like any note) plus one ``"NoteRun"`` row: the scenario
document exactly as solved (``scenario`` jsonb and ``"scenarioText"``, the text written back),
the result summary (``summary`` jsonb) and, for a sweep, the table as CSV. The note and its row
are written in one transaction; deleting the note deletes the row (ON DELETE CASCADE), and the
row's owner is the note's by a composite foreign key (migration ``20260701090000``).

Calling conventions: :func:`save_run` and :func:`save_sweep` take what they store first (the
result or the sweep table) and the database as ``conn=`` (None: a connection to
``DATABASE_URL`` or the embedded server for the call, whose schema must be current); the
readers :func:`get_run`, :func:`run_scenario` and :func:`list_runs` take the connection first,
like the rest of :mod:`workbench.notes`. ``owner`` scopes every call: another owner's note is
not found.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from workbench.errors import NoteStoreError, RunNotFoundError
from workbench.notes.embeddings import EmbeddingProvider, embedding_text, provider_from_env
from workbench.notes.models import Note
from workbench.notes.runs.describe import NoteText, run_note, run_summary
from workbench.notes.runs.documents import document_text, scenario_document
from workbench.notes.runs.sweeps import sweep_csv, sweep_note, sweep_summary
from workbench.notes.store import add_note, get_note

__all__ = [
    "RUN_KINDS",
    "StoredRun",
    "connection_for_call",
    "get_run",
    "list_runs",
    "run_scenario",
    "save_run",
    "save_sweep",
]

RUN_KINDS = ("run", "sweep", "calibration", "rating")
"""What a ``"NoteRun"`` row holds: one solved run, a sweep (its table as CSV), a calibration
(its residuals as CSV, :mod:`.calibrations`) or a seasonal rating (its test points as CSV,
:mod:`.ratings`)."""

_RUN_COLUMNS = sql.SQL('r.kind, r."scenarioText", r.summary, r.csv, r."createdAt"')
_NOTE_COLUMNS = sql.SQL(
    'n.id, n."ownerId", n."externalId", n.title, n.content,'
    " n.\"createdAt\" AT TIME ZONE current_setting('TimeZone'),"
    " n.\"updatedAt\" AT TIME ZONE current_setting('TimeZone')"
)
"""A note's columns as :mod:`workbench.notes.store` reads them (time-zone-aware timestamps)."""


@dataclass(frozen=True)
class StoredRun:
    """A run (or sweep) note read back.

    Attributes
    ----------
    note : Note
        The note (title and content as stored).
    kind : str
        One of :data:`RUN_KINDS`: ``"run"``, ``"sweep"``, ``"calibration"`` or ``"rating"``.
    scenario : dict
        The scenario document as it was solved (key order kept).
    summary : dict
        The result summary (:func:`~workbench.notes.runs.describe.run_summary`) or the sweep's
        (:func:`~workbench.notes.runs.sweeps.sweep_summary`).
    csv : str or None
        The table as CSV (a sweep's cases, a calibration's residuals, a rating's test points);
        None for a run.
    created_at : datetime
        When it was stored (time-zone aware).
    """

    note: Note
    kind: str
    scenario: dict[str, Any]
    summary: dict[str, Any]
    csv: str | None
    created_at: datetime

    @property
    def id(self) -> str:
        """The note id."""
        return self.note.id

    @property
    def title(self) -> str | None:
        """The note's title."""
        return self.note.title

    @property
    def content(self) -> str | None:
        """The note's content."""
        return self.note.content

    @property
    def owner(self) -> str:
        """The note's owner."""
        return self.note.owner

    def table(self) -> Any:
        """The kept table as a pandas DataFrame (None for a run)."""
        if self.csv is None:
            return None
        import pandas as pd

        return pd.read_csv(io.StringIO(self.csv))


class _Precomputed(EmbeddingProvider):
    """A provider that answers with a vector computed before the transaction opened."""

    def __init__(self, source: EmbeddingProvider, vector: np.ndarray) -> None:
        self.model_id, self.dimension = source.model_id, source.dimension
        self._vector = vector

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return np.tile(self._vector, (len(texts), 1))


@contextlib.contextmanager
def connection_for_call(conn: psycopg.Connection | None) -> Iterator[psycopg.Connection]:
    """The caller's connection, or one of ``DATABASE_URL`` / the embedded server for one call.

    A connection opened here must find the schema current (:class:`MigrationError` naming
    ``workbench notes migrate`` otherwise), as the command line requires.
    """
    if conn is not None:
        yield conn
        return
    from workbench.notes.db import connect
    from workbench.notes.migrations import require_current_schema

    with connect() as own:
        require_current_schema(own)
        yield own


def _store(
    conn: psycopg.Connection | None,
    *,
    owner: str,
    text: NoteText,
    kind: str,
    doc: dict[str, Any],
    summary: dict[str, Any],
    csv: str | None,
    provider: EmbeddingProvider | None,
    external_id: str | None,
    replace: bool,
) -> StoredRun:
    if not isinstance(owner, str) or not owner:
        raise NoteStoreError("a run note needs a non-empty owner")
    scenario_text = document_text(doc)
    summary_json = json.loads(json.dumps(summary, allow_nan=False, default=_jsonable))
    provider = provider or provider_from_env()
    vector = provider.embed_one(embedding_text(text.title, text.content))
    ready = _Precomputed(provider, vector)
    with connection_for_call(conn) as c, c.transaction():
        if replace and external_id is not None:
            c.execute(
                'DELETE FROM "Note" WHERE "ownerId" = %s AND "externalId" = %s',
                (owner, external_id),
            )
        note = add_note(c, owner, text.title, text.content, external_id=external_id, provider=ready)
        row = c.execute(
            'INSERT INTO "NoteRun" ("noteId", "ownerId", kind, scenario, "scenarioText", summary,'
            ' csv) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING "createdAt"',
            (note.id, owner, kind, Jsonb(doc), scenario_text, Jsonb(summary_json), csv),
        ).fetchone()
    return StoredRun(note, kind, json.loads(scenario_text), summary_json, csv, row[0])


def _jsonable(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, set | tuple):
        return list(value)
    return str(value)


def save_run(
    result: Any,
    scenario: Any = None,
    *,
    owner: str,
    conn: psycopg.Connection | None = None,
    provider: EmbeddingProvider | None = None,
    base: Any = None,
    base_label: str = "the document as opened",
    title: str | None = None,
    external_id: str | None = None,
    replace: bool = False,
) -> StoredRun:
    """Store a solved run as a note of ``owner``: readable text plus the exact scenario and summary.

    A run that did not converge is stored too (its title says so, its content gives the stop
    reason, the hint and the worst residuals).

    Parameters
    ----------
    result : SolveResult
        The solve's result.
    scenario : dict, str, path, ScenarioConfig or FlatScenario
        The scenario that was solved (a :class:`SolveResult` does not carry it). Stored exactly:
        templates, instances and ``$parameters`` as written.
    owner : str
        Whose note it is.
    conn : psycopg.Connection, optional
        Autocommit connection; None opens one to ``DATABASE_URL`` or the embedded server for
        this call (the schema must be current: ``workbench notes migrate``).
    provider : EmbeddingProvider, optional
        Embeds the note (default: the configured one, loaded for this call).
    base : dict, str or path, optional
        The document the run was made from (before edits or overrides): the note lists what
        changed.
    base_label : str
        How the note names ``base``.
    title : str, optional
        A title of your own instead of the generated one.
    external_id : str, optional
        Your id of the note, unique per owner.
    replace : bool
        With ``external_id``: replace the owner's note of that id (and its run) instead of
        refusing a second one; in the same transaction.

    Returns
    -------
    StoredRun
        The note (``.id``, ``.title``, ``.content``), the stored scenario and summary.

    Raises
    ------
    ScenarioError
        ``scenario`` is missing or invalid.
    NoteStoreError
        Empty owner, ``external_id`` already used (without ``replace``), a schema that is not
        current; nothing is written.
    EmbeddingError
        The provider failed; nothing is written.
    """
    if scenario is None:
        from workbench.errors import ScenarioError, ScenarioIssue

        raise ScenarioError(
            [
                ScenarioIssue(
                    "",
                    "save_run needs the scenario that was solved (a SolveResult does not carry "
                    "it): save_run(result, scenario, owner=...)",
                )
            ],
            source="run log",
        )
    doc = scenario_document(scenario)
    summary = run_summary(result, doc)
    base_doc = scenario_document(base) if base is not None else None
    text = run_note(doc, summary, base=base_doc, base_label=base_label)
    if title is not None:
        text = NoteText(title, text.content)
    return _store(
        conn,
        owner=owner,
        text=text,
        kind="run",
        doc=doc,
        summary=summary,
        csv=None,
        provider=provider,
        external_id=external_id,
        replace=replace,
    )


def save_sweep(
    frame: Any,
    scenario: Any,
    *,
    owner: str,
    grid: Mapping[str, Sequence[Any]] | None = None,
    mode: str | None = None,
    conn: psycopg.Connection | None = None,
    provider: EmbeddingProvider | None = None,
    title: str | None = None,
    external_id: str | None = None,
    replace: bool = False,
) -> StoredRun:
    """Store a sweep as one note of ``owner``: the table summarised in words, the CSV kept.

    Parameters
    ----------
    frame : pandas.DataFrame
        What :func:`workbench.sweep` returned (the swept columns, then ``converged`` and the
        results, then any ``outputs``).
    scenario : dict, str, path, ScenarioConfig or FlatScenario
        The base scenario of the sweep.
    grid : mapping, optional
        The paths and values that were swept (default: the frame's columns before
        ``converged``, each with its distinct values).
    mode : {"grid", "list"}, optional
        How the values were combined (default: ``grid`` when the rows are every combination).
    conn, provider, title, external_id, replace
        As for :func:`save_run`.

    Raises
    ------
    ScenarioError
        The scenario is invalid.
    NoteStoreError
        ``frame`` is not a sweep table; empty owner; ``external_id`` already used.
    """
    doc = scenario_document(scenario)
    summary = sweep_summary(frame, doc, grid=grid, mode=mode)
    text = sweep_note(doc, summary)
    if title is not None:
        text = NoteText(title, text.content)
    return _store(
        conn,
        owner=owner,
        text=text,
        kind="sweep",
        doc=doc,
        summary=summary,
        csv=sweep_csv(frame),
        provider=provider,
        external_id=external_id,
        replace=replace,
    )


def get_run(conn: psycopg.Connection, note_id: str, *, owner: str | None) -> StoredRun:
    """The run or sweep kept with a note.

    Raises
    ------
    NoteNotFoundError
        No such note of ``owner``.
    RunNotFoundError
        The note exists but holds no run (a plain note); a subclass of NoteNotFoundError.
    """
    note = get_note(conn, note_id, owner=owner)
    row = conn.execute(
        sql.SQL('SELECT {} FROM "NoteRun" r WHERE r."noteId" = %s').format(_RUN_COLUMNS),
        (note.id,),
    ).fetchone()
    if row is None:
        raise RunNotFoundError(
            f"note {note_id!r} holds no stored run: it is a plain note (runs are stored with "
            "'workbench solve --note', save_run or the builder's Store run button)"
        )
    return _stored(note, row)


def _stored(note: Note, row: Sequence[Any]) -> StoredRun:
    kind, scenario_text, summary, csv, created = row
    return StoredRun(note, kind, json.loads(scenario_text), dict(summary), csv, created)


def run_scenario(conn: psycopg.Connection, note_id: str, *, owner: str | None) -> dict[str, Any]:
    """The scenario document kept with a run or sweep note (a new dict, key order kept).

    Raises
    ------
    NoteNotFoundError, RunNotFoundError
        As :func:`get_run`.
    """
    return copy.deepcopy(get_run(conn, note_id, owner=owner).scenario)


def list_runs(
    conn: psycopg.Connection,
    *,
    owner: str | None,
    kind: str | None = None,
    limit: int = 50,
) -> list[StoredRun]:
    """The owner's run log, newest first (every kind, or one of :data:`RUN_KINDS`).

    Raises
    ------
    NoteStoreError
        Unknown ``kind`` or a ``limit`` below 1.
    """
    if kind is not None and kind not in RUN_KINDS:
        raise NoteStoreError(f"unknown run kind {kind!r}; use one of {', '.join(RUN_KINDS)}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise NoteStoreError(f"limit must be a positive integer, got {limit!r}")
    where = [sql.SQL("TRUE")]
    args: list[Any] = []
    if owner is not None:
        where.append(sql.SQL('r."ownerId" = %s'))
        args.append(owner)
    if kind is not None:
        where.append(sql.SQL("r.kind = %s"))
        args.append(kind)
    rows = conn.execute(
        sql.SQL(
            'SELECT {}, {} FROM "NoteRun" r JOIN "Note" n ON n.id = r."noteId"'
            ' WHERE {} ORDER BY r."createdAt" DESC, r."noteId" LIMIT %s'
        ).format(_NOTE_COLUMNS, _RUN_COLUMNS, sql.SQL(" AND ").join(where)),
        (*args, limit),
    ).fetchall()
    return [_stored(Note(*row[:7]), row[7:]) for row in rows]
