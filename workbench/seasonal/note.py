"""A seasonal rating in the run log: a searchable note with the figures, the scenario kept.

The rating is stored the way a sweep is (:mod:`workbench.notes.runs.store`): one note of its owner
whose title and content give the figures in words (SCOP, eta_s, the climate and application, the
test points and the one with the lowest COP, or why the rating is incomplete), the exact scenario
document, the rating as structured data (``"NoteRun".summary``: ``purpose`` ``seasonal rating``
and :meth:`SeasonalRating.to_dict`), and the test points table as CSV (``workbench notes table``).
Its run kind is ``sweep``: the test points are a set of solved cases of one scenario.
"""

from __future__ import annotations

import io
from typing import Any

from workbench.seasonal.rating import SeasonalRating

__all__ = ["rating_note", "save_rating"]


def _num(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}"


def rating_note(rating: SeasonalRating) -> tuple[str, str]:
    """Title and content of a rating's note (plain words, figures with units).

    Parameters
    ----------
    rating : SeasonalRating
        The rating.

    Returns
    -------
    (str, str)
        Title and content.
    """
    s = rating.settings
    where = (
        f"EN 14825:2018, {s.climate} climate, {s.application} temperature application "
        f"({'variable' if s.outlet == 'variable' else 'fixed'} outlet), design load "
        f"{s.design_load_kw:g} kW, bivalent point {s.bivalent_c} °C"
    )
    if rating.complete and s.mode == "cooling":
        assert rating.seer is not None
        title = f"Seasonal cooling rating {rating.name}: SEER {_num(rating.seer)} ({s.application})"
        head = (
            f"Seasonal cooling rating of {rating.name}: EN 14825:2018, {s.application} "
            f"application, design load {s.design_load_kw:g} kW. SEER {_num(rating.seer)}, SEERon "
            f"{_num(rating.seer_on or 0)}. SEER is limited most by test point "
            f"{rating.limiting_point}."
        )
    elif rating.complete:
        assert rating.scop is not None
        assert rating.eta_s is not None
        title = (
            f"Seasonal rating {rating.name}: SCOP {_num(rating.scop)}, ηs {rating.eta_s:.0f} % "
            f"({s.climate} climate, {s.application} temperature)"
        )
        head = (
            f"Seasonal rating of {rating.name}: {where}. SCOP {_num(rating.scop)}, SCOPon "
            f"{_num(rating.scop_on or 0)}, SCOPnet {_num(rating.scop_net or 0)}, seasonal space "
            f"heating efficiency ηs {rating.eta_s:.0f} %. SCOP is limited most by test point "
            f"{rating.limiting_point} (a 10 % better COP there raises SCOP most); the lowest COP "
            f"is at test point {rating.lowest_cop_point}."
        )
    else:
        failed = rating.test_points[~rating.test_points["converged"]]
        title = f"Seasonal rating {rating.name}: incomplete ({len(failed)} test points failed)"
        reasons = "; ".join(f"{r['name']}: {r['hint']}" for _, r in failed.iterrows())
        head = (
            f"Seasonal rating of {rating.name}: {where}. The rating is incomplete, no seasonal "
            f"figures: test points that did not converge: {reasons}."
        )
    lines = [head, "", "Test points:"]
    for _, r in rating.test_points.iterrows():
        if not r["converged"]:
            lines.append(f"- {r['name']} at {r['t_c']:g} °C: did not converge ({r['hint']})")
            continue
        limit = {"max": ", at full speed", "min": ", at minimum speed (cycling)"}.get(
            r["limit"] if isinstance(r["limit"], str) else "", ""
        )
        lines.append(
            f"- {r['name']} at {r['t_c']:g} °C outdoor, water {r['supply_c']:g} °C: part load "
            f"{r['part_load']:.0%}, capacity {r['capacity_kw']:.2f} kW, COP {r['cop']:.2f}, "
            f"speed {r['speed_hz']:.1f} Hz{limit}"
        )
    return title, "\n".join(lines)


def save_rating(
    rating: SeasonalRating,
    scenario: Any,
    *,
    owner: str,
    conn: Any = None,
    provider: Any = None,
) -> Any:
    """Store a rating as a note of ``owner`` (see the module docstring).

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

    Returns
    -------
    StoredRun
        The note (``.id``, ``.title``), its scenario, summary and table.

    Raises
    ------
    NoteStoreError
        Empty owner or a database failure.
    """
    from workbench.notes.runs.describe import NoteText
    from workbench.notes.runs.documents import scenario_document
    from workbench.notes.runs.store import _store

    title, content = rating_note(rating)
    summary = {"purpose": "seasonal rating", **rating.to_dict()}
    buffer = io.StringIO()
    rating.test_points.to_csv(buffer, index=False)
    return _store(
        conn,
        owner=owner,
        text=NoteText(title, content),
        kind="sweep",
        doc=scenario_document(scenario),
        summary=summary,
        csv=buffer.getvalue(),
        provider=provider,
        external_id=None,
        replace=False,
    )
