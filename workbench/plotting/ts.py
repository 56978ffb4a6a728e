"""Temperature-entropy diagram of a solved cycle."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.fluids import FluidBackend
from workbench.plotting.diagram import (
    REFERENCE_LABEL_STYLE,
    REFERENCE_STYLE,
    Diagram,
    critical_label,
    draw_dome,
    finish_diagram,
    number_states,
    reference_handle,
    start_diagram,
)
from workbench.plotting.dome import isobar_ts
from workbench.plotting.labels import LabelPlacer, format_number
from workbench.plotting.layers import draw_cycle
from workbench.units import kelvin_to_celsius, pa_to_bar

__all__ = ["plot_ts"]


def _xy_ts(_p: np.ndarray, _h: np.ndarray, t: np.ndarray, s: np.ndarray):
    return np.asarray(s) / 1e3, kelvin_to_celsius(np.asarray(t))


def _limits(d: Diagram) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """(s [kJ/(kg K)], T [degC]) limits: the cycle and the whole dome above its lowest state."""
    s = d.s_cycle[np.isfinite(d.s_cycle)] / 1e3
    t = kelvin_to_celsius(d.t_cycle[np.isfinite(d.t_cycle)])
    dome_t = np.zeros(0) if d.dome is None else kelvin_to_celsius(d.dome.t_k)
    finite_dome_t = dome_t[np.isfinite(dome_t)]
    if t.size == 0 and finite_dome_t.size == 0:
        return None
    t_lo = float(t.min()) if t.size else float(finite_dome_t.min())
    t_hi = float(np.concatenate([t, finite_dome_t]).max())  # the dome's top is always in view
    span = max(t_hi - t_lo, 10.0)
    y = (t_lo - 0.08 * span, t_hi + 0.06 * span)
    s_all = list(s)
    if d.dome is not None:
        for line in (d.dome.s_liq, d.dome.s_vap):
            keep = np.isfinite(line) & np.isfinite(dome_t) & (dome_t >= y[0])
            s_all += [float(v) / 1e3 for v in line[keep]]
    if not s_all:
        return None
    s_arr = np.array(s_all)
    width = max(float(s_arr.max() - s_arr.min()), 0.05)
    # room on the right for the isobar labels beside the compression lines
    return (float(s_arr.min() - 0.04 * width), float(s_arr.max() + 0.14 * width)), y


def _isobar_anchors(
    s_kj: np.ndarray, t_c: np.ndarray, xlim: tuple[float, float], ylim: tuple[float, float]
) -> list[tuple[float, float]]:
    """Label spots on an isobar inside the view, from its superheated end backwards."""
    ok = np.isfinite(s_kj) & np.isfinite(t_c)
    inside = ok & (s_kj > xlim[0]) & (s_kj < xlim[1]) & (t_c > ylim[0]) & (t_c < ylim[1])
    return [(float(s_kj[k]), float(t_c[k])) for k in np.flatnonzero(inside)[::-1]]


def plot_ts(
    result: Any,
    scenario: Any = None,
    ax: Axes | None = None,
    *,
    fluid: FluidBackend | str | None = None,
    isobars_bar: list[float] | None = None,
    numbers: bool = True,
    title: str | None = None,
    circuits: Collection[int] | None = None,
) -> tuple[Figure, Axes]:
    """T-s diagram: saturation dome, isobars and the solved cycle.

    Parameters
    ----------
    result : SolveResult
        A solve result.
    scenario : ScenarioConfig, FlatScenario, dict or path, optional
        Names the working fluid and backend for the dome and isobars.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure otherwise.
    fluid : FluidBackend or str, optional
        The fluid backend (or name), taking precedence over the scenario.
    isobars_bar : list of float, optional
        Isobar pressures [bar]; by default the cycle's distinct pressure levels (constant
        temperature lines are horizontal on this chart, so isobars carry the information),
        and for a transcritical cycle the critical pressure, whose isobar touches the top of
        the dome and bounds the supercritical region.
    numbers : bool
        Number the states in flow order; states on one spot share a label (``1/5``).
    title : str, optional
        Axes title; by default the scenario name.
    circuits : collection of int, optional
        Draw only these circuits (ids), on their own fluid's dome. A scenario whose circuits
        have different fluids (a cascade) is drawn, without ``circuits`` or ``fluid``, with the
        circuits of its first circuit's fluid;
        :func:`~workbench.plotting.panels.plot_fluid_panels` draws every fluid's panel.

    Returns
    -------
    (Figure, Axes)
        Temperature [degC] against specific entropy [kJ/(kg K)], with the whole dome up to its
        top in view. Process paths between states follow the real process (an isobar through
        the dome in a condenser, an isenthalp in a valve), computed from the backend. Isobars
        (gid ``"isobar-<p>bar"``) are labelled inline in bar (gid ``"isobar-label-<p>bar"``).
    """
    d = start_diagram(result, scenario, fluid, ax, circuits)
    ax = d.ax
    isobars: list[tuple[float, np.ndarray, np.ndarray]] = []
    extra = []
    if d.dome is not None and d.backend is not None:
        t_dome = kelvin_to_celsius(d.dome.t_k)
        cp = d.dome.critical
        draw_dome(
            ax,
            d.dome.s_liq / 1e3,
            d.dome.s_vap / 1e3,
            t_dome,
            None if cp is None else (cp.s_j_kgk / 1e3, kelvin_to_celsius(cp.t_k)),
            critical_label(d.dome),
            None if d.dome.t_bubble_k is None else kelvin_to_celsius(d.dome.t_bubble_k),
        )
        if isobars_bar is None:
            levels = sorted({round(pa_to_bar(float(p)), 2) for p in d.p_cycle})
            isobars_bar = [p for k, p in enumerate(levels) if k == 0 or p > levels[k - 1] * 1.05]
            cp = d.dome.critical
            if cp is not None and d.p_cycle.size and float(d.p_cycle.max()) >= cp.p_pa:
                # a transcritical cycle: the critical isobar bounds the supercritical region
                isobars_bar = sorted({*isobars_bar, round(pa_to_bar(cp.p_pa), 2)})
        h_cycle = d.h_cycle[np.isfinite(d.h_cycle)]
        h_sat = np.concatenate([d.dome.h_liq, d.dome.h_vap])
        h_sat = h_sat[np.isfinite(h_sat)]
        h_lo = float(min(h_cycle.min() if h_cycle.size else np.inf, h_sat.min()))
        h_hi = float(max(h_cycle.max() if h_cycle.size else -np.inf, h_sat.max()))
        h_hi += 0.15 * (h_hi - h_lo)
        for p_bar in isobars_bar:
            s, t = isobar_ts(d.backend, p_bar * 1e5, h_lo, h_hi, n=90)
            ax.plot(s / 1e3, kelvin_to_celsius(t), gid=f"isobar-{p_bar:g}bar", **REFERENCE_STYLE)
            isobars.append((float(p_bar), s / 1e3, kelvin_to_celsius(t)))
        if isobars:
            extra.append(reference_handle("isobars (labelled in bar)"))
    colours = draw_cycle(ax, d.loops, d.backend, _xy_ts, colours=d.colours)
    ax.set_xlabel("specific entropy s [kJ/(kg K)]")
    ax.set_ylabel("temperature T [°C]")
    limits = _limits(d)
    if limits is not None:
        ax.set_xlim(*limits[0])
        ax.set_ylim(*limits[1])
    finish_diagram(d, result, title, tuple(extra))
    placer = LabelPlacer(ax)
    for line in ax.get_lines():
        if (line.get_gid() or "").startswith(("cycle-", "dome-")):
            placer.block_path(*line.get_data())
    if numbers:
        number_states(placer, d.loops, colours, _xy_ts)
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    for p_bar, s_kj, t_c in isobars:
        placer.place(
            f"{format_number(p_bar, 3)} bar",
            _isobar_anchors(s_kj, t_c, xlim, ylim),
            ((3.0, 1.0), (-3.0, 1.0), (3.0, -1.0)),
            fontsize=7,
            centred=False,
            gid=f"isobar-label-{p_bar:g}bar",
            **REFERENCE_LABEL_STYLE,
        )
    return d.fig, ax
