"""Shared pieces of the diagrams: the fluid of a scenario, axes, circuit colours."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from workbench.fluids import FluidBackend, get_backend

__all__ = [
    "CIRCUIT_COLOURS",
    "circuit_colour",
    "fluid_groups",
    "fluid_of",
    "in_notebook",
    "new_axes",
    "new_figure",
]

CIRCUIT_COLOURS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
)
"""One colour per circuit, in circuit order (cycled beyond eight circuits)."""


def circuit_colour(index: int) -> str:
    """Colour of the ``index``-th circuit drawn."""
    return CIRCUIT_COLOURS[index % len(CIRCUIT_COLOURS)]


def fluid_of(scenario: Any = None, fluid: FluidBackend | str | None = None) -> FluidBackend | None:
    """The working-fluid backend of a scenario (or the one given).

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str, path or None
        The scenario; a path, JSON string or dict is loaded (and validated) first.
    fluid : FluidBackend or str, optional
        A backend, or a fluid name (with the Test backend unless the scenario names another),
        taking precedence over the scenario.

    Returns
    -------
    FluidBackend or None
        None when neither is given (the diagram then has no dome).
    """
    if isinstance(fluid, FluidBackend):
        return fluid
    backend_name = None
    name = fluid
    if scenario is not None:
        if isinstance(scenario, str | Path | dict):
            from workbench.scenario import load_scenario

            scenario = load_scenario(scenario)
        backend_name = getattr(scenario, "fluid_backend", None)
        name = name or scenario.fluid
    if name is None:
        return None
    return get_backend(name, backend_name)


def fluid_groups(scenario: Any) -> list[tuple[str, str | None, list[int]]]:
    """The scenario's working fluids with their circuits: ``(fluid, backend, circuit ids)``.

    In circuit order; one entry for a one-fluid scenario. A v2 document's ``circuits[i].fluid``
    (and ``fluid_backend``) give a circuit its own fluid (a cascade of R744 under R290); each
    fluid's circuits are drawn on that fluid's dome.

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        The scenario (a path, JSON string or dict is loaded and validated first).
    """
    from workbench.scenario import flatten, load_scenario

    if isinstance(scenario, str | Path | dict):
        scenario = load_scenario(scenario)
    flat = scenario if hasattr(scenario, "circuit_fluids") else flatten(scenario)
    groups: dict[tuple[str, str | None], list[int]] = {}
    default = (str(flat.fluid), flat.fluid_backend)
    for circuit in flat.circuits or [0]:
        key = flat.circuit_fluids.get(circuit, default)
        groups.setdefault((str(key[0]), key[1]), []).append(int(circuit))
    return [(fluid, backend, ids) for (fluid, backend), ids in groups.items()]


def in_notebook() -> bool:
    """Whether the code runs in a Jupyter kernel (a notebook, JupyterLab, papermill).

    True when IPython is loaded and its shell has a kernel; plain Python, the CLI and pytest
    answer False.
    """
    if "IPython" not in sys.modules:
        return False
    from IPython import get_ipython

    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def new_figure(figsize: tuple[float, float], **options: Any) -> Figure:
    """A new figure that a notebook shows inline, and a script keeps out of pyplot.

    In a Jupyter kernel the figure goes through pyplot: the inline backend shows every pyplot
    figure of a cell under it, whether or not the notebook imported ``matplotlib.pyplot`` (the
    helper imports it). Elsewhere (scripts, the CLI, many figures in a loop, even where some
    library imported pyplot) it is a plain :class:`~matplotlib.figure.Figure` outside pyplot's
    global state, saved with ``fig.savefig``: nothing accumulates in pyplot.

    Parameters
    ----------
    figsize : tuple of float
        Width and height [inch].
    **options
        Passed to the figure (``layout="constrained"``).
    """
    if in_notebook():
        import matplotlib.pyplot as plt

        return plt.figure(figsize=figsize, **options)
    return Figure(figsize=figsize, **options)


def new_axes(ax: Axes | None, figsize: tuple[float, float] = (8.0, 5.5)) -> tuple[Figure, Axes]:
    """The figure and axes to draw on: ``ax``'s figure, or a new one (:func:`new_figure`).

    Parameters
    ----------
    ax : Axes or None
        Axes to draw into; None makes a new figure with one axes.
    figsize : tuple of float
        Size of a new figure [inch].
    """
    if ax is not None:
        return ax.figure, ax  # type: ignore[return-value]
    fig = new_figure(figsize, layout="constrained")
    return fig, fig.add_subplot()
