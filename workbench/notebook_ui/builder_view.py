"""The builder's widgets: the form, its status line, the results area and the open-example row.

:class:`BuilderView` is the widget half of :class:`~workbench.notebook_ui.builder.ScenarioBuilder`
(the other half edits, validates and solves the document). Its handlers only translate a click
or a keystroke into one of the builder's methods; what the widgets show is always recomputed
from the builder's state:

- the status line lists the document's issues (or says it is valid);
- the results area shows the last solve, marked as older than the form after an edit; after a
  refused solve it follows the form: the count of issues while there are some, then "the issues
  are fixed: click Solve";
- the P-h / T-s buttons show only with a chart;
- the **open** row lists the example scenarios (and takes any path): opening one replaces the
  document, the form's pages and the results.
"""

from __future__ import annotations

import contextlib
import html
from typing import Any

import ipywidgets as w

from workbench.errors import ScenarioError, WorkbenchError
from workbench.fluids import BACKENDS
from workbench.notebook_ui.blend_editor import CompositionEditor, fluid_options
from workbench.notebook_ui.document import Field, JsonPath, parse_field, write_json_atomic
from workbench.notebook_ui.editing import EMPTY_REMOVABLE, EMPTY_VALUE, empty_reason
from workbench.notebook_ui.form import Section, build_sections, circuit_fluid_sections
from workbench.notebook_ui.results_view import DIAGRAMS, chart_png, message_html
from workbench.notebook_ui.run import example_scenarios

__all__ = ["BuilderView"]


def _refused_html(issues: int) -> str:
    if issues:
        s = "s" if issues != 1 else ""
        return message_html(
            f"not solved: the scenario has {issues} issue{s} (listed above)", "error"
        )
    return message_html("the issues are fixed: click Solve", "info")


class BuilderView:
    """Widgets and handlers of the scenario builder (see the module docstring)."""

    document: dict[str, Any]
    result: Any
    issues: list[str]
    _pending: dict[JsonPath, str]
    _refused: bool
    _solved: dict[str, Any] | None
    _solved_scenario: Any
    _fluid_issue: str | None

    @property
    def diagram(self) -> str:
        """The diagram drawn under the results: ``"P-h"`` or ``"T-s"`` (settable)."""
        return str(self._diagram.value)

    @diagram.setter
    def diagram(self, value: str) -> None:
        if value not in DIAGRAMS:
            raise ValueError(f"unknown diagram {value!r}; use one of {', '.join(DIAGRAMS)}")
        self._diagram.value = value

    # -- widgets ---------------------------------------------------------------------------
    def _draw_chart(self) -> None:
        """Draw the chosen diagram of the current result (nothing without one)."""
        if self.result is None or self._solved_scenario is None:
            return
        self._chart.value = chart_png(self.result, self._solved_scenario, diagram=self.diagram)
        self._chart.layout.display = None
        self._diagram.layout.display = None

    def _show_status(self) -> None:
        if self.issues:
            items = "".join(f"<li><code>{_escape(i)}</code></li>" for i in self.issues)
            n = len(self.issues)
            self._status.value = (
                f"<b style='color:#b00020'>{n} issue{'s' if n != 1 else ''}</b><ul>{items}</ul>"
            )
        else:
            self._status.value = "<b style='color:#1b7f3b'>valid scenario</b>"

    def _clear_results(self, message: str = "") -> None:
        self._results.value = message
        self._chart.layout.display = "none"
        self._diagram.layout.display = "none"
        self._chart.value = b""
        self._tables.value = ""

    def _refresh_form(self) -> None:
        doc = self.document
        if ("name",) not in self._pending and self._name.value != (doc.get("name") or ""):
            self._name.value = doc.get("name") or ""
        self._syncing = True
        try:
            backend = doc.get("fluid_backend") or "Test"
            if backend not in self._backend.options:
                self._backend.options = [*self._backend.options, backend]
            if self._backend.value != backend:
                self._backend.value = backend
            options = fluid_options(backend)
            if list(self._fluid.options) != options:
                self._fluid.options = options
            if self._fluid.value != (doc.get("fluid") or ""):
                self._fluid.value = doc.get("fluid") or ""
            reference = doc.get("saturation_reference") or "dew"
            if reference in self._reference.options and self._reference.value != reference:
                self._reference.value = reference
        finally:
            self._syncing = False
        if self._fluid_issue is None:
            self._composition.load(doc.get("fluid"))
        for section in self._sections:
            section.render(doc, self._pending, self._on_text, self._on_remove)

    def _on_text(self, spec: Field, text: str) -> None:
        if spec.empty_means == "missing":
            required: str | None = EMPTY_REMOVABLE if spec.removable else EMPTY_VALUE
        else:
            required = empty_reason(self.document, spec.path)
        self._edit(spec.path, parse_field(text, spec.kind), required=required)

    def _on_remove(self, spec: Field) -> None:
        self._edits.remove(self.document, spec.path)
        self.validate()

    def _on_add(self, base: JsonPath, key: str) -> None:
        try:
            self._add(base, key)
        except (KeyError, ValueError) as exc:
            self._save_note.value = message_html(str(exc), "error")

    def _build(self) -> w.VBox:
        doc = self.document
        self._status = w.HTML()
        self._status.add_class("wb-status")
        self._results = w.HTML()
        self._results.add_class("wb-results")
        self._chart = w.Image(format="png", layout=w.Layout(display="none", max_width="1160px"))
        self._chart.add_class("wb-chart")
        self._diagram = w.ToggleButtons(
            options=list(DIAGRAMS),
            value="P-h",
            tooltips=["pressure-enthalpy", "temperature-entropy"],
        )
        self._diagram.add_class("wb-diagram")
        self._diagram.layout.display = "none"  # shown with a chart
        self._diagram.observe(lambda _change: self._draw_chart(), names="value")
        self._tables = w.HTML()
        self._tables.add_class("wb-tables")
        self._save_note = w.HTML()
        self._save_note.add_class("wb-save-note")
        self._name = w.Text(value=doc.get("name") or "", description="name")
        self._name.observe(lambda ch: self.set_name(ch["new"]), names="value")
        backend_value = doc.get("fluid_backend") or "Test"
        options = list(BACKENDS) + ([backend_value] if backend_value not in BACKENDS else [])
        backend = self._backend = w.Dropdown(
            options=options, value=backend_value, description="backend"
        )
        self._syncing = False
        self._fluid = w.Combobox(
            value=doc.get("fluid", ""),
            options=fluid_options(backend_value),
            description="fluid",
            ensure_option=False,
            placeholder="a fluid or blend (R454B)",
        )
        self._fluid.add_class("wb-fluid")
        self._fluid.observe(
            lambda ch: None if self._syncing else self.set_fluid(fluid=ch["new"]), names="value"
        )
        backend.observe(
            lambda ch: None if self._syncing else self.set_fluid(backend=ch["new"]),
            names="value",
        )
        self._fluid_note = w.HTML()
        self._fluid_note.add_class("wb-fluid-note")
        self._reference = w.Dropdown(
            options=["dew", "mid", "bubble"],
            value=doc.get("saturation_reference") or "dew",
            description="t_evap/t_cond at",
            style={"description_width": "110px"},
            tooltip="saturation_reference: which temperature of a blend's glide t_evap_k and "
            "t_cond_k name (dew: the AHRI 540 / EN 12900 rating convention)",
        )
        self._reference.add_class("wb-saturation-reference")
        self._reference.observe(
            lambda ch: None if self._syncing else self.set_saturation_reference(ch["new"]),
            names="value",
        )
        self._composition = CompositionEditor(doc.get("fluid"), self._on_composition)
        self._accordion = w.Accordion()
        self._build_sections()
        self._save_path = w.Text(value="scenario.json", description="save as")
        self._save_path.add_class("wb-save-path")
        self._solve_button = w.Button(description="Solve", button_style="primary", icon="play")
        self._solve_button.add_class("wb-solve")
        save = w.Button(description="Save JSON", icon="save")
        save.add_class("wb-save")
        self._solve_button.on_click(self._on_solve)
        save.on_click(self._on_save)
        form = w.VBox(
            [
                self._open_row(),
                w.HBox([self._name, self._fluid, backend, self._reference]),
                self._fluid_note,
                self._composition.widget,
                self._accordion,
                self._status,
                w.HBox([self._solve_button, self._save_path, save]),
                self._save_note,
                self._results,
                self._run_log_widget(),
                self._diagram,
                self._chart,
                self._tables,
            ]
        )
        form.add_class("wb-builder")
        return form

    def _build_sections(self) -> None:
        """One accordion page per component, template, instance and control loop."""
        sections: list[Section] = []
        if str(self.document.get("schema_version")) == "2":
            sections = circuit_fluid_sections(lambda: self.document)
        self._sections = sections + build_sections(
            lambda: self.document, lambda: self._pending, self._addable, self._on_add
        )
        self._accordion.selected_index = None
        self._accordion.children = [s.box for s in self._sections]
        self._accordion.titles = tuple(s.title for s in self._sections)

    def _open_row(self) -> w.HBox:
        """An example (or any path) to open in this form instead."""
        self._open_pick = w.Combobox(
            options=list(example_scenarios()),
            placeholder="an example, or a path",
            description="open",
            ensure_option=False,
            layout=w.Layout(width="430px"),
        )
        self._open_pick.add_class("wb-open-pick")
        button = w.Button(description="Open", icon="folder-open")
        button.add_class("wb-open")
        button.on_click(self._on_open)
        self._open_note = w.HTML()
        self._open_note.add_class("wb-open-note")
        return w.HBox([self._open_pick, button, self._open_note])

    def _on_open(self, _button: Any = None) -> None:
        choice = str(self._open_pick.value).strip()
        if not choice:
            self._open_note.value = message_html("pick an example or type a path", "error")
            return
        try:
            issues = self.open(choice)
        except (WorkbenchError, OSError) as exc:
            self._open_note.value = message_html(f"not opened: {exc}", "error")
        else:
            n = len(issues)
            state = f"{n} issue{'s' if n != 1 else ''}" if n else "valid"
            self._open_note.value = message_html(f"opened {choice} ({state})")

    def _on_solve(self, _button: Any = None) -> None:
        with contextlib.suppress(WorkbenchError):  # the reason is on screen
            self.solve()

    def _on_save(self, _button: Any = None) -> None:
        with contextlib.suppress(WorkbenchError, OSError):
            self._write_with_note(self._save_path.value)

    def _write_with_note(self, path: Any) -> Any:
        """Write the document (``save``); the note below says where, or why not.

        The note is cleared first, so a failed save never leaves an earlier "saved to" in view.
        """
        self._save_note.value = ""
        try:
            self._require_valid()
            written = write_json_atomic(path, self.document)
        except ScenarioError:
            n = len(self.issues)
            self._save_note.value = message_html(
                f"not saved: the scenario has {n} issue{'s' if n != 1 else ''} (listed above)",
                "error",
            )
            raise
        except (WorkbenchError, OSError) as exc:
            self._save_note.value = message_html(f"not saved: {exc}", "error")
            raise
        self._save_note.value = message_html(f"saved to {written.resolve()}")
        return written

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # pragma: no cover - notebook display
        return self.widget._repr_mimebundle_(**kwargs)


def _escape(text: str) -> str:

    return html.escape(text)
