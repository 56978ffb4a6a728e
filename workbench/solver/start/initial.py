"""Starting values of the unknowns, derived from the specs.

Per stream loop: a condensing temperature (``t_cond_k``, else the condenser's secondary inlet
+ 10 K, else 40 C) and an evaporating temperature (``t_evap_k``, else the evaporator's
secondary inlet - 8 K, else -5 C) give the high and low pressures; in a loop through a gas
cooler its ``pressure_guess`` gives the high pressure and its outlet is at
``outlet_temperature_guess``. Edges from a compressor
outlet to an expansion valve inlet are on the high side, the others on the low side. Enthalpies
follow the flow: superheated suction, compressor discharge with its efficiency, subcooled
liquid after a condenser, isenthalpic valves, superheated vapour after an evaporator. Mass flow
is the compressor's flow model at that state (else 0.05 kg/s). A loop whose condenser and
evaporator are both UA-mode coils then moves its two saturation temperatures until each coil's
secondary takes the loop's heat flow (:func:`_coil_balance`), and each control loop's state
starts where its actuated component's equations hold (:func:`_control_states`).

A circuit's ``initial_state`` overrides the suction state of its loops: ``pressure_bar`` the
suction pressure, ``temperature_k`` or ``enthalpy_kj_kg`` the suction enthalpy.

A circuit with junctions (mixers, splitters, flash tanks) starts from
:func:`workbench.solver.start.branches.branched_guess` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from workbench.components.base import RESIDUAL_SCALES, Component
from workbench.components.exchangers.coils.component import Coil
from workbench.components.exchangers.gas_cooler.component import GasCooler
from workbench.components.machines.compressor import Compressor
from workbench.components.machines.valve import ExpansionValve
from workbench.errors import FluidPropertyError, SpecificationError
from workbench.fluids import FluidBackend
from workbench.solver.controls import ControlLoop
from workbench.solver.start.balance import balanced_saturation, refine_branched
from workbench.solver.start.branches import (
    branched_guess,
    check_discharge,
    highest_condensing,
)
from workbench.solver.system import System
from workbench.units import bar_to_pa, celsius_to_kelvin, kj_kg_to_j_kg

__all__ = ["initial_guess"]

DEFAULT_MASS_FLOW_KG_S = 0.05


def _saturation_guesses(system: System, loop: list[int]) -> tuple[float, float, list[str]]:
    """Condensing and evaporating temperatures [K] of a loop, and where each came from."""
    flat = system.flat
    fluid = system.fluid_of(flat.edges[loop[0]].circuit) if loop else system.fluid
    t_cond = t_evap = None
    sources = ["40 C (no condenser spec)", "-5 C (no evaporator spec)"]
    for i in loop:
        comp = system.components[flat.edges[i].dst]
        if isinstance(comp, Coil):
            label = f"{comp.type_name} {comp.name!r} ({comp.path})"
            if comp.name in system.saturation_hints:
                t = system.saturation_hints[comp.name]
                source = f"the cascade midpoint of {label}"
            elif comp.has(comp.sat_spec):
                t = float(comp.params[comp.sat_spec])
                source = f"{comp.sat_spec} = {t:g} of {label}"
            elif comp.has_secondary:
                t = comp.t_sec_in + (10.0 if comp.refrigerant_is_hot else -8.0)
                source = f"the secondary inlet {comp.t_sec_in:g} K of {label}"
            else:
                continue
            if comp.refrigerant_is_hot:
                t_cond, sources[0] = t, source
            else:
                t_evap, sources[1] = t, source
    t_cond = t_cond if t_cond is not None else celsius_to_kelvin(40.0)
    t_evap = t_evap if t_evap is not None else celsius_to_kelvin(-5.0)
    t_cond = min(t_cond, highest_condensing(fluid))
    t_min = fluid.T_sat(fluid.p_min * 1.05)
    t_evap = max(min(t_evap, t_cond - 10.0), t_min + 1.0)
    return t_cond, t_evap, sources


def initial_guess(system: System) -> np.ndarray:
    """A starting vector for Newton [SI].

    Raises
    ------
    SpecificationError
        No starting state exists for the saturation temperatures the specs give (the message
        names the component and parameter each came from).
    """
    x = np.zeros(system.n_vars)
    topo = system.topology
    branching = sorted({j.circuit for j in topo.junctions})
    for k, loop in enumerate(topo.loops):
        if topo.loop_circuit[k] in branching:
            continue  # a branching circuit starts from branched_guess below
        t_cond, t_evap, sources = _saturation_guesses(system, loop)
        try:
            _fill_loop(system, x, k, loop, t_cond, t_evap)
        except FluidPropertyError as exc:
            raise SpecificationError(
                f"circuit {topo.loop_circuit[k]}: no starting state for a condensing "
                f"temperature of {t_cond:g} K (from {sources[0]}) and an evaporating temperature "
                f"of {t_evap:g} K (from {sources[1]}): {exc}"
            ) from None
        coils = _ua_coils(system, loop)
        if coils is not None:
            for _ in range(UA_REFINEMENTS):
                t_next = _coil_balance(system, x, loop, coils, t_cond, t_evap)
                if t_next is None:
                    break
                moved = max(abs(t_next[0] - t_cond), abs(t_next[1] - t_evap))
                kept = x.copy()
                try:
                    _fill_loop(system, x, k, loop, *t_next)
                except FluidPropertyError:  # no state there: the last round's start stays
                    x[:] = kept
                    break
                t_cond, t_evap = t_next
                if moved < 0.05:
                    break
    for circuit in branching:
        branched_guess(system, x, circuit)
        refine_branched(system, x, circuit)
    _control_states(system, x)
    return x


def _control_states(system: System, x: np.ndarray) -> None:
    """Each control loop's starting state.

    The actuator's ``initial`` (clamped to its bounds), then one least-squares step that makes
    the actuated component's equations hold at the starting point (an orifice valve's flow
    equation is linear in its ``z_flow``: the step matches the valve to the compressor's flow),
    kept only when it lowers that component's residuals.
    """
    for block in system.blocks:
        if not isinstance(block, ControlLoop):
            continue
        index, comp = block.index, block.actuated
        u0 = min(max(float(block.config.actuator.initial), block.lo), block.hi)
        x[index] = u0
        scale = np.array([RESIDUAL_SCALES[eq.kind] for eq in comp.equations()])
        du = 1e-6 * max(abs(u0), 1.0)
        try:
            f0 = comp.residuals(x) / scale
            x[index] = u0 + du
            slope = (comp.residuals(x) / scale - f0) / du
            x[index] = u0
            denom = float(np.dot(slope, slope))
            if denom == 0.0 or not np.all(np.isfinite(slope)):
                continue
            u1 = min(max(u0 - float(np.dot(slope, f0)) / denom, block.lo), block.hi)
            x[index] = u1
            f1 = comp.residuals(x) / scale
        except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
            x[index] = u0
            continue
        if not (np.all(np.isfinite(f1)) and float(np.dot(f1, f1)) < float(np.dot(f0, f0))):
            x[index] = u0


UA_REFINEMENTS = 3
"""Rounds of the saturation-temperature estimate of a loop with UA-mode coils (see
:func:`_coil_balance`). 4 until 2026-11-26; with the exchangers' step bound
(:mod:`workbench.components.exchangers.zones.step_share`) the fourth round no longer pays for its fill: the
examples take the same iterations or fewer (the seasonal air-water examples 5 -> 4) with 2-9 %
fewer property calls; over the step-bound benchmark's variants (cold solves) 285 coil variants
1,531 -> 1,518 iterations and 2,525 -> 2,440 residual evaluations, 243 cascade variants 1,562
-> 1,575 and 2,119 -> 2,119 (a cascade's high stage balances against the midpoint hint of its
coupled evaporator, often far from the solution, so its later rounds move it the wrong way)."""


def _plain(coil: Coil) -> bool:
    """A UA-mode coil against a secondary stream, without a saturation spec or a coupling."""
    return coil.ua_mode and coil.has_secondary and not coil.coupled and not coil.has(coil.sat_spec)


def _held(system: System, coil: Coil) -> bool:
    """A coil whose starting temperature is given: a saturation spec or a cascade midpoint."""
    return coil.has(coil.sat_spec) or coil.name in system.saturation_hints


def _ua_coils(system: System, loop: list[int]) -> tuple[Coil, Coil] | None:
    """The loop's condenser and evaporator when one at least is a plain UA-mode coil; else None.

    Plain (:func:`_plain`): against a secondary stream, without a saturation spec or a thermal
    coupling. The other may be plain too or held at a given temperature (:func:`_held`: a
    saturation spec, or the cascade midpoint of a coupled coil); :func:`_coil_balance` then
    moves the plain one only.
    """
    hot = cold = None
    for i in loop:
        comp = system.components[system.flat.edges[i].dst]
        if not isinstance(comp, Coil):
            continue
        if not _plain(comp) and not _held(system, comp):
            return None
        if comp.refrigerant_is_hot:
            if hot is not None:
                return None
            hot = comp
        else:
            if cold is not None:
                return None
            cold = comp
    if hot is None or cold is None or not (_plain(hot) or _plain(cold)):
        return None
    return hot, cold


def _coil_balance(
    system: System,
    x: np.ndarray,
    loop: list[int],
    coils: tuple[Coil, Coil],
    t_cond: float,
    t_evap: float,
) -> tuple[float, float] | None:
    """Saturation temperatures [K] at which each coil's secondary takes the loop's heat flow.

    At the starting point ``x`` each coil carries ``Q = m |h_out - h_in|``; treating the whole
    coil as two-phase (``Cr = 0``), its secondary exchanges ``Q = eps C_sec |T_sat - T_sec,in|``
    with ``eps = 1 - exp(-UA / C_sec)``, so ``T_sat = T_sec,in +- Q / (eps C_sec)``. A few
    rounds of this fixed point put the pressures within a kelvin or two of the solution, where
    Newton needs a few iterations instead of a long damped approach from ``T_sec,in +- 10 K``.
    """
    fluid = coils[0].fluid
    out: list[float] = []
    for coil, t_now in zip(coils, (t_cond, t_evap), strict=True):
        if not _plain(coil):
            out.append(t_now)  # held at its given temperature
            continue
        t = balanced_saturation(coil, x)
        if t is None:
            return None
        out.append(t)
    t_min = float(fluid.T_sat(fluid.p_min * 1.05)) + 1.0
    new_cond = min(out[0], highest_condensing(fluid))
    new_evap = max(min(out[1], new_cond - 10.0), t_min)
    if not (np.isfinite(new_cond) and np.isfinite(new_evap)):
        return None
    # half steps: the mass flow and the compressor work respond to both temperatures
    return 0.5 * (t_cond + new_cond), 0.5 * (t_evap + new_evap)


def _fill_loop(
    system: System, x: np.ndarray, k: int, loop: list[int], t_cond: float, t_evap: float
) -> None:
    """Pressures, enthalpies and the mass flow of stream loop ``k``.

    From its two saturation temperatures [K] (see the module docstring).
    """
    flat, topo = system.flat, system.topology
    fluid = system.fluid_of(topo.loop_circuit[k])
    p_high, p_low = fluid.p_sat(t_cond), fluid.p_sat(t_evap)
    for gc in system.components.values():  # a transcritical loop: the gas cooler sets the high side
        if isinstance(gc, GasCooler) and any(flat.edges[i].dst == gc.name for i in loop):
            p_high = _safe(partial(gc.pressure_guess, t_evap), p_high)
    state = flat.initial_state.get(topo.loop_circuit[k])
    if state is not None and state.pressure_bar is not None:
        p_low = bar_to_pa(state.pressure_bar)
    # pressures: high from a compressor outlet until a valve inlet
    high = False
    for i in loop:
        edge = flat.edges[i]
        if isinstance(system.components[edge.src], Compressor):
            high = True
        if isinstance(system.components[edge.src], ExpansionValve):
            high = False
        x[topo.edge_vars[i].p] = p_high if high else p_low
    # enthalpies, following the flow twice so that pass-through components see a value
    h_suction = _safe(partial(_superheated, fluid, p_low, 5.0), float(fluid.h_vap(p_low)))
    if state is not None and state.enthalpy_kj_kg is not None:
        h_suction = kj_kg_to_j_kg(state.enthalpy_kj_kg)
    elif state is not None and state.temperature_k is not None:
        h_suction = _safe(partial(fluid.h_pT, p_low, state.temperature_k), h_suction)
    x[topo.edge_vars[loop[0]].h] = h_suction
    fixed_suction = state is not None and (
        state.enthalpy_kj_kg is not None or state.temperature_k is not None
    )
    for _ in range(2):
        for n, i in enumerate(loop):
            prev = loop[n - 1]
            comp = system.components[flat.edges[i].src]
            p, h_in = x[topo.edge_vars[i].p], x[topo.edge_vars[prev].h]
            p_in = x[topo.edge_vars[prev].p]
            if n == 0 and fixed_suction:
                continue
            x[topo.edge_vars[i].h] = _outlet_guess(system, comp, p_in, h_in, p, h_suction)
    # mass flow from the loop's compressor
    x[topo.edge_vars[loop[0]].m] = DEFAULT_MASS_FLOW_KG_S
    for i in loop:
        comp = system.components[flat.edges[i].dst]
        if isinstance(comp, Compressor) and comp.flow_mode != "none":
            m = _safe(partial(_model_flow, comp, x), 0.0)
            if m > 0:
                x[topo.edge_vars[loop[0]].m] = m
            break


def _outlet_guess(
    system: System, comp: Component, p_in: float, h_in: float, p: float, h_suction: float
) -> float:
    fluid = comp.fluid
    if isinstance(comp, Compressor):
        eta = float(comp.params["isentropic_efficiency"])
        h2s = _safe(lambda: fluid.h_ps(p, fluid.s_ph(p_in, h_in)), h_in + 40e3)
        h_out = h_in + (h2s - h_in) / eta
        check_discharge(comp, p_in, h_in, p, h_out)
        return h_out
    if isinstance(comp, GasCooler):
        return _safe(partial(fluid.h_pT, p, comp.outlet_temperature_guess()), h_in)
    if isinstance(comp, Coil):
        spec = float(comp.params.get(comp.outlet_spec, 2.0 if comp.refrigerant_is_hot else 5.0))
        t_sat = fluid.T_sat(p)
        if comp.refrigerant_is_hot:
            return (
                _safe(lambda: fluid.h_pT(p, t_sat - spec), fluid.h_liq(p))
                if spec > 0
                else float(fluid.h_liq(p))
            )
        return (
            _safe(lambda: fluid.h_pT(p, t_sat + spec), fluid.h_vap(p))
            if spec > 0
            else float(fluid.h_vap(p))
        )
    return h_in


def _superheated(fluid: FluidBackend, p: float, superheat: float) -> float:
    """Enthalpy [J/kg] at ``p`` [Pa] and ``superheat`` [K] above the dew point."""
    return float(fluid.h_pT(p, fluid.T_sat(p) + superheat))


def _model_flow(comp: Compressor, x: np.ndarray) -> float:
    """The compressor's model mass flow times its ``z_flow`` [kg/s]."""
    return comp.model_mass_flow(x) * comp.factor(x, "z_flow")


def _safe(fn: Callable[[], Any], fallback: float) -> float:
    try:
        value = float(fn())
    except FluidPropertyError:
        return fallback
    return value if np.isfinite(value) else fallback
