"""Parameter sweeps: ``sweep(scenario, {"<path>": values}) -> pandas.DataFrame``.

>>> from workbench.sweep import sweep
>>> df = sweep("examples/scenarios/heat_pump_v1.json",
...            {"evaporator.air_inlet_temp_c": [-5, 0, 5, 10]})   # doctest: +SKIP

Each case is warm-started from its neighbour; failed cases are rows with ``converged``
False and an ``error``; local processes by default, a Dask cluster with ``client=``.

Modules: :mod:`~workbench.sweep.paths` (what a swept column sets or reads),
:mod:`~workbench.sweep.cases` (grid and list cases in neighbouring order),
:mod:`~workbench.sweep.runner` (one chunk of cases, what a worker runs) and
:mod:`~workbench.sweep.driver` (:func:`sweep`: chunks, workers, the frame).

The names below load on first use, so that ``import workbench`` (which imports this package
to bind :func:`workbench.sweep`, the function) stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.sweep.cases import build_cases, snake_order, split_chunks
    from workbench.sweep.driver import MIN_CASES_PER_PROCESS, sweep
    from workbench.sweep.paths import SweepPath, resolve_output, resolve_path
    from workbench.sweep.runner import RESULT_COLUMNS, run_chunk

__all__ = [
    "MIN_CASES_PER_PROCESS",
    "RESULT_COLUMNS",
    "SweepPath",
    "build_cases",
    "resolve_output",
    "resolve_path",
    "run_chunk",
    "snake_order",
    "split_chunks",
    "sweep",
]

_HOME = {
    "sweep": "driver",
    "MIN_CASES_PER_PROCESS": "driver",
    "RESULT_COLUMNS": "runner",
    "run_chunk": "runner",
    "SweepPath": "paths",
    "resolve_path": "paths",
    "resolve_output": "paths",
    "build_cases": "cases",
    "snake_order": "cases",
    "split_chunks": "cases",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'workbench.sweep' has no attribute {name!r}")
    return getattr(import_module(f"workbench.sweep.{module}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
