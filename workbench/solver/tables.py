"""Fill a :class:`SolveResult` from a solution vector: edge states, outputs, summary, checks."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from workbench.components.exchangers.coils.component import Coil
from workbench.components.exchangers.gas_cooler.component import GasCooler
from workbench.components.exchangers.lines.component import RefrigerantLine
from workbench.components.machines.compressor import Compressor
from workbench.components.machines.injection_compressor import InjectionCompressor
from workbench.errors import FluidPropertyError
from workbench.solver.charge.results import charge_results
from workbench.solver.context import with_context
from workbench.solver.controls import ControlLoop
from workbench.solver.results import EdgeState, SolveResult
from workbench.solver.system import System
from workbench.units import j_kg_to_kj_kg, kelvin_to_celsius, pa_to_bar

__all__ = ["collect_results", "edge_rows", "edge_states", "edge_table", "line_results"]

LINE_COLUMNS = (
    ("pressure_drop", "pressure_drop_pa"),
    ("friction_pressure_drop", "friction_pressure_drop_pa"),
    ("fittings_pressure_drop", "fittings_pressure_drop_pa"),
    ("static_pressure_drop", "static_pressure_drop_pa"),
    ("saturation_temperature_drop", "saturation_temperature_drop_k"),
    ("heat_gain", "heat_gain_w"),
    ("velocity", "velocity_m_s"),
    ("mean_quality", "mean_quality"),
    ("volume_m3", "volume_m3"),
)
"""Line outputs (SI) -> columns of ``result.lines``."""


def edge_rows(
    system: System, x: np.ndarray, states: list[EdgeState] | None = None
) -> list[dict[str, Any]]:
    """One row per edge: edge, circuit, m_kg_s, p_bar, h_kj_kg, t_c, quality, phase, s.

    ``s`` is the specific entropy in kJ/(kg K); ``quality`` is empty outside the dome.
    ``states``: the edges' states at ``x`` when the caller has them (:func:`edge_states`; no
    property is evaluated again).
    """
    rows = []
    for edge, st in zip(system.flat.edges, states or edge_states(system, x), strict=True):
        rows.append(
            {
                "edge": f"{edge.source} -> {edge.target}",
                "circuit": edge.circuit,
                "m_kg_s": st.m_kg_s,
                "p_bar": pa_to_bar(st.p_pa),
                "h_kj_kg": j_kg_to_kj_kg(st.h_j_kg),
                "t_c": kelvin_to_celsius(st.t_k),
                "quality": st.quality,
                "phase": st.phase,
                "s": st.s_j_kgk / 1e3,
            }
        )
    return rows


def edge_states(system: System, x: np.ndarray) -> list[EdgeState]:
    """The state of each edge in SI, with its endpoints as data (what the diagrams draw)."""
    states = []
    for i, edge in enumerate(system.flat.edges):
        v = system.topology.edge_vars[i]
        p, h = float(x[v.p]), float(x[v.h])
        st = system.fluid_of(edge.circuit).state_ph(p, h)
        q = st.quality
        states.append(
            EdgeState(
                src=edge.src,
                src_port=edge.src_port,
                dst=edge.dst,
                dst_port=edge.dst_port,
                circuit=edge.circuit,
                m_kg_s=float(x[v.m]),
                p_pa=p,
                h_j_kg=h,
                t_k=float(st.T),
                s_j_kgk=float(st.s),
                quality=None if q is None or math.isnan(q) else float(q),
                phase=st.phase,
            )
        )
    return states


def edge_table(system: System, x: np.ndarray) -> pd.DataFrame:
    """The edge rows of :func:`edge_rows` as a DataFrame."""
    return pd.DataFrame(edge_rows(system, x))


def collect_results(system: System, x: np.ndarray, result: SolveResult) -> None:
    """Evaluate tables, outputs, checks and the summary at ``x`` into ``result``.

    ``energy_balance_w`` adds the model heat flows (secondary side of UA coils, the coupling
    model for coupled coils, whose ambient loss counts as heat out), the heat refrigerant lines
    gain from their ambient less the potential energy ``m g dz`` they lift the refrigerant by,
    and the model compressor power: heat in + power - heat out - losses [W]. Edge enthalpies telescope to zero around
    any loop, so this balance is what shows whether the component equations are satisfied.
    """
    result.edge_states = edge_states(system, x)
    result.edge_rows = edge_rows(system, x, result.edge_states)
    cooling = heating = power = 0.0
    balance = 0.0
    for name, comp in system.components.items():
        try:
            out: dict[str, Any] = {"type": comp.type_name, **comp.outputs(x)}
            result.components[name] = out
            if result.converged:
                result.problems.extend(comp.check(x))
            result.warnings.extend(comp.warnings(x))
        except FluidPropertyError as exc:
            raise with_context(exc, comp) from exc
        if isinstance(comp, Compressor | InjectionCompressor):
            power += float(out["power"])
            balance += comp.power(x)  # model power, not the edge enthalpy rise
        elif isinstance(comp, Coil) and not comp.coupled:
            q = float(out["capacity"])
            q_model = comp.zones(x).q if comp.ua_mode else q
            balance += -q_model if comp.refrigerant_is_hot else q_model
            if comp.refrigerant_is_hot:
                heating += q
            else:
                cooling += q
        elif isinstance(comp, GasCooler):
            heating += float(out["capacity"])
            balance -= comp.model_heat_flow(x)
        elif isinstance(comp, RefrigerantLine):  # heat from the ambient, less the lift
            balance += float(out["heat_gain"] or 0.0) - comp.potential_power(x)
    for block in system.blocks[len(system.components) :]:
        balance += getattr(block, "balance_w", lambda _x: 0.0)(x)
        if isinstance(block, ControlLoop) or hasattr(block, "balance_w"):
            entry = block.result(x)
            (result.controls if isinstance(block, ControlLoop) else result.couplings).append(entry)
        if result.converged and hasattr(block, "check"):
            result.problems.extend(block.check(x))
        if hasattr(block, "warnings"):
            result.warnings.extend(block.warnings(x))
    result.summary = {
        "cooling_capacity_w": cooling,
        "heating_capacity_w": heating,
        "compressor_power_w": power,
        "cop_cooling": cooling / power if power > 0 else None,
        "cop_heating": heating / power if power > 0 else None,
        "energy_balance_w": balance,
    }
    fans: list[float] = []
    for name, comp in system.components.items():
        fan = result.components.get(name, {}).get("fan_power")
        if comp.has("fan_power_w"):
            fans.append(float(comp.params["fan_power_w"]))
        elif fan is not None:  # a coil from geometry: its air-side pressure over fan_efficiency
            fans.append(float(fan))
    if fans:  # a system COP with the fans beside the cycle COP (which keeps its meaning)
        total = power + sum(fans)
        result.summary["fan_power_w"] = sum(fans)
        result.summary["cop_cooling_system"] = cooling / total if total > 0 else None
        result.summary["cop_heating_system"] = heating / total if total > 0 else None
    charge_results(system, x, result)  # charge and safety, only when the scenario asks
    line_results(system, result)


def line_results(system: System, result: SolveResult) -> None:
    """One row per refrigerant line in ``result.lines``; totals in the summary.

    Each row: ``name`` (the line component), ``edge`` (the edge's label), ``path`` (its JSON
    path), ``role``, ``length_m``, ``inner_diameter_m``, ``elevation_m``, the outputs of
    :data:`LINE_COLUMNS` and ``charge_kg`` (from the inventory). The summary gains
    ``line_heat_gain_w`` and ``line_charge_kg`` (sums over the lines); nothing is added without
    lines.
    """
    lines = [c for c in system.components.values() if isinstance(c, RefrigerantLine)]
    if not lines:
        return
    held = {
        i["name"]: float(i["kg"])
        for i in (result.charge or {}).get("items", [])
        if i.get("kind") == "line"
    }
    rows = []
    for line in lines:
        out = result.components.get(line.name, {})
        g = line.geometry
        row: dict[str, Any] = {
            "name": line.name,
            "edge": line.edge,
            "path": line.params.get("edge_path"),
            "role": line.role,
            "length_m": g.length_m,
            "inner_diameter_m": g.inner_diameter_m,
            "elevation_m": g.elevation_m,
        }
        row.update({col: out.get(key) for key, col in LINE_COLUMNS})
        row["charge_kg"] = held.get(line.name)
        rows.append(row)
    result.lines = rows
    result.summary["line_heat_gain_w"] = float(sum(r["heat_gain_w"] or 0.0 for r in rows))
    if held:
        result.summary["line_charge_kg"] = float(sum(held.values()))
