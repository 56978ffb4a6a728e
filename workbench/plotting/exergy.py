"""Exergy of a solved cycle as a Grassmann-like waterfall: fuel, destruction, loss, product."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.plotting.common import new_axes

__all__ = ["EXERGY_COLOURS", "plot_exergy"]

EXERGY_COLOURS = {
    "fuel": "#1f77b4",
    "destruction": "#d62728",
    "loss": "#ff7f0e",
    "product": "#2ca02c",
}
"""Bar colours of the waterfall."""


def plot_exergy(
    analysis: Any,
    *,
    ax: Axes | None = None,
    min_share: float = 0.005,
    title: str | None = None,
) -> tuple[Figure, Axes]:
    """Waterfall of an exergy analysis: fuel, then each destruction and loss, then product.

    The first bar is the fuel (compressor power plus exergy given up by outside bodies); each
    following bar hangs from where the previous one ended and takes away one component's
    exergy destruction (largest first) or one body's loss; what is left is the product, the
    last bar. Because the analysis balances, the last bar ends where the product's top is:
    the chart reads like a Grassmann diagram turned into columns.

    Parameters
    ----------
    analysis : ExergyAnalysis
        From ``result.exergy(ambient_k=...)``.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure otherwise.
    min_share : float
        Destructions below this share of the fuel (default 0.5 %) are pooled into one
        ``other`` bar (0: every component gets its own).
    title : str, optional
        Axes title; by default the purpose, ambient temperature and efficiency.

    Returns
    -------
    (Figure, Axes)
        Exergy [kW] per bar; bars carry gids ``exergy-fuel``, ``exergy-destruction-<name>``,
        ``exergy-loss-<component>``, ``exergy-product``; each is labelled with its kW and its
        share of the fuel.
    """
    fig, ax = new_axes(ax, figsize=(8.0, 4.8))
    fuel = float(analysis.fuel_w)
    bars: list[tuple[str, float, str, str]] = [("fuel", fuel, "fuel", "exergy-fuel")]
    other = 0.0
    for comp in sorted(analysis.components, key=lambda c: -c.destruction_w):
        if fuel and abs(comp.destruction_w) < min_share * fuel:
            other += comp.destruction_w
            continue
        bars.append(
            (comp.name, -comp.destruction_w, "destruction", f"exergy-destruction-{comp.name}")
        )
    if other:
        bars.append(("other", -other, "destruction", "exergy-destruction-other"))
    for body in analysis.heat:
        if body.role == "loss" and body.exergy_w > 0:
            bars.append(
                (f"loss: {body.component}", -body.exergy_w, "loss", f"exergy-loss-{body.component}")
            )
    level = 0.0
    for k, (label, value, kind, gid) in enumerate(bars):
        bottom = level if kind != "fuel" else 0.0
        height = value
        ax.bar(
            k,
            height / 1e3,
            bottom=bottom / 1e3,
            color=EXERGY_COLOURS[kind],
            edgecolor="0.2",
            lw=0.6,
            gid=gid,
            label=kind if kind not in {b[2] for b in bars[:k]} else None,
        )
        level = bottom + height
        share = f"\n{abs(value) / fuel:.1%}" if fuel else ""
        ax.annotate(
            f"{abs(value) / 1e3:.3g} kW{share}",
            (k, max(bottom, bottom + height) / 1e3),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            fontsize=7,
        )
        del label
    k_product = len(bars)
    ax.bar(
        k_product,
        analysis.product_w / 1e3,
        color=EXERGY_COLOURS["product"],
        edgecolor="0.2",
        lw=0.6,
        gid="exergy-product",
        label="product",
    )
    share = f"\n{analysis.product_w / fuel:.1%}" if fuel else ""
    ax.annotate(
        f"{analysis.product_w / 1e3:.3g} kW{share}",
        (k_product, analysis.product_w / 1e3),
        xytext=(0, 3),
        textcoords="offset points",
        ha="center",
        fontsize=7,
    )
    names = [b[0] for b in bars] + ["product"]
    ax.set_xticks(np.arange(len(names)), names, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("exergy [kW]")
    ax.axhline(0.0, color="0.3", lw=0.8)
    top = max(fuel, analysis.product_w, 0.0) / 1e3
    ax.set_ylim(min(0.0, analysis.product_w / 1e3), 1.18 * top if top > 0 else 1.0)
    ax.grid(True, axis="y", alpha=0.3)
    eff = "n/a" if analysis.efficiency is None else f"{analysis.efficiency:.1%}"
    ax.set_title(
        title
        if title is not None
        else f"exergy ({analysis.purpose}, T0 = {analysis.ambient_k - 273.15:.1f} °C): "
        f"efficiency {eff}",
        fontsize=10,
    )
    ax.legend(fontsize=8, loc="upper right", frameon=False, ncol=4)
    return fig, ax
