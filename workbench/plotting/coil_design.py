"""A coil design study on one page: capacity, sensible heat ratio, pressure drops and charge.

Who reads it: notebook 11 (coil design), with a :func:`workbench.sweep.sweep` table over one or
two geometry entries of a coil (``evaporator.geometry.banks``, ``...fins_per_m``) whose
``outputs`` include the coil's ``capacity``, ``sensible_heat_ratio``,
``refrigerant_pressure_drop`` and ``air_pressure_drop``; the summary's ``charge_kg`` and
``cop_cooling`` come with every sweep row. Four panels against the first swept entry, one line
per value of the second: capacity [kW], sensible heat ratio [-], the two pressure drops [kPa,
Pa] and charge with COP. Rows that did not converge are left out.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from workbench.plotting.common import new_figure

__all__ = ["plot_coil_design"]


def plot_coil_design(
    df: pd.DataFrame, coil: str, x: str, by: str | None = None, title: str | None = None
) -> tuple[Figure, list]:
    """Four panels of a coil geometry sweep (module docstring).

    Parameters
    ----------
    df : pandas.DataFrame
        A sweep table with the coil's outputs (module docstring).
    coil : str
        The coil's component name (``evaporator``).
    x : str
        The swept path on the x axis (``evaporator.geometry.banks``).
    by : str, optional
        A second swept path: one line per value.
    title : str, optional
        Figure title.

    Returns
    -------
    (Figure, list of Axes)
        The figure and its four axes (capacity, SHR, pressure drops, charge and COP).

    Raises
    ------
    KeyError
        A column the panels need is missing from ``df`` (named).
    """
    needed = [
        x,
        f"{coil}.capacity",
        f"{coil}.sensible_heat_ratio",
        f"{coil}.refrigerant_pressure_drop",
        f"{coil}.air_pressure_drop",
        "charge_kg",
        "cop_cooling",
    ] + ([by] if by else [])
    missing = [c for c in needed if c not in df.columns]
    if missing:
        raise KeyError(f"plot_coil_design needs the sweep columns {', '.join(missing)}")
    ok = df[df["converged"].eq(True)] if "converged" in df else df
    fig = new_figure((10.0, 7.0), layout="constrained")
    axes = fig.subplots(2, 2).ravel().tolist()
    cop_ax = axes[3].twinx()
    groups = list(ok.groupby(by)) if by else [(None, ok)]
    for value, part in groups:
        part = part.sort_values(x)
        label = f"{by.rsplit('.', 1)[-1]} = {value:g}" if by else None
        xs = part[x]
        (line,) = axes[0].plot(xs, part[f"{coil}.capacity"] / 1e3, "o-", label=label)
        colour = line.get_color()
        axes[1].plot(xs, part[f"{coil}.sensible_heat_ratio"], "o-", color=colour)
        axes[2].plot(xs, part[f"{coil}.refrigerant_pressure_drop"] / 1e3, "o-", color=colour)
        axes[2].plot(xs, part[f"{coil}.air_pressure_drop"], "s--", color=colour)
        axes[3].plot(xs, 1e3 * part["charge_kg"], "o-", color=colour)
        cop_ax.plot(xs, part["cop_cooling"], "^:", color=colour)
    name = x.rsplit(".", 1)[-1]
    axes[0].set_ylabel(f"{coil} capacity [kW]")
    axes[1].set_ylabel("sensible heat ratio [-]")
    axes[2].set_ylabel("refrigerant dp [kPa] (o), air dp [Pa] (s)")
    axes[3].set_ylabel("charge [g] (o)")
    cop_ax.set_ylabel("COP cooling [-] (^)")
    for ax in axes:
        ax.set_xlabel(name)
        ax.grid(True, alpha=0.3)
    if by:
        axes[0].legend(fontsize=8)
    fig.suptitle(title or f"{coil}: {name}" + (f" and {by.rsplit('.', 1)[-1]}" if by else ""))
    return fig, axes
