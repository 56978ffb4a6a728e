"""Spellings of fluid and backend names: normalising, aliases, CoolProp's list, close matches.

The floor under :mod:`workbench.fluids.names` (which resolves a name to a backend's fluid, blends
included) and :mod:`workbench.fluids.blend.spec` (which checks a blend's components): both read
spellings here, so neither imports the other.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from functools import lru_cache

from workbench.errors import UnknownFluidError
from workbench.fluids.analytic.params import ANALYTIC_FLUIDS

__all__ = [
    "ALIASES",
    "BACKENDS",
    "closest_fluid_names",
    "normalise",
    "resolve_backend",
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


def _name_keys(backend: str) -> dict[str, str]:
    """Normalised spellings (names and aliases) -> canonical name, for one backend."""
    if backend == "Test":
        keys = {normalise(name): name for name in ANALYTIC_FLUIDS}
        for alias, canonical in ALIASES.items():
            if canonical in ANALYTIC_FLUIDS:
                keys.setdefault(normalise(alias), canonical)
        return keys
    return dict(_coolprop_names())


def closest_fluid_names(
    fluid: str, backend: str | None = None, n: int = 3, extra: list[str] | None = None
) -> list[str]:
    """The few canonical fluid names of a backend closest to a misspelt one.

    Parameters
    ----------
    fluid : str
        The name as typed (``"R41OA"``, ``"r-404"``, ``"propan"``).
    backend : str or None
        ``"Test"`` (default when ``None``) or ``"CoolProp"``.
    n : int
        At most this many names.
    extra : list of str, optional
        More candidate names (the predefined blends' designations,
        :func:`workbench.fluids.names.closest_fluid_names`); a tie goes to the backend's own.

    Returns
    -------
    list of str
        Canonical names, closest first, compared after :func:`normalise` against every name
        and alias (``"R744"`` suggests ``"CO2"``) by :class:`difflib.SequenceMatcher` ratio
        (a name the typed text starts is at least 0.6 + 0.4 x the typed share of it); empty
        when no ratio reaches 0.7; names more than 0.12 below the best are left out.
    """
    key = normalise(str(fluid))
    if not key:
        return []
    keys = _name_keys(resolve_backend(backend))
    own = set(keys.values())  # a tie goes to these, not to the extra names
    for name in extra or []:
        keys.setdefault(normalise(name), name)
    scored: dict[str, float] = {}
    for spelling, canonical in keys.items():
        ratio = SequenceMatcher(None, key, spelling).ratio()
        if spelling.startswith(key):  # a name typed in part: "R404" -> R404A
            ratio = max(ratio, 0.6 + 0.4 * len(key) / len(spelling))
        if ratio >= 0.7 and ratio > scored.get(canonical, 0.0):
            scored[canonical] = ratio
    ranked = sorted(
        scored.items(), key=lambda item: (-item[1], item[0] not in own, item[0].lower())
    )
    best = ranked[0][1] if ranked else 0.0
    return [name for name, ratio in ranked[:n] if ratio >= best - 0.12]
