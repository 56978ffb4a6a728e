"""Fluid properties: the analytic ``Test`` backend and CoolProp behind one interface.

>>> from workbench.fluids import get_backend
>>> b = get_backend("R134a")            # fluid_backend absent -> Test
>>> round(b.T_sat(3e5) - 273.15, 1)
0.7

The solver only talks to :class:`FluidBackend` objects: a new one from :func:`get_backend`
(owned by the caller), or one lent for a ``with`` block by :func:`lease_backend`; secondary
fluids (air, water, glycols) come from :func:`get_secondary`.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from workbench.fluids.analytic.backend import AnalyticBackend
from workbench.fluids.analytic.params import ANALYTIC_FLUIDS, AnalyticFluid
from workbench.fluids.base import PHASES, FluidBackend, FluidState, PropertyStats
from workbench.fluids.blend.spec import BlendSpec, blend_spec, is_blend_name
from workbench.fluids.names import BACKENDS, available_fluids, resolve_backend, resolve_fluid
from workbench.fluids.pool import BackendPool
from workbench.fluids.secondary import SECONDARY_NAMES, SecondaryFluid, get_secondary

if TYPE_CHECKING:
    from workbench.fluids.blend.table_build import BuildProgress
    from workbench.fluids.blend.tables import BlendTables
    from workbench.fluids.coolprop.backend import CoolPropBackend

__all__ = [
    "ANALYTIC_FLUIDS",
    "BACKENDS",
    "PHASES",
    "SECONDARY_NAMES",
    "AnalyticBackend",
    "AnalyticFluid",
    "BackendPool",
    "BlendSpec",
    "CoolPropBackend",
    "FluidBackend",
    "FluidState",
    "PropertyStats",
    "SecondaryFluid",
    "available_fluids",
    "blend_spec",
    "get_backend",
    "get_secondary",
    "lease_backend",
    "load_blend_tables",
    "resolve_backend",
    "resolve_fluid",
]


def get_backend(fluid: str, backend: str | None = None, *, tabular: bool = False) -> FluidBackend:
    """A new property backend for a fluid, owned by the caller.

    Parameters
    ----------
    fluid : str
        Fluid name; aliases accepted (``R744`` = ``CO2``, ``R-134a`` = ``R134a``, ``R718`` = ``Water``).
    backend : str or None
        ``"Test"`` (also when ``None``, as in a scenario without ``fluid_backend``) or
        ``"CoolProp"``; case-insensitive.
    tabular : bool
        CoolProp only: use ``BICUBIC&HEOS`` tables (fast sweeps) instead of ``HEOS``. Blends
        (``"R454B"``, ``"R32/R1234yf 68.9/31.1"``, :mod:`workbench.fluids.blend.spec`) always get a
        :class:`~workbench.fluids.blend.backend.BlendBackend`, whose tables are built on first
        use and cached on disk (:mod:`workbench.fluids.blend.tables`).

    Returns
    -------
    FluidBackend
        ``b.name`` is the canonical fluid name, ``b.backend_name`` ``"Test"`` or ``"CoolProp"``.
        Not thread-safe: use one per thread (or :func:`lease_backend`).

    Raises
    ------
    UnknownFluidError
        Unknown backend or fluid; the message lists the valid names.
    """
    name = resolve_backend(backend)
    canonical = resolve_fluid(fluid, name)
    if name == "Test":
        return AnalyticBackend(ANALYTIC_FLUIDS[canonical])
    if is_blend_name(canonical):
        from workbench.fluids.blend.backend import BlendBackend

        spec = blend_spec(canonical)
        return BlendBackend(spec, load_blend_tables(spec))
    from workbench.fluids.coolprop.backend import CoolPropBackend

    return CoolPropBackend(canonical, tabular=bool(tabular))


_TABLES: dict[str, object] = {}


def load_blend_tables(spec: BlendSpec, progress: BuildProgress = True) -> BlendTables:
    """The blend's tables, loaded (or built) once per process (:func:`~workbench.fluids.blend.table_build.load_or_build`).

    Parameters
    ----------
    spec : BlendSpec
        The blend.
    progress : bool or callable
        How a build reports: True a progress bar, False nothing, ``report(done, total)`` after
        each pressure node (:data:`~workbench.fluids.blend.table_build.BuildProgress`).
    """
    from workbench.fluids.blend.table_build import load_or_build

    key = spec.cache_key()
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = load_or_build(spec, progress=progress)
    return found  # type: ignore[return-value]


_POOL = BackendPool(get_backend)


def lease_backend(
    fluid: str, backend: str | None = None, *, tabular: bool = False
) -> AbstractContextManager[FluidBackend]:
    """Lend a backend from the process's pool to a ``with`` block (see :class:`BackendPool`)."""
    return _POOL.lease(fluid, backend, tabular=tabular)


def __getattr__(name: str) -> object:
    if name == "CoolPropBackend":
        from workbench.fluids.coolprop.backend import CoolPropBackend

        return CoolPropBackend
    raise AttributeError(f"module 'workbench.fluids' has no attribute {name!r}")
