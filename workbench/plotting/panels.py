"""Diagrams of a scenario with several working fluids: one panel per fluid.

A cascade (R744 under R290) has two fluids, each with its own dome: a P-h or T-s chart can
show a circuit's states only on its own fluid's saturation lines (an R744 state drawn against
the R290 dome, with R290 isotherms, reads wrong). :func:`plot_fluid_panels` draws one panel per
fluid, side by side, as a report shows a cascade: each panel has its fluid's dome, isotherms
(isobars) and title, and only the circuits in that fluid; a circuit keeps its colour and its
name in the legend across panels, so the cascade heat exchanger is found in both (condensing
in the low stage, evaporating in the high stage). A one-fluid scenario gives one panel, the
same chart as :func:`~workbench.plotting.plot_ph` / :func:`~workbench.plotting.plot_ts`.
"""

from __future__ import annotations

from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.plotting.common import fluid_groups, new_figure
from workbench.plotting.ph import plot_ph
from workbench.plotting.ts import plot_ts

__all__ = ["plot_fluid_panels"]

_PLOTS = {"P-h": plot_ph, "ph": plot_ph, "T-s": plot_ts, "ts": plot_ts}


def plot_fluid_panels(
    result: Any,
    scenario: Any,
    diagram: str = "P-h",
    *,
    fig: Figure | None = None,
    panel_size: tuple[float, float] = (6.4, 5.2),
    **options: Any,
) -> tuple[Figure, list[Axes]]:
    """One P-h (or T-s) panel per working fluid, each with only its circuits.

    Parameters
    ----------
    result : SolveResult
        The solved scenario.
    scenario : ScenarioConfig, FlatScenario, dict or path
        Names the fluids of the circuits (``fluid``, ``circuits[i].fluid``).
    diagram : {"P-h", "T-s"}
        Which diagram (``"ph"``, ``"ts"`` also accepted).
    fig : Figure, optional
        Figure to draw in (cleared of nothing; panels are added); a new one otherwise, outside
        pyplot.
    panel_size : tuple of float
        Width and height of one panel [inch].
    **options
        Passed to :func:`~workbench.plotting.plot_ph` or :func:`~workbench.plotting.plot_ts`
        (``numbers``, ``isotherms_c``, ``isobars_bar``).

    Returns
    -------
    (Figure, list of Axes)
        One axes per fluid, in circuit order; each titled with its fluid (the scenario name at
        the right) and holding lines ``cycle-<circuit>`` of its circuits only.

    Raises
    ------
    ValueError
        An unknown ``diagram``.
    """
    if diagram not in _PLOTS:
        raise ValueError(f"unknown diagram {diagram!r}; use 'P-h' or 'T-s'")
    plot = _PLOTS[diagram]
    groups = fluid_groups(scenario)
    if fig is None:
        fig = new_figure((panel_size[0] * len(groups), panel_size[1]), layout="constrained")
    axes = fig.subplots(1, len(groups), squeeze=False)[0]
    for ax, (_fluid, _backend, circuits) in zip(axes, groups):
        plot(result, scenario=scenario, ax=ax, circuits=circuits, **options)
    return fig, list(axes)
