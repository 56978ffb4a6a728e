"""What the P-h and T-s diagrams share: setup, the dome, limits, state numbers, titles, legend.

:func:`plot_ph` and :func:`plot_ts` differ only in their coordinates (``XY``), their
reference lines (isotherms or isobars) and their axis scales; everything else is here, so both
charts read the same way: the dome in dark grey, reference lines dashed light grey and named
in the legend and inline, each circuit in its colour with its states numbered in flow order,
the legend under the axes (never over the cycle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import Locator, NullFormatter

from workbench.fluids import FluidBackend
from workbench.plotting.common import circuit_colour, fluid_groups, fluid_of, new_axes
from workbench.plotting.cycle import CycleLoop, cycle_loops
from workbench.plotting.dome import Dome, pressure_range, saturation_dome
from workbench.plotting.labels import LabelPlacer, cluster_points, format_number
from workbench.plotting.layers import XY

__all__ = [
    "DOME_STYLE",
    "REFERENCE_STYLE",
    "Diagram",
    "PressureLocator",
    "critical_label",
    "draw_dome",
    "finish_diagram",
    "number_states",
    "plain_log_axis",
    "reference_handle",
    "start_diagram",
]

DOME_STYLE = {"color": "0.25", "lw": 1.2}
"""Saturation lines."""

REFERENCE_STYLE = {"color": "0.6", "lw": 0.8, "ls": "--"}
"""Isotherms and isobars."""

REFERENCE_LABEL_STYLE = {
    "color": "0.35",
    "bbox": {"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.75},
}
"""Inline labels of isotherms and isobars."""


@dataclass
class Diagram:
    """The pieces of one diagram being drawn.

    Attributes
    ----------
    fig, ax : Figure, Axes
        Where it is drawn.
    backend : FluidBackend or None
        The working fluid (None: no dome, no reference lines).
    loops : list of CycleLoop
        The cycle's loops in flow order.
    dome : Dome or None
        Saturation lines from a third of the lowest cycle pressure to the critical point.
    p_range : tuple of float
        Pressure span of the reference lines [Pa].
    colours : dict
        Circuit id -> colour, over all circuits of the result (the same on every panel).
    """

    fig: Figure
    ax: Axes
    backend: FluidBackend | None
    loops: list[CycleLoop]
    dome: Dome | None
    p_range: tuple[float, float] | None
    colours: dict[int, str] | None = None

    @property
    def p_cycle(self) -> np.ndarray:
        """Every state's pressure [Pa]."""
        return np.concatenate([lp.p_pa for lp in self.loops]) if self.loops else np.zeros(0)

    @property
    def h_cycle(self) -> np.ndarray:
        """Every state's enthalpy [J/kg]."""
        return np.concatenate([lp.h_j_kg for lp in self.loops]) if self.loops else np.zeros(0)

    @property
    def t_cycle(self) -> np.ndarray:
        """Every state's temperature [K]."""
        return np.concatenate([lp.t_k for lp in self.loops]) if self.loops else np.zeros(0)

    @property
    def s_cycle(self) -> np.ndarray:
        """Every state's entropy [J/(kg K)]."""
        return np.concatenate([lp.s_j_kgk for lp in self.loops]) if self.loops else np.zeros(0)


def start_diagram(
    result: Any,
    scenario: Any,
    fluid: FluidBackend | str | None,
    ax: Axes | None,
    circuits: Any = None,
) -> Diagram:
    """Axes, fluid, loops and dome of a diagram of ``result``.

    ``circuits`` (circuit ids) limits the diagram to those circuits, drawn on their own fluid
    (from the scenario) unless ``fluid`` is given. A scenario whose circuits have different
    fluids, drawn without ``fluid`` or ``circuits``, shows the circuits of its first circuit's
    fluid (:func:`~workbench.plotting.panels.plot_fluid_panels` draws one panel per fluid):
    states are never drawn on another fluid's dome.
    """
    fig, ax = new_axes(ax)
    loops = cycle_loops(result)
    colours = {c: circuit_colour(k) for k, c in enumerate(sorted({lp.circuit for lp in loops}))}
    backend_name = None
    if fluid is None and scenario is not None:
        groups = fluid_groups(scenario)
        if circuits is not None:
            wanted = set(circuits)
            groups = [g for g in groups if wanted & set(g[2])] or groups
        if len(groups) > 1 or circuits is not None:
            fluid, backend_name = groups[0][0], groups[0][1]
            circuits = groups[0][2] if circuits is None else circuits
    if circuits is not None:
        keep = set(circuits)
        loops = [lp for lp in loops if lp.circuit in keep]
    if isinstance(fluid, str) and backend_name is not None:
        from workbench.fluids import get_backend

        backend: FluidBackend | None = get_backend(fluid, backend_name)
    else:
        backend = fluid_of(scenario, fluid)
    p_cycle = [float(p) for lp in loops for p in lp.p_pa]
    dome = p_range = None
    if backend is not None:
        p_range = pressure_range(backend, p_cycle)
        dome = saturation_dome(backend, p_range[0])
    return Diagram(fig, ax, backend, loops, dome, p_range, colours)


CRITICAL_STYLE = {"marker": "o", "ms": 6, "mfc": "white", "mec": "0.1", "mew": 1.4, "ls": "none"}
"""The critical point."""


def draw_dome(
    ax: Axes,
    x_liq: np.ndarray,
    x_vap: np.ndarray,
    y: np.ndarray,
    critical: tuple[float, float] | None = None,
    critical_label: str = "critical point",
    y_liq: np.ndarray | None = None,
) -> None:
    """The saturated liquid and vapour lines (legend ``saturation``), joined at the top.

    ``y_liq``: the liquid line's own ordinates (the bubble temperatures of a zeotropic blend
    on a T-s chart, below the dew line's ``y`` by the glide).

    With ``critical`` (its chart coordinates) the lines meet there and the point is marked
    (gid ``critical-point``, named in the legend by ``critical_label``). Otherwise the dome
    stays open where its computed range ends (a blend's property tables stop below the
    critical point): no line closes it, which would read as a flat-topped dome; the two ends
    are marked (gid ``dome-end``) and the legend says why (``critical_label``).
    """
    yl = y if y_liq is None else y_liq
    ax.plot(x_liq, yl, gid="dome-liquid", label="saturation", **DOME_STYLE)
    ax.plot(x_vap, y, gid="dome-vapour", **DOME_STYLE)
    if critical is None:
        if x_liq.size:
            ax.plot(
                [x_liq[-1], x_vap[-1]],
                [yl[-1], y[-1]],
                gid="dome-end",
                label=critical_label,
                ls="none",
                marker="|",
                markersize=10,
                mew=2.0,
                color=DOME_STYLE.get("color", "0.25"),
                zorder=4,
            )
        return
    xc, yc = critical
    ax.plot([x_liq[-1], xc, x_vap[-1]], [yl[-1], yc, y[-1]], gid="dome-top", **DOME_STYLE)
    ax.plot([xc], [yc], gid="critical-point", label=critical_label, zorder=4, **CRITICAL_STYLE)


def critical_label(dome: Dome) -> str:
    """Legend text of the critical point, ``critical point 30.98 °C, 73.77 bar``.

    A dome that ends below its critical point says why and where: ``dome open: blend tables
    end at 43.0 bar`` (R454B's critical pressure is 53 bar).
    """
    cp = dome.critical
    if cp is None:
        top = dome.p_pa[np.isfinite(dome.h_liq) & np.isfinite(dome.h_vap)]
        if dome.end_reason and top.size:
            return f"dome open: {dome.end_reason} at {top.max() / 1e5:.1f} bar"
        return "critical point"
    return f"critical point {cp.t_k - 273.15:.2f} °C, {cp.p_pa / 1e5:.2f} bar"


def reference_handle(label: str) -> Line2D:
    """A legend entry for the dashed reference lines (``isotherms [°C]``, ``isobars [bar]``)."""
    return Line2D([], [], label=label, **REFERENCE_STYLE)


def number_states(
    placer: LabelPlacer, loops: list[CycleLoop], colours: dict[int, str], xy: XY
) -> list[str]:
    """Number the states in flow order; states drawn on one spot share one label (``1/5``).

    Labels take the first free spot of eight around their state (north-east first, then the
    same eight a little farther) and never overlap each other; states closer than about a label's height on the chart are one
    cluster. Returns the label texts in the order drawn (gid ``number-<n>`` for a single
    state, ``number-<n>/<m>`` for a shared label).
    """
    entries = []
    for loop in loops:
        x, y = xy(loop.p_pa, loop.h_j_kg, loop.t_k, loop.s_j_kgk)
        for num, xi, yi in zip(loop.numbers, x, y):
            entries.append((num, float(xi), float(yi), colours[loop.circuit]))
    if not entries:
        return []
    placer.block([e[1] for e in entries], [e[2] for e in entries], half_size=3.5)
    pixels = placer.to_pixels([e[1] for e in entries], [e[2] for e in entries])
    texts = []
    near = ((4, 3), (-4, 3), (4, -3), (-4, -3), (7, -4), (-7, -4), (0, 6), (0, -6))
    offsets = near + tuple((2.5 * dx, 2.5 * dy) for dx, dy in near)  # then a little farther
    for group in sorted(cluster_points(pixels, radius=9.0), key=lambda g: min(g)):
        members = sorted(group, key=lambda i: entries[i][0])
        text = "/".join(str(entries[i][0]) for i in members)
        colour = {entries[i][3] for i in members}
        anchor = entries[members[0]][1], entries[members[0]][2]
        label = placer.place(
            text,
            [anchor],
            offsets,
            fontsize=9,
            centred=False,
            color=colour.pop() if len(colour) == 1 else "0.15",
            fontweight="bold",
            gid=f"number-{text}",
            zorder=5,
        )
        if label is None:  # crowded: draw it anyway, to the upper right
            placer.ax.annotate(
                text,
                anchor,
                xytext=(4, 3),
                textcoords="offset points",
                fontsize=9,
                color="0.15",
                fontweight="bold",
                gid=f"number-{text}",
                zorder=5,
            )
        texts.append(text)
    return texts


def finish_diagram(
    diagram: Diagram,
    result: Any,
    title: str | None,
    extra_handles: tuple[Line2D, ...] = (),
) -> None:
    """Title (the scenario name, ``NOT converged`` for a failed solve), grid, legend below."""
    ax = diagram.ax
    name = title if title is not None else getattr(result, "scenario_name", None) or ""
    fluid = getattr(diagram.backend, "name", None) if title is None else None
    failed = "" if getattr(result, "converged", True) else " (NOT converged)"
    if fluid:  # the solved fluid leads: a name written for another fluid cannot mislead
        ax.set_title(f"{fluid}{failed}", fontsize=10, loc="left", fontweight="bold")
        ax.set_title(name, fontsize=8, loc="right", color="0.35")
    else:
        ax.set_title(f"{name}{failed}".strip(), fontsize=10)
    _hide_critical_point_off_chart(ax)
    ax.grid(True, which="major", alpha=0.3)
    ax.grid(True, which="minor", alpha=0.12)
    handles, labels = ax.get_legend_handles_labels()
    handles = list(handles) + list(extra_handles)
    labels = list(labels) + [h.get_label() for h in extra_handles]
    if handles:
        ax.legend(
            handles,
            labels,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.11),
            ncol=min(len(handles), 5),
            fontsize=8,
            frameon=False,
        )


def _hide_critical_point_off_chart(ax: Axes) -> None:
    """No legend entry (and no marker) for a critical point outside the axes' limits."""
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    for line in ax.get_lines():
        if line.get_gid() == "critical-point":
            x, y = (float(v[0]) for v in line.get_data())
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                line.remove()


class PressureLocator(Locator):
    """Major ticks of a log pressure axis at plain round values: 1, 2, 5, 10, 20 ...

    The finest of the series 1-2-5, 1-2-3-5-7 and 1-1.5-2-3-4-5-6-8 (per decade) that keeps
    at least ``min_ticks`` ticks in view, as on a refrigeration chart.
    """

    SERIES = ((1.0, 2.0, 5.0), (1.0, 2.0, 3.0, 5.0, 7.0), (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0))

    def __init__(self, min_ticks: int = 4) -> None:
        self.min_ticks = min_ticks

    def __call__(self) -> list[float]:
        """The tick positions for the axis's current view [axis data units]."""
        lo, hi = self.axis.get_view_interval()
        return self.tick_values(lo, hi)

    def tick_values(self, vmin: float, vmax: float) -> list[float]:
        """Tick positions between ``vmin`` and ``vmax``.

        Parameters
        ----------
        vmin, vmax : float
            The view limits, in either order [axis data units, e.g. bar].

        Returns
        -------
        list of float
            Round values of the finest series that keeps at least ``min_ticks`` in view; empty
            when a limit is not finite or not positive (no log scale).
        """
        lo, hi = sorted((float(vmin), float(vmax)))
        if not (np.isfinite(lo) and np.isfinite(hi)) or lo <= 0.0:
            return []
        ticks: list[float] = []
        for series in self.SERIES:
            ticks = [
                m * 10.0**k
                for k in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1)
                for m in series
                if lo <= m * 10.0**k <= hi
            ]
            if len(ticks) >= self.min_ticks:
                break
        return ticks


def plain_log_axis(axis: Any) -> None:
    """A log axis labelled with plain numbers (``2``, ``10``, ``20``, not ``2x10^0``)."""
    from matplotlib.ticker import FuncFormatter, LogLocator

    axis.set_major_locator(PressureLocator())
    axis.set_major_formatter(FuncFormatter(lambda v, _pos: format_number(v, 3)))
    axis.set_minor_locator(LogLocator(subs=np.arange(1.0, 10.0)))
    axis.set_minor_formatter(NullFormatter())
