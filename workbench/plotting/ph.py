"""Pressure-enthalpy diagram of a solved cycle."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.fluids import FluidBackend
from workbench.plotting.common import fluid_of, new_axes
from workbench.plotting.cycle import cycle_loops
from workbench.plotting.dome import isotherm_ph, nice_levels, pressure_range, saturation_dome
from workbench.plotting.layers import draw_cycle, finite_limits
from workbench.units import j_kg_to_kj_kg, kelvin_to_celsius, pa_to_bar

__all__ = ["plot_ph"]


def _xy_ph(p: np.ndarray, h: np.ndarray, _t: np.ndarray, _s: np.ndarray):
    return j_kg_to_kj_kg(np.asarray(h)), pa_to_bar(np.asarray(p))


def plot_ph(
    result: Any,
    scenario: Any = None,
    ax: Axes | None = None,
    *,
    fluid: FluidBackend | str | None = None,
    isotherms_c: list[float] | None = None,
    numbers: bool = True,
    title: str | None = None,
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
        Number the states 1, 2, ... in flow order (from the compressor suction).
    title : str, optional
        Axes title; by default the scenario name.

    Returns
    -------
    (Figure, Axes)
        Pressure [bar] on a log axis against specific enthalpy [kJ/kg]. The dome's lines
        have gid ``"dome-liquid"``/``"dome-vapour"``, isotherms ``"isotherm-<T>C"``, each
        circuit ``"cycle-<id>"``.
    """
    fig, ax = new_axes(ax)
    backend = fluid_of(scenario, fluid)
    loops = cycle_loops(result)
    p_cycle = [float(p) for loop in loops for p in loop.p_pa]
    t_cycle = [float(t) for loop in loops for t in loop.t_k]
    if backend is not None:
        p_lo, p_hi = pressure_range(backend, p_cycle)
        dome = saturation_dome(backend, p_lo)
        ax.plot(
            j_kg_to_kj_kg(dome.h_liq),
            pa_to_bar(dome.p_pa),
            color="0.25",
            lw=1.2,
            gid="dome-liquid",
            label="saturation",
        )
        ax.plot(
            j_kg_to_kj_kg(dome.h_vap), pa_to_bar(dome.p_pa), color="0.25", lw=1.2, gid="dome-vapour"
        )
        ax.plot(  # close the dome at the top
            j_kg_to_kj_kg(np.array([dome.h_liq[-1], dome.h_vap[-1]])),
            pa_to_bar(np.array([dome.p_pa[-1]] * 2)),
            color="0.25",
            lw=1.2,
        )
        if isotherms_c is None:
            t_sat = [float(t) for t in dome.t_k if np.isfinite(t)]
            lo = kelvin_to_celsius(min(t_cycle)) if t_cycle else kelvin_to_celsius(min(t_sat))
            hi = kelvin_to_celsius(max(t_cycle)) if t_cycle else kelvin_to_celsius(max(t_sat))
            isotherms_c = nice_levels(lo, hi, 5)
        for t_c in isotherms_c:
            h, p = isotherm_ph(backend, t_c + 273.15, p_lo, p_hi)
            ax.plot(
                j_kg_to_kj_kg(h),
                pa_to_bar(p),
                color="0.6",
                lw=0.8,
                ls="--",
                gid=f"isotherm-{t_c:g}C",
            )
            ok = np.isfinite(h)
            if ok.any():
                k = int(np.flatnonzero(ok)[0])
                ax.annotate(
                    f"{t_c:g} °C", (j_kg_to_kj_kg(h[k]), pa_to_bar(p[k])), fontsize=7, color="0.45"
                )
    draw_cycle(ax, loops, backend, _xy_ph, numbers=numbers)
    ax.set_yscale("log")
    ax.set_xlabel("specific enthalpy h [kJ/kg]")
    ax.set_ylabel("pressure p [bar]")
    h_all = [float(h) for loop in loops for h in loop.h_j_kg]
    if h_all:
        xl = finite_limits(j_kg_to_kj_kg(np.array(h_all)), pad=0.25)
        yl = finite_limits(np.log(pa_to_bar(np.array(p_cycle))), pad=0.6)
        if xl:
            ax.set_xlim(*xl)
        if yl:
            ax.set_ylim(float(np.exp(yl[0])), float(np.exp(yl[1])))
    name = title if title is not None else getattr(result, "scenario_name", None) or ""
    if not getattr(result, "converged", True):
        name = f"{name} (NOT converged)".strip()
    ax.set_title(name, fontsize=10)
    ax.grid(True, which="both", alpha=0.25)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize=8)
    return fig, ax
