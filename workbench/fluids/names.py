"""Fluid and backend names: canonical spellings, aliases and the errors for unknown names."""

from __future__ import annotations

import re

from workbench.errors import UnknownFluidError
from workbench.fluids.analytic.params import ANALYTIC_FLUIDS
from workbench.fluids.blend.spec import MIXTURE_BY_DEFAULT, is_blend_syntax, parse_blend
from workbench.fluids.spelling import (
    ALIASES,
    BACKENDS,
    _coolprop_names,
    normalise,
    resolve_backend,
)
from workbench.fluids.spelling import closest_fluid_names as closest_spelling

__all__ = [
    "ALIASES",
    "BACKENDS",
    "COMMON_FLUIDS",
    "available_fluids",
    "closest_fluid_names",
    "normalise",
    "resolve_backend",
    "resolve_fluid",
    "unknown_fluid_message",
]

COMMON_FLUIDS = ("R134a", "R32", "R410A", "R290", "R1234yf", "CO2")
"""Suggested for an unknown refrigerant number with no close spelling (CoolProp backend)."""

_REFRIGERANT = re.compile(r"^R\d")
"""A refrigerant designation (after :func:`normalise`): R and a number."""


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

    CoolProp also takes blends (:mod:`workbench.fluids.blend.spec`): ``"R454B"`` (canonical
    ``"R454B"``), ``"R407C"`` (the mixture model, as ``"R407C.mix"``), ``"R410A.mix"`` (the
    mixture model; plain ``"R410A"`` is CoolProp's pseudo-pure fluid, as are ``"R404A"`` and
    ``"R507A"``) and custom mass-percent compositions ``"R32/R1234yf 68.9/31.1"``.

    Raises
    ------
    UnknownFluidError
        If the backend does not know the fluid; the message names the closest ones
        (:func:`unknown_fluid_message`).
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
        if is_blend_syntax(fluid) or parse_blend(fluid) is not None:
            raise UnknownFluidError(
                f"{fluid!r} is a blend: blends need fluid_backend 'CoolProp' (the Test "
                "backend models six pure fluids only)"
            )
    else:
        found = _coolprop_names().get(key)
        if found is not None and not is_blend_syntax(fluid) and key not in MIXTURE_BY_DEFAULT:
            return found
        spec = parse_blend(fluid)
        if spec is not None:
            return spec.name
    raise UnknownFluidError(unknown_fluid_message(fluid, backend))


def closest_fluid_names(fluid: str, backend: str | None = None, n: int = 3) -> list[str]:
    """The few canonical fluid names of a backend closest to a misspelt one, blends included.

    :func:`workbench.fluids.spelling.closest_fluid_names` with, on CoolProp, the predefined
    blends' designations as candidates too (``R454`` suggests ``R454A``, ``R454B``,
    ``R454C``; a tie goes to CoolProp's own fluid, R407C before R407A and R407B).

    Parameters
    ----------
    fluid : str
        The name as typed (``"R41OA"``, ``"r-404"``, ``"propan"``).
    backend : str or None
        ``"Test"`` (default when ``None``) or ``"CoolProp"``.
    n : int
        At most this many names.
    """
    from workbench.fluids.blend.spec import blend_catalog

    extra = (
        [designation for designation, _mass in blend_catalog()]
        if resolve_backend(backend) == "CoolProp"
        else []
    )
    return closest_spelling(fluid, backend, n, extra)


def unknown_fluid_message(fluid: str, backend: str | None = None) -> str:
    """The message for a fluid name a backend does not know: the closest names, never all.

    The ``Test`` backend's six names are listed in full; CoolProp's ~120 are not (the message
    names the few closest ones and :func:`available_fluids`).
    """
    backend = resolve_backend(backend)
    close = closest_fluid_names(fluid, backend)
    parts = [f"unknown fluid {fluid!r} for backend {backend}"]
    if close:
        parts.append(f"did you mean {', '.join(close)}?")
    elif backend == "CoolProp" and _REFRIGERANT.match(normalise(str(fluid))):
        # a refrigerant number that no fluid is close to: the usual ones, never all ~120
        parts.append(f"did you mean one of the common refrigerants {', '.join(COMMON_FLUIDS)}?")
    if backend == "Test":
        parts.append(f"valid fluids: {', '.join(available_fluids(backend))}")
        try:
            resolve_fluid(fluid, "CoolProp")
        except UnknownFluidError:
            pass
        else:
            parts.append("other fluids need fluid_backend 'CoolProp'")
        parts.append("aliases: " + ", ".join(f"{a}={c}" for a, c in ALIASES.items()))
    else:
        count = len(available_fluids(backend))
        parts.append(f"workbench.fluids.available_fluids('CoolProp') lists all {count} names")
    return "; ".join(parts)
