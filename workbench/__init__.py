"""Thermal Workbench: refrigeration and heat-pump cycle simulation, and engineering note search.

Data flow of the simulation half: ``scenario`` (load, validate, flatten) -> ``fluids``
(property backends) -> ``components`` (equations per family) -> ``solver`` (assembly,
Newton, diagnostics, results) -> ``plotting``. The note search half lives in ``notes``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

# Public names, resolved lazily so that ``import workbench`` stays fast and the optional
# parts (database, notebooks) are only imported when used.
_LAZY = {
    "load_scenario": "workbench.scenario",
    "flatten": "workbench.scenario",
    "ScenarioConfig": "workbench.scenario",
    "FlatScenario": "workbench.scenario",
    "get_backend": "workbench.fluids",
    "solve": "workbench.solver",
    "SolveResult": "workbench.solver",
    "sweep": "workbench.sweep",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    return getattr(import_module(module), name)
