"""The charge of a solved state in its result: ``result.charge``, ``summary.charge_kg``, safety.

Who calls it: :func:`workbench.solver.tables.collect_results`, once per result. With no volume
in the scenario nothing is added (the result is what it was before charge existed). With a
``safety`` block, the charge (or the block's own ``charge_kg``) is judged against
IEC 60335-2-40 Annex GG (:func:`workbench.safety.charge_limits`) into ``result.safety``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.solver.charge.block import CircuitCharge
from workbench.solver.charge.inventory import has_volumes, inventory

if TYPE_CHECKING:
    from workbench.solver.system import System

__all__ = ["charge_results", "charge_table"]


def charge_results(system: System, x: np.ndarray, result: Any) -> None:
    """Fill ``result.charge``, ``result.summary["charge_kg"]`` and ``result.safety`` at ``x``.

    With fixed charges, ``result.charge["fixed"]`` lists them (circuit, fixed and computed kg,
    what the charge sets) and an undercharged circuit (negative subcooling) gets a warning.

    Raises
    ------
    FluidPropertyError
        A property call failed at the state.
    """
    flat = system.flat
    total: float | None = None
    if has_volumes(system):
        inv = inventory(system, x)
        result.charge = inv.to_dict()
        total = inv.total_kg
        result.summary["charge_kg"] = total
        fixed = [b for b in system.blocks if isinstance(b, CircuitCharge)]
        if fixed:
            result.charge["fixed"] = [b.result(x) for b in fixed]
        for block in fixed:
            _undercharge_warning(block, result)
    cfg = getattr(flat, "safety", None)
    if cfg is None:
        return
    from workbench.safety import charge_limits

    judged = cfg.charge_kg if cfg.charge_kg is not None else total
    h0 = cfg.release_height_m if cfg.release_height_m is not None else cfg.release_height
    try:
        edition = 6 if cfg.standard.endswith(":2018") else 7
        limits = charge_limits(flat.fluid, cfg.room_area_m2, h0, judged, edition)
    except KeyError as exc:
        result.warnings.append(f"safety: {exc.args[0]}")
        return
    result.safety = limits.to_dict()
    if limits.complies is False:
        result.warnings.append(f"safety: {limits.message}")


def _undercharge_warning(block: CircuitCharge, result: Any) -> None:
    """A warning when the charge leaves the freed condenser's outlet not fully condensed."""
    name, _, output = block.freed.rpartition(".")
    value = (result.components.get(name) or {}).get(output)
    if output == "subcooling" and value is not None and value < 0.0:
        result.warnings.append(
            f"{block.path}: the charge {block.charge_kg:.4g} kg leaves {name!r} not fully "
            f"condensed (subcooling {value:.2f} K): the circuit is undercharged and flash gas "
            "reaches the expansion device"
        )


def charge_table(charge: Any) -> pd.DataFrame:
    """The inventory as a table: one row per zone of a coil or vessel, one per edge.

    Parameters
    ----------
    charge : SolveResult or dict
        A result with a charge, or its ``charge`` dict.

    Returns
    -------
    pandas.DataFrame
        Columns ``item``, ``kind``, ``type``, ``circuit``, ``zone`` (``line`` for an edge),
        ``volume_m3``, ``density_kg_m3``, ``kg`` and ``share`` (of the total) [-].

    Raises
    ------
    ValueError
        The result holds no charge (no volumes in its scenario).
    """
    doc = getattr(charge, "charge", charge)
    if not doc:
        raise ValueError("the result holds no charge: give internal_volume_m3 / volume_m3")
    total = float(doc["total_kg"])
    rows = []
    for item in doc["items"]:
        zones = item.get("zones") or [
            {
                "zone": "line",
                "volume_m3": item["volume_m3"],
                "density_kg_m3": item["kg"] / item["volume_m3"],
                "kg": item["kg"],
            }
        ]
        for z in zones:
            rows.append(
                {
                    "item": item["name"],
                    "kind": item["kind"],
                    "type": item["type"],
                    "circuit": item["circuit"],
                    "zone": z["zone"],
                    "volume_m3": z["volume_m3"],
                    "density_kg_m3": z["density_kg_m3"],
                    "kg": z["kg"],
                    "share": z["kg"] / total if total > 0 else None,
                }
            )
    return pd.DataFrame(rows)
