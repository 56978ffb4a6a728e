"""Fluid and backend names: canonical spellings, aliases and the errors for unknown names."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

from workbench.errors import UnknownFluidError
from workbench.fluids.analytic_params import ANALYTIC_FLUIDS
from workbench.fluids.blends import MIXTURE_BY_DEFAULT, is_blend_syntax, parse_blend

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

    CoolProp also takes blends (:mod:`workbench.fluids.blends`): ``"R454B"`` (canonical
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


def _name_keys(backend: str) -> dict[str, str]:
    """Normalised spellings (names and aliases) -> canonical name, for one backend."""
    if backend == "Test":
        keys = {normalise(name): name for name in ANALYTIC_FLUIDS}
        for alias, canonical in ALIASES.items():
            if canonical in ANALYTIC_FLUIDS:
                keys.setdefault(normalise(alias), canonical)
        return keys
    from workbench.fluids.blends import blend_catalog

    keys = dict(_coolprop_names())
    for designation, _mass_form in blend_catalog():  # R454 suggests R454A, R454B, R454C
        keys.setdefault(normalise(designation), designation)
    return keys


def closest_fluid_names(fluid: str, backend: str | None = None, n: int = 3) -> list[str]:
    """The few canonical fluid names of a backend closest to a misspelt one.

    Parameters
    ----------
    fluid : str
        The name as typed (``"R41OA"``, ``"r-404"``, ``"propan"``).
    backend : str or None
        ``"Test"`` (default when ``None``) or ``"CoolProp"``.
    n : int
        At most this many names.

    Returns
    -------
    list of str
        Canonical names (CoolProp: also the predefined blends, ``R454`` suggests ``R454A``,
        ``R454B``, ``R454C``), closest first, compared after :func:`normalise` against every name
        and alias (``"R744"`` suggests ``"CO2"``) by :class:`difflib.SequenceMatcher` ratio
        (a name the typed text starts is at least 0.6 + 0.4 x the typed share of it); empty
        when no ratio reaches 0.7; names more than 0.12 below the best are left out.
    """
    key = normalise(str(fluid))
    if not key:
        return []
    scored: dict[str, float] = {}
    for spelling, canonical in _name_keys(resolve_backend(backend)).items():
        ratio = SequenceMatcher(None, key, spelling).ratio()
        if spelling.startswith(key):  # a name typed in part: "R404" -> R404A
            ratio = max(ratio, 0.6 + 0.4 * len(key) / len(spelling))
        if ratio >= 0.7 and ratio > scored.get(canonical, 0.0):
            scored[canonical] = ratio
    own = set(_coolprop_names().values()) if resolve_backend(backend) == "CoolProp" else set()
    # ties: CoolProp's own fluids (R407C) before the other blends of the number (R407A, R407B)
    ranked = sorted(
        scored.items(), key=lambda item: (-item[1], item[0] not in own, item[0].lower())
    )
    best = ranked[0][1] if ranked else 0.0
    return [name for name, ratio in ranked[:n] if ratio >= best - 0.12]


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
