"""``ScenarioBuilder``: an ipywidgets form that edits, validates, solves and saves a scenario.

Every edit goes through methods a script (or a test) can call as well as the widgets:
:meth:`~ScenarioBuilder.set_fluid`, :meth:`~ScenarioBuilder.set_parameter`,
:meth:`~ScenarioBuilder.set_instance_param`, :meth:`~ScenarioBuilder.set_template_param`,
:meth:`~ScenarioBuilder.set_control`, :meth:`~ScenarioBuilder.add_parameter` and
:meth:`~ScenarioBuilder.remove_parameter`. After each edit the document is validated
(:func:`workbench.scenario.load_scenario`, flattening, and :func:`workbench.solver.prepare`,
which checks what the component models need) and the form shows the document's values, so the
form always shows the document that **Solve** solves.

Design decisions:

- An emptied component field is an issue ("type a value, or remove the parameter"), not a
  silent removal; removing is the field's own button. An emptied instance or template
  parameter falls back to the template default (its placeholder says which).
- A parameter is added with its catalog default, or empty and flagged when it has none; it
  leaves the Add list once present.
- The chart is a PNG drawn outside pyplot into an ``Image`` widget; results and warnings are
  HTML widgets. Nothing goes through an ``Output`` widget or the inline backend, so a click
  never sends output to JupyterLab's log console.
- Solve first clears the results area and says "solving...", so a refused or failed solve
  leaves nothing of the previous one on screen; after an edit the last result stays, marked
  as older than the form.
- With an ``owner`` the form has a run log (:mod:`~workbench.notebook_ui.run_log`): **Store
  run** keeps the last solve as a searchable note, related notes show under the results, and
  :meth:`~ScenarioBuilder.from_note` reopens a stored run.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from workbench.components.catalog.specs import get_spec
from workbench.errors import ScenarioError, ScenarioIssue, WorkbenchError
from workbench.notebook_ui.blend_editor import (
    building_note,
    compose_rows,
    missing_tables,
    needs_coolprop,
)
from workbench.notebook_ui.builder_view import BuilderView, _refused_html
from workbench.notebook_ui.document import (
    JsonPath,
    component_path,
    get_at,
    instance_index,
    json_path,
)
from workbench.notebook_ui.editing import (
    EMPTY_NAME,
    EMPTY_REMOVABLE,
    FormEdits,
)
from workbench.notebook_ui.fluid_note import fluid_note_html, form_words
from workbench.notebook_ui.form import Section
from workbench.notebook_ui.results_view import message_html, result_html
from workbench.notebook_ui.run import example_scenarios, locate
from workbench.notebook_ui.run_log import RunLogMixin
from workbench.scenario import flatten, load_scenario, read_json

__all__ = ["ScenarioBuilder"]


def _issue_text(issue: ScenarioIssue) -> str:
    return form_words(str(issue) if issue.path else issue.message)


class ScenarioBuilder(RunLogMixin, BuilderView):
    """A scenario form for notebooks.

    Parameters
    ----------
    scenario : dict, str or path
        The starting document (a path or JSON text is read, not yet validated: an invalid
        file opens with its issues listed).
    owner : str, optional
        Turns on the run log: **Store run** and the related notes are this owner's.
    database : str, ConnectionPool, callable, NotesAccess or None
        The note database of the run log (None: ``DATABASE_URL``, else the embedded server,
        opened on the first run-log action).
    provider : EmbeddingProvider, optional
        Embeds stored runs and related-notes queries (default: the configured one).
    base_label : str, optional
        How stored runs name the document the form was opened on (their changes are listed
        against it).
    related_limit : int
        Related notes shown under the results.

    Attributes
    ----------
    document : dict
        The scenario document being edited (contract units, as in the JSON).
    issues : list of str
        ``<json path>: <message>`` for every problem (empty when the scenario can be solved).
    result : SolveResult or None
        The last solve of the current or an earlier document; None after a refused or failed
        solve.
    widget : ipywidgets.VBox
        The form; display it in a notebook.
    """

    def __init__(
        self,
        scenario: dict[str, Any] | str | Path,
        *,
        owner: str | None = None,
        database: Any = None,
        provider: Any = None,
        base_label: str | None = None,
        related_limit: int = 5,
    ) -> None:
        if isinstance(scenario, dict):
            self.document: dict[str, Any] = copy.deepcopy(scenario)
        else:
            self.document, _label = read_json(scenario)
        self._init_run_log(
            owner, database, provider, base_label or "the document as opened", related_limit
        )
        self.issues: list[str] = []
        self._problems: list[ScenarioIssue] = []
        self._edits = FormEdits()
        self._pending = self._edits.pending
        self._refused = False
        self.result: Any = None
        self._solved: dict[str, Any] | None = None
        self._solved_scenario: Any = None
        self._sections: list[Section] = []
        self._fluid_issue: str | None = None
        self._backend_note = ""  # what a fluid choice did to the backend
        self.building_note: str | None = None
        """What the status said was built first (a blend's tables) at the last check that built
        any, None if none did."""
        self.widget = self._build()
        self.validate()

    @classmethod
    def from_file(cls, path: str | Path, **options: Any) -> ScenarioBuilder:
        """A builder opened on a scenario file (``options``: ``owner``, ``database``, ...)."""
        options.setdefault("base_label", f"{Path(path).name} as opened")
        return cls(Path(path), **options)

    # -- where things are ------------------------------------------------------------------
    def _component_base(self, component: str) -> JsonPath:
        return component_path(self.document, component)

    def _instance_index(self, instance: str) -> int | None:
        return instance_index(self.document, instance)

    # -- editing ---------------------------------------------------------------------------
    def _edit(self, path: JsonPath, value: Any, *, required: str | None = None) -> list[str]:
        """Set (None: empty) a value; ``required`` is the issue an emptied value becomes.

        See :mod:`~workbench.notebook_ui.editing`: an emptied key keeps its place, and the
        document is checked as if a pending field still held its last value.
        """
        if value is None:
            self._edits.empty(self.document, path, required)
        else:
            self._edits.set(self.document, path, value)
        return self.validate()

    def set_fluid(self, fluid: str | None = None, backend: str | None = None) -> list[str]:
        """Set the working fluid and/or its backend; return the issues.

        A blend (``"R454B"``, ``"R32/R1234yf 68.9/31.1"``) chosen while the form is on the
        ``Test`` backend switches the backend to ``CoolProp``, the only one that models blends
        (the note beside the fluid says so); a backend given explicitly is kept (a blend on
        ``Test`` is then an issue at ``fluid``).
        """
        note = ""
        if fluid is not None:
            self._fluid_issue = None
            self.document["fluid"] = fluid
            current = self.document.get("fluid_backend") or "Test"
            if backend is None and str(current).lower() == "test" and needs_coolprop(fluid):
                backend = "CoolProp"
                note = (
                    f"{fluid} is a blend: fluid_backend set to CoolProp (Test has pure fluids only)"
                )
        if backend is not None:
            self.document["fluid_backend"] = backend
        self._backend_note = note
        return self.validate()

    def set_composition(self, components: list[str], mass_percent: list[Any]) -> list[str]:
        """Type a custom blend into the composition editor (components and mass %).

        A valid composition becomes the fluid (its canonical mass form, see
        :func:`~workbench.fluids.blend.spec.compose_blend`); an invalid one is an issue at
        ``fluid`` and the fluid keeps its last value.
        """
        self._composition.set_rows(list(zip(components, mass_percent)))
        return self.issues

    def _on_composition(self, rows: list[tuple[str, str]]) -> None:
        fluid, issue = compose_rows(rows)
        if fluid is None:
            self._fluid_issue = issue
            self.validate()
        else:
            self.set_fluid(fluid)

    def set_saturation_reference(self, reference: str | None) -> list[str]:
        """Set ``saturation_reference`` (``"dew"``, ``"mid"``, ``"bubble"``; None removes it)."""
        if reference is None:
            self._edits.remove(self.document, ("saturation_reference",))
            return self.validate()
        return self._edit(("saturation_reference",), reference)

    def set_circuit_fluid(
        self, circuit: int, fluid: str | None, backend: str | None = None
    ) -> list[str]:
        """Set (None: remove, the scenario's applies) a circuit's own fluid and backend (v2)."""
        circuits = self.document.get("circuits") or []
        if not 0 <= circuit < len(circuits):
            raise KeyError(f"no circuit {circuit}; the document has {len(circuits)}")
        self._edit(("circuits", circuit, "fluid"), fluid or None)
        if backend is not None:
            self._edit(("circuits", circuit, "fluid_backend"), backend or None)
        return self.issues

    def set_name(self, name: str | None) -> list[str]:
        """Set the scenario name (an empty name is an issue: type a name)."""
        return self._edit(("name",), name if name and name.strip() else None, required=EMPTY_NAME)

    def set_parameter(self, component: str, key: str, value: Any) -> list[str]:
        """Set (or with ``value=None`` remove) a component parameter; return the issues.

        Parameters
        ----------
        component : str
            A circuit component's name, ``<template>.<component>`` for a component of a
            template (its value may be a ``$name`` reference), or an instance's name (then
            ``key`` is one of its template's ``$`` parameters, see
            :meth:`set_instance_param`).
        key : str
            Parameter name, with its unit suffix (``air_inlet_temp_c``).
        value : object
            The value in the document's units; None removes the parameter.

        Raises
        ------
        KeyError
            No such component or instance (the message lists them).
        """
        if self._instance_index(component) is not None:
            return self.set_instance_param(component, key, value)
        path = (*self._component_base(component), key)
        if value is None:
            self._edits.remove(self.document, path)
            return self.validate()
        return self._edit(path, value)

    def set_instance_param(self, instance: str, key: str, value: Any) -> list[str]:
        """Set an instance's value of a template parameter (None: the template default)."""
        index = self._instance_index(instance)
        if index is None:
            known = [i.get("name") for i in self.document.get("instances", []) or []]
            raise KeyError(f"no instance {instance!r}; instances: {', '.join(known) or 'none'}")
        return self._edit(("instances", index, "params", key), value)

    def set_template_param(self, template: str, key: str, value: Any) -> list[str]:
        """Set the default of a template parameter (``subsystems.<template>.params``)."""
        if template not in (self.document.get("subsystems") or {}):
            known = ", ".join(self.document.get("subsystems") or {}) or "none"
            raise KeyError(f"no template {template!r}; templates: {known}")
        return self._edit(("subsystems", template, "params", key), value)

    def set_control(self, control_id: str, **fields: Any) -> list[str]:
        """Set fields of a control loop (``target``, ``gain``, ``band`` ...)."""
        loops = [c.get("id") for c in self.document.get("controls", []) or []]
        if control_id not in loops:
            raise KeyError(f"no control loop {control_id!r}; loops: {', '.join(loops) or 'none'}")
        index = loops.index(control_id)
        for key, value in fields.items():
            path = ("controls", index, key)
            if value is None:
                self._edits.remove(self.document, path)
            else:
                self._edits.set(self.document, path, value)
        return self.validate()

    def _addable(self, base: JsonPath) -> list[str]:
        comp = get_at(self.document, base, {}) or {}
        spec = get_spec(str(comp.get("type", "")))
        return [
            p
            for p in (spec.param_names if spec else ())
            if p not in comp and (*base, p) not in self._pending
        ]

    def _add(self, base: JsonPath, key: str) -> list[str]:
        comp = get_at(self.document, base, {}) or {}
        spec = get_spec(str(comp.get("type", "")))
        pspec = spec.param(key) if spec else None
        if pspec is None:
            raise KeyError(f"{comp.get('type')} {comp.get('name')!r} has no parameter {key!r}")
        if key in comp or (*base, key) in self._pending:
            raise ValueError(f"{comp.get('name')!r} sets {key!r} already")
        if pspec.default is None:
            self._edits.pending[(*base, key)] = EMPTY_REMOVABLE
            return self.validate()
        return self._edit((*base, key), pspec.default)

    def addable_parameters(self, component: str) -> list[str]:
        """Catalog parameters the component does not set yet (the Add list)."""
        return self._addable(self._component_base(component))

    def add_parameter(self, component: str, key: str) -> list[str]:
        """Add a parameter with its catalog default, or empty (an issue) when it has none.

        Raises
        ------
        KeyError
            No such component, or its type has no parameter ``key``.
        ValueError
            The component sets ``key`` already.
        """
        return self._add(self._component_base(component), key)

    def remove_parameter(self, component: str, key: str) -> list[str]:
        """Remove a parameter (the catalog default, if any, applies again)."""
        self._edits.remove(self.document, (*self._component_base(component), key))
        return self.validate()

    # -- checking, solving, saving ---------------------------------------------------------
    def validate(self) -> list[str]:
        """Check the document as the solver will; update the status line and the form.

        Empty required fields, the schema and semantic rules (every issue with its JSON
        path), and what the component models need (:func:`workbench.solver.prepare`).

        Returns
        -------
        list of str
            ``<json path>: <message>`` per issue (empty when the scenario can be solved).
        """
        from workbench.solver import prepare

        problems = [ScenarioIssue(json_path(p), why) for p, why in self._pending.items()]
        if self._fluid_issue:
            problems.insert(0, ScenarioIssue("fluid", self._fluid_issue))
        emptied = [json_path(p) for p in self._pending]
        try:  # before the check: validation reads a blend's tables (their reach) too
            self._build_tables()
        except (WorkbenchError, ValueError) as exc:
            problems.append(ScenarioIssue("fluid", str(exc)))
        try:
            flat = flatten(load_scenario(self._edits.checked_copy(self.document)))
        except ScenarioError as exc:
            # a pending field holds its last value for the check: its own issue is "empty"
            problems += [i for i in exc.issues if i.path not in emptied]
        except WorkbenchError as exc:
            problems.append(ScenarioIssue("", str(exc)))
        else:
            if not problems:
                try:
                    prepare(flat)
                except (WorkbenchError, ValueError) as exc:
                    problems.append(ScenarioIssue("", str(exc)))
        self._problems = problems
        self.issues = [_issue_text(p) for p in problems]
        self._fluid_note.value = fluid_note_html(problems, self._backend_note)
        self._show_status()
        self._refresh_form()
        if self.result is not None:
            self._results.value = result_html(self.result, stale=self.document != self._solved)
        elif self._refused:
            self._results.value = _refused_html(len(self.issues))
        self._update_store_button()
        return self.issues

    def _build_tables(self) -> None:
        """Build the tables of blends used for the first time, counting in the status line.

        A build takes seconds to a minute; the status line (and, while solving, the results
        area) says which blend and how many of its pressure nodes are done. Nothing goes to
        standard error: inside a widget callback JupyterLab would log it as a warning.
        """
        from workbench.fluids import load_blend_tables

        missing = missing_tables(self._coolprop_fluids())
        building = building_note(missing)
        if building is None:
            return
        self.building_note = building
        doing = "solving" if self._solve_button.disabled else "checking"

        def say(text: str) -> None:
            self._status.value = message_html(f"{doing}: {text}", "warning")
            if self._solve_button.disabled:
                self._results.value = message_html(f"solving... {text}", "info")

        say(building)
        for spec in missing:

            def report(done: int, total: int, name: str = spec.name) -> None:
                say(f"building the property tables of {name}: {done}/{total} pressures")

            load_blend_tables(spec, progress=report)

    def _coolprop_fluids(self) -> list[str]:
        """The document's fluids on the CoolProp backend (the scenario's and the circuits')."""
        doc = self.document
        default = str(doc.get("fluid_backend") or "Test").lower()
        out = [str(doc.get("fluid"))] if default == "coolprop" and doc.get("fluid") else []
        for circuit in doc.get("circuits") or []:
            backend = str(circuit.get("fluid_backend") or default).lower()
            if backend == "coolprop" and circuit.get("fluid"):
                out.append(str(circuit["fluid"]))
        return out

    def _require_valid(self) -> None:
        if self.validate():
            raise ScenarioError(self._problems, source="ScenarioBuilder")

    def solve(self, show: bool = True) -> Any:
        """Solve the scenario; with ``show`` draw the P-h diagram and the results tables.

        The results area is cleared first and says "solving..."; a refused or failed solve
        leaves its reason there and nothing of an earlier result.

        Raises
        ------
        ScenarioError
            The document has issues (nothing is solved).
        WorkbenchError
            The solver could not start (a non-converged solve is a result, not an error).
        """
        from workbench.solver import solve

        self.result, self._solved, self._solved_scenario = None, None, None
        self._refused = False
        self._clear_results(message_html("solving...", "info"))
        self._clear_run_log()
        self._solve_button.disabled, self._solve_button.description = True, "Solving..."
        try:
            self._require_valid()
            scenario = load_scenario(copy.deepcopy(self.document))
            result = solve(scenario)
        except ScenarioError:
            self._refused = True
            self._results.value = _refused_html(len(self.issues))
            raise
        except Exception as exc:
            self._results.value = message_html(f"solve failed: {exc}", "error")
            raise
        finally:
            self._solve_button.disabled, self._solve_button.description = False, "Solve"
        self.result, self._solved = result, copy.deepcopy(self.document)
        self._solved_scenario = scenario
        self._results.value = result_html(result)
        if show:
            from workbench.plotting import style_results

            self._draw_chart()
            self._tables.value = style_results(result, "edges").to_html()
        self._after_solve()
        return result

    def open(self, scenario: dict[str, Any] | str | Path) -> list[str]:
        """Open another scenario in this form; return its issues.

        Parameters
        ----------
        scenario : dict, str or path
            A document, a path, or the file name of an example (``split_units_v2.json``, see
            :func:`~workbench.notebook_ui.run.example_scenarios`).

        Raises
        ------
        ScenarioError
            The file cannot be read or is not JSON (the form keeps the document it had).
        """
        if isinstance(scenario, dict):
            document, label = copy.deepcopy(scenario), "the document as opened"
        else:
            path = example_scenarios().get(str(scenario), locate(scenario))
            document, _label = read_json(path)
            label = f"{Path(path).name} as opened"
        if not isinstance(document, dict):
            raise ScenarioError(
                [ScenarioIssue("", "a scenario is a JSON object")], source=str(scenario)
            )
        self.document = document
        self._edits = FormEdits()
        self._pending = self._edits.pending
        self._fluid_issue = None
        self._composition.load(document.get("fluid"))
        self.result, self._solved, self._solved_scenario = None, None, None
        self._refused = False
        self._reset_run_log(label)
        self._clear_results()
        self._build_sections()
        return self.validate()

    def apply_edits(self, edits: dict[str, dict[str, Any]]) -> list[str]:
        """Set ``{component or instance: {parameter: value}}``; return what was skipped.

        A notebook's ``edits`` parameter written for one scenario may name components another
        one lacks: those are skipped with the reason (the components there), not raised.
        """
        skipped = []
        for component, parameters in edits.items():
            for key, value in parameters.items():
                try:
                    self.set_parameter(component, key, value)
                except KeyError as exc:
                    skipped.append(f"{component}.{key}: {exc.args[0]}")
        return skipped

    def save(self, path: str | Path) -> Path:
        """Write the (valid) document as JSON, atomically, with the usual file permissions.

        The note under **Save JSON** says where it went, or why not.

        Raises
        ------
        ScenarioError
            The document has issues (nothing is written).
        """
        return Path(self._write_with_note(path))
