"""``NoteSearchPanel``: import notes, search them three ways side by side, reindex, validate.

The panel only calls :mod:`workbench.notes`; every button has a method doing the same job so a
notebook cell (or a test) can do what a click does.

Design decisions:

- **The panel owns its database access.** It takes a database URL (or None: ``DATABASE_URL``,
  else the embedded server), a ``psycopg_pool.ConnectionPool`` or a connection factory, and
  takes a connection for each action. A notebook cell closing its own connection can no longer
  leave the panel dead; :meth:`NoteSearchPanel.close` closes the pool the panel opened.
- **Paths resolve like the notebook's parameters** (:func:`~workbench.notebook_ui.run.locate`:
  as given, else from the repository root); an empty path is refused instead of meaning the
  kernel's working folder.
- **Each column shows its own match strength**: the BM25 score in the keyword column, the
  cosine similarity in the semantic column, the RRF score (with both ranks) in the hybrid one.
- **Titles and snippets are escaped here too** (whatever the server already did): only the
  ``<b>``/``</b>`` highlight tags of a snippet are kept as markup.
"""

from __future__ import annotations

import contextlib
import html
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import ipywidgets as w
import pandas as pd

from workbench.errors import NoteStoreError
from workbench.notebook_ui.notes_access import NotesAccess
from workbench.notebook_ui.run import locate
from workbench.notebook_ui.snippets import SEMANTIC_FLOOR, safe_highlight, snippet_html, weak_match

__all__ = ["MODES", "NoteSearchPanel", "hit_strength", "plain_text", "safe_highlight"]

MODES = ("keyword", "semantic", "hybrid")
"""Search modes shown side by side."""


def plain_text(text: str | None) -> str:
    """A title as plain text (HTML entities an escaping server added are decoded)."""
    return html.unescape(text or "")


def hit_strength(mode: str, hit: Any) -> str:
    """The match strength a column shows: BM25 score, cosine similarity or RRF score."""
    if mode == "keyword":
        score = getattr(hit, "keyword_score", None)
        return "BM25 –" if score is None else f"BM25 {score:.2f}"
    if mode == "semantic":
        sim = getattr(hit, "semantic_similarity", None)
        if sim is None:
            return "cosine –"
        return f"cosine {sim:.3f}" + (" (weak match)" if weak_match(hit) else "")
    ranks = [
        f"{name} #{rank}"
        for name, rank in (("keyword", hit.keyword_rank), ("semantic", hit.semantic_rank))
        if rank is not None
    ]
    return f"RRF {hit.score:.4f}" + (f" ({', '.join(ranks)})" if ranks else "")


class NoteSearchPanel:
    """Note search for notebooks.

    Parameters
    ----------
    database : str, ConnectionPool, callable or None
        Where the notes are: a database URL; None for ``DATABASE_URL``, else the embedded
        server (started on demand); a ``psycopg_pool.ConnectionPool`` (not closed by the
        panel); or a callable returning a new connection (used as a context manager).
    owner : str
        Owner whose notes are imported and searched.
    provider : EmbeddingProvider, optional
        Embedding provider (default: the configured one, loaded once).
    limit : int
        Hits per mode.
    migrate : bool
        Bring the database schema up to date when the panel opens.

    Attributes
    ----------
    widget : ipywidgets.VBox
        Query box, three result columns, import / reindex / validate buttons, status line.
    last : dict
        Hits per mode of the last search.

    Raises
    ------
    TypeError
        ``database`` is an open connection (the notebook could close it under the panel).
    NoteStoreError
        The database cannot be reached.
    """

    def __init__(
        self,
        database: Any = None,
        owner: str = "notebook",
        *,
        provider: Any = None,
        limit: int = 5,
        migrate: bool = True,
    ) -> None:
        from workbench.notes.embeddings import get_provider

        self._access = NotesAccess(database, provider=provider, migrate=False)
        self.owner = owner
        self.provider = provider or get_provider()
        self.limit = limit
        self.last: dict[str, list[Any]] = {}
        self._status = w.HTML()
        self._status.add_class("wb-notes-status")
        self._columns = {mode: w.HTML() for mode in MODES}
        self.reopened: Any = None
        """The builder the **Reopen** button opened last (a run note found by a search)."""
        self.widget = self._build()
        if migrate:
            from workbench.notes import migrate as run_migrations

            with self.connection() as conn:
                run_migrations(conn)

    # -- database access -------------------------------------------------------------------
    @contextlib.contextmanager
    def connection(self) -> Iterator[Any]:
        """A connection for one job (from the panel's pool or factory), given back after."""
        with self._access.connection() as conn:
            yield conn

    def close(self) -> None:
        """Close the pool the panel opened (a pool or factory given to it is left alone)."""
        self._access.close()

    # -- actions ---------------------------------------------------------------------------
    def import_folder(self, path: str | Path) -> Any:
        """Import a folder of Markdown notes (or a ``.jsonl`` / ``.csv`` file); idempotent.

        Relative paths resolve like the notebook's ``notes_path`` parameter: from the working
        folder, else from the repository root.

        Raises
        ------
        NoteStoreError
            Empty or missing path, unknown format, a bad record.
        """
        from workbench.notes import import_notes, read_notes_file

        text = str(path).strip() if path is not None else ""
        if not text:
            raise NoteStoreError(
                "no import path: enter a folder of .md notes, a .jsonl or a .csv file"
            )
        resolved = locate(Path(text).expanduser()).resolve()
        records = read_notes_file(resolved)
        with self.connection() as conn:
            result = import_notes(conn, self.owner, records, provider=self.provider)
        self._say(
            f"imported {result.total} notes from {html.escape(str(resolved))}: "
            f"{result.inserted} new, {result.updated} updated, {result.unchanged} unchanged"
        )
        return result

    def search_all(self, query: str, limit: int | None = None) -> dict[str, list[Any]]:
        """Hits of every mode for ``query`` (``{"keyword": [...], "semantic": [...], ...}``).

        Raises
        ------
        NoteStoreError
            Empty or too long query.
        """
        from workbench.notes import search

        n = limit or self.limit
        with self.connection() as conn:
            hits = {
                mode: search(
                    conn, query, owner=self.owner, limit=n, mode=mode, provider=self.provider
                )
                for mode in MODES
            }
        self.last = hits
        if self._query.value != query:  # a search from code shows its query in the box
            self._query.value = query
        for mode, mode_hits in hits.items():
            self._columns[mode].value = _hits_html(mode, mode_hits)
        self._offer_runs(hits)
        counts = ", ".join(f"{len(hits[m])} {m}" for m in MODES)
        weak = sum(weak_match(h) for h in hits["semantic"])
        note = f" ({weak} semantic below cosine {SEMANTIC_FLOOR}: weak)" if weak else ""
        self._say(
            f"{counts} hits{note} for <i>{html.escape(query.strip())}</i> in the notes of "
            f"owner <b>{html.escape(self.owner)}</b>"
        )
        return hits

    def run_hits(self, hits: dict[str, list[Any]] | None = None) -> list[tuple[str, str]]:
        """The hits that are stored runs (05's run log, a sweep, a rating): (title, note id).

        In the order of the hybrid column, then the others; what the **Reopen** list offers.
        """
        from workbench.errors import NoteNotFoundError
        from workbench.notes.runs import get_run

        hits = hits if hits is not None else self.last
        seen: dict[str, str] = {}
        for mode in ("hybrid", *MODES):
            for hit in hits.get(mode, []):
                seen.setdefault(hit.id, plain_text(hit.title) or hit.external_id or hit.id)
        runs = []
        with self.connection() as conn:
            for note_id, title in seen.items():
                try:
                    get_run(conn, note_id, owner=self.owner)
                except NoteNotFoundError:  # RunNotFoundError too: a note without a run
                    continue
                runs.append((title, note_id))
        return runs

    def reopen(self, note_id: str) -> Any:
        """Open the run kept with a note in a scenario builder shown under the panel.

        As 05's **Reopen**: :meth:`ScenarioBuilder.from_note`, on this panel's database and
        owner; the builder is returned and kept in :attr:`reopened`.

        Raises
        ------
        NoteNotFoundError
            No such note of the owner; ``RunNotFoundError`` when it holds no run.
        """
        from workbench.notebook_ui.builder import ScenarioBuilder

        builder = ScenarioBuilder.from_note(
            note_id, owner=self.owner, database=self._access, provider=self.provider
        )
        self.reopened = builder
        self._reopened.children = (builder.widget,)
        self._say(f"reopened note {html.escape(note_id)} in the builder below")
        return builder

    def _offer_runs(self, hits: dict[str, list[Any]]) -> None:
        runs = self.run_hits(hits)
        self._reopen_pick.options = runs
        self._reopen_pick.value = runs[0][1] if runs else None
        self._reopen_button.disabled = not runs
        self._reopen_row.layout.display = "" if runs else "none"

    def set_owner(self, owner: str) -> None:
        """Search and import the notes of another owner (05's runs are ``run-log``'s)."""
        owner = owner.strip()
        if owner and owner != self.owner:
            self.owner = owner
            self._say(f"searching the notes of owner <b>{html.escape(owner)}</b>")
        if self._owner.value.strip() != self.owner:
            self._owner.value = self.owner

    def table(self, hits: dict[str, list[Any]] | None = None) -> pd.DataFrame:
        """Titles side by side (plain text): one row per rank, one column per mode."""
        hits = hits if hits is not None else self.last
        depth = max((len(v) for v in hits.values()), default=0)
        data = {
            mode: [plain_text(h.title) or h.external_id or h.id for h in hits.get(mode, [])]
            + [None] * (depth - len(hits.get(mode, [])))
            for mode in MODES
        }
        return pd.DataFrame(data, index=pd.RangeIndex(1, depth + 1, name="rank"))

    def count(self) -> int:
        """Number of the owner's notes."""
        from workbench.notes import count_notes

        with self.connection() as conn:
            return int(count_notes(conn, owner=self.owner))

    def reindex(self, force: bool = False) -> Any:
        """Re-embed missing or stale embeddings of the owner's notes (all with ``force``)."""
        from workbench.notes import reindex

        with self.connection() as conn:
            result = reindex(conn, provider=self.provider, owner=self.owner, force=force)
        self._say(f"reindex: {result.embedded} embedded, {result.skipped} current")
        return result

    def validate(self) -> Any:
        """Check every note has one current embedding of the configured model."""
        from workbench.notes import validate

        with self.connection() as conn:
            report = validate(conn, provider=self.provider)
        bad = {k: v for k, v in report.counts.items() if v}
        self._say(
            f"validate: {report.total_notes} notes, "
            + ("all good" if report.ok else html.escape(f"problems: {bad}"))
        )
        return report

    # -- widgets ---------------------------------------------------------------------------
    def _say(self, text: str, level: str = "info") -> None:
        colour = "#b00020" if level == "error" else "#1b5e20"
        self._status.value = f"<span style='color:{colour}'>{text}</span>"

    def _safe(self, action: Callable[[], Any]) -> None:
        import psycopg

        self._say("working...")
        try:
            action()
        except (NoteStoreError, OSError, psycopg.Error) as exc:
            self._say(f"<b>{html.escape(str(exc))}</b>", "error")

    def _build(self) -> w.VBox:
        query = self._query = w.Text(placeholder="search the notes", description="query")
        query.layout.width = "60%"
        query.add_class("wb-notes-query")
        go = w.Button(description="Search", button_style="primary", icon="search")
        with warnings.catch_warnings():  # Enter searches; on_submit is the one way (8.x)
            warnings.simplefilter("ignore", DeprecationWarning)
            query.on_submit(lambda _t: self._safe(lambda: self.search_all(query.value)))
        go.on_click(lambda _b: self._safe(lambda: self.search_all(query.value)))
        owner = self._owner = w.Text(
            value=self.owner,
            description="owner",
            tooltip="whose notes are searched and imported (05's runs: run-log)",
            layout=w.Layout(width="260px"),
        )
        owner.add_class("wb-notes-owner")
        owner.observe(lambda ch: self.set_owner(ch["new"]), names="value")
        folder = w.Text(placeholder="folder of .md notes, .jsonl or .csv", description="import")
        folder.add_class("wb-notes-path")
        load = w.Button(description="Import", icon="upload")
        load.on_click(lambda _b: self._safe(lambda: self.import_folder(folder.value)))
        reindex = w.Button(description="Reindex", icon="refresh")
        reindex.on_click(lambda _b: self._safe(self.reindex))
        check = w.Button(description="Validate", icon="check")
        check.on_click(lambda _b: self._safe(self.validate))
        self._reopen_pick = w.Dropdown(options=[], description="run found")
        self._reopen_pick.add_class("wb-notes-reopen-pick")
        self._reopen_button = w.Button(description="Reopen", icon="folder-open", disabled=True)
        self._reopen_button.add_class("wb-notes-reopen")
        self._reopen_button.tooltip = "open the picked run in a scenario builder below"
        self._reopen_button.on_click(
            lambda _b: self._safe(lambda: self.reopen(str(self._reopen_pick.value)))
        )
        self._reopen_row = w.HBox([self._reopen_pick, self._reopen_button])
        self._reopen_row.layout.display = "none"
        self._reopened = w.VBox()
        columns = []
        for mode in MODES:
            box = self._columns[mode]
            box.layout.width = "33%"
            box.add_class(f"wb-notes-{mode}")
            box.value = f"<h4>{mode}</h4>"
            columns.append(box)
        panel = w.VBox(
            [
                w.HBox([query, go, owner]),
                w.HBox(columns),
                self._reopen_row,
                w.HBox([folder, load, reindex, check]),
                self._status,
                self._reopened,
            ]
        )
        panel.add_class("wb-notes")
        return panel

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # pragma: no cover - notebook display
        return self.widget._repr_mimebundle_(**kwargs)


_HEADINGS = {
    "keyword": "keyword <small>(BM25 score)</small>",
    "semantic": f"semantic <small>(cosine similarity; below {SEMANTIC_FLOOR}: weak)</small>",
    "hybrid": "hybrid <small>(RRF score)</small>",
}


def _hit_html(mode: str, hit: Any) -> str:
    title = html.escape(plain_text(hit.title) or hit.external_id or hit.id)
    cut = mode == "semantic" and len(html.unescape(hit.snippet or "")) >= 190
    grey = " color:#888;" if mode == "semantic" and weak_match(hit) else ""
    return (
        f"<li style='line-height:1.35;margin-bottom:0.5em;{grey}'><b>{title}</b> "
        f"<small class='wb-strength'>{html.escape(hit_strength(mode, hit))}</small><br>"
        f"<small>{snippet_html(hit.snippet, cut=cut)}</small></li>"
    )


def _hits_html(mode: str, hits: list[Any]) -> str:
    items = "".join(_hit_html(mode, h) for h in hits)
    heading = f"<h4>{_HEADINGS[mode]}</h4>"
    return f"{heading}<ol>{items}</ol>" if hits else f"{heading}<i>no hits</i>"
