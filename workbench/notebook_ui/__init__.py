"""Notebook helpers: widget front ends and running notebooks with papermill.

The notebooks in ``notebooks/`` hold no model logic; the widgets they show are built here so
they can be tested: :class:`ScenarioBuilder` (a scenario form that validates as you type,
solves and plots) and :class:`NoteSearchPanel` (keyword, semantic and hybrid results side by
side). :func:`run_notebook` executes a notebook with papermill on a kernel of this interpreter.
ipywidgets is imported only when a widget class is used.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from workbench.notebook_ui.errors import brief_errors
from workbench.notebook_ui.run import (
    NOTEBOOK_DIR,
    ensure_kernel,
    list_notebooks,
    locate,
    notebook_outputs,
    parse_parameter,
    resolve_notebook,
    run_notebook,
)

_LAZY = {
    "ScenarioBuilder": "workbench.notebook_ui.builder",
    "NoteSearchPanel": "workbench.notebook_ui.notes_panel",
}

__all__ = [
    "NOTEBOOK_DIR",
    "brief_errors",
    "ensure_kernel",
    "list_notebooks",
    "locate",
    "notebook_outputs",
    "parse_parameter",
    "resolve_notebook",
    "run_notebook",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'workbench.notebook_ui' has no attribute {name!r}")
    return getattr(import_module(module), name)
