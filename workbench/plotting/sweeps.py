"""Sweep results against the swept parameter: COP, capacities and compressor power.

A sweep row ends one of three ways (:func:`sweep_outcomes`), drawn differently on the x axis:

- **converged**: on the lines;
- **refused**: the value did not pass the scenario checks (out of its range, say); no solve
  ran. A grey square with the reason written beside it;
- **not converged**: the solver ran (or raised) and did not converge: a red ``x``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.plotting.common import circuit_colour, new_axes

__all__ = ["COP_COLUMNS", "POWER_COLUMNS", "plot_sweep", "refusal_reason", "sweep_outcomes"]

COP_COLUMNS = ("cop_cooling", "cop_heating")
"""Columns drawn on the left axis [-]."""

POWER_COLUMNS = ("cooling_capacity_w", "heating_capacity_w", "compressor_power_w")
"""Columns drawn on the right axis, converted to kW."""

_LABELS = {
    "cop_cooling": "COP cooling",
    "cop_heating": "COP heating",
    "cooling_capacity_w": "cooling capacity",
    "heating_capacity_w": "heating capacity",
    "compressor_power_w": "compressor power",
}


def refusal_reason(error: str | None) -> str:
    """The reason of a refused value, without the error class and the JSON path.

    ``"ScenarioError: sweep: 1 error in scenario; - circuits[0].components[3].fan_speed: 3.0
    is out of range: expected a number in [0, 1]"`` -> ``"3.0 is out of range: expected a
    number in [0, 1]"``.
    """
    text = (error or "").split("; ")[-1].strip().lstrip("- ")
    head, sep, rest = text.partition(": ")
    if sep and (" " not in head or head.startswith("ScenarioError")):
        return rest
    return text


def sweep_outcomes(df: pd.DataFrame) -> pd.Series:
    """``"converged"``, ``"refused"`` or ``"not converged"`` for every row of a sweep frame.

    Refused: no iteration ran and the error is the scenario check's (``ScenarioError``).
    """
    if "converged" not in df:
        return pd.Series("converged", index=df.index)
    ok = df["converged"].eq(True)
    errors = df["error"] if "error" in df else pd.Series(None, index=df.index, dtype=object)
    iterations = df["iterations"] if "iterations" in df else pd.Series(0, index=df.index)
    checked = errors.map(lambda e: isinstance(e, str) and e.startswith("ScenarioError"))
    refused = ~ok & ~(iterations > 0) & checked.astype(bool)
    out = pd.Series("not converged", index=df.index)
    out[ok] = "converged"
    out[refused] = "refused"
    return out


def plot_sweep(
    df: pd.DataFrame,
    parameter: str,
    *,
    ax: Axes | None = None,
    cops: Sequence[str] = COP_COLUMNS,
    powers: Sequence[str] = POWER_COLUMNS,
    by: str | None = None,
) -> tuple[Figure, Axes]:
    """COP (left axis) and capacities and power (right axis, kW) against a swept parameter.

    Parameters
    ----------
    df : pandas.DataFrame
        A frame from :func:`workbench.sweep.sweep` (or any frame with these columns).
    parameter : str
        Column on the x axis (a swept path such as ``"evap.t_evap_k"``).
    ax : matplotlib Axes, optional
        Axes for the COP; the power axis is its ``twinx``. A new figure otherwise.
    cops, powers : sequence of str
        Columns to draw on each axis (missing or all-empty columns are skipped).
    by : str, optional
        A second swept column: one line per value, distinguished by line style.

    Returns
    -------
    (Figure, Axes)
        The COP axes; ``fig.axes`` also holds the power axis. The legend sits under the
        axes, so it never covers a line. Points that did not converge are left out of the
        lines and marked with a red ``x`` on the x axis (gid ``"failed"``); refused values
        with a grey square and their reason (gid ``"refused"``).

    Raises
    ------
    KeyError
        ``parameter`` or ``by`` is not a column of ``df``.
    """
    for col in (parameter, by):
        if col is not None and col not in df.columns:
            raise KeyError(f"column {col!r} not in the sweep frame; columns: {list(df.columns)}")
    fig, ax = new_axes(ax, figsize=(8.0, 4.8))
    right = ax.twinx()
    outcome = sweep_outcomes(df)
    ok = outcome.eq("converged")
    groups = [(None, df)] if by is None else list(df.groupby(by, sort=True))
    styles = ("-", "--", ":", "-.")
    for g, (key, sub) in enumerate(groups):
        sub = sub[ok.loc[sub.index]].sort_values(parameter)
        suffix = (
            ""
            if key is None
            else f" ({by}={key:g})"
            if isinstance(key, float)
            else f" ({by}={key})"
        )
        ls = styles[g % len(styles)]
        k = 0
        for col in cops:
            if col in sub and sub[col].notna().any():
                ax.plot(
                    sub[parameter],
                    sub[col].astype(float),
                    ls,
                    marker="o",
                    ms=3,
                    color=circuit_colour(k),
                    label=_LABELS.get(col, col) + suffix,
                    gid=col,
                )
            k += 1
        for col in powers:
            if col in sub and sub[col].notna().any() and (sub[col].astype(float) != 0).any():
                right.plot(
                    sub[parameter],
                    sub[col].astype(float) / 1e3,
                    ls,
                    marker="s",
                    ms=3,
                    color=circuit_colour(k),
                    label=_LABELS.get(col, col) + suffix + " [kW]",
                    gid=col,
                )
            k += 1
    refused = df[outcome.eq("refused")]
    if len(refused):
        ax.plot(
            refused[parameter],
            np.zeros(len(refused)),
            "s",
            color="0.45",
            ms=7,
            clip_on=False,
            label="refused (value not allowed)",
            gid="refused",
        )
        for x, error in zip(refused[parameter], refused["error"]):
            reason = refusal_reason(error)
            ax.annotate(
                reason if len(reason) <= 48 else reason[:47] + "…",
                (float(x), 0.0),
                xytext=(4, 8),
                textcoords="offset points",
                rotation=90,
                fontsize=7,
                color="0.3",
                annotation_clip=False,
            )
    failed = df[outcome.eq("not converged")]
    if len(failed):
        ax.plot(
            failed[parameter],
            np.zeros(len(failed)),
            "x",
            color="red",
            ms=8,
            mew=2,
            clip_on=False,
            label="not converged",
            gid="failed",
        )
    ax.set_xlabel(parameter)
    ax.set_ylabel("COP [-]")
    right.set_ylabel("capacity, power [kW]")
    ax.set_ylim(bottom=0)
    right.set_ylim(bottom=0)
    handles, labels = ax.get_legend_handles_labels()
    h2, l2 = right.get_legend_handles_labels()
    if handles or h2:  # under the axes: never over a line
        ax.legend(
            handles + h2,
            labels + l2,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.13),
            ncol=min(len(handles + h2), 3),
            fontsize=8,
            frameon=False,
        )
    ax.grid(True, alpha=0.25)
    return fig, ax
