"""Where the refrigerant sits, and the charge curve: charts of :mod:`workbench.charge`."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.plotting.common import new_axes

__all__ = ["ZONE_COLOURS", "plot_charge", "plot_charge_curve"]

ZONE_COLOURS = {
    "superheated": "#ff7f0e",
    "two-phase": "#9467bd",
    "subcooled": "#1f77b4",
    "supercritical": "#d62728",
    "liquid": "#1f77b4",
    "vapour": "#ff7f0e",
    "line": "#7f7f7f",
}
"""Segment colours by zone (``hot.``/``cold.`` prefixes of heat-exchanger sides ignored)."""


def _zone_key(zone: str) -> str:
    return zone.split(".", 1)[-1]


def plot_charge(
    charge: Any, *, ax: Axes | None = None, title: str | None = None
) -> tuple[Figure, Axes]:
    """Horizontal bars of the refrigerant per component and edge, split by zone.

    Parameters
    ----------
    charge : SolveResult or dict
        A result with a charge (``result.charge``) or that dict itself.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure otherwise.
    title : str, optional
        Axes title; by default the total, the void fraction model and the safety verdict when
        the result has one.

    Returns
    -------
    (Figure, Axes)
        Mass [g] per item, largest at the top; segments carry gids ``charge-<item>-<zone>``
        and each bar is labelled with its grams and share of the total.

    Raises
    ------
    ValueError
        The result holds no charge (no volumes in its scenario).
    """
    safety = getattr(charge, "safety", None)
    doc = getattr(charge, "charge", charge)
    if not doc:
        raise ValueError(
            "the result holds no charge: give internal_volume_m3 / volume_m3 in the scenario"
        )
    items = sorted(doc["items"], key=lambda i: i["kg"])
    fig, ax = new_axes(ax, figsize=(8.0, 0.5 * len(items) + 1.8))
    total = float(doc["total_kg"])
    seen: set[str] = set()
    for k, item in enumerate(items):
        left = 0.0
        zones = item.get("zones") or [{"zone": "line", "kg": item["kg"]}]
        for z in zones:
            key = _zone_key(z["zone"])
            grams = 1e3 * float(z["kg"])
            ax.barh(
                k,
                grams,
                left=left,
                color=ZONE_COLOURS.get(key, "0.6"),
                edgecolor="0.2",
                lw=0.5,
                gid=f"charge-{item['name']}-{z['zone']}",
                label=key if key not in seen else None,
            )
            seen.add(key)
            left += grams
        share = item["kg"] / total if total > 0 else 0.0
        ax.annotate(
            f"{1e3 * item['kg']:.1f} g ({share:.0%})",
            (left, k),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    ax.set_yticks(np.arange(len(items)), [i["name"] for i in items], fontsize=8)
    ax.set_xlabel("refrigerant [g]")
    ax.set_xlim(0.0, 1.25e3 * max((i["kg"] for i in items), default=1.0))
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right", frameon=False)
    if title is None:
        title = f"charge {1e3 * total:.1f} g ({doc['void_fraction']} void fraction)"
        if safety:
            verdict = {True: "complies", False: "does not comply", None: "no limit"}[
                safety.get("complies")
            ]
            allowed = safety.get("allowed_kg")
            title += f"; {safety['fluid']} {verdict}" + (
                f" (allowed {1e3 * allowed:.0f} g)" if allowed is not None else ""
            )
    ax.set_title(title, fontsize=10)
    return fig, ax


def plot_charge_curve(
    frame: Any,
    *,
    ax: Axes | None = None,
    cop: str = "cop_heating",
    limits: Any = None,
    title: str | None = None,
) -> tuple[Figure, Axes]:
    """Subcooling (or receiver level) and COP against the charge.

    Parameters
    ----------
    frame : pandas.DataFrame
        From :func:`workbench.charge.curve.charge_curve` (``charge_kg``, ``subcooling_k`` or
        ``liquid_level``, the COP column).
    ax : matplotlib Axes, optional
        Axes for the subcooling; the COP goes on a twin axis.
    cop : str
        The COP column to draw (``cop_heating`` or ``cop_cooling``).
    limits : ChargeLimits or dict, optional
        Annex GG limits: m1 and the charge allowed in the room are drawn as vertical lines.
    title : str, optional
        Axes title.

    Returns
    -------
    (Figure, Axes)
        The subcooling axes (the COP axes is its twin); lines carry gids ``charge-curve-set``,
        ``charge-curve-cop``, ``charge-limit-m1``, ``charge-limit-allowed``.
    """
    fig, ax = new_axes(ax, figsize=(7.5, 4.5))
    ok = frame[frame["converged"]] if "converged" in frame else frame
    x = 1e3 * ok["charge_kg"].to_numpy(dtype=float)
    column = "subcooling_k" if "subcooling_k" in ok else "liquid_level"
    label = "subcooling [K]" if column == "subcooling_k" else "receiver liquid level [-]"
    ax.plot(x, ok[column].to_numpy(dtype=float), "o-", color="#1f77b4", gid="charge-curve-set")
    ax.set_xlabel("charge [g]")
    ax.set_ylabel(label, color="#1f77b4")
    if column == "subcooling_k":
        ax.axhline(0.0, color="0.5", lw=0.8, ls=":")
    twin = ax.twinx()
    twin.plot(x, ok[cop].to_numpy(dtype=float), "s--", color="#d62728", gid="charge-curve-cop")
    twin.set_ylabel(cop.replace("cop_", "COP, ") + " [-]", color="#d62728")
    if limits is not None:
        lim = limits if isinstance(limits, dict) else limits.to_dict()
        for key, gid, text in (
            ("m1_kg", "charge-limit-m1", "m1"),
            ("allowed_kg", "charge-limit-allowed", "allowed in room"),
        ):
            value = lim.get(key)
            if value is not None:
                ax.axvline(1e3 * value, color="0.3", lw=1.0, ls="--", gid=gid)
                ax.annotate(
                    text,
                    (1e3 * value, 1.0),
                    xycoords=("data", "axes fraction"),
                    xytext=(3, -12),
                    textcoords="offset points",
                    fontsize=8,
                    rotation=90,
                    va="top",
                )
    ax.grid(True, alpha=0.3)
    ax.set_title(title or "charge curve", fontsize=10)
    return fig, ax
