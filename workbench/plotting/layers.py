"""Drawing the solved cycle on a diagram: one colour per circuit, a marker per state."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from workbench.fluids import FluidBackend
from workbench.plotting.common import circuit_colour
from workbench.plotting.cycle import CycleLoop, segment_states

__all__ = ["XY", "draw_cycle"]

XY = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
"""Map arrays ``(p [Pa], h [J/kg], T [K], s [J/kg/K])`` to diagram coordinates ``(x, y)``."""


def draw_cycle(
    ax: Axes,
    loops: list[CycleLoop],
    fluid: FluidBackend | None,
    xy: XY,
    *,
    segment_points: int = 24,
    colours: dict[int, str] | None = None,
) -> dict[int, str]:
    """Draw each loop's or branch's process paths and its state markers.

    Lines carry ``gid`` ``"cycle-<circuit>"`` and state markers ``"states-<circuit>"`` (a
    branching circuit: one line per branch, ``"cycle-<circuit>-<k>"`` and
    ``"states-<circuit>-<k>"``, k = 1, 2, ... in the order of ``loops``) so callers (and
    tests) can find them. A branch's line starts at a flash tank's inlet state (the
    separation) and ends at a mixer's mixed state (``CycleLoop.lead`` / ``tail``), so every
    branch, even one of a single state, is a line. Returns the colour used per circuit. The states are
    numbered afterwards, once the limits are set
    (:func:`workbench.plotting.diagram.number_states`).
    """
    if colours is None:  # ``colours``: a circuit keeps its colour on every panel of a figure
        circuits = sorted({loop.circuit for loop in loops})
        colours = {c: circuit_colour(k) for k, c in enumerate(circuits)}
    labelled: set[int] = set()
    for loop in loops:
        colour = colours[loop.circuit]
        n = len(loop.rows)
        closed = loop.closed and n > 1
        points = [(loop.p_pa[k], loop.h_j_kg[k], loop.t_k[k], loop.s_j_kgk[k]) for k in range(n)]
        if closed:
            points.append(points[0])
        else:
            points = list(loop.lead) + points + list(loop.tail)
        xs: list[np.ndarray] = []
        ys: list[np.ndarray] = []
        for (pa, ha, ta, sa), (pb, hb, tb, sb) in itertools.pairwise(points):
            p, h, t, s = segment_states(fluid, pa, ha, pb, hb, segment_points)
            # the ends are the solver's states, not re-evaluated ones (where it gives them)
            if np.isfinite(ta) and np.isfinite(sa):
                t[0], s[0] = ta, sa
            if np.isfinite(tb) and np.isfinite(sb):
                t[-1], s[-1] = tb, sb
            x, y = xy(p, h, t, s)
            xs.append(x)
            ys.append(y)
        label = None if loop.circuit in labelled else circuit_name(loops, loop.circuit)
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


def circuit_name(loops: list[Any], circuit: int) -> str:
    """The legend name of a circuit: the instance all its components belong to, if one.

    ``unit_a.compressor``, ``unit_a.condenser`` ... -> ``unit_a``; otherwise ``circuit <id>``.
    """
    names = {
        end.split(":")[0].strip()
        for loop in loops
        if loop.circuit == circuit
        for edge in loop.edges
        for end in edge.split("->")
    }
    prefixes = {name.rsplit(".", 1)[0] for name in names if "." in name}
    if names and len(prefixes) == 1 and all("." in name for name in names):
        return prefixes.pop()
    return f"circuit {circuit}"


def finite_limits(values: Any, pad: float = 0.05) -> tuple[float, float] | None:
    """(low, high) of the finite values with a relative margin, or None."""
    arr = np.asarray(values, dtype=float)
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        return None
    lo, hi = float(arr.min()), float(arr.max())
    span = hi - lo or abs(hi) or 1.0
    return lo - pad * span, hi + pad * span
