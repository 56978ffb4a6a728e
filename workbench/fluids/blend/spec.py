"""Names of refrigerant blends: CoolProp's predefined mixtures and custom mass-percent compositions.

A scenario's ``fluid`` stays a string. Besides a pure fluid it may name a blend:

- a designation of one of CoolProp's predefined mixtures: ``"R454B"``, ``"R407C"``,
  ``"R-448A"`` (the ``.mix`` suffix is optional). Four blends CoolProp also has as
  pseudo-pure fluids; the plain name means the model a designer naming it expects: the
  zeotropic ``R407C`` (about 7 K glide) is the mixture model (:data:`MIXTURE_BY_DEFAULT`),
  the near-azeotropic ``R404A``, ``R410A``, ``R507A`` (glide below 1 K) stay the pseudo-pure
  fluids (:data:`PSEUDO_PURE`, unchanged results) and ``"R410A.mix"`` selects their
  mixture model;
- a custom composition as ASHRAE 34 and data sheets write it, components and **mass**
  percentages: ``"R32/R1234yf 68.9/31.1"``. The percentages must sum to 100 within
  :data:`SUM_TOLERANCE`; the conversion to the mole fractions CoolProp takes is ours
  (:func:`mass_to_mole`).

CoolProp's bracket form ``"R32[0.829]&R1234yf[0.171]"`` holds *mole* fractions, which data
sheets never give; it is refused with a message that shows the same blend in the mass form.
A pair of components CoolProp cannot build as a mixture and flash (no binary pair data, e.g.
R1234yf with R22 in some versions) is refused too: CoolProp would otherwise stop at the
first flash.

:func:`parse_blend` returns a :class:`BlendSpec` (or None for a name that is not a blend);
:func:`blend_spec` gives the spec of a canonical blend name that :func:`parse_blend` made.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache

from workbench.errors import UnknownFluidError

__all__ = [
    "MIXTURE_BY_DEFAULT",
    "PSEUDO_PURE",
    "SUM_TOLERANCE",
    "BlendSpec",
    "blend_catalog",
    "blend_spec",
    "compose_blend",
    "is_blend_name",
    "is_blend_syntax",
    "mass_to_mole",
    "mole_to_mass",
    "parse_blend",
    "predefined_blends",
]

SUM_TOLERANCE = 0.01
"""Mass percentages of a custom blend must sum to 100 within this [percentage points]."""

PSEUDO_PURE = ("R404A", "R410A", "R507A")
"""Near-azeotropic blends (glide < 1 K) CoolProp also has as pseudo-pure fluids: the plain name
means the pseudo-pure fluid, ``"<name>.mix"`` the mixture model."""

MIXTURE_BY_DEFAULT = ("R407C",)
"""Zeotropic blends CoolProp also has as pseudo-pure fluids: the plain name means the mixture
model (with its glide), as ``"<name>.mix"`` does."""

_CUSTOM = re.compile(r"^\s*(\S+(?:/\S+)+)\s+([0-9.eE+-]+(?:/[0-9.eE+-]+)+)\s*$")
_BRACKET = re.compile(r"([^&\[\]]+)\[([^\]]*)\]")


@dataclass(frozen=True)
class BlendSpec:
    """A refrigerant blend: its components and composition.

    Attributes
    ----------
    name : str
        Canonical name: the designation (``"R454B"``) or the normalised custom form
        (``"R32/R1234yf 68.9/31.1"``).
    components : tuple of str
        CoolProp names of the components.
    mass_fractions : tuple of float
        Mass fractions [-], summing to 1.
    mole_fractions : tuple of float
        Mole fractions [-], summing to 1 (what CoolProp takes).
    designation : str or None
        ASHRAE designation of a predefined mixture, None for a custom composition.
    """

    name: str
    components: tuple[str, ...]
    mass_fractions: tuple[float, ...]
    mole_fractions: tuple[float, ...]
    designation: str | None = None

    @property
    def coolprop_fluids(self) -> str:
        """The ``&``-joined component names for ``AbstractState("HEOS", ...)``."""
        return "&".join(self.components)

    @property
    def mass_form(self) -> str:
        """The composition in the mass form, e.g. ``"R32/R1234yf 68.9/31.1"``."""
        return _mass_form(self.components, self.mass_fractions)

    def cache_key(self) -> str:
        """A string that names the composition exactly (components and mole fractions)."""
        return ";".join(f"{c}={x:.12g}" for c, x in zip(self.components, self.mole_fractions))


def _mass_form(components: tuple[str, ...], mass: tuple[float, ...]) -> str:
    return "/".join(components) + " " + "/".join(f"{100.0 * w:.6g}" for w in mass)


@cache
def _molar_mass(component: str) -> float:
    import CoolProp.CoolProp as CP

    return float(CP.AbstractState("HEOS", component).molar_mass())


def mass_to_mole(components: tuple[str, ...], mass: tuple[float, ...]) -> tuple[float, ...]:
    """Mole fractions [-] from mass fractions [-]: ``x_i = (w_i / M_i) / sum_j (w_j / M_j)``.

    Parameters
    ----------
    components : tuple of str
        CoolProp names of the components (their molar masses ``M_i`` [kg/mol]).
    mass : tuple of float
        Mass fractions ``w_i`` [-], summing to 1.
    """
    moles = [w / _molar_mass(c) for c, w in zip(components, mass)]
    total = sum(moles)
    return tuple(n / total for n in moles)


def mole_to_mass(components: tuple[str, ...], mole: tuple[float, ...]) -> tuple[float, ...]:
    """Mass fractions [-] from mole fractions [-]: ``w_i = x_i M_i / sum_j x_j M_j``."""
    masses = [x * _molar_mass(c) for c, x in zip(components, mole)]
    total = sum(masses)
    return tuple(m / total for m in masses)


@lru_cache(maxsize=1)
def predefined_blends() -> dict[str, str]:
    """Normalised designation (``"R454B"``) -> CoolProp's predefined mixture name (``"R454B.mix"``)."""
    import CoolProp.CoolProp as CP

    from workbench.fluids.spelling import normalise

    table: dict[str, str] = {}
    for name in CP.get_global_param_string("predefined_mixtures").split(","):
        if name.endswith(".mix"):
            table[normalise(name[:-4])] = name
    return table


def is_blend_syntax(fluid: str) -> bool:
    """True when ``fluid`` is written as a blend (``.mix`` suffix, ``/`` composition, brackets)."""
    text = fluid.strip()
    return text.lower().endswith(".mix") or "/" in text or "[" in text or "&" in text


def _resolve_component(name: str, fluid: str) -> str:
    from workbench.fluids.spelling import _coolprop_names, closest_fluid_names, normalise

    found = _coolprop_names().get(normalise(name))
    if found is None:
        close = closest_fluid_names(name, "CoolProp")
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownFluidError(f"blend {fluid!r}: unknown component {name!r}{hint}")
    import CoolProp.CoolProp as CP

    coolprop_name = CP.get_fluid_param_string(found, "name") if found != name else found
    if CP.get_fluid_param_string(coolprop_name, "pure") != "true":
        raise UnknownFluidError(
            f"blend {fluid!r}: component {name!r} is itself a blend (pseudo-pure in CoolProp); "
            "name its own components"
        )
    return coolprop_name


def _check_pairs(components: tuple[str, ...], fluid: str) -> None:
    """Refuse a blend with a pair of components CoolProp cannot build or flash.

    Each pair is built as an equimolar HEOS mixture and flashed to its bubble point
    (:func:`_pair_error`): that is what a solve asks of it. Asking for one interaction
    parameter instead would refuse pairs CoolProp models with another form of departure
    function (R32/R125, R125/R134a of R407C).
    """
    import CoolProp

    for i in range(len(components)):
        for j in range(i + 1, len(components)):
            reason = _pair_error(components[i], components[j])
            if reason is not None:
                raise UnknownFluidError(
                    f"blend {fluid!r}: CoolProp {CoolProp.__version__} cannot build or flash the pair "
                    f"{components[i]}/{components[j]} ({reason}); choose other components "
                    "(the predefined mixtures list what CoolProp can model)"
                )


@lru_cache(maxsize=512)
def _pair_error(first: str, second: str) -> str | None:
    """None when CoolProp builds the equimolar mixture and flashes it, else its message.

    The flash: saturated liquid (Q = 0) at 101 325 Pa, where every pair of refrigerant
    components boils (a wide-boiling pair such as R32/propane can fail an equimolar flash near
    its critical region, which says nothing about the pair's model).
    """
    import CoolProp.CoolProp as CP

    try:
        state = CP.AbstractState("HEOS", f"{first}&{second}")
        state.set_mole_fractions([0.5, 0.5])
        state.update(CP.PQ_INPUTS, 101325.0, 0.0)
    except ValueError as exc:
        return str(exc).strip().rstrip(".")
    return None if math.isfinite(state.T()) else "the bubble point flash gave no temperature"


def _parse_custom(fluid: str, match: re.Match[str]) -> BlendSpec:
    names = match.group(1).split("/")
    raw = match.group(2).split("/")
    if len(names) != len(raw):
        raise UnknownFluidError(
            f"blend {fluid!r}: {len(names)} components but {len(raw)} percentages; write one "
            "mass percentage per component, e.g. 'R32/R1234yf 68.9/31.1'"
        )
    try:
        percent = [float(v) for v in raw]
    except ValueError:
        raise UnknownFluidError(
            f"blend {fluid!r}: the percentages must be numbers, e.g. 'R32/R1234yf 68.9/31.1'"
        ) from None
    if any(not math.isfinite(v) or v <= 0.0 for v in percent):
        raise UnknownFluidError(f"blend {fluid!r}: every mass percentage must be above 0")
    total = sum(percent)
    if abs(total - 100.0) > SUM_TOLERANCE:
        raise UnknownFluidError(
            f"blend {fluid!r}: the mass percentages sum to {total:g}, not 100 (within "
            f"{SUM_TOLERANCE:g})"
        )
    components = tuple(_resolve_component(n, fluid) for n in names)
    if len(set(components)) != len(components):
        raise UnknownFluidError(f"blend {fluid!r}: a component is named twice")
    _check_pairs(components, fluid)
    mass = tuple(v / total for v in percent)
    name = _mass_form(components, tuple(v / 100.0 for v in percent))
    return BlendSpec(name, components, mass, mass_to_mole(components, mass))


def _refuse_bracket(fluid: str) -> UnknownFluidError:
    parts = _BRACKET.findall(fluid)
    try:
        names = tuple(_resolve_component(n.strip(), fluid) for n, _ in parts)
        mole = tuple(float(x) for _, x in parts)
        total = sum(mole)
        mass = mole_to_mass(names, tuple(x / total for x in mole))
        shown = "'" + "/".join(names) + " " + "/".join(f"{100 * w:.4g}" for w in mass) + "'"
    except (UnknownFluidError, ValueError, ZeroDivisionError):
        shown = "e.g. 'R32/R1234yf 68.9/31.1'"
    return UnknownFluidError(
        f"blend {fluid!r}: CoolProp's bracket form gives mole fractions; write the composition "
        f"as components and mass percentages: {shown}"
    )


@cache
def _predefined(key: str) -> BlendSpec:
    import CoolProp.CoolProp as CP

    coolprop_name = predefined_blends()[key]
    try:
        state = CP.AbstractState("HEOS", coolprop_name)
    except ValueError as exc:
        import CoolProp

        raise UnknownFluidError(
            f"CoolProp {CoolProp.__version__} cannot model its predefined mixture "
            f"{coolprop_name!r}: {str(exc).strip()}"
        ) from None
    components = tuple(state.fluid_names())
    mole = tuple(float(x) for x in state.get_mole_fractions())
    mass = mole_to_mass(components, mole)
    designation = coolprop_name[:-4]
    # the near-azeotropic names whose plain form means the pseudo-pure fluid keep their suffix
    name = coolprop_name if designation in PSEUDO_PURE else designation
    return BlendSpec(name, components, mass, mole, designation)


def parse_blend(fluid: str) -> BlendSpec | None:
    """The blend a fluid name denotes, or None when it names no blend.

    Parameters
    ----------
    fluid : str
        ``"R454B"``, ``"R454B.mix"``, ``"R32/R1234yf 68.9/31.1"`` (mass percentages), or any
        other name (None is returned; pure fluids are resolved by
        :func:`~workbench.fluids.names.resolve_fluid`).

    Returns
    -------
    BlendSpec or None

    Raises
    ------
    UnknownFluidError
        A name written as a blend that is not one: an unknown component or designation,
        percentages that do not sum to 100, a pair CoolProp cannot build or flash, or
        CoolProp's bracket (mole-fraction) form.
    """
    from workbench.fluids.spelling import normalise

    text = fluid.strip()
    if "[" in text or "&" in text:
        raise _refuse_bracket(text)
    custom = _CUSTOM.match(text)
    if custom is not None:
        return _parse_custom(text, custom)
    if "/" in text:
        raise UnknownFluidError(
            f"blend {fluid!r}: write components and mass percentages separated by a space, "
            "e.g. 'R32/R1234yf 68.9/31.1'"
        )
    suffix = text.lower().endswith(".mix")
    key = normalise(text[:-4] if suffix else text)
    if not suffix and key in PSEUDO_PURE:
        return None  # the pseudo-pure fluid (names.resolve_fluid)
    if key in predefined_blends():
        return _predefined(key)
    if suffix:
        raise UnknownFluidError(
            f"unknown predefined mixture {fluid!r}; workbench.fluids.blend.spec.predefined_blends() "
            "lists CoolProp's"
        )
    return None


def is_blend_name(name: str) -> bool:
    """True when a canonical CoolProp fluid name (from ``resolve_fluid``) is a blend."""
    from workbench.fluids.spelling import _coolprop_names, normalise

    if is_blend_syntax(name):
        return True
    key = normalise(name)
    if key not in predefined_blends():
        return False
    return key not in _coolprop_names() or key in MIXTURE_BY_DEFAULT


@cache
def blend_spec(name: str) -> BlendSpec:
    """The spec of a canonical blend name (as :func:`parse_blend` returns it in ``name``).

    Raises
    ------
    UnknownFluidError
        ``name`` is not a blend.
    """
    spec = parse_blend(name)
    if spec is None:
        raise UnknownFluidError(f"{name!r} is not a blend")
    return spec


def compose_blend(components: list[str], mass_percent: list[float]) -> str:
    """The fluid string of a custom blend, checked: what a composition editor writes.

    Parameters
    ----------
    components : list of str
        Component names (any spelling :func:`~workbench.fluids.names.resolve_fluid` accepts
        for a pure CoolProp fluid).
    mass_percent : list of float
        Mass percentages [%], summing to 100 within :data:`SUM_TOLERANCE`.

    Returns
    -------
    str
        The canonical mass form, e.g. ``"R32/R1234yf 68.9/31.1"`` (a valid scenario ``fluid``).

    Raises
    ------
    UnknownFluidError
        As :func:`parse_blend` (unknown component, sum, a pair CoolProp cannot model).
    """
    text = "/".join(str(c).strip() for c in components) + " "
    text += "/".join(f"{float(v):.12g}" for v in mass_percent)
    spec = parse_blend(text)
    if spec is None:  # pragma: no cover - a "/" form is always a blend or an error
        raise UnknownFluidError(f"{text!r} is not a blend")
    return spec.name


@lru_cache(maxsize=1)
def blend_catalog() -> list[tuple[str, str]]:
    """Refrigerant blends CoolProp predefines: ``(designation, mass form)``, sorted.

    The R4xx and R5xx designations (zeotropic and azeotropic refrigerant blends), e.g.
    ``("R454B", "R32/R1234yf 68.9/31.1")``; what a fluid choice lists. ``R407C`` is listed
    under its plain name, the three near-azeotropes with a pseudo-pure twin under their ``.mix``
    name (``"R410A.mix"``); those CoolProp cannot build (a pair
    without interaction parameters, e.g. R401A) are left out.
    """
    out = []
    for key in predefined_blends():
        if not re.fullmatch(r"R[45]\d\d[A-Z]?", key):
            continue
        try:
            spec = _predefined(key)
        except UnknownFluidError:
            continue  # a pair without interaction parameters (R401A, ...)
        out.append((spec.name, spec.mass_form))
    return sorted(out)
