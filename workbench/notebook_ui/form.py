"""Widgets of the scenario form: a row per field (value, unit, remove) and accordion sections.

A :class:`FieldRow` shows one :class:`~workbench.notebook_ui.document.Field`: its key, a text
box, its unit from the catalog and, for component parameters, a remove button. A
:class:`Section` is one accordion page (a component, a template's parameters, an instance, a
control loop).

Rows never move while a person edits. A row is a widget that lives until its field leaves the
document through a structural edit (the remove button, a change made from code); emptying a
field is a value edit, not a structural one, so the emptied row keeps its place, its widget and
the keyboard focus, and every following key lands in it. A section only creates rows for new
fields (appended, as the document appends them) and closes rows of removed ones; the browser
keeps the views of the rows before the first change, so the row being typed into is never
re-created. Values are written back into a text box only when its text does not already mean
the document's value (an edit from code), never echoing what the person is typing.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as w

from workbench.notebook_ui.document import (
    Field,
    JsonPath,
    component_fields,
    control_fields,
    family_value,
    field_text,
    get_at,
    instance_param_fields,
    parse_field,
    template_param_fields,
)

__all__ = ["AddRow", "FieldRow", "Section", "build_sections", "circuit_fluid_sections"]


def _unit_html(spec: Field, value: Any = None) -> str:
    """The unit beside a field, and the value in the form's unit family when that differs."""
    also = family_value(spec.key, spec.unit, value)
    extra = f" <small class='wb-family' style='color:#666'>= {html.escape(also)}</small>"
    return f"<span title='{html.escape(spec.description)}'>{html.escape(spec.unit)}</span>" + (
        extra if also else ""
    )


class FieldRow:
    """One field of the form.

    Parameters
    ----------
    spec : Field
        What the field edits.
    value : object
        The document's value (None: empty).
    on_text : callable
        ``on_text(spec, text)`` when the user edits the text.
    on_remove : callable, optional
        ``on_remove(spec)`` when the remove button is clicked (component parameters).
    """

    def __init__(
        self,
        spec: Field,
        value: Any,
        on_text: Callable[[Field, str], None],
        on_remove: Callable[[Field], None] | None = None,
    ) -> None:
        self.spec = spec
        self._muted = False
        self.emptied = False
        """The person emptied this field: the row stays while its value is absent."""
        self.text = w.Text(
            value=field_text(value),
            description=spec.key,
            placeholder=spec.placeholder,
            tooltip=spec.description or spec.key,
            continuous_update=True,
            style={"description_width": "210px"},
            layout=w.Layout(width="430px"),
        )
        self.text.add_class("wb-field")
        self.text.add_class(f"wb-field-{spec.key}")
        self.unit = w.HTML(value=_unit_html(spec, value), layout=w.Layout(width="150px"))
        self.unit.add_class("wb-unit")
        children: list[w.Widget] = [self.text, self.unit]
        if spec.removable and on_remove is not None:
            # out of the Tab order: Tab goes from field to field, never to a remove button
            remove = w.Button(
                icon="times",
                tooltip=f"remove {spec.key}",
                layout=w.Layout(width="34px"),
                tabbable=False,
            )
            remove.add_class("wb-remove")
            remove.on_click(lambda _b: self._remove(on_remove))
            children.append(remove)
        self.widget = w.HBox(children)
        self.text.observe(self._changed, names="value")
        self._on_text = on_text

    def _changed(self, change: dict[str, Any]) -> None:
        if not self._muted:
            self.emptied = not str(change["new"]).strip()
            self._on_text(self.spec, change["new"])

    def _remove(self, on_remove: Callable[[Field], None]) -> None:
        self.emptied = False
        on_remove(self.spec)

    def update(self, spec: Field) -> None:
        """Show a changed description of the same field (placeholder, unit, tooltip)."""
        if spec == self.spec:
            return
        if spec.placeholder != self.spec.placeholder:
            self.text.placeholder = spec.placeholder
        if spec.description != self.spec.description:
            self.text.tooltip = spec.description or spec.key
        self.spec = spec

    def show(self, value: Any, pending: bool) -> None:
        """Show the document's value unless the text already means it (no cursor jumps)."""
        unit = _unit_html(self.spec, value)
        if unit != self.unit.value:
            self.unit.value = unit
        if pending:
            return
        if parse_field(self.text.value, self.spec.kind) != value:
            self._muted = True
            try:
                self.text.value = field_text(value)
            finally:
                self._muted = False

    def close(self) -> None:
        """Close the row's widgets (their comms) when the section is rebuilt."""
        for child in self.widget.children:
            child.close()
        self.widget.close()


@dataclass
class AddRow:
    """The dropdown of parameters a component may still take and its Add button."""

    options: list[str]
    on_add: Callable[[str], None]
    widget: w.HBox = field(init=False)

    def __post_init__(self) -> None:
        """Build the dropdown and the button; a click passes the picked parameter to ``on_add``."""
        pick = w.Dropdown(options=self.options, description="add", layout=w.Layout(width="330px"))
        pick.add_class("wb-add-pick")
        add = w.Button(description="Add parameter", icon="plus")
        add.add_class("wb-add")
        add.on_click(lambda _b: self.on_add(pick.value) if pick.value else None)
        self.widget = w.HBox([pick, add])


@dataclass
class Section:
    """One accordion page of the form.

    Parameters
    ----------
    title : str
        Page title.
    fields : callable
        ``fields()`` -> the fields this page shows now (read from the document).
    add_options : callable, optional
        ``add_options()`` -> parameter names that may be added (a component page).
    on_add : callable, optional
        ``on_add(key)`` when Add is clicked.
    """

    title: str
    fields: Callable[[], list[Field]]
    add_options: Callable[[], list[str]] | None = None
    on_add: Callable[[str], None] | None = None
    box: w.VBox = field(default_factory=w.VBox)
    rows: dict[JsonPath, FieldRow] = field(default_factory=dict)
    _options: list[str] = field(default_factory=list)
    _built: bool = False

    def render(
        self,
        doc: dict[str, Any],
        pending: Collection[JsonPath],
        on_text: Callable[[Field, str], None],
        on_remove: Callable[[Field], None],
    ) -> None:
        """Show the document: the same rows in the same order, new fields appended.

        A row whose field left the document stays when the person emptied it (its value is
        absent, it is being edited); other rows of absent fields are closed.
        """
        specs = {s.path: s for s in self.fields()}
        options = self.add_options() if self.add_options else []
        kept = {p: r for p, r in self.rows.items() if p in specs or r.emptied}
        for path, row in self.rows.items():
            if path not in kept:
                row.close()
        for path, row in kept.items():
            if path in specs:
                row.update(specs[path])
            row.show(get_at(doc, path), path in pending)
        new = [s for p, s in specs.items() if p not in kept]
        if self._built and len(kept) == len(self.rows) and not new and options == self._options:
            return
        self._built = True
        added = {s.path: FieldRow(s, get_at(doc, s.path), on_text, on_remove) for s in new}
        self.rows = {**kept, **added}
        children = [row.widget for row in self.rows.values()]
        self._options = options
        if options and self.on_add is not None:
            children.append(AddRow(options, self.on_add).widget)
        self.box.children = children


def build_sections(
    document: Callable[[], dict[str, Any]],
    pending: Callable[[], set[JsonPath]],
    addable: Callable[[JsonPath], list[str]],
    on_add: Callable[[JsonPath, str], None],
) -> list[Section]:
    """The form's pages, in document order.

    Circuit components, then per template its ``$parameters`` and its components, then the
    instances, then the control loops.

    Parameters
    ----------
    document, pending : callable
        The live document and the paths of emptied required fields (shown as empty rows).
    addable : callable
        ``addable(component_path)`` -> parameters the component may still take.
    on_add : callable
        ``on_add(component_path, key)`` when Add is clicked.
    """

    def component(base: JsonPath, prefix: str = "") -> Section:
        def fields() -> list[Field]:
            comp = get_at(document(), base, {}) or {}
            present = {key for key in comp if key not in ("name", "type")}
            waiting = [str(p[-1]) for p in pending() if p[:-1] == base]
            shown = {**comp, **{key: None for key in waiting if key not in present}}
            return component_fields(shown, base)

        comp = get_at(document(), base, {}) or {}
        return Section(
            f"{prefix}{comp.get('name', '?')} ({comp.get('type', '?')})",
            fields,
            lambda: addable(base),
            lambda key: on_add(base, key),
        )

    doc = document()
    sections = [
        component(("circuits", i, "components", k))
        for i, circuit in enumerate(doc.get("circuits", []) or [])
        for k, _comp in enumerate(circuit.get("components", []) or [])
    ]
    for name, template in (doc.get("subsystems") or {}).items():
        sections.append(
            Section(
                f"template {name}: $parameters",
                lambda name=name: template_param_fields(
                    name, get_at(document(), ("subsystems", name), {}) or {}
                ),
            )
        )
        sections += [
            component(("subsystems", name, "components", k), f"{name} › ")
            for k, _comp in enumerate(template.get("components", []) or [])
        ]
    for i, inst in enumerate(doc.get("instances", []) or []):
        sections.append(
            Section(
                f"instance {inst.get('name')} (of {inst.get('of')}, circuit "
                f"{inst.get('circuit', 0)})",
                lambda i=i: instance_param_fields(
                    i, get_at(document(), ("instances", i), {}) or {}, document()
                ),
            )
        )
    for i, loop in enumerate(doc.get("controls", []) or []):
        sections.append(
            Section(
                f"control {loop.get('id')}",
                lambda i=i: control_fields(i, get_at(document(), ("controls", i), {})),
            )
        )
    return sections


def circuit_fluid_sections(document: Callable[[], dict[str, Any]]) -> list[Section]:
    """One page per circuit of a v2 document: its own ``fluid`` and ``fluid_backend``.

    Both are optional: an empty field means the scenario's fluid (backend) applies, which the
    placeholder names. A blend needs the CoolProp backend (validation says so at the path).
    """

    def fields(i: int) -> list[Field]:
        doc = document()
        base = ("circuits", i)
        return [
            Field(
                (*base, "fluid"),
                "fluid",
                "",
                "this circuit's working fluid (a pure fluid, a blend such as R454B, or a "
                "mass-percent composition 'R32/R1234yf 68.9/31.1')",
                kind="string",
                empty_means="default",
                placeholder=f"the scenario's: {doc.get('fluid', '')}",
            ),
            Field(
                (*base, "fluid_backend"),
                "fluid_backend",
                "",
                "property backend of this circuit's fluid (Test or CoolProp)",
                kind="string",
                empty_means="default",
                placeholder=f"the scenario's: {doc.get('fluid_backend') or 'Test'}",
            ),
        ]

    out = []
    for i, circuit in enumerate(document().get("circuits", []) or []):
        label = circuit.get("name") or circuit.get("id", i)
        out.append(Section(f"circuit {label}: fluid", lambda i=i: fields(i)))
    return out
