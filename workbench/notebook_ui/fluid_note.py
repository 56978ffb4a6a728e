"""The note beside the builder's fluid box, and every issue in the form's words.

A refused fluid (an unknown name, a blend with a pair CoolProp cannot model, a blend on the
``Test`` backend) is an issue at ``fluid`` or ``circuits[i].fluid``. The status line lists it
too, but below the accordion it is off screen while a component's page is open, so the note
under the fluid box repeats it there. The package's messages name a Python call for the whole
list of names (``workbench.fluids.available_fluids('CoolProp') lists all 136 names``); in the
form the list is the fluid box's own dropdown, and the message says so.

Who reads it: :class:`~workbench.notebook_ui.ScenarioBuilder` (its validation).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.errors import ScenarioIssue
from workbench.notebook_ui.document import _PRETTY_UNITS
from workbench.notebook_ui.results_view import message_html

__all__ = ["fluid_note_html", "form_words"]

_LIST_CALL = re.compile(r"workbench\.fluids\.available_fluids\('(\w+)'\) lists all (\d+) names")
_UNIT = re.compile(r"\[(" + "|".join(re.escape(u) for u in _PRETTY_UNITS if u) + r")\]")
_FLUID_PATH = re.compile(r"^(fluid|circuits\[\d+\]\.fluid)$")


def form_words(message: str) -> str:
    """A package message as the form says it: its units, the fluid box's list.

    The catalog's units in brackets become the ones beside the fields (``[1/s]`` -> ``[Hz]``,
    ``[m3]`` -> ``[m³]``), and a Python call for the list of fluid names becomes the fluid
    box's own list.

    Parameters
    ----------
    message : str
        An issue's message.
    """
    message = _UNIT.sub(lambda m: f"[{_PRETTY_UNITS[m.group(1)]}]", message)
    return _LIST_CALL.sub(
        "open the fluid box's list for every name (pure fluids, then blends)", message
    )


def fluid_note_html(problems: Sequence[ScenarioIssue], backend_note: str = "") -> str:
    """The note under the fluid box: the fluid's issues in red, else the backend note, else "".

    Parameters
    ----------
    problems : sequence of ScenarioIssue
        The form's issues (those at ``fluid`` or ``circuits[i].fluid`` are shown).
    backend_note : str
        What the fluid choice did to the backend (a blend switched it to CoolProp).
    """
    refused = [p for p in problems if _FLUID_PATH.match(p.path)]
    if refused:
        text = "; ".join(form_words(p.message if p.path == "fluid" else str(p)) for p in refused)
        return message_html(f"fluid refused: {text}", "error")
    return message_html(backend_note) if backend_note else ""
