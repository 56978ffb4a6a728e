"""Fluid and backend names: canonical spellings, aliases and the errors for unknown names."""

from __future__ import annotations

from functools import lru_cache

from workbench.errors import UnknownFluidError
from workbench.fluids.analytic_params import ANALYTIC_FLUIDS

__all__ = [
    "BACKENDS",
    "ALIASES",
    "normalise",
    "resolve_backend",
    "resolve_fluid",
    "available_fluids",
]

BACKENDS = ("Test", "CoolProp")
"""Backend names of the contract's ``fluid_backend`` field (``None`` means ``Test``)."""

ALIASES = {
    "R744": "CO2",
    "CARBONDIOXIDE": "CO2",
    "R718": "Water",
    "H2O": "Water",
    "PROPANE": "R290",
    "R1270": "Propylene",
}
"""Extra names accepted for a fluid (compared after :func:`normalise`)."""


def normalise(name: str) -> str:
    """Upper-case a name and drop ``-``, ``_``, spaces (``"r-134a"`` -> ``"R134A"``)."""
    return "".join(ch for ch in name if ch not in "-_ ").upper()


def resolve_backend(backend: str | None) -> str:
    """Canonical backend name; ``None`` -> ``"Test"``.

    Raises
    ------
    UnknownFluidError
        For a name that is not one of :data:`BACKENDS` (case-insensitive).
    """
    if backend is None:
        return "Test"
    if isinstance(backend, str):
        for known in BACKENDS:
            if normalise(backend) == known.upper():
                return known
    raise UnknownFluidError(
        f"unknown fluid_backend {backend!r}; valid backends: {', '.join(BACKENDS)} (or null for Test)"
    )


@lru_cache(maxsize=1)
def _coolprop_names() -> dict[str, str]:
    """Map of normalised CoolProp names and aliases to CoolProp's canonical name."""
    import CoolProp.CoolProp as CP

    table: dict[str, str] = {}
    for fluid in CP.get_global_param_string("FluidsList").split(","):
        table[normalise(fluid)] = fluid
        for alias in CP.get_fluid_param_string(fluid, "aliases").split(","):
            if alias:
                table.setdefault(normalise(alias), fluid)
    # Our canonical spellings for the Test fluids win over CoolProp's long names.
    for fluid in ANALYTIC_FLUIDS:
        coolprop_name = table.get(normalise(fluid))
        if coolprop_name is not None:
            for key, value in list(table.items()):
                if value == coolprop_name:
                    table[key] = fluid
    return table


def available_fluids(backend: str | None = None) -> list[str]:
    """Sorted canonical fluid names a backend accepts.

    Parameters
    ----------
    backend : str or None
        ``"Test"`` (default when ``None``) or ``"CoolProp"``.
    """
    backend = resolve_backend(backend)
    if backend == "Test":
        return sorted(ANALYTIC_FLUIDS)
    return sorted(set(_coolprop_names().values()), key=str.lower)


def resolve_fluid(fluid: str, backend: str | None = None) -> str:
    """Canonical fluid name for a backend, accepting aliases (``R744`` = ``CO2``, ``R-134a``).

    Raises
    ------
    UnknownFluidError
        If the backend does not know the fluid; the message lists the valid names.
    """
    backend = resolve_backend(backend)
    if not isinstance(fluid, str) or not fluid.strip():
        raise UnknownFluidError(f"fluid must be a non-empty string, got {fluid!r}")
    key = normalise(fluid)
    key = normalise(ALIASES.get(key, key))
    if backend == "Test":
        for name in ANALYTIC_FLUIDS:
            if normalise(name) == key:
                return name
    else:
        found = _coolprop_names().get(key)
        if found is not None:
            return found
    names = available_fluids(backend)
    hint = " (other fluids need fluid_backend 'CoolProp')" if backend == "Test" else ""
    raise UnknownFluidError(
        f"unknown fluid {fluid!r} for backend {backend}; valid fluids: {', '.join(names)}{hint}; "
        f"aliases: {', '.join(f'{a}={c}' for a, c in ALIASES.items())}"
    )
