"""The builder's fluid choice for blends: the list, the composition editor and the table note.

- :func:`fluid_options` is what the fluid box lists: the backend's pure fluids, then the
  refrigerant blends CoolProp can build (:func:`~workbench.fluids.blend.spec.blend_catalog`). A
  blend needs ``fluid_backend`` ``"CoolProp"``: picking one while the form is on the ``Test``
  backend switches the backend to CoolProp and says so (:func:`needs_coolprop`), since a person
  who picks R454B from the list wants R454B, not an issue to fix.
- :class:`CompositionEditor` edits a custom blend as rows of component and mass percentage.
  Every change is composed with :func:`~workbench.fluids.blend.spec.compose_blend`: a valid
  composition becomes the fluid (its canonical mass form); an incomplete or wrong one is one
  issue at the fluid's JSON path (:func:`compose_rows`), and the fluid keeps its last value.
  Rows follow the form's rule (:mod:`~workbench.notebook_ui.form`): they never move or get
  re-created while a person types, an emptied box keeps its row and focus, and text is written
  back only when it does not already mean the value (an edit from elsewhere).
- :func:`missing_tables` lists the blends whose property tables a solve would build first
  (seconds to a minute, once per composition); :func:`tables_note` says so in the status line,
  where the builder then counts the build's progress (never a bar on standard error, which
  JupyterLab would log as a warning).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from workbench.errors import UnknownFluidError
from workbench.fluids import available_fluids
from workbench.fluids.blend.spec import BlendSpec, blend_catalog, compose_blend, parse_blend

__all__ = [
    "CompositionEditor",
    "building_note",
    "compose_rows",
    "composition_of",
    "fluid_options",
    "missing_tables",
    "needs_coolprop",
    "tables_note",
]


def fluid_options(backend: str) -> list[str]:
    """The fluid box's list: the backend's pure fluids, then the blends (R4xx, R5xx)."""
    pure = available_fluids(backend) if backend in ("Test", "CoolProp") else []
    blends = [name for name, _mass in blend_catalog()]
    return pure + [b for b in blends if b not in pure]


def needs_coolprop(fluid: str) -> bool:
    """True when ``fluid`` names a blend (which only the CoolProp backend models)."""
    try:
        return parse_blend(fluid) is not None
    except UnknownFluidError:
        return False


def composition_of(fluid: str | None) -> list[tuple[str, str]]:
    """``(component, mass %)`` texts of a blend's composition (two empty rows otherwise)."""
    try:
        spec = parse_blend(fluid) if fluid else None
    except UnknownFluidError:
        spec = None
    if spec is None:
        return [("", ""), ("", "")]
    return [(c, f"{100.0 * x:.6g}") for c, x in zip(spec.components, spec.mass_fractions)]


def compose_rows(rows: list[tuple[str, str]]) -> tuple[str | None, str | None]:
    """The fluid string of editor rows, or the issue that stops it.

    Parameters
    ----------
    rows : list of (str, str)
        Component name and mass percentage [%] as typed.

    Returns
    -------
    (str or None, str or None)
        ``(canonical fluid, None)`` for a valid composition, else ``(None, reason)`` naming the
        row and column (``row 2 mass %: empty: type a value``) or the composition's error
        (unknown component, sum not 100, missing interaction parameters).
    """
    components, percent = [], []
    for i, (name, text) in enumerate(rows, start=1):
        if not name.strip():
            return None, f"composition row {i} component: empty: type a component"
        if not text.strip():
            return None, f"composition row {i} mass %: empty: type a value"
        try:
            value = float(text)
        except ValueError:
            return None, f"composition row {i} mass %: {text.strip()!r} is not a number"
        components.append(name.strip())
        percent.append(value)
    if len(components) < 2:
        return None, "composition: a blend has at least two components"
    try:
        return compose_blend(components, percent), None
    except UnknownFluidError as exc:
        return None, f"composition: {exc}"


def missing_tables(fluids: list[str]) -> list[BlendSpec]:
    """The blends among ``fluids`` whose property tables are not on disk yet (a solve builds them)."""
    from workbench.fluids.blend.table_build import tables_cached

    missing = []
    for fluid in fluids:
        try:
            spec = parse_blend(fluid)
        except UnknownFluidError:
            continue
        if spec is not None and not tables_cached(spec):
            missing.append(spec)
    return missing


def building_note(missing: list[BlendSpec]) -> str | None:
    """What a solve does first for the blends ``missing`` their tables (None: nothing)."""
    if not missing:
        return None
    return (
        f"first use of {', '.join(spec.name for spec in missing)}: building its property "
        "tables (seconds to a minute, once)"
    )


def tables_note(fluids: list[str]) -> str | None:
    """What a solve will do first for blends whose tables are not cached (None: nothing)."""
    return building_note(missing_tables(fluids))


class _Row:
    """One component row: name, mass %, remove button."""

    def __init__(self, name: str, percent: str, changed: Callable[[], None], remove: Any) -> None:
        self._muted = False
        self.name = w.Text(value=name, description="component", continuous_update=True)
        self.name.add_class("wb-blend-component")
        self.percent = w.Text(value=percent, description="mass %", continuous_update=True)
        self.percent.add_class("wb-blend-percent")
        drop = w.Button(icon="times", tooltip="remove this component", tabbable=False)
        drop.layout.width = "34px"
        drop.add_class("wb-blend-remove")
        drop.on_click(lambda _b: remove(self))
        self.widget = w.HBox([self.name, self.percent, drop])
        for box in (self.name, self.percent):
            box.observe(lambda _ch: None if self._muted else changed(), names="value")

    def values(self) -> tuple[str, str]:
        return str(self.name.value), str(self.percent.value)

    def show(self, name: str, percent: str) -> None:
        """Write texts from elsewhere (muted: no echo into the editor's own change)."""
        self._muted = True
        try:
            if self.name.value != name:
                self.name.value = name
            if self.percent.value != percent:
                self.percent.value = percent
        finally:
            self._muted = False

    def close(self) -> None:
        for child in self.widget.children:
            child.close()
        self.widget.close()


class CompositionEditor:
    """Rows of component and mass percentage for a custom blend.

    Parameters
    ----------
    fluid : str or None
        The fluid shown first (a blend's composition fills the rows).
    on_change : callable
        ``on_change(rows)`` after every keystroke, with the rows' ``(component, mass %)``
        texts; the builder composes them (:func:`compose_rows`).
    """

    def __init__(self, fluid: str | None, on_change: Callable[[list[tuple[str, str]]], None]):
        self._on_change = on_change
        self._rows: list[_Row] = []
        self._box = w.VBox()
        add = w.Button(description="Add component", icon="plus")
        add.add_class("wb-blend-add")
        add.on_click(lambda _b: self.add_row())
        title = w.HTML("<b>custom blend</b> (components and <b>mass</b> %, summing to 100)")
        self.widget = w.VBox([title, self._box, add])
        self.widget.add_class("wb-blend-editor")
        self.load(fluid)

    def rows(self) -> list[tuple[str, str]]:
        """The rows' ``(component, mass %)`` texts, in order."""
        return [row.values() for row in self._rows]

    def load(self, fluid: str | None) -> None:
        """Show a fluid's composition (an edit from elsewhere: the fluid box, code, Open)."""
        wanted = composition_of(fluid)
        if compose_rows(self.rows())[0] == (fluid or "").strip() and fluid:
            return  # the rows already mean this fluid (the editor's own edit)
        if len(wanted) != len(self._rows):
            for row in self._rows:
                row.close()
            self._rows = [_Row(n, p, self._changed, self._remove) for n, p in wanted]
            self._box.children = [row.widget for row in self._rows]
        else:
            for row, (name, percent) in zip(self._rows, wanted):
                row.show(name, percent)

    def set_rows(self, rows: list[tuple[str, Any]]) -> None:
        """Type rows from code (as a person would, one row after another)."""
        while len(self._rows) < len(rows):
            self.add_row(notify=False)
        while len(self._rows) > len(rows):
            self._remove(self._rows[-1], notify=False)
        for row, (name, percent) in zip(self._rows, rows):
            row.show(str(name), "" if percent is None else str(percent))
        self._changed()

    def add_row(self, notify: bool = True) -> None:
        """Append an empty component row."""
        row = _Row("", "", self._changed, self._remove)
        self._rows.append(row)
        self._box.children = [*self._box.children, row.widget]
        if notify:
            self._changed()

    def _remove(self, row: _Row, notify: bool = True) -> None:
        self._rows.remove(row)
        self._box.children = [r.widget for r in self._rows]
        row.close()
        if notify:
            self._changed()

    def _changed(self) -> None:
        self._on_change(self.rows())
