"""Parity plot of a calibration: model against measured, one panel per measured quantity.

Each panel draws every point's measured value (x) against the model's (y) with the 1:1 line and
a band of +/- ``band`` (relative), so a reader sees at once how close the calibrated model is
and which points stray; outliers are ringed in red. Powers and capacities are shown in kW,
temperatures the results give in K in degC.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.plotting.common import new_figure
from workbench.plotting.report_tables import path_label

__all__ = ["display_scale", "plot_parity"]

_POWER_KEYS = ("power", "capacity", "heatTransferRate", "secondary_heat_flow")
_KELVIN_KEYS = ("temperature", "saturationTemperature")
_EDGE_UNITS = {"t_c": "°C", "p_bar": "bar", "h_kj_kg": "kJ/kg", "m_kg_s": "kg/s", "quality": "-"}


def display_scale(quantity: str) -> tuple[float, float, str]:
    """How a quantity is shown: ``value * factor + offset`` in ``unit``.

    Parameters
    ----------
    quantity : str
        A measured-quantity path (:mod:`workbench.calibrate.quantities`).

    Returns
    -------
    (float, float, str)
        Factor, offset and the unit shown (W to kW, K to degC for absolute temperatures).
    """
    key = quantity.rsplit(".", 1)[-1]
    if quantity.startswith("edges."):
        return 1.0, 0.0, _EDGE_UNITS.get(key, "")
    if key.endswith("_w") or key in _POWER_KEYS:
        return 1e-3, 0.0, "kW"
    if key in _KELVIN_KEYS or key.endswith("_temperature"):
        return 1.0, -273.15, "°C"
    if key in ("superheat", "subcooling"):
        return 1.0, 0.0, "K"
    if key.startswith("cop"):
        return 1.0, 0.0, "-"
    return 1.0, 0.0, ""


def plot_parity(
    residuals: pd.DataFrame,
    *,
    quantities: Sequence[str] | None = None,
    band: float = 0.02,
    band_k: float = 1.0,
    ax: Axes | None = None,
) -> tuple[Figure, Axes]:
    """Model against measured per quantity, with the 1:1 line and a relative band.

    Parameters
    ----------
    residuals : pandas.DataFrame
        ``CalibrationResult.residuals`` (columns ``point``, ``quantity``, ``measured``,
        ``model``, ``outlier``).
    quantities : sequence of str, optional
        The quantities to draw (default: every one, in the table's order).
    band : float
        Half-width of the shaded band around the 1:1 line of a power, a flow or a pressure [-]
        (0.02: +/- 2 %).
    band_k : float
        Half-width of the band of a temperature [K]: a percentage of a Celsius value means
        nothing.
    ax : matplotlib Axes, optional
        Draw one quantity into this axes (``quantities`` must then name at most one).

    Returns
    -------
    (Figure, Axes)
        The first panel; ``fig.axes`` holds one panel per quantity.

    Raises
    ------
    ValueError
        ``ax`` given with more than one quantity, or a quantity not in the table.
    """
    names = (
        list(quantities) if quantities is not None else list(dict.fromkeys(residuals["quantity"]))
    )
    unknown = [q for q in names if q not in set(residuals["quantity"])]
    if unknown:
        raise ValueError(f"quantity {unknown[0]!r} is not in the residuals table")
    if ax is not None:
        if len(names) != 1:
            raise ValueError("ax= draws one quantity: pass quantities=[...] with one name")
        fig = ax.figure
        panels = [ax]
    else:
        cols = min(3, max(1, len(names)))
        rows = math.ceil(len(names) / cols)
        fig = new_figure((4.2 * cols, 4.0 * rows))
        grid = fig.subplots(rows, cols, squeeze=False)
        panels = list(grid.ravel())
        for extra in panels[len(names) :]:
            extra.remove()
    for panel, name in zip(panels, names):
        _panel(panel, residuals[residuals["quantity"] == name], name, band, band_k)
    fig.suptitle("Calibration: model against measured") if ax is None else None
    if ax is None:
        fig.tight_layout()
    return fig, panels[0]  # type: ignore[return-value]


def _panel(ax: Axes, rows: pd.DataFrame, name: str, band: float, band_k: float) -> None:
    factor, offset, unit = display_scale(name)
    ok = rows[rows["model"].notna()]
    x = ok["measured"].astype(float).to_numpy() * factor + offset
    y = ok["model"].astype(float).to_numpy() * factor + offset
    if len(x):
        low, high = float(min(x.min(), y.min())), float(max(x.max(), y.max()))
        pad = 0.05 * (high - low) if high > low else max(abs(high) * 0.05, 1.0)
        line = np.array([low - pad, high + pad])
        ax.plot(line, line, color="0.3", lw=1.0, gid="parity_line")
        if unit in ("°C", "K"):  # a temperature: the band is in kelvin
            low_band, high_band, text = line - band_k, line + band_k, f"±{band_k:g} K"
        else:  # a relative band on a ratio scale
            low_band, high_band, text = line * (1 - band), line * (1 + band), f"±{band:.0%}"
        ax.fill_between(
            line, low_band, high_band, color="0.85", lw=0, label=text, gid="parity_band"
        )
        ax.set_xlim(*line)
        ax.set_ylim(*line)
    ax.scatter(x, y, s=22, color="tab:blue", zorder=3, label="points", gid="parity_points")
    outliers = ok[ok["outlier"].astype(bool)] if "outlier" in ok else ok.iloc[0:0]
    if len(outliers):
        ax.scatter(
            outliers["measured"].astype(float) * factor + offset,
            outliers["model"].astype(float) * factor + offset,
            s=90,
            facecolors="none",
            edgecolors="red",
            zorder=4,
            label="outliers",
            gid="parity_outliers",
        )
    words = path_label(name)[0]
    label = f"{words} [{unit}]" if unit else words
    ax.set_xlabel(f"measured {label}")
    ax.set_ylabel(f"model {label}")
    ax.set_aspect("equal", adjustable="box")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
