"""A solved run as a note: the structured summary kept with it, its title and its content.

The title leads with the scenario and its headline figures, e.g. ``R290 split unit, -7 °C
evaporating: COP 2.91, 3.4 kW cooling``. The content reads like an engineer's note: the fluid and
backend, the headline figures first (the start of a note carries most weight in its embedding,
and the local model reads only its first 256 word pieces), the topology in words, the parameters
that differ from the defaults (:mod:`.words` says which defaults), the figures with their units,
the warnings and the convergence.

Everything here is pure (no database): the same summary gives the same note.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.notes.runs.documents import document_changes
from workbench.notes.runs.words import (
    celsius,
    conditions,
    exact,
    fluid_words,
    joined,
    kilowatts,
    number,
    parameter_sentences,
    purpose,
    solver_sentences,
    template_sentences,
    topology_sentences,
    type_words,
    with_unit,
)
from workbench.scenario import as_flat

__all__ = [
    "PINCH_NOTE_K",
    "NoteText",
    "headline_temperatures",
    "run_note",
    "run_summary",
    "run_title",
]

PINCH_NOTE_K = 1.0
"""An exchanger whose smallest temperature difference is below this is named as pinched [K]
(the builder's warning threshold)."""

_DROPPED = ("edges", "residual_history")
"""Keys of ``SolveResult.to_dict()`` not kept in a run's summary (a re-solve gives them)."""


@dataclass(frozen=True)
class NoteText:
    """Title and content of a note."""

    title: str
    content: str


def run_summary(result: Any, doc: Mapping[str, Any]) -> dict[str, Any]:
    """What a run note keeps of a result, as JSON-ready data (``"NoteRun".summary``).

    The keys of ``workbench solve --json`` (``SolveResult.to_dict()``) except the edge table and
    the residual history, plus ``fluid``, ``fluid_backend``, ``strategy`` (the methods that ran,
    ``newton -> picard``), ``purpose`` and the headline temperatures ``evaporating_c`` and
    ``condensing_c`` [°C] (None without an evaporator or condenser). Numbers are Python floats,
    written and read back exactly; NaN and infinity are None.
    """
    data = {k: v for k, v in result.to_dict().items() if k not in _DROPPED}
    evaporating, condensing = headline_temperatures(data.get("components") or [])
    data.update(
        fluid=doc.get("fluid"),
        fluid_backend=doc.get("fluid_backend") or "Test",
        strategy=" -> ".join(getattr(result, "strategy_log", []) or []),
        purpose=purpose(doc),
        evaporating_c=None if evaporating is None else evaporating - 273.15,
        condensing_c=None if condensing is None else condensing - 273.15,
    )
    return data


def headline_temperatures(components: Any) -> tuple[float | None, float | None]:
    """The lowest evaporating and the highest condensing saturation temperature [K].

    ``components`` is the list of ``SolveResult.to_dict()`` (``name``, ``type``, outputs) or the
    dict of ``SolveResult.components``.
    """
    rows = components.values() if isinstance(components, Mapping) else components
    evap = [r.get("saturationTemperature") for r in rows if r.get("type") == "Evaporator"]
    rows = components.values() if isinstance(components, Mapping) else components
    cond = [r.get("saturationTemperature") for r in rows if r.get("type") == "Condenser"]
    evap = [t for t in evap if t is not None]
    cond = [t for t in cond if t is not None]
    return (min(evap) if evap else None, max(cond) if cond else None)


def _name(doc: Mapping[str, Any]) -> str:
    """The scenario's name, with its fluid when the name does not say it."""
    name = str(doc.get("name") or "Unnamed scenario")
    fluid = str(doc.get("fluid") or "")
    squeeze = name.replace("-", "").replace(" ", "").upper()
    if fluid and fluid.replace("-", "").upper() not in squeeze:
        name = f"{name} ({fluid})"
    return name


def _figures(summary: Mapping[str, Any]) -> dict[str, Any]:
    return dict(summary.get("summary") or {})


def run_title(doc: Mapping[str, Any], summary: Mapping[str, Any]) -> str:
    """``<name>, <t> °C evaporating: COP <cop>, <q> kW <cooling|heating>`` (or NOT converged).

    The COP with two decimals and the capacity in kW with one (``COP 6.10, 3.9 kW heating``),
    as a person quotes them; the content states them to three significant digits (``COP 6.1``,
    ``3.87 kW``), so a query with either form finds the run by keyword.
    """
    figures = _figures(summary)
    lead = str(summary.get("purpose") or purpose(doc))
    te, tc = summary.get("evaporating_c"), summary.get("condensing_c")
    where = []
    if te is not None:
        where.append(f"{celsius(te + 273.15)} evaporating")
    if lead == "heating" and tc is not None:
        where.append(f"{celsius(tc + 273.15)} condensing")
    head = _name(doc) + (", " + ", ".join(where) if where else "")
    if not summary.get("converged"):
        return f"{head}: NOT converged ({summary.get('stop_reason')})"
    cop = figures.get(f"cop_{lead}")
    capacity = figures.get(f"{lead}_capacity_w")
    cop_text = "–" if cop is None else f"{cop:.2f}"
    kw_text = "–" if capacity is None else f"{capacity / 1e3:.1f}"
    return f"{head}: COP {cop_text}, {kw_text} kW {lead}"


_OUTPUTS = (
    ("saturationTemperature", "saturation", celsius),
    ("capacity", "capacity", kilowatts),
    ("power", "power", kilowatts),
    ("superheat", "superheat", lambda v: f"{number(v)} K"),
    ("subcooling", "subcooling", lambda v: f"{number(v)} K"),
    ("massFlowRate", "mass flow", lambda v: f"{number(v)} kg/s"),
    ("min_temperature_difference", "pinch", lambda v: f"{number(v)} K"),
)


def _component_figures(components: list[dict[str, Any]]) -> list[str]:
    out = []
    for row in components:
        items = []
        for key, label, fmt in _OUTPUTS:
            value = row.get(key)
            if value is None:
                continue
            if key == "saturationTemperature":
                label = {"Evaporator": "evaporating", "Condenser": "condensing"}.get(
                    str(row.get("type")), label
                )
            items.append(f"{label} {fmt(value)}")
        if items:
            out.append(f"{row.get('name')}: {', '.join(items)}")
    return out


def _pinched(components: list[dict[str, Any]]) -> str:
    return ", ".join(
        f"{row.get('name')} {number(row['min_temperature_difference'])} K"
        for row in components
        if row.get("min_temperature_difference") is not None
        and row["min_temperature_difference"] < PINCH_NOTE_K
    )


def _loop_figures(summary: Mapping[str, Any]) -> list[str]:
    out = []
    for loop in summary.get("controls") or []:
        state = (
            f"saturated at its {'max' if loop.get('saturated') == 'high' else 'min'}"
            if loop.get("saturated")
            else "holding its target"
        )
        out.append(
            f"control loop {loop.get('id')}: measured {number(loop.get('measured'))}, target "
            f"{number(loop.get('target'))}, actuator {number(loop.get('actuator'))}, {state}"
        )
    for c in summary.get("couplings") or []:
        out.append(
            f"coupling {c.get('hot_component')} / {c.get('cold_component')}: "
            f"{kilowatts(c.get('heat_from_hot_w'))} from the hot side, "
            f"{kilowatts(c.get('heat_to_cold_w'))} to the cold side, pinch "
            f"{number(c.get('min_temperature_difference'))} K"
        )
    return out


def _convergence(summary: Mapping[str, Any], doc: Mapping[str, Any]) -> str:
    tolerance = (doc.get("solver") or {}).get("tolerance", 1e-6)
    iterations = summary.get("iterations")
    residual = summary.get("residual_norm")
    strategy = summary.get("strategy") or "-"
    stats = (
        f"{iterations} iterations ({strategy}), largest scaled residual "
        f"{'–' if residual is None else f'{residual:.2g}'} (tolerance {tolerance:g}), stop "
        f"reason {summary.get('stop_reason')}"
    )
    calls = summary.get("property_calls")
    elapsed = summary.get("elapsed_s")
    if calls is not None and elapsed is not None:
        stats += f"; {calls} property calls in {elapsed:.2f} s"
    if summary.get("converged"):
        return f"Convergence: converged after {stats}."
    text = f"Convergence: NOT converged: {summary.get('message')}; {stats}."
    if summary.get("hint"):
        text += f" Hint: {summary['hint']}."
    worst = summary.get("worst_residuals") or []
    if worst:
        text += " Worst residuals: " + ", ".join(
            f"{w.get('equation')} {w.get('scaled_residual'):.2g}" for w in worst[:5]
        )
        text += "."
    return text


def _lead(doc: Mapping[str, Any], summary: Mapping[str, Any], flat: Any) -> str:
    """The opening paragraph: what was solved, under which conditions, and what came out."""
    figures = _figures(summary)
    fluid = str(doc.get("fluid"))
    others = fluid_words(fluid)[1:]
    backend = summary.get("fluid_backend") or doc.get("fluid_backend") or "Test"
    types = list(dict.fromkeys(type_words(c.type) for c in flat.components.values()))
    n = len(flat.circuits)
    text = (
        f"Solved run of {doc.get('name') or 'an unnamed scenario'}, fluid {fluid}"
        f"{' (' + ', '.join(others) + ')' if others else ''} with {backend} properties: "
        f"{'one circuit' if n == 1 else f'{n} circuits'} of {', '.join(types)}."
    )
    where = conditions(flat)
    if where:
        text += f" Conditions: {', '.join(where)}."
    lead = str(summary.get("purpose") or purpose(doc))
    other = "cooling" if lead == "heating" else "heating"
    state = "Result" if summary.get("converged") else "NOT converged (figures at the last iterate)"
    text += (
        f" {state}: {kilowatts(figures.get(f'{lead}_capacity_w'))} {lead} and "
        f"{kilowatts(figures.get(f'{other}_capacity_w'))} {other} for "
        f"{kilowatts(figures.get('compressor_power_w'))} compressor power, COP "
        f"{number(figures.get(f'cop_{lead}'))} {lead} and {number(figures.get(f'cop_{other}'))} "
        f"{other}"
    )
    temps = []
    if summary.get("evaporating_c") is not None:
        temps.append(f"evaporating at {celsius(summary['evaporating_c'] + 273.15)}")
    if summary.get("condensing_c") is not None:
        temps.append(f"condensing at {celsius(summary['condensing_c'] + 273.15)}")
    return text + (f"; {', '.join(temps)}." if temps else ".")


def run_note(
    doc: Mapping[str, Any],
    summary: Mapping[str, Any],
    *,
    base: Mapping[str, Any] | None = None,
    base_label: str = "the document as opened",
) -> NoteText:
    """Title and content of a run note.

    Parameters
    ----------
    doc : mapping
        The scenario document that was solved.
    summary : mapping
        Its :func:`run_summary`.
    base : mapping, optional
        The document the run was made from (the file as opened in the builder, before command
        line overrides); the changes from it are listed.
    base_label : str
        How the content names ``base``.
    """
    flat = as_flat(dict(doc))
    figures = _figures(summary)
    lines = [_lead(doc, summary, flat)]
    if base is not None:
        changes = document_changes(base, doc)
        lines.append(
            f"Changed from {base_label}: "
            + joined(
                (f"{path} {_value(old)} -> {_value(new)}" for path, old, new in changes),
                "nothing",
            )
            + "."
        )
    lines.append("")
    lines.append("Topology: " + " ".join(topology_sentences(doc, flat)))
    params, at_default = parameter_sentences(flat)
    lines.append(
        "Design values and changes from the catalog defaults"
        + (
            f" ({at_default} parameters set to their catalog default are not listed)"
            if at_default
            else ""
        )
        + ":"
    )
    lines += [f"- {p}" for p in params]
    templates = template_sentences(doc)
    if templates:
        lines.append("Instance values against the template defaults:")
        lines += [f"- {t}" for t in templates]
    lines.append(solver_sentences(doc))
    lines.append("")
    lines.append(
        "Figures: "
        + "; ".join(
            (
                f"cooling capacity {kilowatts(figures.get('cooling_capacity_w'))}",
                f"heating capacity {kilowatts(figures.get('heating_capacity_w'))}",
                f"compressor power {kilowatts(figures.get('compressor_power_w'))}",
                f"COP cooling {number(figures.get('cop_cooling'))}",
                f"COP heating {number(figures.get('cop_heating'))}",
                f"energy balance {_small(figures.get('energy_balance_w'))} W",
            )
        )
        + "."
    )
    lines += [f"- {f}" for f in _component_figures(list(summary.get("components") or []))]
    lines += [f"- {f}" for f in _loop_figures(summary)]
    warnings = list(summary.get("warnings") or [])
    pinched = _pinched(list(summary.get("components") or []))
    if pinched:
        warnings.append(
            f"Pinched below {number(PINCH_NOTE_K)} K (at their limit, more UA buys little): "
            f"{pinched}"
        )
    lines.append(f"Warnings: {joined(warnings)}.")
    if summary.get("problems"):
        lines.append(f"Physical problems: {joined(summary['problems'])}.")
    lines.append(_convergence(summary, doc))
    return NoteText(run_title(doc, summary), "\n".join(lines).strip() + "\n")


def _value(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, dict | list):
        return with_unit(value, "") if isinstance(value, dict) else f"({len(value)} values)"
    return exact(value)


def _small(value: Any) -> str:
    if value is None:
        return "–"
    return f"{float(value):.2g}"
