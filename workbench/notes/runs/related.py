"""Notes beside the scenario at hand: a search built from the fluid, the components, the warnings.

:func:`related` searches the owner's notes (the hybrid search of :mod:`workbench.notes.search`)
with a query :func:`related_query` builds from what is on screen:

- the fluid and its other names (``R290 propane``);
- the component types in words (``compressor condenser expansion valve evaporator``);
- from a converged result: its warnings and physical problems; from a solve that did not
  converge: its hint, stop reason and message **first** (the hint names what to look at: the
  critical point, an ``initial_state``, the UA against the secondary temperatures), and no
  warnings: they describe the last iterate, not the machine, and would outweigh the hint.

The query is cut to the search's 1,000 characters at a word boundary; the hint and the fluid
come first so a long list of warnings never pushes them out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.runs.store import connection_for_call
from workbench.notes.runs.words import fluid_words, type_words
from workbench.notes.search import MAX_QUERY_CHARS, SearchHit, SearchMode, search

__all__ = ["related", "related_query"]


def _is_result(subject: Any) -> bool:
    from workbench.solver.results import SolveResult

    return isinstance(subject, SolveResult)


def _scenario_facts(scenario: Any) -> tuple[str | None, list[str]]:
    """Fluid and component types (document order, distinct) of any scenario form."""
    from workbench.scenario import as_flat

    flat = as_flat(scenario)
    types = list(dict.fromkeys(c.type for c in flat.components.values()))
    return flat.fluid, types


def related_query(subject: Any, *, scenario: Any = None) -> str:
    """The search text :func:`related` uses for a result or a scenario.

    Parameters
    ----------
    subject : SolveResult, or dict, str, path, ScenarioConfig, FlatScenario
        A result (its component types, warnings, problems, and hint when it did not converge)
        or a scenario (its fluid and component types).
    scenario : optional
        The scenario of a result (a result does not carry its fluid).

    Raises
    ------
    ScenarioError
        The scenario is invalid.
    """
    parts: list[str] = []
    fluid: str | None = None
    types: list[str] = []
    if _is_result(subject):
        result = subject
        if not result.converged:
            parts.append(result.hint or "")
            parts.append(str(result.stop_reason).replace("_", " "))
            parts.append(result.message or "")
        if scenario is not None:
            fluid, types = _scenario_facts(scenario)
        else:
            types = list(dict.fromkeys(str(out.get("type")) for out in result.components.values()))
        # the warnings of a solve that stopped short describe its last iterate, not the
        # machine: only the hint speaks for it (a physical problem is in the hint already)
        tail = [*result.problems, *result.warnings] if result.converged else []
    else:
        fluid, types = _scenario_facts(subject)
        tail = []
    head = [" ".join(fluid_words(fluid))] if fluid else []
    words = " ".join(type_words(t) for t in types if t and t != "None")
    return _cut(" ".join(p for p in (*parts, *head, words, *tail) if p).strip())


def _cut(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= MAX_QUERY_CHARS:
        return text
    return text[: MAX_QUERY_CHARS + 1].rsplit(" ", 1)[0]


def related(
    subject: Any,
    *,
    owner: str,
    limit: int = 5,
    scenario: Any = None,
    exclude: Iterable[str] = (),
    conn: psycopg.Connection | None = None,
    provider: EmbeddingProvider | None = None,
    mode: SearchMode = "hybrid",
) -> list[SearchHit]:
    """The owner's notes that match a result or a scenario, best first.

    Parameters
    ----------
    subject : SolveResult or scenario
        What the notes should be about (see :func:`related_query`).
    owner : str
        Whose notes are searched.
    limit : int
        Hits wanted (1 to 1000).
    scenario : optional
        The scenario of a result (adds its fluid to the query).
    exclude : iterable of str
        Note ids left out (the run the builder was opened from, say).
    conn : psycopg.Connection, optional
        Autocommit connection; None: ``DATABASE_URL`` or the embedded server for this call.
    provider : EmbeddingProvider, optional
        Embeds the query.
    mode : {"hybrid", "keyword", "semantic"}
        The search's ranking.

    Returns
    -------
    list of SearchHit
        Titles and snippets HTML-escaped, as :func:`workbench.notes.search.search` returns them.

    Raises
    ------
    NoteStoreError
        A bad ``limit`` or mode; ScenarioError for an invalid scenario.
    """
    skip = set(exclude)
    query = related_query(subject, scenario=scenario)
    if not query:
        return []
    with connection_for_call(conn) as c:
        hits = search(c, query, owner=owner, limit=limit + len(skip), mode=mode, provider=provider)
    return [h for h in hits if h.id not in skip][:limit]
