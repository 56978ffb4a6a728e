"""Diagrams and tables of solve results: P-h and T-s charts, sweeps, convergence, tables.

Every plotting function returns ``(Figure, Axes)`` for further customisation and accepts
``ax=`` to draw into an existing figure::

    from workbench.plotting import plot_ph
    fig, ax = plot_ph(result, scenario=scenario)
    fig.savefig("ph.png", dpi=120)

Units on the charts are the contract's edge units: bar, kJ/kg, degC, kJ/(kg K), kW.
"""

from workbench.plotting.calibration import plot_parity
from workbench.plotting.charge import plot_charge, plot_charge_curve
from workbench.plotting.coil_design import plot_coil_design
from workbench.plotting.convergence import plot_convergence
from workbench.plotting.cycle import CycleLoop, cycle_loops
from workbench.plotting.exergy import plot_exergy
from workbench.plotting.panels import plot_fluid_panels
from workbench.plotting.ph import plot_ph
from workbench.plotting.sweeps import plot_sweep
from workbench.plotting.tables import (
    TABLES,
    engineering_table,
    results_tables,
    style_results,
    style_table,
)
from workbench.plotting.ts import plot_ts

__all__ = [
    "TABLES",
    "CycleLoop",
    "cycle_loops",
    "engineering_table",
    "plot_charge",
    "plot_charge_curve",
    "plot_coil_design",
    "plot_convergence",
    "plot_exergy",
    "plot_fluid_panels",
    "plot_parity",
    "plot_ph",
    "plot_sweep",
    "plot_ts",
    "results_tables",
    "style_results",
    "style_table",
]
