"""``ScenarioBuilder``: an ipywidgets form that edits, validates, solves and saves a scenario.

Every edit goes through the same methods a script (or a test) can call:
:meth:`ScenarioBuilder.set_fluid`, :meth:`~ScenarioBuilder.set_parameter`,
:meth:`~ScenarioBuilder.set_control`; each re-validates the document with
:func:`workbench.scenario.load_scenario` and shows every issue with its JSON path.
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import ipywidgets as w

from workbench.components.catalog import get_spec
from workbench.errors import ScenarioError, ScenarioIssue, UnknownFluidError, WorkbenchError
from workbench.fluids import BACKENDS, available_fluids, get_backend
from workbench.notebook_ui.run import parse_parameter
from workbench.scenario import flatten, load_scenario, read_json

__all__ = ["ScenarioBuilder"]

_CONTROL_FIELDS = ("target", "gain", "band")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


class ScenarioBuilder:
    """A scenario form for notebooks.

    Parameters
    ----------
    scenario : dict, str or path
        The starting document (a path or JSON text is read, not yet validated: an invalid
        file opens with its issues listed).

    Attributes
    ----------
    document : dict
        The scenario document being edited (contract units, as in the JSON).
    issues : list of str
        ``<json path>: <message>`` for every validation problem (empty when valid).
    result : SolveResult or None
        The last solve.
    widget : ipywidgets.VBox
        The form; display it in a notebook.
    """

    def __init__(self, scenario: dict[str, Any] | str | Path) -> None:
        if isinstance(scenario, dict):
            self.document = copy.deepcopy(scenario)
        else:
            data, _label = read_json(scenario)
            self.document = data
        self.issues: list[str] = []
        self._problems: list[ScenarioIssue] = []
        self.result: Any = None
        self._status = w.HTML()
        self._output = w.Output()
        self._building = False
        self.widget = self._build()
        self.validate()

    @classmethod
    def from_file(cls, path: str | Path) -> ScenarioBuilder:
        """A builder opened on a scenario file."""
        return cls(Path(path))

    # -- editing ---------------------------------------------------------------------------
    def _components(self) -> dict[str, dict[str, Any]]:
        return {
            c["name"]: c for circ in self.document.get("circuits", []) for c in circ["components"]
        }

    def set_fluid(self, fluid: str | None = None, backend: str | None = None) -> list[str]:
        """Set the working fluid and/or its backend; return the validation issues."""
        if fluid is not None:
            self.document["fluid"] = fluid
        if backend is not None:
            self.document["fluid_backend"] = backend
        return self.validate()

    def set_parameter(self, component: str, key: str, value: Any) -> list[str]:
        """Set (or with ``value=None`` remove) a parameter of a circuit component.

        Raises
        ------
        KeyError
            No circuit component of that name (template components are edited in the JSON).
        """
        comps = self._components()
        if component not in comps:
            raise KeyError(f"no component {component!r}; components: {', '.join(comps)}")
        if value is None:
            comps[component].pop(key, None)
        else:
            comps[component][key] = value
        return self.validate()

    def set_control(self, control_id: str, **fields: Any) -> list[str]:
        """Set fields of a control loop (``target``, ``gain``, ``band`` ...)."""
        loops = {c["id"]: c for c in self.document.get("controls", [])}
        if control_id not in loops:
            raise KeyError(f"no control loop {control_id!r}; loops: {', '.join(loops) or 'none'}")
        loops[control_id].update(fields)
        return self.validate()

    # -- checking, solving, saving ---------------------------------------------------------
    def validate(self) -> list[str]:
        """Validate and flatten the document and check its fluid; update the status line.

        Returns
        -------
        list of str
            ``<json path>: <message>`` per issue (empty when the scenario is valid).
        """
        problems: list[ScenarioIssue] = []
        try:
            flat = flatten(load_scenario(copy.deepcopy(self.document)))
            get_backend(flat.fluid, flat.fluid_backend)
        except ScenarioError as exc:
            problems = list(exc.issues)
        except UnknownFluidError as exc:
            problems = [ScenarioIssue("fluid", str(exc))]
        except WorkbenchError as exc:
            problems = [ScenarioIssue("", str(exc))]
        self._problems = problems
        self.issues = [str(issue) for issue in problems]
        if self.issues:
            items = "".join(f"<li><code>{_escape(i)}</code></li>" for i in self.issues)
            n = len(self.issues)
            self._status.value = (
                f"<b style='color:#b00020'>{n} issue{'s' if n != 1 else ''}</b><ul>{items}</ul>"
            )
        else:
            self._status.value = "<b style='color:#1b7f3b'>valid scenario</b>"
        return self.issues

    def _require_valid(self) -> None:
        if self.validate():
            raise ScenarioError(self._problems, source="ScenarioBuilder")

    def solve(self, show: bool = True) -> Any:
        """Solve the scenario; with ``show`` draw the P-h diagram and the summary below the form.

        Raises
        ------
        ScenarioError
            The document is invalid (nothing is solved).
        """
        from workbench.plotting import plot_ph, style_results
        from workbench.solver import solve

        self._require_valid()
        scenario = load_scenario(copy.deepcopy(self.document))
        self.result = solve(scenario)
        if show:
            self._output.clear_output()
            with self._output:
                from IPython.display import display

                fig, _ax = plot_ph(self.result, scenario=scenario)
                display(fig)
                display(style_results(self.result, "summary"))
                display(style_results(self.result, "edges"))
        return self.result

    def save(self, path: str | Path) -> Path:
        """Write the (valid) document as JSON, atomically.

        Raises
        ------
        ScenarioError
            The document is invalid (nothing is written).
        """
        self._require_valid()
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(self.document, fh, indent=2)
            fh.write("\n")
        os.replace(tmp, path)
        return path

    # -- widgets ---------------------------------------------------------------------------
    def _build(self) -> w.VBox:
        doc = self.document
        name = w.Text(value=doc.get("name") or "", description="name", continuous_update=True)
        name.observe(lambda ch: self._on_name(ch["new"]), names="value")
        backend_value = doc.get("fluid_backend") or "Test"
        backend = w.Dropdown(options=list(BACKENDS), value=backend_value, description="backend")
        fluids = available_fluids(backend_value)
        fluid = w.Combobox(
            value=doc.get("fluid", ""), options=fluids, description="fluid", ensure_option=False
        )
        fluid.observe(lambda ch: self.set_fluid(fluid=ch["new"]), names="value")

        def _backend_changed(change: dict[str, Any]) -> None:
            fluid.options = available_fluids(change["new"])
            self.set_fluid(backend=change["new"])

        backend.observe(_backend_changed, names="value")
        sections = [self._component_box(c) for c in self._components().values()]
        titles = [f"{c['name']} ({c.get('type', '?')})" for c in self._components().values()]
        for loop in doc.get("controls", []):
            sections.append(self._control_box(loop))
            titles.append(f"control {loop['id']}")
        accordion = w.Accordion(children=sections, titles=tuple(titles))
        save_path = w.Text(value="scenario.json", description="save as")
        solve_btn = w.Button(description="Solve", button_style="primary", icon="play")
        save_btn = w.Button(description="Save JSON", icon="save")
        solve_btn.on_click(lambda _b: self._safe(self.solve))
        save_btn.on_click(lambda _b: self._safe(lambda: self._saved(self.save(save_path.value))))
        return w.VBox(
            [
                w.HBox([name, fluid, backend]),
                accordion,
                self._status,
                w.HBox([solve_btn, save_path, save_btn]),
                self._output,
            ]
        )

    def _on_name(self, value: str) -> None:
        if value:
            self.document["name"] = value
        else:
            self.document.pop("name", None)
        self.validate()

    def _component_box(self, comp: dict[str, Any]) -> w.VBox:
        rows: list[w.Widget] = []
        for key, value in comp.items():
            if key in ("name", "type"):
                continue
            rows.append(self._param_field(comp["name"], key, value))
        spec = get_spec(comp.get("type", ""))
        names = [p for p in (spec.param_names if spec else ()) if p not in comp]
        box = w.VBox(rows)
        if names:
            pick = w.Dropdown(options=names, description="add")
            add = w.Button(description="Add parameter", icon="plus")

            def _add(_b: Any) -> None:
                default = spec.param(pick.value).default if spec else None
                value = default if default is not None else 0.0
                self.set_parameter(comp["name"], pick.value, value)
                box.children = (
                    *box.children[:-1],
                    self._param_field(comp["name"], pick.value, value),
                    box.children[-1],
                )

            add.on_click(_add)
            box.children = (*rows, w.HBox([pick, add]))
        return box

    def _param_field(self, component: str, key: str, value: Any) -> w.Text:
        field = w.Text(value=_text(value), description=key, continuous_update=True)
        field.style.description_width = "200px"
        field.layout.width = "420px"
        field.observe(
            lambda ch: self.set_parameter(
                component, key, parse_parameter(ch["new"]) if ch["new"].strip() else None
            ),
            names="value",
        )
        return field

    def _control_box(self, loop: dict[str, Any]) -> w.VBox:
        rows = []
        for key in _CONTROL_FIELDS:
            field = w.Text(value=_text(loop.get(key, "")), description=key, continuous_update=True)
            field.observe(
                lambda ch, key=key: self.set_control(
                    loop["id"], **{key: parse_parameter(ch["new"])}
                ),
                names="value",
            )
            rows.append(field)
        return w.VBox(rows)

    def _saved(self, path: Path) -> None:
        self._status.value += f"<br>saved to <code>{_escape(str(path))}</code>"

    def _safe(self, action: Any) -> None:
        try:
            action()
        except (WorkbenchError, OSError) as exc:
            self._status.value += f"<br><b style='color:#b00020'>{_escape(str(exc))}</b>"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:  # pragma: no cover - notebook display
        return self.widget._repr_mimebundle_(**kwargs)


def _escape(text: str) -> str:
    import html

    return html.escape(text)
