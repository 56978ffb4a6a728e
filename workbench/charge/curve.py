"""The charge curve: subcooling and COP of a unit against its refrigerant charge.

Who reads it: the charge notebook, :func:`workbench.plotting.charge.plot_charge_curve` and
engineers choosing a unit's charge. It sweeps ``circuits[i].charge_kg`` of a scenario whose
circuit has a fixed charge (:func:`workbench.sweep`, warm-started from case to case) and
reads what the charge sets: the condenser's subcooling (or a receiver's level). A curve that
rises, peaks and falls in COP is the classic result: undercharged (flash gas at the valve,
negative subcooling here), optimum, overcharged (liquid backs up in the condenser, the
condensing pressure and the power rise).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

__all__ = ["charge_curve"]


def charge_curve(
    scenario: Any,
    charges_kg: Sequence[float],
    *,
    circuit: int = 0,
    processes: int | None = 1,
    progress: bool = False,
) -> pd.DataFrame:
    """Solve ``scenario`` at each charge and tabulate what the charge sets.

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        A scenario whose circuit ``circuit`` has ``charge_kg`` (the base case).
    charges_kg : sequence of float
        Charges to solve [kg], best in increasing order (each case starts from its neighbour).
    circuit : int
        Index of the circuit in the flat document's ``circuits``.
    processes : int or None
        Worker processes of the sweep (1: in this process).
    progress : bool
        Show the sweep's progress.

    Returns
    -------
    pandas.DataFrame
        One row per charge: ``charge_kg``, ``converged``, ``subcooling_k`` (or ``liquid_level``
        with a receiver), ``cop_heating``, ``cop_cooling``, ``heating_capacity_w``,
        ``cooling_capacity_w``, ``compressor_power_w``, ``error``.

    Raises
    ------
    ScenarioError
        The scenario does not fix that circuit's charge, or a path does not resolve.
    """
    from workbench.errors import ScenarioError, ScenarioIssue
    from workbench.scenario import as_flat
    from workbench.sweep import sweep

    flat = as_flat(scenario)
    cid = flat.circuits[circuit] if circuit < len(flat.circuits) else None
    if cid is None or cid not in flat.charge_kg:
        raise ScenarioError(
            [
                ScenarioIssue(
                    f"circuits[{circuit}].charge_kg",
                    "the charge curve sweeps a fixed charge: give the circuit a charge_kg "
                    "(and no subcooling_k on its condenser)",
                )
            ]
        )
    comps = flat.circuit_components(cid)
    vessel = next((c.name for c in comps if c.type in ("Receiver", "Accumulator")), None)
    condenser = next((c.name for c in comps if c.type == "Condenser"), None)
    if vessel is not None:
        output, column = f"{vessel}.liquid_level", "liquid_level"
    elif condenser is not None:
        output, column = f"{condenser}.subcooling", "subcooling_k"
    else:
        output, column = "", ""
    path = f"circuits[{circuit}].charge_kg"
    frame = sweep(
        flat,
        {path: [float(c) for c in charges_kg]},
        processes=processes,
        progress=progress,
        outputs=[output] if output else [],
    )
    # the computed charge equals the swept one in a converged case: keep the swept column
    frame = frame.drop(columns=["charge_kg"], errors="ignore")
    frame = frame.rename(columns={path: "charge_kg", output: column})
    keep = [
        "charge_kg",
        "converged",
        column,
        "cop_heating",
        "cop_cooling",
        "heating_capacity_w",
        "cooling_capacity_w",
        "compressor_power_w",
        "error",
    ]
    return frame[[k for k in keep if k and k in frame.columns]]
