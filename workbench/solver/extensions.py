"""Blocks beyond components: control loops, thermal couplings and fixed charges, attached before solving."""

from __future__ import annotations

from workbench.components.exchangers.coils.component import Coil
from workbench.solver.charge.block import attach_charges
from workbench.solver.controls import ControlLoop
from workbench.solver.couplings import ThermalCoupling, find_coupled_coils
from workbench.solver.links import link_suction_pressures
from workbench.solver.plate_coupling import PlateCoupling
from workbench.solver.system import System

__all__ = ["attach"]


def attach(system: System) -> dict[int, int]:
    """Attach couplings and control loops as blocks.

    Returns
    -------
    dict
        Extra equations per circuit beyond those of its components (couplings add one to each
        side; a control loop adds one unknown and one equation, which cancel).
    """
    flat = system.flat
    extra: dict[int, int] = {}
    link_suction_pressures(system)
    coils = [
        (flat.components[c.name].circuit, c)
        for c in system.components.values()
        if isinstance(c, Coil)
    ]
    for i, cfg in enumerate(flat.thermal_couplings):
        hot, cold = find_coupled_coils(i, cfg, coils)
        kind = PlateCoupling if cfg.geometry is not None else ThermalCoupling
        system.blocks.append(kind(i, cfg, hot, cold))
        extra[cfg.hot_circuit] = extra.get(cfg.hot_circuit, 0) + 1
        extra[cfg.cold_circuit] = extra.get(cfg.cold_circuit, 0) + 1
        _cascade_hints(system, hot, cold)
    for control in flat.controls:
        index = system.add_variable(f"u[controls.{control.id}]", "z")
        loop = ControlLoop(
            control,
            system.components[control.measure.component],
            system.components[control.actuator.component],
            index,
        )
        system.blocks.append(loop)
    for circuit, n in attach_charges(system).items():  # circuits[i].charge_kg (docs/charge.md)
        extra[circuit] = extra.get(circuit, 0) + n
    return extra


def _cascade_hints(system: System, hot: Coil, cold: Coil) -> None:
    """Starting saturation temperatures of the coupled coils: around the midpoint of the stages."""
    flat = system.flat
    hot_circuit, cold_circuit = (
        flat.components[hot.name].circuit,
        flat.components[cold.name].circuit,
    )
    t_low = t_high = None
    for comp in system.components.values():
        if not isinstance(comp, Coil) or not comp.has_secondary:
            continue
        circuit = flat.components[comp.name].circuit
        if circuit == hot_circuit and not comp.refrigerant_is_hot:
            t_low = float(comp.params.get("t_evap_k", comp.t_sec_in - 8.0))
        if circuit == cold_circuit and comp.refrigerant_is_hot:
            t_high = float(comp.params.get("t_cond_k", comp.t_sec_in + 10.0))
    if t_low is None or t_high is None:
        return
    mid = 0.5 * (t_low + t_high)
    system.saturation_hints[hot.name] = mid + 4.0
    system.saturation_hints[cold.name] = mid - 4.0
