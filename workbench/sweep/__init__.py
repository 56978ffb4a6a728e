"""Parameter sweeps: ``sweep(scenario, {"<path>": values}) -> pandas.DataFrame``.

>>> from workbench.sweep import sweep
>>> df = sweep("examples/scenarios/heat_pump_v1.json",
...            {"evaporator.air_inlet_temp_c": [-5, 0, 5, 10]})   # doctest: +SKIP

Each case is warm-started from its neighbour; failed cases are rows with ``converged``
False and an ``error``; local processes by default, a Dask cluster with ``client=``.

Importing this package sets the attribute ``workbench.sweep`` to the package itself (Python
does that for every subpackage), so the package is made callable: ``workbench.sweep(...)``
calls :func:`sweep` whether or not the package was imported before.
"""

import sys
import types

from workbench.sweep.cases import build_cases, snake_order, split_chunks
from workbench.sweep.core import MIN_CASES_PER_PROCESS, sweep
from workbench.sweep.paths import SweepPath, resolve_output, resolve_path
from workbench.sweep.runner import RESULT_COLUMNS, run_chunk

__all__ = [
    "sweep",
    "RESULT_COLUMNS",
    "MIN_CASES_PER_PROCESS",
    "SweepPath",
    "resolve_path",
    "resolve_output",
    "build_cases",
    "snake_order",
    "split_chunks",
    "run_chunk",
]


class _CallableModule(types.ModuleType):
    """The package, callable as :func:`sweep`."""

    def __call__(self, *args, **kwargs):  # noqa: D102
        return sweep(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
