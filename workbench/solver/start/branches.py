"""Starting values for a branching circuit (one with a mixer, splitter or flash tank).

A loop can be followed once around; a branching circuit cannot, so its start is built in
three passes over the whole circuit:

1. **Pressure levels.** Edges joined through components that keep the pressure (coils, the
   internal heat exchanger, junctions) form one *pressure zone*; compressors and valves
   separate zones. A zone takes its pressure from a flash tank's ``pressure_pa``, else from
   its coils (``t_cond_k`` / ``t_evap_k``, else the secondary inlet +10 K / -8 K, as for a
   loop), else the geometric mean of the circuit's highest and lowest known pressure (the
   intermediate level of a two-stage circuit). A circuit ``initial_state.pressure_bar``
   overrides the lowest zone.
2. **Enthalpies**, following the flow a few times: each component's outlet from its inlets
   (compressor with its efficiency, coils at their outlet spec, isenthalpic valves, splitter
   outlets at the inlet state, flash-tank outlets saturated, mixer outlet at the flow-weighted
   mean of its inlets).
3. **Mass flows**: branches through a compressor with a flow model take that flow; the others
   follow the junctions (a splitter shares equally or by its fractions, a flash tank by its
   inlet quality, a mixer adds its inlets).

Newton then closes the balances; the mass balances are linear and close in one step.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from functools import partial

import numpy as np

from workbench.components.base import Component
from workbench.components.exchangers.coils.component import Coil
from workbench.components.junctions.flash_tank import FlashTank
from workbench.components.junctions.junction import Junction
from workbench.components.junctions.mixer import Mixer
from workbench.components.junctions.splitter import Splitter
from workbench.components.machines.compressor import Compressor
from workbench.components.machines.injection_compressor import InjectionCompressor
from workbench.components.machines.valve import ExpansionValve
from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend
from workbench.solver.system import System
from workbench.solver.topology import Branch
from workbench.units import bar_to_pa, celsius_to_kelvin

__all__ = ["branched_guess", "check_discharge", "highest_condensing"]

PASSES = 4
"""Passes over the circuit for enthalpies and flows (enough for two nested junctions)."""


def _zones(system: System, edges: list[int]) -> dict[int, int]:
    """Pressure zone (a representative edge) of every edge of the circuit."""
    parent = {i: i for i in edges}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    topo = system.topology
    for name, comp in system.components.items():
        if isinstance(comp, Compressor | ExpansionValve | InjectionCompressor):
            continue  # three pressures meet in an injection compressor
        ports = topo.component_ports.get(name, ())
        groups = [ports] if isinstance(comp, Junction) else [list(s) for s in comp.streams]
        for group in groups:
            linked = [topo.port_edge[(name, p)] for p in group if (name, p) in topo.port_edge]
            linked = [i for i in linked if i in parent]
            for i in linked[1:]:
                parent[find(i)] = find(linked[0])
    return {i: find(i) for i in edges}


def _coil_saturation(system: System, coil: Coil) -> float | None:
    """The starting saturation temperature of a coil [K], or None without a clue."""
    if coil.name in system.saturation_hints:
        return system.saturation_hints[coil.name]
    if coil.has(coil.sat_spec):
        return float(coil.params[coil.sat_spec])
    if coil.has_secondary:
        return coil.t_sec_in + (10.0 if coil.refrigerant_is_hot else -8.0)
    return None


def highest_condensing(fluid: FluidBackend) -> float:
    """The highest condensing temperature a start may take [K].

    3 K below the critical temperature; for a blend whose tables end below its critical
    pressure (R454B: 342.05 K at 43.1 bar, critical 351.4 K) 0.5 K below their top dew
    temperature, so that the start's pressures exist.
    """
    top = float(fluid.T_crit) - 3.0
    if fluid.p_max < fluid.p_crit:
        with contextlib.suppress(FluidPropertyError):
            top = min(top, float(fluid.T_sat(fluid.p_max)) - 0.5)
    return top


def _zone_pressures(system: System, circuit: int, zone: dict[int, int]) -> dict[int, float]:
    """Starting pressure of every zone [Pa]."""
    fluid, flat, topo = system.fluid_of(circuit), system.flat, system.topology
    t_max = highest_condensing(fluid)
    t_min = fluid.T_sat(fluid.p_min * 1.05) + 1.0
    known: dict[int, list[float]] = {}
    fixed: dict[int, float] = {}
    for name, comp in system.components.items():
        if flat.components[name].circuit != circuit:
            continue
        ports = topo.component_ports.get(name, ())
        edges = [topo.port_edge[(name, p)] for p in ports if (name, p) in topo.port_edge]
        if not edges:
            continue
        z = zone[edges[0]]
        if isinstance(comp, FlashTank) and comp.fixed_pressure:
            fixed[z] = float(comp.params["pressure_pa"])
        elif isinstance(comp, Coil):
            t = _coil_saturation(system, comp)
            if t is not None:
                known.setdefault(z, []).append(fluid.p_sat(min(max(t, t_min), t_max)))
    pressures = {z: fixed.get(z, float(np.mean(ps))) for z, ps in known.items()}
    pressures.update(fixed)
    levels = sorted(pressures.values())
    high = levels[-1] if levels else fluid.p_sat(celsius_to_kelvin(40.0))
    low = levels[0] if levels else fluid.p_sat(celsius_to_kelvin(-5.0))
    if high <= low * 1.5:
        high, low = max(high, low * 3.0), min(low, high / 3.0)
    state = flat.initial_state.get(circuit)
    out: dict[int, float] = {}
    for z in set(zone.values()):
        out[z] = pressures.get(z, math.sqrt(high * low))
    if state is not None and state.pressure_bar is not None and out:
        lowest = min(out, key=lambda z: out[z])
        out[lowest] = bar_to_pa(state.pressure_bar)
    return out


def _safe(fn: Callable[[], float | None], fallback: float) -> float:
    """``fn()``, or ``fallback`` when it fails, gives None (outside the dome) or no number."""
    try:
        raw = fn()
    except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
        return fallback
    if raw is None:
        return fallback
    value = float(raw)
    return value if math.isfinite(value) else fallback


def _through_outlet(
    system: System, comp: Component, p_in: float, h_in: float, p: float, m: float
) -> float:
    """Outlet enthalpy of a through component [J/kg] (compressor, coil, valve, exchanger)."""
    fluid = comp.fluid
    if isinstance(comp, Compressor):
        eta = float(comp.params["isentropic_efficiency"])
        h2s = _safe(partial(lambda: fluid.h_ps(p, fluid.s_ph(p_in, h_in))), h_in + 40e3)
        h_out = h_in + (h2s - h_in) / eta
        check_discharge(comp, p_in, h_in, p, h_out)
        return h_out
    if isinstance(comp, Coil):
        hot = comp.refrigerant_is_hot
        spec = float(comp.params.get(comp.outlet_spec, 2.0 if hot else 5.0))
        t_sat = fluid.T_sat(p)
        saturated = float(fluid.h_liq(p) if hot else fluid.h_vap(p))
        if spec <= 0.0:
            return saturated
        t = t_sat - spec if hot else t_sat + spec
        return _safe(partial(fluid.h_pT, p, t), saturated)
    del m
    return h_in


def check_discharge(comp: Compressor, p_in: float, h_in: float, p_out: float, h_out: float) -> None:
    """Refuse a start whose compressor discharge lies above the fluid's enthalpy range.

    ``h_in + (h_2s - h_in) / isentropic_efficiency`` beyond the state at the fluid's highest
    temperature (a tiny efficiency) has no property state: every residual through it fails.
    The error names the compressor, its efficiency and the physical reason (the fluid's
    highest enthalpy at that pressure). Checked only for an efficiency below 0.25 or a rise
    above 500 kJ/kg (no flash is spent on a real compressor's start).

    Raises
    ------
    SpecificationError
        The discharge enthalpy is above :meth:`FluidBackend.h_max` at ``p_out``.
    """
    eta = float(comp.params["isentropic_efficiency"])
    if eta >= 0.25 and h_out - h_in < 5e5:
        return  # a real compressor's rise: no flash spent on the bound
    fluid = comp.fluid
    h_max = _safe(partial(fluid.h_max, p_out), math.inf)
    if h_out <= h_max:
        return
    raise comp.error(
        f"isentropic_efficiency = {eta:.3g} puts the discharge enthalpy at {h_out / 1e3:.4g} "
        f"kJ/kg for a lift from {p_in / 1e5:.4g} to {p_out / 1e5:.4g} bar (the starting "
        f"pressures), above the highest {fluid.name} reaches there ({h_max / 1e3:.4g} kJ/kg, "
        "at its highest temperature): no property state exists; give the isentropic "
        "efficiency of a real compressor (typically 0.5-0.8)"
    )


def branched_guess(system: System, x: np.ndarray, circuit: int) -> None:
    """Fill the starting values of a branching circuit into ``x`` (see module docstring)."""
    flat, fluid, topo = system.flat, system.fluid_of(circuit), system.topology
    edges = [i for i, e in enumerate(flat.edges) if e.circuit == circuit]
    zone = _zones(system, edges)
    pressure = _zone_pressures(system, circuit, zone)
    for i in edges:
        x[topo.edge_vars[i].p] = pressure[zone[i]]
    for i in edges:
        p = x[topo.edge_vars[i].p]
        x[topo.edge_vars[i].h] = _safe(
            partial(lambda p=p: fluid.h_pT(p, fluid.T_sat(p) + 5.0)), float(fluid.h_vap(p))
        )
    branches = [b for b in topo.branches if b.circuit == circuit]
    comps = [c for n, c in system.components.items() if flat.components[n].circuit == circuit]
    m_default = _default_flow(system, x, comps)
    for branch in branches:
        x[branch.flow] = m_default

    def edge_at(name: str, port: str) -> int:
        return topo.port_edge[(name, port)]

    for _ in range(PASSES):
        for branch in branches:
            for i in branch.edges:
                edge = flat.edges[i]
                comp = system.components[edge.src]
                v = topo.edge_vars[i]
                if isinstance(comp, Junction):
                    x[v.h] = _junction_outlet(system, comp, x, edge.src_port)
                    continue
                inlet_port = next(a for a, b in comp.streams if b == edge.src_port)
                vin = topo.edge_vars[edge_at(comp.name, inlet_port)]
                x[v.h] = _through_outlet(system, comp, x[vin.p], x[vin.h], x[v.p], x[vin.m])
        _guess_flows(system, x, branches, comps, m_default)


def _junction_outlet(system: System, comp: Junction, x: np.ndarray, port: str) -> float:
    """Outlet enthalpy of a junction [J/kg] from its inlets at ``x``."""
    fluid = comp.fluid
    out = comp.port(x, port)
    if isinstance(comp, InjectionCompressor):
        inlet = comp.port(x, "inlet")
        return _safe(partial(lambda: comp.stages(x)[2]), inlet.h + 40e3)
    if isinstance(comp, FlashTank):
        return float(fluid.h_vap(out.p) if port == "vapour_outlet" else fluid.h_liq(out.p))
    ins = comp.states(x, comp.inlets)
    total = sum(max(s.m, 0.0) for s in ins)
    if total <= 0.0:
        return float(np.mean([s.h for s in ins]))
    return float(sum(max(s.m, 0.0) * s.h for s in ins) / total)


def _default_flow(system: System, x: np.ndarray, comps: list[Component]) -> float:
    for comp in comps:
        if isinstance(comp, Compressor | InjectionCompressor) and comp.flow_mode != "none":
            m = _safe(partial(lambda c=comp: c.model_mass_flow(x) * c.factor(x, "z_flow")), 0.0)
            if m > 0:
                return m
    return 0.05


def _guess_flows(
    system: System,
    x: np.ndarray,
    branches: list[Branch],
    comps: list[Component],
    m_default: float,
) -> None:
    """Branch flows from compressor flow models and the junctions' splits."""
    topo = system.topology
    pinned: set[int] = set()
    for branch in branches:
        for i in branch.edges:
            comp = system.components[system.flat.edges[i].dst]
            suction = system.flat.edges[i].dst_port == "inlet"
            pump = comp if isinstance(comp, Compressor | InjectionCompressor) and suction else None
            if pump is not None and pump.flow_mode != "none":
                m = _safe(partial(lambda c=pump: c.model_mass_flow(x) * c.factor(x, "z_flow")), 0.0)
                if m > 0:
                    x[branch.flow] = m
                    pinned.add(branch.flow)
                break
    for comp in comps:
        if not isinstance(comp, Junction):
            continue
        ins = [topo.edge_vars[topo.port_edge[(comp.name, p)]] for p in comp.inlets]
        outs = [topo.edge_vars[topo.port_edge[(comp.name, p)]] for p in comp.outlets]
        m_in = float(sum(x[v.m] for v in ins)) or m_default
        if isinstance(comp, Mixer | InjectionCompressor):
            shares = [1.0]
        elif isinstance(comp, Splitter):
            given = list(comp.shares)
            rest = (1.0 - sum(given)) / max(len(outs) - len(given), 1)
            shares = given + [rest] * (len(outs) - len(given))
        else:
            inlet = comp.port(x, "inlet")
            q = _safe(partial(comp.fluid.quality_ph, inlet.p, inlet.h), 0.3)
            q = min(max(q if math.isfinite(q) else 0.3, 0.02), 0.98)
            shares = [q if p == "vapour_outlet" else 1.0 - q for p in comp.outlets]
        for v, share in zip(outs, shares, strict=True):
            if v.m not in pinned:
                x[v.m] = max(share * m_in, 1e-3 * m_default)
