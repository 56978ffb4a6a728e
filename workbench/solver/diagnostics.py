"""Degrees of freedom, structural analysis and the words that explain a failed solve.

Before solving, the unknowns and equations of every circuit are counted (a mass flow per loop
or branch, p and h per edge; every component's and junction's equations); a mismatch raises a
:class:`~workbench.errors.SpecificationError` that says which component lacks or has one spec
too many, and in a branching circuit which branch or junction (:mod:`.branch_dof`). A square system can still be structurally singular (two specs fixing the same
quantity); a maximum matching of equations to unknowns names the equations left without an
unknown and the unknowns no equation determines.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component
from workbench.components.exchangers.coils.component import Coil
from workbench.components.exchangers.gas_cooler.component import GasCooler
from workbench.components.machines.compressor import Compressor
from workbench.components.machines.valve import ExpansionValve
from workbench.errors import SpecificationError
from workbench.solver.branch_dof import (
    branch_tips_extra,
    branch_tips_missing,
    zone_has_pressure_spec,
)
from workbench.solver.iteration import StopReason
from workbench.solver.system import System

__all__ = [
    "check_degrees_of_freedom",
    "hint_for",
    "still_converging",
    "structural_problems",
    "worst_residuals",
]


def _circuit_counts(system: System) -> dict[int, tuple[int, int]]:
    counts: dict[int, list[int]] = {}
    topo = system.topology
    for k, _loop in enumerate(topo.loops):
        counts.setdefault(topo.loop_circuit[k], [0, 0])[0] += 1
    for edge in system.flat.edges:
        counts.setdefault(edge.circuit, [0, 0])[0] += 2
    for comp in system.components.values():
        circuit = system.flat.components[comp.name].circuit
        counts.setdefault(circuit, [0, 0])[1] += len(comp.equation_names())
    return {c: (u, e) for c, (u, e) in counts.items()}


def _suggest_missing(system: System, circuit: int) -> list[str]:
    if system.topology.circuit_has_junctions(circuit):
        return branch_tips_missing(system, circuit) + _coil_tips(system, circuit)
    tips = []
    comps = [
        c for c in system.components.values() if system.flat.components[c.name].circuit == circuit
    ]
    has_flow = any(isinstance(c, Compressor) and c.flow_mode != "none" for c in comps) or any(
        isinstance(c, ExpansionValve) and c.orifice for c in comps
    )
    if not has_flow:
        tips.append(
            "nothing sets the mass flow: give a Compressor mass_flow_kg_s, displacement_m3 or "
            "mass_flow_map_kg_s, or an ExpansionValve flow_coefficient_m2"
        )
    for c in comps:
        if isinstance(c, GasCooler) and not c.pressure_set:
            tips.append(
                f"GasCooler {c.name!r}: set the high-side pressure: pressure_pa, pressure_control "
                "'liao2000'"
                + (", outlet_temp_k (UA mode)" if c.ua_mode else "")
                + ", or an orifice valve (flow_coefficient_m2; a control loop on its z_flow can "
                "hold the gas cooler's pressure) with a compressor flow model"
            )
        if (
            isinstance(c, Coil)
            and c.refrigerant_is_hot
            and not c.has("t_cond_k")
            and not c.has("subcooling_k")
            and c.ua_mode
        ):
            tips.append(
                f"Condenser {c.name!r}: add subcooling_k or t_cond_k (closes the circuit's charge, "
                "its pressure level)"
            )
        if isinstance(c, Coil) and not c.ua_mode and not c.has(c.sat_spec):
            tips.append(
                f"{c.type_name} {c.name!r}: ideal mode needs {c.sat_spec} (or give ua and the "
                "secondary stream)"
            )
        if (
            isinstance(c, Coil)
            and not c.refrigerant_is_hot
            and c.ua_mode
            and not c.has("superheat_k")
            and not c.has("t_evap_k")
        ):
            valves = [v for v in comps if isinstance(v, ExpansionValve)]
            if not any(v.orifice for v in valves):
                tips.append(
                    f"Evaporator {c.name!r}: add superheat_k (an ideal valve acts as a thermostatic "
                    "valve holding it), or give the valve a flow_coefficient_m2"
                )
    return tips


def _coil_tips(system: System, circuit: int) -> list[str]:
    """Coil specs a branching circuit misses (its charge, ideal-mode saturation)."""
    tips = []
    for c in system.components.values():
        if not isinstance(c, Coil) or system.flat.components[c.name].circuit != circuit:
            continue
        if (
            c.refrigerant_is_hot
            and c.ua_mode
            and not c.has("t_cond_k")
            and not c.has("subcooling_k")
        ):
            tips.append(
                f"Condenser {c.name!r}: add subcooling_k or t_cond_k (closes the circuit's charge, "
                "its pressure level)"
            )
        if not c.ua_mode and not zone_has_pressure_spec(system, c):
            tips.append(
                f"{c.type_name} {c.name!r}: ideal mode needs {c.sat_spec} (or give ua and the "
                "secondary stream), unless another coil of its pressure zone fixes it"
            )
    return tips


def _suggest_extra(system: System, circuit: int) -> list[str]:
    if system.topology.circuit_has_junctions(circuit):
        return branch_tips_extra(system, circuit)
    tips = []
    comps = [
        c for c in system.components.values() if system.flat.components[c.name].circuit == circuit
    ]
    flow_setters: list[Component] = [
        c for c in comps if isinstance(c, Compressor) and c.flow_mode != "none"
    ]
    flow_setters += [c for c in comps if isinstance(c, ExpansionValve) and c.orifice]
    for c in comps:
        if isinstance(c, GasCooler) and c.ua_mode and c.has("outlet_temp_k") and c.pressure_set > 1:
            tips.append(
                f"GasCooler {c.name!r}: with UA, outlet_temp_k and a pressure spec together fix "
                "one quantity too many; remove one of them"
            )
        if isinstance(c, Coil) and c.ua_mode and c.has(c.sat_spec) and c.has(c.outlet_spec):
            tips.append(
                f"{c.type_name} {c.name!r}: with UA, {c.sat_spec} and {c.outlet_spec} together fix "
                f"one quantity too many; remove one of them"
            )
        if (
            isinstance(c, Coil)
            and not c.refrigerant_is_hot
            and c.has("superheat_k")
            and len(flow_setters) > 1
        ):
            names = ", ".join(repr(f.name) for f in flow_setters)
            tips.append(
                f"Evaporator {c.name!r}: superheat_k and the flow equations of {names} all set the "
                "flow; remove superheat_k or one flow model, or let a control loop drive the "
                "valve's z_flow"
            )
    if len(flow_setters) > 1 and not tips:
        names = ", ".join(repr(f.name) for f in flow_setters)
        tips.append(f"{names} each set the mass flow; keep one, or add a control loop")
    return tips


def check_degrees_of_freedom(system: System, extra_unknowns: dict[int, int] | None = None) -> None:
    """Raise a SpecificationError when a circuit has more or fewer equations than unknowns.

    Parameters
    ----------
    system : System
        The assembled system (components only; control loops add one unknown and one equation
        each and thermal couplings are counted by their own module).
    extra_unknowns : dict, optional
        Unknowns minus equations added per circuit by other blocks.
    """
    problems = []
    for circuit, (n_u, n_e) in sorted(_circuit_counts(system).items()):
        n_e += (extra_unknowns or {}).get(circuit, 0)
        if n_e < n_u:
            tips = _suggest_missing(system, circuit) or ["add a spec (see docs/components.md)"]
            problems.append(
                f"circuit {circuit} is under-specified: {n_u} unknowns, {n_e} equations "
                f"({n_u - n_e} spec missing):\n    * " + "\n    * ".join(tips)
            )
        elif n_e > n_u:
            tips = _suggest_extra(system, circuit) or ["remove a spec (see docs/components.md)"]
            problems.append(
                f"circuit {circuit} is over-specified: {n_u} unknowns, {n_e} equations "
                f"({n_e - n_u} spec too many):\n    * " + "\n    * ".join(tips)
            )
    if problems:
        raise SpecificationError("\n".join(problems))


def structural_problems(system: System, match: np.ndarray) -> list[str]:
    """Name equations with no unknown of their own and unknowns no equation determines."""
    unmatched_rows = [system.eq_names[r] for r, c in enumerate(match) if c < 0]
    matched_cols = {int(c) for c in match if c >= 0}
    unmatched_cols = [system.var_names[c] for c in range(system.n_vars) if c not in matched_cols]
    out = []
    if unmatched_rows:
        out.append("equations that compete for the same unknowns: " + ", ".join(unmatched_rows))
    if unmatched_cols:
        out.append("unknowns that no equation determines: " + ", ".join(unmatched_cols))
    return out


def worst_residuals(system: System, f_scaled: np.ndarray, n: int = 5) -> list[tuple[str, float]]:
    """The ``n`` largest scaled residuals, named ``<component>.<equation>``."""
    order = np.argsort(-np.abs(f_scaled))[:n]
    return [(system.eq_names[i], float(f_scaled[i])) for i in order]


STILL_FALLING = 10.0
"""A solve stopped by ``max_iterations`` whose residual fell by this factor or more over its
last :data:`FALL_WINDOW` iterations was still converging (its hint says so)."""
FALL_WINDOW = 20
"""Iterations over which :data:`STILL_FALLING` is measured."""


def still_converging(history: list[float]) -> tuple[float, int] | None:
    """How much the residual fell over the last iterations, when it was still falling.

    Parameters
    ----------
    history : list of float
        Scaled residual norm per iteration [-].

    Returns
    -------
    tuple of (float, int) or None
        The factor by which it fell [-] and over how many iterations (the last
        ``min(FALL_WINDOW, len/2)``), when the factor is at least :data:`STILL_FALLING`; None
        otherwise.
    """
    window = min(FALL_WINDOW, len(history) // 2)
    if window < 2:
        return None
    before, now = history[-1 - window], history[-1]
    if not (np.isfinite(before) and np.isfinite(now)) or now <= 0.0:
        return None
    factor = before / now
    return (float(factor), window) if factor >= STILL_FALLING else None


def hint_for(
    worst: list[tuple[str, float]],
    reason: StopReason,
    strategy: str = "fallback",
    history: list[float] | None = None,
    max_iterations: int | None = None,
) -> str:
    """A sentence that suggests what to try after a failed solve.

    Parameters
    ----------
    worst : list of (str, float)
        The largest scaled residuals, named ``<block>.<equation>``.
    reason : StopReason
        Why the solve stopped.
    strategy : str
        The strategy that ran (a hint never suggests the one already used).
    history : list of float, optional
        Scaled residual norm per iteration; a solve stopped by ``max_iterations`` while it was
        still converging (:func:`still_converging`) gets a hint to allow more iterations.
    max_iterations : int, optional
        The limit it ran into.
    """
    falling = still_converging(history or []) if reason is StopReason.MAX_ITERATIONS else None
    if falling is not None:
        fell, window = falling
        more = f" (e.g. {2 * max_iterations})" if max_iterations else ""
        other = "" if strategy == "newton" else ", or solver.strategy 'newton' (quadratic)"
        return (
            f"the solve was still converging: the residual fell {fell:,.0f}x over the last "
            f"{window} iterations; raise solver.max_iterations{more}{other}"
        )
    if reason is StopReason.PROPERTY_FAILURE:
        return (
            "a fluid property call failed: the iterate left the fluid's valid range; give a "
            "circuit initial_state closer to the expected suction state, or check temperatures "
            "against the critical point"
        )
    if reason is StopReason.TIMEOUT:
        return "raise solver.timeout_ms (0 = no limit) or start from a previous solution"
    if not worst:
        return ""
    name = worst[0][0]
    if name.endswith("heat_transfer"):
        return (
            f"{name} does not close: the UA, secondary flow and inlet temperature may ask for more "
            "heat than the temperatures allow; check the secondary inlet temperature against the "
            "saturation temperatures, or raise ua"
        )
    if name.endswith(("superheat", "subcooling", "saturation_temperature")):
        return (
            f"{name} cannot be met: check that spec against the secondary temperatures and the UA"
        )
    if name.endswith("flow"):
        return f"{name} does not close: the flow models of the circuit disagree; check sizes and speeds"
    if strategy != "fallback":
        return "try solver.strategy 'fallback', more max_iterations, or a circuit initial_state"
    return "try more solver.max_iterations, or a circuit initial_state closer to the solution"
