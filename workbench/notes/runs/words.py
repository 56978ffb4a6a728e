"""A scenario in words: numbers with units, the topology, and what differs from the defaults.

The run and sweep notes (:mod:`.describe`, :mod:`.sweeps`) are written from these sentences.
They are plain text meant for two readers: an engineer scanning the run log, and the search (a
figure is written the way a person would type it: ``-7 °C``, ``COP 2.91``, ``3.4 kW``, so the
keyword branch finds it, see :func:`workbench.notes.search.keyword_terms`).

"The defaults" a note compares against (docs/notes.md, Run log):

- **catalog defaults**: a component parameter the component catalog gives a default for
  (``fan_speed`` 1, ``isentropic_efficiency`` 0.7, ``z_ua`` 1, ...) is listed only when the
  document sets it to another value, with the default beside it; a parameter without a catalog
  default (a UA, an inlet temperature, a superheat: the design values that choose the model) is
  always listed;
- **template defaults**: an instance's value of a template ``$parameter`` that differs from the
  template's default;
- **solver defaults**: the solver settings that differ from :class:`SolverConfig`'s;
- **the base document**: a run stored from the builder, or with overrides on the command line,
  lists what changed from the document as opened (``evaporator.air_inlet_temp_c 7 -> -7``); a
  sweep lists the values it varied.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from workbench.components.catalog.specs import CONTROL_OUTPUT_UNITS, get_spec
from workbench.errors import SpecificationError
from workbench.fluids.names import ALIASES, normalise
from workbench.scenario import FlatScenario, SolverConfig
from workbench.units import kelvin_to_celsius

__all__ = [
    "CONTROL_OUTPUT_UNITS",
    "celsius",
    "circuit_chains",
    "conditions",
    "display_unit",
    "exact",
    "fluid_words",
    "joined",
    "kilowatts",
    "number",
    "parameter_sentences",
    "purpose",
    "solver_sentences",
    "template_sentences",
    "topology_sentences",
    "type_words",
    "with_unit",
]


_UNITS = {"degC": "°C", "1/s": "Hz", "": ""}
_HEATING = re.compile(r"heat[\s_-]*pump|heating|boiler|hot[\s_-]*water", re.IGNORECASE)


def number(value: Any) -> str:
    """A figure as a person writes it: 3 significant digits (at least the integer part).

    ``2.9134`` -> ``2.91``, ``3.40`` -> ``3.4``, ``1234.6`` -> ``1235``, ``0.000123`` ->
    ``0.000123``, ``2.4e-09`` stays in exponent form; ``None`` -> ``–``.
    """
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    x = float(value)
    if not math.isfinite(x):
        return str(x)
    if x == 0:
        return "0"
    magnitude = abs(x)
    if magnitude >= 100:
        text = f"{x:.0f}"
    elif magnitude >= 1e-3:
        decimals = max(0, 2 - math.floor(math.log10(magnitude)))
        text = f"{x:.{decimals}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
    else:
        text = f"{x:.2g}"
    return "0" if text in ("-0", "+0") else text


def celsius(t_k: float | None) -> str:
    """A temperature [K] in °C with one decimal at most.

    ``265.9`` -> ``-7.2 °C``, ``266.15`` -> ``-7 °C``.
    """
    if t_k is None:
        return "–"
    text = f"{kelvin_to_celsius(float(t_k)):.1f}".removesuffix(".0")
    return ("0" if text == "-0" else text) + " °C"


def kilowatts(w: float | None) -> str:
    """A heat flow or power [W] in kW: ``3401.2`` -> ``3.4 kW``."""
    return "–" if w is None else f"{number(float(w) / 1e3)} kW"


def with_unit(value: Any, unit: str) -> str:
    """A value of the document with its catalog unit (``degC`` shown as ``°C``, ``1/s`` as ``Hz``).

    Numbers are shown exactly as the document holds them (:func:`exact`), lists by their length
    (a compressor map), objects as compact JSON.
    """
    if isinstance(value, list):
        return f"({len(value)} coefficients{', ' + unit if unit else ''})"
    if isinstance(value, dict):
        return json.dumps(value, separators=(", ", ": "))
    return f"{exact(value)} {display_unit(unit)}".rstrip()


def display_unit(unit: str) -> str:
    """A catalog unit as shown: ``degC`` -> ``°C``, ``1/s`` -> ``Hz``, others as they are."""
    return _UNITS.get(unit, unit)


def exact(value: Any) -> str:
    """A value of the document as written: ``303.15``, ``3e-05``, ``1.0`` -> ``1``, ``True``."""
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


def purpose(doc: Mapping[str, Any]) -> str:
    """``"heating"`` or ``"cooling"``: which figures a title leads with.

    ``metadata.purpose`` when it says ``heating`` or ``cooling``; else ``heating`` when the name
    speaks of a heat pump, heating, a boiler or hot water; else ``cooling``.
    """
    meta = doc.get("metadata") or {}
    stated = meta.get("purpose") if isinstance(meta, Mapping) else None
    if stated in ("heating", "cooling"):
        return str(stated)
    return "heating" if _HEATING.search(str(doc.get("name") or "")) else "cooling"


def fluid_words(fluid: str) -> list[str]:
    """The fluid's name and its other names (``R290`` -> ``["R290", "propane"]``)."""
    words = [fluid]
    key = normalise(fluid)
    canonical = ALIASES.get(key, fluid)
    for alias, target in ALIASES.items():
        if normalise(target) in (key, normalise(canonical)) and alias != key:
            words.append(alias.lower() if alias.isalpha() else alias)
    if normalise(canonical) != key:
        words.append(canonical)
    return list(dict.fromkeys(words))


def type_words(type_name: str) -> str:
    """``ExpansionValve`` -> ``expansion valve``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", type_name).lower()


def _streams(type_name: str) -> tuple[tuple[str, str], ...]:
    from workbench.components.models import component_class

    try:
        return tuple(component_class(type_name).streams)
    except SpecificationError:
        return (("inlet", "outlet"),)


def _outlets(flat: FlatScenario, name: str) -> list[str]:
    """The ports a chain may leave a component by.

    Its streams' outlets, or for a junction (no through streams: a mixer, splitter, flash tank)
    every port that feeds an edge.
    """
    streams = _streams(flat.components[name].type)
    if streams:
        return [outlet for _inlet, outlet in streams]
    return [e.src_port for e in flat.edges if e.src == name]


def circuit_chains(flat: FlatScenario, circuit: int) -> list[tuple[list[str], str]]:
    """The components of a circuit in flow order: ``(names, end)`` per chain.

    The first chain starts at the circuit's first compressor (else its first component) and
    follows each edge into a component and out of the outlet of the same stream (the type's
    ``streams``). ``end`` says how a chain stops: ``"closed"`` (back at its start), ``"junction"``
    (at a mixer, splitter or flash tank, the last name: branches meet there), ``"joins"`` (the
    flow goes on from the last name as an earlier chain says) or ``"open"`` (no edge leaves the last
    component). Edges not yet walked (the branches leaving a junction, the other stream of a
    two-stream exchanger) start further chains.
    """
    edges = flat.circuit_edges(circuit)
    by_source = {(e.src, e.src_port): e for e in edges}
    used: set[int] = set()
    chains: list[tuple[list[str], str]] = []
    comps = flat.circuit_components(circuit)
    starts = [c for c in comps if c.type == "Compressor"] + [
        c for c in comps if c.type != "Compressor"
    ]
    for start in starts:
        for outlet in _outlets(flat, start.name):
            edge = by_source.get((start.name, outlet))
            if edge is None or id(edge) in used:
                continue
            names, end = [start.name], "open"
            while edge is not None:
                used.add(id(edge))
                if edge.dst == start.name:
                    end = "closed"
                    break
                names.append(edge.dst)
                streams = _streams(flat.components[edge.dst].type)
                if not streams:
                    end = "junction"
                    break
                out = next((b for a, b in streams if a == edge.dst_port), None)
                edge = by_source.get((edge.dst, out)) if out else None
                if edge is not None and id(edge) in used:
                    end = "joins"  # the last component continues as described before
                    break
            chains.append((names, end))
    return chains


def _chain_text(flat: FlatScenario, names: list[str], end: str) -> str:
    parts = [f"{n} ({flat.components[n].type})" for n in names]
    if end == "joins":
        parts[-1] = names[-1]  # named above
    text = " -> ".join(parts)
    return (
        text
        + {
            "closed": f" -> back to {names[0]}",
            "open": " (open: nothing leaves it)",
            "junction": "",
            "joins": "",
        }[end]
    )


def topology_sentences(doc: Mapping[str, Any], flat: FlatScenario) -> list[str]:
    """The circuits in flow order, the templates and their instances, control loops, couplings."""
    n = len(flat.circuits)
    out = [f"{'One circuit' if n == 1 else f'{n} circuits'}."]
    for cid in flat.circuits:
        chains = circuit_chains(flat, cid)
        text = "; ".join(_chain_text(flat, names, closed) for names, closed in chains)
        out.append(f"Circuit {cid}: {text or 'no edges'}.")
    templates: dict[str, list[str]] = {}
    for inst in doc.get("instances") or []:
        templates.setdefault(str(inst.get("of")), []).append(
            f"{inst.get('name')} (circuit {inst.get('circuit', 0)})"
        )
    for template, instances in templates.items():
        members = ", ".join(
            str(c.get("name"))
            for c in (doc.get("subsystems") or {}).get(template, {}).get("components", [])
        )
        out.append(f"Template {template} ({members}) is instantiated as {', '.join(instances)}.")
    for loop in flat.controls:
        unit = CONTROL_OUTPUT_UNITS.get(loop.measure.output, "")
        out.append(
            f"Control loop {loop.id} holds {loop.measure.component} {loop.measure.output} at "
            f"{exact(loop.target)} {unit} by moving {loop.actuator.component} "
            f"{loop.actuator.factor} between {exact(loop.actuator.min)} and "
            f"{exact(loop.actuator.max)} (gain {exact(loop.gain)})."
        )
    for coupling in flat.thermal_couplings:
        geometry = coupling.geometry or {}
        exchanger = (
            f"UA {exact(coupling.ua)} W/K"
            if coupling.ua is not None
            else f"{geometry.get('kind')} exchanger of {exact(geometry.get('plates'))} plates"
        )
        out.append(
            f"Thermal coupling from circuit {coupling.hot_circuit} (hot) to circuit "
            f"{coupling.cold_circuit} (cold): {exchanger}, efficiency "
            f"{exact(coupling.efficiency)}."
        )
    return out


def parameter_sentences(flat: FlatScenario) -> tuple[list[str], int]:
    """One sentence per component: its design values and what differs from catalog defaults.

    Returns
    -------
    sentences : list of str
        ``evaporator (Evaporator): ua_nominal_kw_k 1.2 kW/K, air_inlet_temp_c 7 °C; fan_speed
        0.8 (catalog default 1)``.
    at_default : int
        Parameters the document sets to their catalog default (not listed).
    """
    out: list[str] = []
    at_default = 0
    for comp in flat.components.values():
        spec = get_spec(comp.type)
        design: list[str] = []
        changed: list[str] = []
        for key, value in comp.params.items():
            pspec = spec.param(key) if spec else None
            unit = pspec.unit if pspec else ""
            if pspec is None or pspec.default is None:
                design.append(f"{key} {with_unit(value, unit)}")
            elif value == pspec.default and type(value) is not bool:
                at_default += 1
            else:
                changed.append(
                    f"{key} {with_unit(value, unit)} (catalog default {with_unit(pspec.default, unit)})"
                )
        text = ", ".join(design)
        if changed:
            text += ("; " if text else "") + ", ".join(changed)
        out.append(f"{comp.name} ({comp.type}): {text or 'catalog defaults only'}.")
    return out, at_default


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def conditions(flat: FlatScenario) -> list[str]:
    """What the exchangers see: ``evaporator air in at -7 °C``, ``condenser water in at 30 °C``.

    The secondary inlet of every exchanger that has one (``air_inlet_temp_c`` or
    ``secondary_inlet_temp_k`` with its ``secondary_fluid``: evaporators, condensers, gas
    coolers), and what an ideal-mode exchanger fixes (``t_evap_k``, ``t_cond_k``, a gas
    cooler's ``pressure_pa`` and ``outlet_temp_k``). How people recall a run: "the unit at
    -7 °C".
    """
    out = []
    for comp in flat.components.values():
        p = comp.params
        medium = str(p.get("secondary_fluid", "air")).lower()
        if _is_number(p.get("air_inlet_temp_c")):
            out.append(f"{comp.name} {medium} in at {exact(p['air_inlet_temp_c'])} °C")
        elif _is_number(p.get("secondary_inlet_temp_k")):
            out.append(f"{comp.name} {medium} in at {celsius(p['secondary_inlet_temp_k'])}")
        fixed = []
        if _is_number(p.get("t_evap_k")):
            fixed.append(f"evaporating at {celsius(p['t_evap_k'])}")
        if _is_number(p.get("t_cond_k")):
            fixed.append(f"condensing at {celsius(p['t_cond_k'])}")
        if comp.type == "GasCooler" and _is_number(p.get("pressure_pa")):
            fixed.append(f"at {number(p['pressure_pa'] / 1e5)} bar")
        if comp.type == "GasCooler" and _is_number(p.get("outlet_temp_k")):
            fixed.append(f"outlet at {celsius(p['outlet_temp_k'])}")
        if fixed:
            out.append(f"{comp.name} {', '.join(fixed)} (fixed)")
    return out


def _template_units(doc: Mapping[str, Any], template: str) -> dict[str, str]:
    """Unit of each ``$parameter`` of a template: that of a component parameter it feeds."""
    units: dict[str, str] = {}
    for comp in (doc.get("subsystems") or {}).get(template, {}).get("components", []):
        spec = get_spec(str(comp.get("type")))
        for key, value in comp.items():
            if isinstance(value, str) and value.startswith("$") and spec is not None:
                pspec = spec.param(key)
                if pspec is not None:
                    units.setdefault(value[1:], pspec.unit)
    return units


def template_sentences(doc: Mapping[str, Any]) -> list[str]:
    """Instance values that differ from (or have no) template default, one sentence each."""
    out: list[str] = []
    templates = doc.get("subsystems") or {}
    for inst in doc.get("instances") or []:
        of = str(inst.get("of"))
        defaults = (templates.get(of) or {}).get("params") or {}
        units = _template_units(doc, of)
        items = []
        for key, value in (inst.get("params") or {}).items():
            unit = units.get(key, "")
            if key not in defaults:
                items.append(f"{key} {with_unit(value, unit)} (no template default)")
            elif value != defaults[key]:
                items.append(
                    f"{key} {with_unit(value, unit)} (template default "
                    f"{with_unit(defaults[key], unit)})"
                )
        if items:
            out.append(f"{inst.get('name')} ({of}): {', '.join(items)}.")
    return out


def solver_sentences(doc: Mapping[str, Any]) -> str:
    """The solver settings, those that differ from the defaults marked."""
    given = doc.get("solver") or {}
    defaults = SolverConfig()
    changed = [
        f"{key} {exact(value)} (default {exact(getattr(defaults, key))})"
        for key, value in given.items()
        if key in SolverConfig.model_fields and value != getattr(defaults, key)
    ]
    base = (
        f"strategy {given.get('strategy', defaults.strategy)}, tolerance "
        f"{given.get('tolerance', defaults.tolerance):g}, at most "
        f"{given.get('max_iterations', defaults.max_iterations)} iterations"
    )
    return f"Solver: {base}" + (
        f"; set apart from the defaults: {', '.join(changed)}." if changed else "; solver defaults."
    )


def joined(items: Iterable[str], empty: str = "none") -> str:
    """Items joined with ``; `` (or ``empty``)."""
    items = [i for i in items if i]
    return "; ".join(items) if items else empty
