"""Starting values of the unknowns, derived from the specs.

Per stream loop: a condensing temperature (``t_cond_k``, else the condenser's secondary inlet
+ 10 K, else 40 C) and an evaporating temperature (``t_evap_k``, else the evaporator's
secondary inlet - 8 K, else -5 C) give the high and low pressures; in a loop through a gas
cooler its ``pressure_guess`` gives the high pressure and its outlet is at
``outlet_temperature_guess``. Edges from a compressor
outlet to an expansion valve inlet are on the high side, the others on the low side. Enthalpies
follow the flow: superheated suction, compressor discharge with its efficiency, subcooled
liquid after a condenser, isenthalpic valves, superheated vapour after an evaporator. Mass flow
is the compressor's flow model at that state (else 0.05 kg/s).

A circuit's ``initial_state`` overrides the suction state of its loops: ``pressure_bar`` the
suction pressure, ``temperature_k`` or ``enthalpy_kj_kg`` the suction enthalpy.

A circuit with junctions (mixers, splitters, flash tanks) starts from
:func:`workbench.solver.initial_branches.branched_guess` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from workbench.components.base import Component
from workbench.components.coils import Coil
from workbench.components.compressor import Compressor
from workbench.components.gas_cooler import GasCooler
from workbench.components.valve import ExpansionValve
from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend
from workbench.solver.initial_branches import branched_guess
from workbench.solver.system import System
from workbench.units import bar_to_pa, celsius_to_kelvin, kj_kg_to_j_kg

__all__ = ["initial_guess"]

DEFAULT_MASS_FLOW_KG_S = 0.05


def _saturation_guesses(system: System, loop: list[int]) -> tuple[float, float]:
    flat, fluid = system.flat, system.fluid
    t_cond = t_evap = None
    for i in loop:
        comp = system.components[flat.edges[i].dst]
        if isinstance(comp, Coil):
            if comp.name in system.saturation_hints:
                t = system.saturation_hints[comp.name]
            elif comp.has(comp.sat_spec):
                t = float(comp.params[comp.sat_spec])
            elif comp.has_secondary:
                t = comp.t_sec_in + (10.0 if comp.refrigerant_is_hot else -8.0)
            else:
                continue
            if comp.refrigerant_is_hot:
                t_cond = t
            else:
                t_evap = t
    t_crit = fluid.T_crit
    t_cond = t_cond if t_cond is not None else celsius_to_kelvin(40.0)
    t_evap = t_evap if t_evap is not None else celsius_to_kelvin(-5.0)
    t_cond = min(t_cond, t_crit - 3.0)
    t_min = fluid.T_sat(fluid.p_min * 1.05)
    t_evap = max(min(t_evap, t_cond - 10.0), t_min + 1.0)
    return t_cond, t_evap


def initial_guess(system: System) -> np.ndarray:
    """A starting vector for Newton [SI]."""
    flat, fluid, topo = system.flat, system.fluid, system.topology
    x = np.zeros(system.n_vars)
    branching = sorted({j.circuit for j in topo.junctions})
    for k, loop in enumerate(topo.loops):
        if topo.loop_circuit[k] in branching:
            continue  # a branching circuit starts from branched_guess below
        t_cond, t_evap = _saturation_guesses(system, loop)
        p_high, p_low = fluid.p_sat(t_cond), fluid.p_sat(t_evap)
        gas_coolers = [c for c in system.components.values() if isinstance(c, GasCooler)]
        for gc in gas_coolers:  # a transcritical loop: the gas cooler sets the high side
            if any(flat.edges[i].dst == gc.name for i in loop):
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
    for circuit in branching:
        branched_guess(system, x, circuit)
    return x


def _outlet_guess(
    system: System, comp: Component, p_in: float, h_in: float, p: float, h_suction: float
) -> float:
    fluid = system.fluid
    if isinstance(comp, Compressor):
        eta = float(comp.params["isentropic_efficiency"])
        h2s = _safe(lambda: fluid.h_ps(p, fluid.s_ph(p_in, h_in)), h_in + 40e3)
        return h_in + (h2s - h_in) / eta
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
