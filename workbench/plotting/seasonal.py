"""The seasonal rating chart: bin hours, load line, full-speed capacity, back-up heat and COP.

Reads a :class:`workbench.seasonal.SeasonalRating` (or its bins and test points tables): the
top axes hold the heating load line, the unit's capacity at full speed (interpolated between the
test points), the capacity it delivers and the back-up heat per bin [kW], with the bin hours as
grey bars on a second axis; the bottom axes hold COPbin per bin with the test points marked and
the one that limits SCOP named (:meth:`SeasonalRating.limiting_point`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.plotting.common import new_figure

__all__ = ["plot_bins"]


def plot_bins(rating: Any, *, title: str | None = None) -> tuple[Figure, Axes]:
    """Bins chart of a seasonal rating.

    Parameters
    ----------
    rating : SeasonalRating
        A complete rating (``bins`` and ``test_points`` set).
    title : str, optional
        Figure title (default: the scenario name, climate and SCOP).

    Returns
    -------
    (Figure, Axes)
        The load and capacity axes [kW]; ``fig.axes`` also holds the hours axis and the COP
        axes. Lines carry gids ``load``, ``full_capacity``, ``capacity``, ``cop``; the back-up
        bars ``backup``.

    Raises
    ------
    ValueError
        The rating is incomplete (no bins).
    """
    bins = rating.bins
    if bins is None:
        raise ValueError("the rating is incomplete: no bins to draw")
    points = rating.test_points
    t = bins["t_c"].to_numpy(float)
    fig = new_figure((8.0, 6.5))
    ax, ax_cop = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    hours_ax = ax.twinx()
    hours_ax.bar(t, bins["hours"], width=0.8, color="0.85", zorder=0, label="bin hours")
    hours_ax.set_ylabel("bin hours [h]")
    ax.set_zorder(hours_ax.get_zorder() + 1)
    ax.patch.set_visible(False)
    cooling = rating.settings.mode == "cooling"
    what = "cooling" if cooling else "heating"
    ax.plot(t, bins["load_kw"], color="black", lw=1.8, label=f"{what} load", gid="load")
    ok = points[points["converged"]].sort_values("t_c")
    limit_c = None if rating.settings.mode == "cooling" else rating.settings.operation_limit_c
    if limit_c is not None:  # beyond the operation limit the bin method uses back-up heat only
        ok = ok[ok["t_c"] >= limit_c]
    if len(ok) >= 2:
        full = np.interp(t, ok["t_c"], ok["full_capacity_kw"])
        ax.plot(
            t, full, color="tab:blue", ls="--", label="capacity at full speed", gid="full_capacity"
        )
    delivered = bins["load_kw"] - bins["backup_kw"]
    ax.plot(t, delivered, color="tab:blue", lw=1.5, label="unit output", gid="capacity")
    ax.bar(
        t,
        bins["backup_kw"],
        bottom=delivered,
        width=0.6,
        color="tab:red",
        alpha=0.8,
        label="_back-up heat" if cooling else "back-up heat",
        gid="backup",
    )
    ax.set_ylabel(f"{what} [kW]")
    ax.set_ylim(bottom=0.0)
    handles, labels = ax.get_legend_handles_labels()
    h2, l2 = hours_ax.get_legend_handles_labels()
    ax.legend(handles + h2, labels + l2, loc="upper right", fontsize=8, framealpha=0.9)
    eff = "EER" if cooling else "COP"
    ax_cop.plot(t, bins["cop"], color="tab:green", marker=".", label=f"{eff}bin", gid="cop")
    ax_cop.plot(ok["t_c"], ok["cop"], "o", mfc="none", color="tab:green", label="test points")
    for _, row in ok.iterrows():
        ax_cop.annotate(
            str(row["name"]),
            (row["t_c"], row["cop"]),
            textcoords="offset points",
            xytext=(0, 6),
            ha="center",
            fontsize=8,
        )
    limiting = rating.limiting_point
    if limiting is not None:
        ax_cop.text(
            0.99 if cooling else 0.01,
            0.95,
            f"{'SEER' if cooling else 'SCOP'} limited most by test point {limiting}",
            transform=ax_cop.transAxes,
            va="top",
            ha="right" if cooling else "left",
            fontsize=8,
        )
    ax_cop.set_xlabel("outdoor temperature Tj [°C]")
    ax_cop.set_ylabel(f"{eff} [-]")
    ax_cop.legend(loc="lower right", fontsize=8)
    for a in (ax, ax_cop):
        a.grid(True, alpha=0.3)
    s = rating.settings
    if cooling:
        default = f"{rating.name}\nEN 14825 cooling, {s.application}: SEER {rating.seer:.2f}"
    else:
        default = (
            f"{rating.name}\nEN 14825 {s.climate} climate, {s.application} temperature: "
            f"SCOP {rating.scop:.2f}, ηs {rating.eta_s:.0f} %"
        )
    fig.suptitle(title or default, fontsize=10)
    fig.tight_layout()
    return fig, ax
