"""The builder's run log: store the solved run as a note, reopen one, show related notes.

:class:`RunLogMixin` gives :class:`~workbench.notebook_ui.builder.ScenarioBuilder` its
note-side methods and widgets; the builder calls :meth:`~RunLogMixin._after_solve` and
:meth:`~RunLogMixin._clear_run_log` from its solve. All database work goes through
:mod:`workbench.notes.runs` on a connection of the builder's
:class:`~workbench.notebook_ui.notes_access.NotesAccess`.

Design decisions:

- **Only with an owner.** A builder made without ``owner=`` shows no run-log row and never
  touches a database; with one, the database is opened on the first action (not when the form
  opens), so a builder for an offline scenario costs nothing.
- **One note per solved run.** What is stored is the document of the last solve and its
  result; storing the same solve again names the note it already is, and a form edited since
  its last solve is not stored as if it had been solved: the button becomes **Solve and store**
  (``store_run`` says "press Solve first"). The changes from the document as opened (the file,
  or the run the builder was opened from) are listed in the note.
- **Related notes under the results**: after each solve the owner's notes matching the fluid,
  the component types and the result's warnings are listed (:func:`workbench.notes.related`);
  after a solve that did not converge the query leads with its hint, so the notes on that hint
  come first. The run the builder was opened from, and runs stored from it, are left out.
- **A failing database never breaks the form**: the reason is shown in the run-log row.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from workbench.errors import NoteStoreError, WorkbenchError
from workbench.notebook_ui.notes_access import NotesAccess
from workbench.notebook_ui.notes_panel import hit_strength, plain_text
from workbench.notebook_ui.results_view import message_html
from workbench.notebook_ui.snippets import snippet_html

__all__ = ["RunLogMixin", "related_html"]


def _database_errors() -> tuple[type[BaseException], ...]:
    """What a run-log action may meet from the database or the model.

    These are shown in the row, never raised into the widget's event loop (a bug still raises).
    psycopg is imported here, not with the module: the builder works without the notes extra.
    """
    import psycopg
    from psycopg_pool import PoolTimeout

    return (WorkbenchError, OSError, psycopg.Error, PoolTimeout)


def related_html(hits: list[Any], *, heading: str, query: str) -> str:
    """The related-notes list: each hit's title (plain text, escaped) and highlighted snippet."""
    items = "".join(
        f"<li style='margin-bottom:0.4em'><b>{html.escape(plain_text(h.title) or h.id)}</b> "
        f"<small class='wb-strength'>{html.escape(hit_strength('hybrid', h))}</small><br>"
        f"<small>{snippet_html(h.snippet)}</small></li>"
        for h in hits
    )
    body = f"<ol>{items}</ol>" if hits else "<i>no matching notes</i>"
    return (
        f"<div class='wb-related-list'><b>{html.escape(heading)}</b> "
        f"<small title='{html.escape(query, quote=True)}'>({len(hits)} found)</small>{body}</div>"
    )


class RunLogMixin:
    """Run-log methods and widgets of the scenario builder (see the module docstring).

    Attributes
    ----------
    owner : str or None
        Whose notes the runs become and which notes are searched (None: no run log).
    source_note : str or None
        The note the builder was opened from (:meth:`from_note`).
    stored_summary : dict or None
        The result summary kept with that note (the figures a re-solve should give).
    last_run : StoredRun or None
        The run stored last by :meth:`store_run`.
    related_hits : list of SearchHit
        The related notes shown after the last solve.
    """

    document: dict[str, Any]
    result: Any
    _solved: dict[str, Any] | None

    owner: str | None = None
    source_note: str | None = None
    stored_summary: dict[str, Any] | None = None
    last_run: Any = None
    related_hits: list[Any]
    related_limit: int = 5

    def _init_run_log(
        self,
        owner: str | None,
        database: Any,
        provider: Any,
        base_label: str,
        related_limit: int,
    ) -> None:
        import copy

        self.owner = owner or None
        self.related_hits = []
        self.related_limit = related_limit
        self.base_document = copy.deepcopy(self.document)
        self.base_label = base_label
        self._stored_ids: set[str] = set()
        self._stored_result: Any = None
        self._notes: NotesAccess | None = None
        if self.owner is not None:  # a NotesAccess given is shared: wrapped, never closed here
            self._notes = NotesAccess(database, provider=provider, lazy=True)

    @classmethod
    def from_note(
        cls,
        note_id: str,
        *,
        owner: str,
        database: Any = None,
        provider: Any = None,
        related_limit: int = 5,
    ) -> Any:
        """A builder opened on the scenario kept with a run (or sweep) note of ``owner``.

        Parameters
        ----------
        note_id : str
            The note.
        owner : str
            Its owner (another owner's note is not found); the builder's run log is theirs.
        database : str, ConnectionPool, callable or None
            As for :class:`~workbench.notebook_ui.notes_access.NotesAccess` (None:
            ``DATABASE_URL``, else the embedded server).
        provider : EmbeddingProvider, optional
            Embeds new notes and the related-notes queries.

        Raises
        ------
        NoteNotFoundError
            No such note of ``owner``; ``RunNotFoundError`` when it holds no run.
        """
        from workbench.notes.runs import get_run

        access = NotesAccess(database, provider=provider, lazy=True)
        try:
            with access.connection() as conn:
                run = get_run(conn, note_id, owner=owner)
        except BaseException:
            access.close()
            raise
        builder = cls(  # type: ignore[call-arg]
            run.scenario,
            owner=owner,
            database=access,
            base_label=f"the run of note {run.id}",
            related_limit=related_limit,
        )
        builder.source_note = run.id
        builder.stored_summary = run.summary
        builder._run_status.value = message_html(f"opened from note {run.id}: {run.title}")
        return builder

    def _reset_run_log(self, base_label: str) -> None:
        """Another document was opened in the form: its runs are compared with it."""
        import copy

        self.base_document = copy.deepcopy(self.document)
        self.base_label = base_label
        self.source_note, self.stored_summary, self.last_run = None, None, None
        self._stored_ids = set()
        self._stored_result = None
        if self._notes is not None:
            self._clear_run_log()
            self._run_status.value = ""

    # -- actions ---------------------------------------------------------------------------
    def _require_notes(self) -> NotesAccess:
        if self._notes is None:
            raise NoteStoreError(
                "this builder has no run log: open it with an owner, e.g. "
                "ScenarioBuilder.from_file(path, owner='alice')"
            )
        return self._notes

    def store_run(
        self, *, title: str | None = None, external_id: str | None = None, replace: bool = False
    ) -> Any:
        """Store the last solve (its document and result) as a note of the builder's owner.

        ``title``, ``external_id`` and ``replace`` are those of
        :func:`workbench.notes.save_run` (``replace`` with an external id: a notebook run again
        replaces its earlier note instead of adding a second one).

        Returns
        -------
        StoredRun
            The note (``.id``, ``.title``) with the stored scenario and summary.

        Storing the same solve again returns the note it is stored as (no second note).

        Raises
        ------
        NoteStoreError
            No owner, nothing solved yet, the form has changed since the last solve, or the
            database refused.
        """
        from workbench.notes.runs import save_run

        notes = self._require_notes()
        if self.result is None or self._solved is None:
            raise NoteStoreError("nothing to store yet: press Solve first")
        if self.document != self._solved:
            raise NoteStoreError(
                "the form has changed since the last solve: press Solve first (a stored run "
                "is a solved one)"
            )
        if self._stored_result is self.result and self.last_run is not None:
            self._run_status.value = message_html(
                f"already stored as note {self.last_run.id}: {self.last_run.title}"
            )
            return self.last_run
        with notes.connection() as conn:
            run = save_run(
                self.result,
                self._solved,
                owner=str(self.owner),
                conn=conn,
                provider=notes.provider,
                base=self.base_document,
                base_label=self.base_label,
                title=title,
                external_id=external_id,
                replace=replace,
            )
        self.last_run = run
        self._stored_ids.add(run.id)
        self._stored_result = self.result
        self._run_status.value = message_html(f"stored as note {run.id}: {run.title}")
        self._offer_reopen(pick=run.id)
        self._update_store_button()
        return run

    def open_note(self, note_id: str) -> list[str]:
        """Open a stored run of the owner in this form (the **Reopen** button); its issues.

        Like :meth:`from_note`, in the form already on screen: its changes are then listed
        against that run, and a re-solve gives its stored figures.

        Raises
        ------
        NoteStoreError
            No owner; ``NoteNotFoundError`` / ``RunNotFoundError`` when there is no such run.
        """
        from workbench.notes.runs import get_run

        notes = self._require_notes()
        with notes.connection() as conn:
            run = get_run(conn, note_id, owner=str(self.owner))
        issues: list[str] = self.open(run.scenario)  # type: ignore[attr-defined]
        self._reset_run_log(f"the run of note {run.id}")
        self.source_note, self.stored_summary = run.id, run.summary
        self._run_status.value = message_html(f"opened from note {run.id}: {run.title}")
        return issues

    def _offer_reopen(self, pick: str | None = None) -> None:
        """The runs the Reopen list offers: the last stored one, then the related notes.

        ``pick`` (a run just stored) is selected; otherwise the selection stays if it can.
        """
        options: list[tuple[str, str]] = []
        if self.last_run is not None:
            options.append((f"stored: {plain_text(self.last_run.title)}", self.last_run.id))
        options += [
            (plain_text(h.title) or h.id, h.id)
            for h in self.related_hits
            if h.id not in {v for _k, v in options}
        ]
        current = pick or self._reopen_pick.value
        self._reopen_pick.options = options
        values = [value for _label, value in options]
        self._reopen_pick.value = current if current in values else (values[0] if values else None)
        self._reopen_button.disabled = not options

    def related_notes(self, limit: int | None = None) -> list[Any]:
        """The owner's notes related to the last result (or, before a solve, to the form).

        Shown under the results; the query leads with the hint of a solve that did not
        converge. The note the builder came from and the runs stored from it are left out.

        Raises
        ------
        NoteStoreError
            No owner, or the database refused.
        """
        from workbench.notes.runs import related, related_query

        notes = self._require_notes()
        subject = self.result if self.result is not None else self.document
        scenario = self._solved if self.result is not None else None
        exclude = self._stored_ids | ({self.source_note} if self.source_note else set())
        with notes.connection() as conn:
            hits = related(
                subject,
                scenario=scenario,
                owner=str(self.owner),
                limit=limit or self.related_limit,
                exclude=exclude,
                conn=conn,
                provider=notes.provider,
            )
        failed = self.result is not None and not self.result.converged
        heading = "Notes that match the hint" if failed else "Related notes"
        query = related_query(subject, scenario=scenario)
        self.related_hits = hits
        self._related.value = related_html(hits, heading=heading, query=query)
        self._offer_reopen()
        return hits

    def close(self) -> None:
        """Close the database pool the builder opened (none without an owner)."""
        if self._notes is not None:
            self._notes.close()

    # -- hooks of the builder's solve ------------------------------------------------------
    def _update_store_button(self) -> None:
        """Store run after a solve; Solve and store after an edit; Stored once stored."""
        if self._notes is None:
            return
        button = self._store_button
        if self.result is None or self._solved is None:
            button.description, button.disabled = "Store run", True
        elif self.document != self._solved:
            button.description = "Solve and store"
            button.disabled = bool(getattr(self, "issues", []))
        elif self._stored_result is self.result:
            button.description, button.disabled = "Stored", True
        else:
            button.description, button.disabled = "Store run", False

    def _after_solve(self) -> None:
        if self._notes is None:
            return
        self._update_store_button()
        try:
            self.related_notes()
        except _database_errors() as exc:  # the form keeps working; the row says why
            self.related_hits = []
            self._related.value = message_html(f"related notes unavailable: {exc}", "warning")

    def _clear_run_log(self) -> None:
        if self._notes is None:
            return
        self._store_button.description, self._store_button.disabled = "Store run", True
        self.related_hits = []
        self._related.value = ""

    # -- widgets ---------------------------------------------------------------------------
    def _run_log_widget(self) -> w.VBox:
        self._store_button = w.Button(description="Store run", icon="book", disabled=True)
        self._store_button.add_class("wb-store-run")
        self._store_button.tooltip = "store the last solve as a note (searchable, reopenable)"
        self._store_button.on_click(self._on_store)
        self._run_status = w.HTML()
        self._run_status.add_class("wb-run-status")
        self._related = w.HTML()
        self._related.add_class("wb-related")
        self._reopen_pick = w.Dropdown(
            options=[], description="run", layout=w.Layout(width="460px")
        )
        self._reopen_pick.add_class("wb-reopen-pick")
        self._reopen_button = w.Button(description="Reopen", icon="folder-open", disabled=True)
        self._reopen_button.add_class("wb-reopen")
        self._reopen_button.tooltip = "open the picked run in this form"
        self._reopen_button.on_click(self._on_reopen)
        box = w.VBox(
            [
                w.HBox([self._store_button, self._run_status]),
                self._related,
                w.HBox([self._reopen_pick, self._reopen_button]),
            ]
        )
        box.add_class("wb-run-log")
        if self.owner is None:
            box.layout.display = "none"
        return box

    def _on_reopen(self, _button: Any = None) -> None:
        note = self._reopen_pick.value
        if not note:
            return
        try:
            self.open_note(str(note))
        except _database_errors() as exc:
            self._run_status.value = message_html(f"not reopened: {exc}", "error")

    def _on_store(self, _button: Any = None) -> None:
        try:
            if self.document != self._solved:  # "Solve and store": the form as it is now
                self.solve()  # type: ignore[attr-defined]
            self.store_run()
        except _database_errors() as exc:
            self._run_status.value = message_html(f"not stored: {exc}", "error")
