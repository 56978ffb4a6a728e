"""Thermal Workbench: refrigeration and heat-pump cycle simulation, and engineering note search.

Data flow of the simulation half: ``scenario`` (load, expand, check) -> ``fluids``
(property backends) -> ``components`` (equations per family) -> ``solver`` (assembly,
Newton, diagnostics, results) -> ``plotting``. The note search half lives in ``notes``.
See docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

# The sweep package is imported here, before the function of the same name is bound below:
# Python sets ``workbench.sweep`` to a subpackage when it is first imported, so importing it
# first keeps the attribute the function. The package is light (its names load on first use).
from workbench import sweep as _sweep_package

if TYPE_CHECKING:
    import pandas as pd

    from workbench.scenario.types import ScenarioLike

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
}

__all__ = ["__version__", "sweep", *_LAZY]


def sweep(
    scenario: ScenarioLike,
    grid: Mapping[str, Sequence[Any]],
    mode: str = "grid",
    client: Any = None,
    processes: int | None = None,
    progress: bool = True,
    *,
    outputs: Sequence[str] = (),
    chunks: int | None = None,
    tabular: bool = False,
) -> pd.DataFrame:
    """Solve ``scenario`` for every combination (or list) of parameter values.

    The same function as :func:`workbench.sweep.sweep` (parameters, returns and errors are
    documented there and in docs/sweeps.md); ``from workbench.sweep import ...`` imports the
    package's names.
    """
    return _sweep_package.sweep(
        scenario,
        grid,
        mode,
        client,
        processes,
        progress,
        outputs=outputs,
        chunks=chunks,
        tabular=tabular,
    )


_SUBPACKAGES = ("lines",)
"""Analyses reached as ``workbench.<name>`` without importing them first (``workbench.lines.size``)."""


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return import_module(f"workbench.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    return getattr(import_module(module), name)
