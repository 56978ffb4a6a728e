"""Typed records of the note store (returned by and passed to :mod:`workbench.notes.store`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["ImportResult", "Note", "NoteInput"]


@dataclass(frozen=True)
class Note:
    """A stored note (``created_at`` and ``updated_at`` are time-zone aware)."""

    id: str
    owner: str
    external_id: str | None
    title: str | None
    content: str | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class NoteInput:
    """One note to import; ``source`` (file and line) is named in error messages."""

    title: str | None
    content: str | None
    external_id: str | None = None
    source: str = ""


@dataclass(frozen=True)
class ImportResult:
    """Counts of one import.

    Attributes
    ----------
    total : int
        Records read.
    inserted, updated, unchanged : int
        New notes, notes whose title or content changed, notes left as they were.
    embedded : int
        Embeddings computed (new, changed, or made by another model).
    """

    total: int
    inserted: int
    updated: int
    unchanged: int
    embedded: int
