"""Fluid properties: the analytic ``Test`` backend and CoolProp behind one interface.

>>> from workbench.fluids import get_backend
>>> b = get_backend("R134a")            # fluid_backend absent -> Test
>>> round(b.T_sat(3e5) - 273.15, 1)
0.7

The solver only talks to :class:`FluidBackend` objects from :func:`get_backend`; secondary
fluids (air, water, glycols) come from :func:`get_secondary`.
"""

from __future__ import annotations

from functools import lru_cache

from workbench.fluids.analytic import AnalyticBackend
from workbench.fluids.analytic_params import ANALYTIC_FLUIDS, AnalyticFluid
from workbench.fluids.base import PHASES, FluidBackend, FluidState, PropertyStats
from workbench.fluids.names import BACKENDS, available_fluids, resolve_backend, resolve_fluid
from workbench.fluids.secondary import SECONDARY_NAMES, SecondaryFluid, get_secondary

__all__ = [
    "get_backend",
    "FluidBackend",
    "FluidState",
    "PropertyStats",
    "PHASES",
    "BACKENDS",
    "available_fluids",
    "resolve_fluid",
    "resolve_backend",
    "AnalyticBackend",
    "AnalyticFluid",
    "ANALYTIC_FLUIDS",
    "CoolPropBackend",
    "get_secondary",
    "SecondaryFluid",
    "SECONDARY_NAMES",
]


def get_backend(
    fluid: str, backend: str | None = None, *, tabular: bool = False, shared: bool = True
) -> FluidBackend:
    """Property backend for a fluid.

    Parameters
    ----------
    fluid : str
        Fluid name; aliases accepted (``R744`` = ``CO2``, ``R-134a`` = ``R134a``, ``R718`` = ``Water``).
    backend : str or None
        ``"Test"`` (also when ``None``, as in a scenario without ``fluid_backend``) or
        ``"CoolProp"``; case-insensitive.
    tabular : bool
        CoolProp only: use ``BICUBIC&HEOS`` tables (fast sweeps) instead of ``HEOS``.
    shared : bool
        Return the process-wide instance for this (fluid, backend, tabular) (default). Pass
        ``False`` for a private instance, e.g. one per thread (CoolProp states are not
        thread-safe) or to keep separate call statistics.

    Returns
    -------
    FluidBackend
        ``b.name`` is the canonical fluid name, ``b.backend_name`` ``"Test"`` or ``"CoolProp"``.

    Raises
    ------
    UnknownFluidError
        Unknown backend or fluid; the message lists the valid names.
    """
    name = resolve_backend(backend)
    canonical = resolve_fluid(fluid, name)
    tab = bool(tabular) and name == "CoolProp"
    if shared:
        return _shared(canonical, name, tab)
    return _make(canonical, name, tab)


def _make(fluid: str, backend: str, tabular: bool) -> FluidBackend:
    if backend == "Test":
        return AnalyticBackend(ANALYTIC_FLUIDS[fluid])
    from workbench.fluids.coolprop_backend import CoolPropBackend

    return CoolPropBackend(fluid, tabular=tabular)


@lru_cache(maxsize=64)
def _shared(fluid: str, backend: str, tabular: bool) -> FluidBackend:
    return _make(fluid, backend, tabular)


def __getattr__(name: str) -> object:
    if name == "CoolPropBackend":
        from workbench.fluids.coolprop_backend import CoolPropBackend

        return CoolPropBackend
    raise AttributeError(f"module 'workbench.fluids' has no attribute {name!r}")
