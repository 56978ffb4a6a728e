"""A seasonal rating in the run log: a searchable note with the figures, the scenario kept.

The note is written and stored by the run log (:mod:`workbench.notes.runs.ratings`): one note
of its owner whose title and content give the figures in words (SCOP or SEER, ηs (eta_s), the
climate and application, the test points and the one that limits the figure most, or why the
rating is incomplete), the exact scenario document, the rating as structured data
(``"NoteRun".summary``: ``kind`` ``rating``, ``purpose`` ``seasonal rating`` and
:meth:`SeasonalRating.to_dict`), and the test points table as CSV (``workbench notes table``).
Its run kind is ``rating`` (``workbench notes runs --kind rating``). This module keeps the
seasonal package's names for it.
"""

from __future__ import annotations

from typing import Any

from workbench.seasonal.rating import SeasonalRating

__all__ = ["rating_note", "save_rating"]


def rating_note(rating: SeasonalRating, doc: Any = None) -> tuple[str, str]:
    """Title and content of a rating's note (plain words, figures with units).

    Parameters
    ----------
    rating : SeasonalRating
        The rating.
    doc : dict, optional
        The rated scenario document (its fluid is named in the note).

    Returns
    -------
    (str, str)
        Title and content (:func:`workbench.notes.runs.ratings.rating_note`).
    """
    from workbench.notes.runs.ratings import rating_note as note

    text = note(rating, doc)
    return text.title, text.content


def save_rating(
    rating: SeasonalRating,
    scenario: Any,
    *,
    owner: str,
    conn: Any = None,
    provider: Any = None,
    title: str | None = None,
    external_id: str | None = None,
    replace: bool = False,
) -> Any:
    """Store a rating as a note of ``owner``, run kind ``rating`` (see the module docstring).

    Parameters
    ----------
    rating : SeasonalRating
        The rating.
    scenario : dict, str, path or ScenarioConfig
        The rated scenario (kept with the note).
    owner : str
        Owner of the note.
    conn : psycopg.Connection, optional
        Connection (default: ``DATABASE_URL`` or the embedded server).
    provider : EmbeddingProvider, optional
        Embedding provider (default: from the environment).
    title, external_id, replace
        As for :func:`workbench.notes.runs.store.save_run`.

    Returns
    -------
    StoredRun
        The note (``.id``, ``.title``, ``.kind`` ``"rating"``), its scenario, summary and table.

    Raises
    ------
    NoteStoreError
        Empty owner, ``external_id`` already used, or a database failure.
    """
    from workbench.notes.runs.ratings import save_rating as save

    return save(
        rating,
        scenario,
        owner=owner,
        conn=conn,
        provider=provider,
        title=title,
        external_id=external_id,
        replace=replace,
    )
