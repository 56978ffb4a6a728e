"""What a form edit does to the scenario document: values, emptied fields and key order.

:class:`FormEdits` is the builder's memory beside the document (no widgets here, so the rules
are tested without a browser):

- **Emptied fields.** An emptied value leaves the document. When the field is needed (a
  component parameter the person set, the scenario name, a template ``$parameter`` an instance
  relies on, a control target) the path is *pending*: an issue with its own message ("empty: type
  a value") until a value is typed, and the document is checked as if the field still held its
  last value, so one emptied field is one issue, not a cascade of follow-up errors (an unknown
  ``$parameter``, a missing inlet temperature).
- **Key order.** The document keeps the order of its keys: a value typed into an emptied field
  goes back to where the key was in its object, however many neighbours were emptied and
  refilled meanwhile (the order of each object is remembered the first time one of its keys
  is emptied). **Save JSON** writes the keys as the file had them.
- **Removal** (the ✕ button, or ``None`` from code for an optional value) forgets the key's
  place: a parameter added again is appended, as the form appends its row.
"""

from __future__ import annotations

import copy
from typing import Any

from workbench.notebook_ui.document import JsonPath, get_at, pop_at, set_at

__all__ = ["EMPTY_NAME", "EMPTY_REMOVABLE", "EMPTY_VALUE", "FormEdits", "empty_reason"]

EMPTY_REMOVABLE = "empty: type a value, or remove the parameter with its ✕ button"
EMPTY_VALUE = "empty: type a value"
EMPTY_NAME = "empty: type a name for the scenario"


def empty_reason(doc: dict[str, Any], path: JsonPath) -> str | None:
    """Why an emptied template or instance ``$parameter`` is an issue (None: the default applies).

    A template's default (``subsystems.<t>.params.<key>``) is needed when the template uses
    ``$key`` and an instance of it does not set its own value; an instance's value is needed
    when its template has no default.
    """
    if len(path) == 4 and path[0] == "subsystems" and path[2] == "params":
        template, key = str(path[1]), str(path[3])
        used = any(
            value == f"${key}"
            for comp in get_at(doc, ("subsystems", template, "components"), []) or []
            for value in comp.values()
        )
        relying = [
            str(inst.get("name"))
            for inst in doc.get("instances", []) or []
            if inst.get("of") == template and key not in (inst.get("params") or {})
        ]
        if used and relying:
            return f"{EMPTY_VALUE} (the default of ${key} for {', '.join(relying)})"
        return None
    if len(path) == 4 and path[0] == "instances" and path[2] == "params":
        inst = get_at(doc, path[:2], {}) or {}
        defaults = get_at(doc, ("subsystems", inst.get("of", ""), "params"), {}) or {}
        if path[3] not in defaults:
            return f"{EMPTY_VALUE} (the template {inst.get('of')} has no default)"
    return None


class FormEdits:
    """Pending (emptied, needed) fields, their last values and the key order of each object.

    Attributes
    ----------
    pending : dict
        JSON path -> issue message of every emptied field that needs a value.
    """

    def __init__(self) -> None:
        self.pending: dict[JsonPath, str] = {}
        self._last: dict[JsonPath, Any] = {}
        self._orders: dict[JsonPath, list[str | int]] = {}

    def set(self, doc: dict[str, Any], path: JsonPath, value: Any) -> None:
        """Set a value (never None); a refilled key goes back to its place in its object."""
        set_at(doc, path, value)
        self.pending.pop(path, None)
        self._last.pop(path, None)
        self._restore_order(doc, path)

    def empty(self, doc: dict[str, Any], path: JsonPath, reason: str | None) -> None:
        """Take a value out of the document; with a ``reason`` the field is pending (an issue)."""
        parent = get_at(doc, path[:-1])
        if isinstance(parent, dict) and path[-1] in parent:
            self._remember_order(path[:-1], list(parent))
            self._last[path] = parent[path[-1]]
        pop_at(doc, path)
        if reason is None:
            self.pending.pop(path, None)
        else:
            self.pending[path] = reason

    def remove(self, doc: dict[str, Any], path: JsonPath) -> None:
        """Remove a key for good (the ✕ button): not pending, its place forgotten."""
        pop_at(doc, path)
        self.pending.pop(path, None)
        self._last.pop(path, None)
        order = self._orders.get(path[:-1])
        if order is not None and path[-1] in order:
            order.remove(path[-1])

    def checked_copy(self, doc: dict[str, Any]) -> dict[str, Any]:
        """A copy of the document to validate: pending fields hold their last value.

        The pending fields are reported on their own; everything else is checked as it would
        be once they are filled in again.
        """
        out = copy.deepcopy(doc)
        for path in self.pending:
            if path in self._last and isinstance(get_at(out, path[:-1]), dict):
                set_at(out, path, copy.deepcopy(self._last[path]))
        return out

    def _remember_order(self, parent: JsonPath, keys: list[str | int]) -> None:
        order = self._orders.setdefault(parent, [])
        order += [k for k in keys if k not in order]

    def _restore_order(self, doc: dict[str, Any], path: JsonPath) -> None:
        order = self._orders.get(path[:-1])
        parent = get_at(doc, path[:-1])
        if not order or not isinstance(parent, dict) or path[-1] not in order:
            return
        rank = {key: i for i, key in enumerate(order)}
        items = sorted(
            parent.items(),
            key=lambda kv: rank.get(kv[0], len(order) + list(parent).index(kv[0])),
        )
        if [k for k, _v in items] != list(parent):
            parent.clear()
            parent.update(items)
