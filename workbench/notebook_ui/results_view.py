"""What the builder shows beside the chart after a solve: outcome, headline numbers, warnings.

Everything returns plain values (HTML strings, PNG bytes, lists of findings) so the widgets stay
thin and the content is tested without a browser. The findings a designer looks for first:

- the outcome (converged, or not with the solver's message and hint);
- capacities, compressor power, COPs and the energy balance;
- **warnings** of the solve (a two-phase compressor suction, say) and physical problems;
- **pinch**: the smallest temperature difference between refrigerant and secondary (or
  between the two streams of a thermal coupling) of every heat exchanger; below
  :data:`PINCH_WARNING_K` the exchanger is at its limit (more UA buys almost nothing);
- **saturated control loops**: an actuator at its ``min`` or ``max`` no longer holds the
  target.
"""

from __future__ import annotations

import html
import io
from typing import Any

__all__ = [
    "PINCH_WARNING_K",
    "chart_png",
    "coil_temperatures_html",
    "findings",
    "message_html",
    "pinches",
    "result_html",
]

PINCH_WARNING_K = 1.0
"""Pinch below which a heat exchanger is flagged [K]."""

_RED, _AMBER, _GREEN = "#b00020", "#8a5a00", "#1b7f3b"


def pinches(result: Any) -> list[tuple[str, float]]:
    """``(exchanger, smallest temperature difference [K])`` of every coil and coupling."""
    out = []
    for name, outputs in (result.components or {}).items():
        dt = outputs.get("min_temperature_difference")
        if dt is not None:
            out.append((name, float(dt)))
    for coupling in result.couplings or []:
        dt = coupling.get("min_temperature_difference")
        if dt is not None:
            label = f"{coupling.get('hot_component')} / {coupling.get('cold_component')}"
            out.append((label, float(dt)))
    return out


def findings(result: Any) -> list[tuple[str, str]]:
    """``(level, text)`` of what needs attention: ``"error"`` or ``"warning"``.

    Physical problems and a failed solve are errors; solver warnings (wet suction), pinches
    below :data:`PINCH_WARNING_K` and saturated control loops are warnings.
    """
    out: list[tuple[str, str]] = []
    if not result.converged:
        text = f"NOT converged: {result.message}"
        if result.hint:
            text += f". Hint: {result.hint}"
        out.append(("error", text))
    out += [("error", p) for p in result.problems]
    out += [("warning", w) for w in result.warnings]
    for name, dt in pinches(result):
        if dt < PINCH_WARNING_K:
            out.append(
                (
                    "warning",
                    f"pinch {dt:.2f} K in {name}: the exchanger is at its limit "
                    "(more UA or flow buys little)",
                )
            )
    for loop in result.controls or []:
        if loop.get("saturated"):
            bound = "max" if loop["saturated"] == "high" else "min"
            out.append(
                (
                    "warning",
                    f"control loop {loop['id']} is saturated at its {bound} (actuator "
                    f"{loop['actuator']:.4g}): measured {loop['measured']:.4g}, target "
                    f"{loop['target']:.4g} is not held",
                )
            )
    return out


def _fmt(value: Any, scale: float = 1.0, digits: int = 4) -> str:
    if value is None:
        return "–"
    return f"{float(value) * scale:.{digits}g}"


def result_html(result: Any, *, stale: bool = False) -> str:
    """The outcome, the headline numbers, the findings and the pinch of each exchanger."""
    s = result.summary or {}
    if result.converged:
        head = (
            f"<b style='color:{_GREEN}'>converged</b> in {result.iterations} iterations "
            f"({result.elapsed_s:.2f} s)"
        )
    else:
        head = f"<b style='color:{_RED}'>NOT converged</b> (drawn at the last iterate)"
    if stale:
        head += (
            f" <b style='color:{_AMBER}'>· the form has changed since this solve: press Solve</b>"
        )
    rows = [
        ("cooling capacity", _fmt(s.get("cooling_capacity_w"), 1e-3), "kW"),
        ("heating capacity", _fmt(s.get("heating_capacity_w"), 1e-3), "kW"),
        ("compressor power", _fmt(s.get("compressor_power_w"), 1e-3), "kW"),
        ("COP cooling", _fmt(s.get("cop_cooling")), "–"),
        ("COP heating", _fmt(s.get("cop_heating")), "–"),
        ("energy balance", _fmt(s.get("energy_balance_w"), 1.0, 3), "W"),
    ]
    rows += [(f"pinch {name}", f"{dt:.2f}", "K") for name, dt in pinches(result)]
    version = getattr(result, "coolprop_version", None)
    if version:
        rows.append(("CoolProp version", html.escape(str(version)), ""))
    table = "".join(
        f"<tr><td>{html.escape(k)}</td><td style='text-align:right'>{v}</td><td>{u}</td></tr>"
        for k, v, u in rows
    )
    items = "".join(
        f"<li style='color:{_RED if level == 'error' else _AMBER}'>{html.escape(text)}</li>"
        for level, text in findings(result)
    )
    notes = f"<ul class='wb-findings'>{items}</ul>" if items else ""
    return (
        f"<div class='wb-result'><div>{head}</div>{notes}"
        f"<table class='wb-summary'>{table}</table>{coil_temperatures_html(result)}</div>"
    )


_COIL_COLUMNS = (
    ("inlet_temperature", "inlet"),
    ("bubble_temperature", "bubble"),
    ("dew_temperature", "dew"),
    ("glide", "glide"),
)


def coil_temperatures_html(result: Any) -> str:
    """The coils' refrigerant temperatures: inlet, bubble and dew [°C], glide [K].

    For a blend the evaporator inlet is colder than the dew point by the part of the glide not
    yet boiled; a pure fluid shows a glide of 0. Empty when no coil reports them.
    """
    lines = []
    for name, out in (result.components or {}).items():
        if out.get("dew_temperature") is None and out.get("glide") is None:
            continue
        cells = []
        for key, _label in _COIL_COLUMNS:
            value = out.get(key)
            if value is None:
                cells.append("–")
            elif key == "glide":
                cells.append(f"{float(value):.2f}")
            else:
                cells.append(f"{float(value) - 273.15:.2f}")
        tds = "".join(f"<td style='text-align:right'>{c}</td>" for c in cells)
        lines.append(f"<tr><td>{html.escape(name)}</td>{tds}</tr>")
    if not lines:
        return ""
    head = "".join(
        f"<th>{label} {'K' if key == 'glide' else '°C'}</th>" for key, label in _COIL_COLUMNS
    )
    return (
        f"<table class='wb-coil-temperatures'><tr><th>coil</th>{head}</tr>{''.join(lines)}</table>"
    )


def message_html(text: str, level: str = "info") -> str:
    """A one-line message of the results area (``info``, ``warning`` or ``error``)."""
    colour = {"error": _RED, "warning": _AMBER}.get(level, "#444")
    return f"<div style='color:{colour}'><b>{html.escape(text)}</b></div>"


DIAGRAMS = {"P-h": "plot_ph", "T-s": "plot_ts"}
"""The builder's diagrams: button label -> function of :mod:`workbench.plotting`."""


def chart_png(result: Any, scenario: Any, *, diagram: str = "P-h", dpi: int = 96) -> bytes:
    """The P-h or T-s diagram of ``result`` as PNG bytes, drawn outside pyplot.

    A scenario with several working fluids (a cascade) gets one panel per fluid
    (:func:`~workbench.plotting.plot_fluid_panels`).

    A figure made by pyplot in a widget callback is also shown by the inline backend (into
    JupyterLab's log console, as no cell is running) and closed by it; a plain
    :class:`~matplotlib.figure.Figure` rendered to bytes here is shown only where the builder
    puts it.

    Parameters
    ----------
    result : SolveResult
        The solved cycle.
    scenario : ScenarioConfig
        The scenario it was solved from (fluid and backend of the diagram's dome).
    diagram : {"P-h", "T-s"}
        Which diagram.
    dpi : int
        Resolution of the PNG [dots per inch].

    Returns
    -------
    bytes
        The PNG file.

    Raises
    ------
    ValueError
        An unknown ``diagram``.
    """
    from matplotlib.figure import Figure

    import workbench.plotting

    if diagram not in DIAGRAMS:
        raise ValueError(f"unknown diagram {diagram!r}; use one of {', '.join(DIAGRAMS)}")
    from workbench.plotting.common import fluid_groups

    plot = getattr(workbench.plotting, DIAGRAMS[diagram])
    if len(fluid_groups(scenario)) > 1:  # a cascade: each circuit on its own fluid's dome
        fig = Figure(figsize=(12.0, 5.2), layout="constrained")
        workbench.plotting.plot_fluid_panels(result, scenario, diagram, fig=fig)
    else:
        fig = Figure(figsize=(8.0, 5.2), layout="constrained")
        plot(result, scenario=scenario, ax=fig.add_subplot())
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()
