"""Drawing the solved cycle on a diagram: one colour per circuit, a marker per state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from workbench.fluids import FluidBackend
from workbench.plotting.common import circuit_colour
from workbench.plotting.cycle import CycleLoop, JunctionLink, segment_states

__all__ = ["draw_cycle", "XY"]

XY = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
"""Map arrays ``(p [Pa], h [J/kg], T [K], s [J/kg/K])`` to diagram coordinates ``(x, y)``."""


def draw_cycle(
    ax: Axes,
    loops: list[CycleLoop],
    fluid: FluidBackend | None,
    xy: XY,
    *,
    segment_points: int = 24,
    junctions: list[JunctionLink] | None = None,
) -> dict[int, str]:
    """Draw each loop's or branch's process paths and its state markers.

    Lines carry ``gid`` ``"cycle-<circuit>"`` and state markers ``"states-<circuit>"`` (a
    branching circuit: one line per branch, ``"cycle-<circuit>-<k>"`` and
    ``"states-<circuit>-<k>"``, k = 1, 2, ... in the order of ``loops``) so callers (and
    tests) can find them. Where branches meet, thin dashed lines in the circuit's colour join
    each junction's inlet and outlet states (gid ``"junction-<name>"``: mixing, or the flash
    tank's separation along its isobar). Returns the colour used per circuit. The states are
    numbered afterwards, once the limits are set
    (:func:`workbench.plotting.diagram.number_states`).
    """
    circuits = sorted({loop.circuit for loop in loops})
    colours = {c: circuit_colour(k) for k, c in enumerate(circuits)}
    labelled: set[int] = set()
    _draw_junctions(ax, loops, junctions or [], fluid, xy, colours, segment_points)
    for loop in loops:
        colour = colours[loop.circuit]
        n = len(loop.rows)
        closed = loop.closed and n > 1
        xs: list[np.ndarray] = []
        ys: list[np.ndarray] = []
        for k in range(n if closed else n - 1):
            a, b = k, (k + 1) % n
            p, h, t, s = segment_states(
                fluid,
                loop.p_pa[a],
                loop.h_j_kg[a],
                loop.p_pa[b],
                loop.h_j_kg[b],
                segment_points,
            )
            # the ends are the solver's states, not re-evaluated ones
            t[0], s[0], t[-1], s[-1] = loop.t_k[a], loop.s_j_kgk[a], loop.t_k[b], loop.s_j_kgk[b]
            x, y = xy(p, h, t, s)
            xs.append(x)
            ys.append(y)
        label = None if loop.circuit in labelled else f"circuit {loop.circuit}"
        labelled.add(loop.circuit)
        if xs:
            ax.plot(
                np.concatenate(xs),
                np.concatenate(ys),
                color=colour,
                lw=2.0,
                label=label,
                gid=loop.gid,
                zorder=3,
            )
        x_pts, y_pts = xy(loop.p_pa, loop.h_j_kg, loop.t_k, loop.s_j_kgk)
        ax.plot(
            x_pts,
            y_pts,
            "o",
            color=colour,
            ms=5,
            gid=loop.gid.replace("cycle-", "states-", 1),
            zorder=4,
            label=None if xs else label,
        )
    return colours


def _draw_junctions(
    ax: Axes,
    loops: list[CycleLoop],
    junctions: list[JunctionLink],
    fluid: FluidBackend | None,
    xy: XY,
    colours: dict[int, str],
    segment_points: int,
) -> None:
    """Thin dashed lines from each junction's inlet states to its outlet states."""
    at: dict[int, tuple[float, float, float, float]] = {}
    for loop in loops:
        for k, row in enumerate(loop.rows):
            at[row] = (loop.p_pa[k], loop.h_j_kg[k], loop.t_k[k], loop.s_j_kgk[k])
    for link in junctions:
        colour = colours.get(link.circuit, "0.3")
        xs: list[np.ndarray] = []
        ys: list[np.ndarray] = []
        for a, b in link.segments:
            if a not in at or b not in at or at[a][:2] == at[b][:2]:
                continue  # a splitter's outlets are its inlet state: nothing to draw
            (pa, ha, ta, sa), (pb, hb, tb, sb) = at[a], at[b]
            p, h, t, s = segment_states(fluid, pa, ha, pb, hb, segment_points)
            t[0], s[0], t[-1], s[-1] = ta, sa, tb, sb
            x, y = xy(p, h, t, s)
            xs += [x, np.array([np.nan])]
            ys += [y, np.array([np.nan])]
        if xs:
            ax.plot(
                np.concatenate(xs),
                np.concatenate(ys),
                color=colour,
                lw=1.2,
                ls="--",
                gid=f"junction-{link.name}",
                zorder=2,
            )


def finite_limits(values: Any, pad: float = 0.05) -> tuple[float, float] | None:
    """(low, high) of the finite values with a relative margin, or None."""
    arr = np.asarray(values, dtype=float)
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        return None
    lo, hi = float(arr.min()), float(arr.max())
    span = hi - lo or abs(hi) or 1.0
    return lo - pad * span, hi + pad * span
