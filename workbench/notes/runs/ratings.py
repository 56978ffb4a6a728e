"""A seasonal rating as one note: the figures in words, the scenario and the test points kept.

Who reads it: an engineer searching the run log later ("what SCOP did the R290 unit reach in the
colder climate?", "which test point limits the chiller's SEER?"), by keyword or meaning, and
:func:`~workbench.notes.runs.store.get_run`, which gives back the rated scenario (rate it again
with :func:`workbench.seasonal.rate`) and the test points table (``StoredRun.table()``,
``workbench notes table``). The note names the figure the way people write it in both spellings
(``SCOP 5.29``, ``ηs (eta_s) 209 %``; ``SEER``, ``ηs,c``), the standard, the climate (the
heating season, or the reference cooling season), the application, the design load, the test
point that limits the figure most and the one with the lowest COP (EER), each test point with
its part load, capacity and speed, or, for an incomplete rating, which points did not converge
and the solver's hint. The row is a ``"NoteRun"`` of kind ``rating`` (migration
``20261125200000``); its summary is :meth:`SeasonalRating.to_dict` with ``kind`` ``rating`` and
``purpose`` ``seasonal rating``.

The rating is taken as it is (duck-typed): the run log does not import the seasonal package.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from workbench.notes.runs.describe import NoteText
from workbench.notes.runs.documents import scenario_document
from workbench.notes.runs.words import fluid_words

__all__ = ["RATING_PURPOSE", "rating_note", "rating_summary", "save_rating"]

RATING_PURPOSE = "seasonal rating"
"""``summary["purpose"]`` of a rating note (migration ``20261125200000`` turns the ratings stored
before it, kind ``sweep`` with this purpose, into kind ``rating``)."""


def _num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def rating_summary(rating: Any) -> dict[str, Any]:
    """What a rating note keeps besides the test points (``"NoteRun".summary``), JSON-ready.

    Parameters
    ----------
    rating : SeasonalRating
        What :func:`workbench.seasonal.rate` returned.

    Returns
    -------
    dict
        ``kind`` (``rating``), ``purpose`` (``seasonal rating``) and the keys of
        :meth:`SeasonalRating.to_dict`: ``scop``, ``scop_on``, ``scop_net`` [-], ``eta_s`` [%],
        ``seer``, ``seer_on`` [-], ``climate``, ``application``, ``design_load_kw`` [kW],
        ``limiting_point``, ``lowest_cop_point``, ``test_points``, ``bins``, ...
    """
    return {"kind": "rating", "purpose": RATING_PURPOSE, **rating.to_dict()}


def _season(settings: Any) -> str:
    if settings.mode == "cooling":
        return "the reference cooling season (Tdesignc 35 °C)"
    return f"{settings.climate} climate (heating season)"


def _fluid(doc: Mapping[str, Any] | None) -> str:
    fluid = (doc or {}).get("fluid")
    return f", fluid {' / '.join(fluid_words(str(fluid)))}" if fluid else ""


def rating_note(rating: Any, doc: Mapping[str, Any] | None = None) -> NoteText:
    """Title and content of a rating's note (plain words, figures with units).

    Parameters
    ----------
    rating : SeasonalRating
        The rating.
    doc : mapping, optional
        The rated scenario document (its fluid is named, with its other names).

    Returns
    -------
    NoteText
        Title and content; the title leads with SCOP and ηs (heating) or SEER and ηs,c
        (cooling), or says the rating is incomplete.
    """
    s = rating.settings
    cooling = s.mode == "cooling"
    figure, efficiency = ("SEER", "EER") if cooling else ("SCOP", "COP")
    what = "Seasonal cooling rating" if cooling else "Seasonal rating"
    load = "Pdesignc" if cooling else "Pdesignh"
    where = (
        f"EN 14825:2018, {_season(s)}, {s.application} "
        f"{'application' if cooling else 'temperature application'}"
        + ("" if cooling else f" ({'variable' if s.outlet == 'variable' else 'fixed'} outlet)")
        + f", design load {load} {s.design_load_kw:g} kW"
        + ("" if cooling else f", bivalent point {s.bivalent_c} °C")
        + _fluid(doc)
    )
    limits = (
        f"{figure} is limited most by test point {rating.limiting_point} (a 10 % better "
        f"{efficiency} there raises {figure} most); the lowest {efficiency} is at test point "
        f"{rating.lowest_cop_point}."
    )
    if rating.complete and cooling:
        title = (
            f"{what} {rating.name}: SEER {_num(rating.seer)}, ηs,c {_num(rating.eta_s, 0)} % "
            f"({s.application} application, limited by test point {rating.limiting_point})"
        )
        head = (
            f"{what} of {rating.name}: {where}. SEER {_num(rating.seer)}, SEERon "
            f"{_num(rating.seer_on)}, seasonal space cooling efficiency ηs,c (eta_s) "
            f"{_num(rating.eta_s, 0)} %. {limits}"
        )
    elif rating.complete:
        title = (
            f"{what} {rating.name}: SCOP {_num(rating.scop)}, ηs {_num(rating.eta_s, 0)} % "
            f"({s.climate} climate, {s.application} temperature, limited by test point "
            f"{rating.limiting_point})"
        )
        head = (
            f"{what} of {rating.name}: {where}. SCOP {_num(rating.scop)}, SCOPon "
            f"{_num(rating.scop_on)}, SCOPnet {_num(rating.scop_net)}, seasonal space heating "
            f"efficiency ηs (eta_s) {_num(rating.eta_s, 0)} %. {limits}"
        )
    else:
        failed = rating.test_points[~rating.test_points["converged"]]
        title = f"{what} {rating.name}: incomplete, no {figure} ({len(failed)} test points failed)"
        reasons = "; ".join(f"{r['name']}: {r['hint']}" for _, r in failed.iterrows())
        head = (
            f"{what} of {rating.name}: {where}. The rating is incomplete, no seasonal "
            f"figures ({figure}, ηs): test points that did not converge: {reasons}."
        )
    water = "chilled water" if cooling else "water"
    lines = [head, "", "Test points:"]
    for _, r in rating.test_points.iterrows():
        if not r["converged"]:
            lines.append(f"- {r['name']} at {r['t_c']:g} °C: did not converge ({r['hint']})")
            continue
        limit = {"max": ", at full speed", "min": ", at minimum speed (cycling)"}.get(
            r["limit"] if isinstance(r["limit"], str) else "", ""
        )
        lines.append(
            f"- {r['name']} at {r['t_c']:g} °C outdoor, {water} {r['supply_c']:g} °C: part load "
            f"{r['part_load']:.0%}, capacity {r['capacity_kw']:.2f} kW, {efficiency} "
            f"{r['cop']:.2f}, speed {r['speed_hz']:.1f} Hz{limit}"
        )
    lines += [
        "",
        "The rated scenario and the test points table (CSV) are kept with this note.",
    ]
    return NoteText(title, "\n".join(lines) + "\n")


def save_rating(
    rating: Any,
    scenario: Any,
    *,
    owner: str,
    conn: Any = None,
    provider: Any = None,
    title: str | None = None,
    external_id: str | None = None,
    replace: bool = False,
) -> Any:
    """Store a seasonal rating as one note of ``owner`` (kind ``rating`` in the run log).

    Parameters
    ----------
    rating : SeasonalRating
        What :func:`workbench.seasonal.rate` returned.
    scenario : dict, str, path, ScenarioConfig or FlatScenario
        The rated scenario, kept with the note exactly as given (rating it again gives the
        stored figures).
    owner, conn, provider, title, external_id, replace
        As for :func:`~workbench.notes.runs.store.save_run`.

    Returns
    -------
    StoredRun
        ``kind`` ``"rating"``; ``.summary`` the figures (:func:`rating_summary`), ``.table()``
        the test points.

    Raises
    ------
    ScenarioError
        The scenario is invalid.
    NoteStoreError
        Empty owner, ``external_id`` already used, a schema that is not current (migration
        ``20261125200000`` not applied: ``workbench notes migrate``).
    """
    from workbench.notes.runs.store import _store

    doc = scenario_document(scenario)
    text = rating_note(rating, doc)
    if title is not None:
        text = NoteText(title, text.content)
    buffer = io.StringIO()
    rating.test_points.to_csv(buffer, index=False)
    return _store(
        conn,
        owner=owner,
        text=text,
        kind="rating",
        doc=doc,
        summary=rating_summary(rating),
        csv=buffer.getvalue(),
        provider=provider,
        external_id=external_id,
        replace=replace,
    )
