"""``NoteSearchPanel``: import notes, search them three ways side by side, reindex, validate.

The panel only calls :mod:`workbench.notes`; every button has a method of the same job so a
notebook cell (or a test) can do what a click does.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import ipywidgets as w
import pandas as pd

from workbench.errors import NoteStoreError

__all__ = ["NoteSearchPanel", "MODES"]

MODES = ("keyword", "semantic", "hybrid")
"""Search modes shown side by side."""


class NoteSearchPanel:
    """Note search for notebooks.

    Parameters
    ----------
    conn : psycopg.Connection
        Autocommit connection to a migrated note database (``workbench.notes.connect()``).
    owner : str
        Owner whose notes are imported and searched.
    provider : EmbeddingProvider, optional
        Embedding provider (default: the configured one, loaded once).
    limit : int
        Hits per mode.

    Attributes
    ----------
    widget : ipywidgets.VBox
        Query box, three result columns, import / reindex / validate buttons, status line.
    """

    def __init__(self, conn: Any, owner: str, *, provider: Any = None, limit: int = 5) -> None:
        from workbench.notes.embeddings import get_provider

        self.conn = conn
        self.owner = owner
        self.provider = provider or get_provider()
        self.limit = limit
        self.last: dict[str, list[Any]] = {}
        self._status = w.HTML()
        self._columns = {mode: w.HTML() for mode in MODES}
        self.widget = self._build()

    # -- actions ---------------------------------------------------------------------------
    def import_folder(self, path: str | Path) -> Any:
        """Import a folder of Markdown notes (or a ``.jsonl`` / ``.csv`` file); idempotent."""
        from workbench.notes import import_notes, read_notes_file

        records = read_notes_file(path)
        result = import_notes(self.conn, self.owner, records, provider=self.provider)
        self._say(
            f"imported {result.total} notes from {html.escape(str(path))}: "
            f"{result.inserted} new, {result.updated} updated, {result.unchanged} unchanged"
        )
        return result

    def search_all(self, query: str, limit: int | None = None) -> dict[str, list[Any]]:
        """Hits of every mode for ``query`` (``{"keyword": [...], "semantic": [...], ...}``)."""
        from workbench.notes import search

        n = limit or self.limit
        self.last = {
            mode: search(
                self.conn, query, owner=self.owner, limit=n, mode=mode, provider=self.provider
            )
            for mode in MODES
        }
        for mode, hits in self.last.items():
            self._columns[mode].value = _hits_html(mode, hits)
        return self.last

    def table(self, hits: dict[str, list[Any]] | None = None) -> pd.DataFrame:
        """Titles side by side: one row per rank, one column per mode."""
        hits = hits if hits is not None else self.last
        depth = max((len(v) for v in hits.values()), default=0)
        data = {
            mode: [h.title or h.external_id or h.id for h in hits.get(mode, [])]
            + [None] * (depth - len(hits.get(mode, [])))
            for mode in MODES
        }
        return pd.DataFrame(data, index=pd.RangeIndex(1, depth + 1, name="rank"))

    def reindex(self, force: bool = False) -> Any:
        """Re-embed missing or stale embeddings of the owner's notes (all with ``force``)."""
        from workbench.notes import reindex

        result = reindex(self.conn, provider=self.provider, owner=self.owner, force=force)
        self._say(f"reindex: {result.embedded} embedded, {result.skipped} current")
        return result

    def validate(self) -> Any:
        """Check every note has one current embedding of the configured model."""
        from workbench.notes import validate

        report = validate(self.conn, provider=self.provider)
        bad = {k: v for k, v in report.counts.items() if v}
        self._say(
            f"validate: {report.total_notes} notes, "
            + ("all good" if report.ok else f"problems: {bad}")
        )
        return report

    # -- widgets ---------------------------------------------------------------------------
    def _say(self, text: str) -> None:
        self._status.value = text

    def _safe(self, action: Any) -> None:
        try:
            action()
        except (NoteStoreError, OSError) as exc:
            self._say(f"<b style='color:#b00020'>{html.escape(str(exc))}</b>")

    def _build(self) -> w.VBox:
        query = w.Text(placeholder="search the notes", description="query")
        query.layout.width = "60%"
        go = w.Button(description="Search", button_style="primary", icon="search")
        query.on_submit(lambda _t: self._safe(lambda: self.search_all(query.value)))
        go.on_click(lambda _b: self._safe(lambda: self.search_all(query.value)))
        folder = w.Text(placeholder="folder of .md notes, .jsonl or .csv", description="import")
        load = w.Button(description="Import", icon="upload")
        load.on_click(lambda _b: self._safe(lambda: self.import_folder(folder.value)))
        reindex = w.Button(description="Reindex", icon="refresh")
        reindex.on_click(lambda _b: self._safe(self.reindex))
        check = w.Button(description="Validate", icon="check")
        check.on_click(lambda _b: self._safe(self.validate))
        columns = []
        for mode in MODES:
            box = self._columns[mode]
            box.layout.width = "33%"
            box.value = f"<h4>{mode}</h4>"
            columns.append(box)
        return w.VBox(
            [
                w.HBox([query, go]),
                w.HBox(columns),
                w.HBox([folder, load, reindex, check]),
                self._status,
            ]
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # pragma: no cover - notebook display
        return self.widget._repr_mimebundle_(**kwargs)


def _hits_html(mode: str, hits: list[Any]) -> str:
    items = "".join(
        f"<li><b>{html.escape(h.title or h.external_id or h.id)}</b> "
        f"<small>({h.score:.4f})</small><br><small>{_snippet(h.snippet)}</small></li>"
        for h in hits
    )
    return f"<h4>{mode}</h4><ol>{items}</ol>" if hits else f"<h4>{mode}</h4><i>no hits</i>"


def _snippet(text: str) -> str:
    """The snippet with only the ``<b>`` highlighting kept as markup."""
    return html.escape(text).replace("&lt;b&gt;", "<b>").replace("&lt;/b&gt;", "</b>")
