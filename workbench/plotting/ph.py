"""Pressure-enthalpy diagram of a solved cycle."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend
from workbench.plotting.diagram import (
    REFERENCE_LABEL_STYLE,
    REFERENCE_STYLE,
    Diagram,
    critical_label,
    draw_dome,
    finish_diagram,
    number_states,
    plain_log_axis,
    reference_handle,
    start_diagram,
)
from workbench.plotting.dome import isotherm_ph, nice_levels
from workbench.plotting.labels import LabelPlacer, format_celsius
from workbench.plotting.layers import draw_cycle
from workbench.units import j_kg_to_kj_kg, kelvin_to_celsius, pa_to_bar

__all__ = ["plot_ph"]


def _xy_ph(p: np.ndarray, h: np.ndarray, _t: np.ndarray, _s: np.ndarray):
    return j_kg_to_kj_kg(np.asarray(h)), pa_to_bar(np.asarray(p))


def _saturation_h(backend: FluidBackend, p_pa: float) -> list[float]:
    """Saturated liquid and vapour enthalpy at ``p_pa`` [J/kg] (empty above the dome)."""
    if p_pa >= min(float(backend.p_crit), float(backend.p_max)):
        return []
    try:
        return [float(backend.h_liq(p_pa)), float(backend.h_vap(p_pa))]
    except (FluidPropertyError, ValueError):
        return []


def _limits(d: Diagram) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """(h [kJ/kg], p [bar]) limits: the cycle, and both saturation lines at its pressures."""
    p, h = d.p_cycle, d.h_cycle
    p, h = p[np.isfinite(p) & (p > 0)], h[np.isfinite(h)]
    if p.size == 0 and d.dome is not None:
        p = d.dome.p_pa[np.isfinite(d.dome.p_pa)]
        h = np.concatenate([d.dome.h_liq, d.dome.h_vap])
        h = h[np.isfinite(h)]
    if p.size == 0 or h.size == 0:
        return None
    lo, hi = float(np.log(p.min())), float(np.log(p.max()))
    span = max(hi - lo, float(np.log(2.0)))
    y = (float(np.exp(lo - 0.4 * span)), float(np.exp(hi + 0.4 * span)))
    hs = list(h)
    if d.dome is not None and d.backend is not None:
        for p_level in (p.min(), p.max()):  # both saturation lines at both cycle pressures
            hs += _saturation_h(d.backend, float(p_level))
        inside = (d.dome.p_pa >= p.min() / 1.1) & (d.dome.p_pa <= p.max() * 1.1)
        hs += [float(v) for v in np.concatenate([d.dome.h_liq[inside], d.dome.h_vap[inside]])]
    hs_arr = np.array([v for v in hs if np.isfinite(v)])
    width = max(float(hs_arr.max() - hs_arr.min()), 1e3)
    x = (float(hs_arr.min() - 0.06 * width), float(hs_arr.max() + 0.06 * width))
    return (j_kg_to_kj_kg(x[0]), j_kg_to_kj_kg(x[1])), (pa_to_bar(y[0]), pa_to_bar(y[1]))


def _isotherm_anchors(
    h_kj: np.ndarray, p_bar: np.ndarray, xlim: tuple[float, float], ylim: tuple[float, float]
) -> list[tuple[float, float]]:
    """Label spots on an isotherm, best first.

    Along its two-phase plateau, then the vapour branch from the top of the chart down (only
    points inside the view, clear of a band along the frame).
    """
    # a band along the frame is left free: a label there reads as the frame's own
    dx = 0.03 * (xlim[1] - xlim[0])
    ly0, ly1 = np.log(ylim[0]), np.log(ylim[1])
    ylim = (float(np.exp(ly0 + 0.04 * (ly1 - ly0))), float(np.exp(ly1 - 0.07 * (ly1 - ly0))))
    xlim = (xlim[0] + dx, xlim[1] - dx)
    ok = np.isfinite(h_kj) & np.isfinite(p_bar)
    inside = ok & (h_kj > xlim[0]) & (h_kj < xlim[1]) & (p_bar > ylim[0]) & (p_bar < ylim[1])
    anchors: list[tuple[float, float]] = []
    flat = np.flatnonzero(ok[:-1] & ok[1:] & np.isclose(p_bar[:-1], p_bar[1:], rtol=1e-9))
    for k in flat:  # the horizontal segment inside the dome
        ha, hb = sorted((float(h_kj[k]), float(h_kj[k + 1])))
        if hb - ha > 0.0 and ylim[0] < p_bar[k] < ylim[1]:
            for u in (0.5, 0.35, 0.65, 0.2, 0.8):
                hx = ha + u * (hb - ha)
                if xlim[0] < hx < xlim[1]:
                    anchors.append((hx, float(p_bar[k])))
    p_sat = float(p_bar[flat[0]]) if flat.size else np.inf
    vapour = np.flatnonzero(inside & (p_bar < p_sat * (1.0 - 1e-5)))
    for k in sorted(vapour, key=lambda k: -p_bar[k]):
        anchors.append((float(h_kj[k]), float(p_bar[k])))
    return anchors


def plot_ph(
    result: Any,
    scenario: Any = None,
    ax: Axes | None = None,
    *,
    fluid: FluidBackend | str | None = None,
    isotherms_c: list[float] | None = None,
    numbers: bool = True,
    title: str | None = None,
    circuits: Collection[int] | None = None,
) -> tuple[Figure, Axes]:
    """P-h diagram: saturation dome, isotherms and the solved cycle.

    Parameters
    ----------
    result : SolveResult
        A solve result (converged or not; a failed solve is drawn at its last iterate and
        the title says so).
    scenario : ScenarioConfig, FlatScenario, dict or path, optional
        Names the working fluid and backend for the dome and isotherms. Without it (and
        without ``fluid``) only the cycle is drawn.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure otherwise.
    fluid : FluidBackend or str, optional
        The fluid backend (or name), taking precedence over the scenario.
    isotherms_c : list of float, optional
        Isotherm temperatures [degC]; by default about five round values spanning the cycle.
    numbers : bool
        Number the states 1, 2, ... in flow order (from the compressor suction); states on
        one spot share a label (``1/5``).
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
        Pressure [bar] on a log axis with plain tick labels (1, 2, 5, 10, 20) against specific
        enthalpy [kJ/kg]; the enthalpy range always holds both saturation lines at the
        cycle's pressures. The dome's lines have gid ``"dome-liquid"``/``"dome-vapour"``,
        isotherms ``"isotherm-<T>C"`` (labelled inline, gid ``"isotherm-label-<T>C"``), each
        circuit ``"cycle-<id>"``; the legend sits under the axes.
    """
    d = start_diagram(result, scenario, fluid, ax, circuits)
    ax = d.ax
    ax.set_yscale("log")
    isotherms: list[tuple[float, np.ndarray, np.ndarray]] = []
    extra = []
    if d.dome is not None and d.backend is not None and d.p_range is not None:
        cp = d.dome.critical
        draw_dome(
            ax,
            j_kg_to_kj_kg(d.dome.h_liq),
            j_kg_to_kj_kg(d.dome.h_vap),
            pa_to_bar(d.dome.p_pa),
            None if cp is None else (j_kg_to_kj_kg(cp.h_j_kg), pa_to_bar(cp.p_pa)),
            critical_label(d.dome),
        )
        if isotherms_c is None:
            t_ref = d.t_cycle[np.isfinite(d.t_cycle)]
            if t_ref.size == 0:
                t_ref = d.dome.t_k[np.isfinite(d.dome.t_k)]
            lo, hi = kelvin_to_celsius(float(t_ref.min())), kelvin_to_celsius(float(t_ref.max()))
            isotherms_c = nice_levels(lo, hi, 5)
        for t_c in isotherms_c:
            t_c = float(t_c) + 0.0  # no negative zero in gids and labels
            h, p = isotherm_ph(d.backend, t_c + 273.15, *d.p_range)
            h_kj, p_bar = j_kg_to_kj_kg(h), pa_to_bar(p)
            ax.plot(h_kj, p_bar, gid=f"isotherm-{t_c:g}C", **REFERENCE_STYLE)
            isotherms.append((t_c, h_kj, p_bar))
        if isotherms:
            extra.append(reference_handle("isotherms (labelled in °C)"))
    colours = draw_cycle(ax, d.loops, d.backend, _xy_ph, colours=d.colours)
    ax.set_xlabel("specific enthalpy h [kJ/kg]")
    ax.set_ylabel("pressure p [bar]")
    limits = _limits(d)
    if limits is not None:
        ax.set_xlim(*limits[0])
        ax.set_ylim(*limits[1])
    plain_log_axis(ax.yaxis)
    finish_diagram(d, result, title, tuple(extra))
    placer = LabelPlacer(ax)
    for line in ax.get_lines():
        if (line.get_gid() or "").startswith(("cycle-", "dome-")):
            placer.block_path(*line.get_data())
    if numbers:
        number_states(placer, d.loops, colours, _xy_ph)
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    for t_c, h_kj, p_bar in isotherms:
        placer.place(
            format_celsius(t_c),
            _isotherm_anchors(h_kj, p_bar, xlim, ylim),
            ((0.0, 1.5), (0.0, -1.5)),
            fontsize=7,
            gid=f"isotherm-label-{t_c:g}C",
            **REFERENCE_LABEL_STYLE,
        )
    return d.fig, ax
