"""Temperature-entropy diagram of a solved cycle."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.fluids import FluidBackend
from workbench.plotting.common import fluid_of, new_axes
from workbench.plotting.cycle import cycle_loops
from workbench.plotting.dome import isobar_ts, pressure_range, saturation_dome
from workbench.plotting.layers import draw_cycle, finite_limits
from workbench.units import kelvin_to_celsius, pa_to_bar

__all__ = ["plot_ts"]


def _xy_ts(_p: np.ndarray, _h: np.ndarray, t: np.ndarray, s: np.ndarray):
    return np.asarray(s) / 1e3, kelvin_to_celsius(np.asarray(t))


def plot_ts(
    result: Any,
    scenario: Any = None,
    ax: Axes | None = None,
    *,
    fluid: FluidBackend | str | None = None,
    isobars_bar: list[float] | None = None,
    numbers: bool = True,
    title: str | None = None,
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
        temperature lines are horizontal on this chart, so isobars carry the information).
    numbers : bool
        Number the states in flow order.
    title : str, optional
        Axes title; by default the scenario name.

    Returns
    -------
    (Figure, Axes)
        Temperature [degC] against specific entropy [kJ/(kg K)]. Process paths between states
        follow the real process (an isobar through the dome in a condenser, an isenthalp in
        a valve), computed from the backend.
    """
    fig, ax = new_axes(ax)
    backend = fluid_of(scenario, fluid)
    loops = cycle_loops(result)
    p_cycle = [float(p) for loop in loops for p in loop.p_pa]
    if backend is not None:
        p_lo, _p_hi = pressure_range(backend, p_cycle)
        dome = saturation_dome(backend, p_lo)
        t_c = kelvin_to_celsius(dome.t_k)
        ax.plot(dome.s_liq / 1e3, t_c, color="0.25", lw=1.2, gid="dome-liquid", label="saturation")
        ax.plot(dome.s_vap / 1e3, t_c, color="0.25", lw=1.2, gid="dome-vapour")
        ax.plot([dome.s_liq[-1] / 1e3, dome.s_vap[-1] / 1e3], [t_c[-1]] * 2, color="0.25", lw=1.2)
        if isobars_bar is None:
            levels = sorted({round(pa_to_bar(p), 2) for p in p_cycle})
            isobars_bar = [p for k, p in enumerate(levels) if k == 0 or p > levels[k - 1] * 1.05]
        h_all = [float(h) for loop in loops for h in loop.h_j_kg]
        h_lo = min(h_all) * 0.9 if h_all else float(np.nanmin(dome.h_liq))
        h_hi = max(h_all) * 1.1 if h_all else float(np.nanmax(dome.h_vap)) * 1.1
        for p_bar in isobars_bar:
            s, t = isobar_ts(backend, p_bar * 1e5, h_lo, h_hi)
            ax.plot(
                s / 1e3,
                kelvin_to_celsius(t),
                color="0.6",
                lw=0.8,
                ls="--",
                gid=f"isobar-{p_bar:g}bar",
            )
            ok = np.isfinite(s) & np.isfinite(t)
            if ok.any():
                k = int(np.flatnonzero(ok)[-1])
                ax.annotate(
                    f"{p_bar:g} bar",
                    (s[k] / 1e3, kelvin_to_celsius(t[k])),
                    fontsize=7,
                    color="0.45",
                )
    draw_cycle(ax, loops, backend, _xy_ts, numbers=numbers)
    ax.set_xlabel("specific entropy s [kJ/(kg K)]")
    ax.set_ylabel("temperature T [°C]")
    s_all = [float(s) / 1e3 for loop in loops for s in loop.s_j_kgk]
    t_all = [kelvin_to_celsius(float(t)) for loop in loops for t in loop.t_k]
    if s_all:
        xl = finite_limits(s_all, pad=0.3)
        yl = finite_limits(t_all, pad=0.25)
        if xl:
            ax.set_xlim(*xl)
        if yl:
            ax.set_ylim(*yl)
    name = title if title is not None else getattr(result, "scenario_name", None) or ""
    if not getattr(result, "converged", True):
        name = f"{name} (NOT converged)".strip()
    ax.set_title(name, fontsize=10)
    ax.grid(True, alpha=0.25)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize=8)
    return fig, ax
