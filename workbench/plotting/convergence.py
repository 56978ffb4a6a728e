"""Newton (and Picard) convergence history of a solve."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.plotting.common import new_axes

__all__ = ["plot_convergence"]


def plot_convergence(
    result: Any, *, tolerance: float | None = None, ax: Axes | None = None
) -> tuple[Figure, Axes]:
    """Largest scaled residual per iteration on a log axis.

    Parameters
    ----------
    result : SolveResult
        A solve result; its ``residual_history`` is drawn (gid ``"residual"``).
    tolerance : float, optional
        Draws the convergence threshold (``solver.tolerance``) as a horizontal line (gid
        ``"tolerance"``).
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure otherwise.

    Returns
    -------
    (Figure, Axes)
        Iteration on x, max |scaled residual| [-] on a log y axis; the title gives the
        strategy sequence (``newton -> picard -> newton``) and the outcome.
    """
    fig, ax = new_axes(ax, figsize=(6.5, 4.0))
    history = np.asarray(list(getattr(result, "residual_history", []) or []), dtype=float)
    history = np.where(history > 0, history, np.nan)
    it = np.arange(len(history))
    ax.plot(it, history, "o-", ms=3, color="#1f77b4", gid="residual", label="max scaled residual")
    if tolerance is not None:
        ax.axhline(tolerance, color="0.4", ls="--", lw=1, gid="tolerance", label="tolerance")
    ax.set_yscale("log")
    ax.set_xlabel("iteration")
    ax.set_ylabel("max |scaled residual| [-]")
    methods = " -> ".join(getattr(result, "strategy_log", []) or [])
    state = "converged" if getattr(result, "converged", False) else "NOT converged"
    ax.set_title(
        f"{state} in {getattr(result, 'iterations', len(history))} iterations"
        + (f" ({methods})" if methods else ""),
        fontsize=10,
    )
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=8)
    return fig, ax
