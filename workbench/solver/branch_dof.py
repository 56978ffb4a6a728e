"""Degrees of freedom of a branching circuit, in words: which branch or junction needs a spec.

The count itself is the same as for a loop (unknowns: a mass flow per branch, p and h per
edge; equations: every component's and junction's), done by
:func:`workbench.solver.diagnostics.check_degrees_of_freedom`. When it does not match, this
module says where, from two structural views of the circuit:

- **Flows.** A branch's flow is set by a *flow setter* on it (a compressor's flow model, an
  orifice valve, a UA evaporator's ``superheat_k``, which an ideal valve holds) or by the junctions
  around it (a mass balance, a splitter share, a flash tank's vapour share). Propagating
  "known" flows through the junctions leaves the branches that nothing sets (one spec missing
  each) and finds branches with two setters of their own.
- **Pressures.** Edges joined through components that keep the pressure (coils, junctions,
  the internal exchanger) form a *pressure zone*. A flash tank without ``pressure_pa`` whose
  zone nothing else fixes, or a valve after an evaporator (an evaporator pressure regulator)
  without the evaporator's ``t_evap_k``, leaves a zone's pressure free; a ``pressure_pa`` next
  to compressors that both carry a flow model fixes it twice.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component
from workbench.components.exchangers.coils.component import Coil
from workbench.components.junctions.flash_tank import FlashTank
from workbench.components.junctions.junction import Junction
from workbench.components.junctions.splitter import Splitter
from workbench.components.machines.compressor import Compressor
from workbench.components.machines.injection_compressor import InjectionCompressor
from workbench.components.machines.valve import ExpansionValve
from workbench.solver.system import System
from workbench.solver.topology import Branch

__all__ = [
    "branch_tips_extra",
    "branch_tips_missing",
    "describe_branch",
    "zone_has_pressure_spec",
]


def _on_branch(system: System, branch: Branch) -> list[Component]:
    """The through components of a branch, in flow order."""
    out = []
    for i in branch.edges:
        comp = system.components[system.flat.edges[i].dst]
        if not isinstance(comp, Junction):
            out.append(comp)
    return out


def describe_branch(system: System, branch: Branch) -> str:
    """``branch 'circuit 0 branch from split:outlet_2' (split:outlet_2 -> v -> e -> mix:inlet_2)``."""
    names = [c.name for c in _on_branch(system, branch)]
    ends = []
    if branch.source:
        ends.append(f"{branch.source[0]}:{branch.source[1]}")
    ends += names
    if branch.target:
        ends.append(f"{branch.target[0]}:{branch.target[1]}")
    return f"branch '{branch.name}' ({' -> '.join(ends)})"


def _flow_setters(system: System, branch: Branch) -> list[tuple[Component, str]]:
    """Components on the branch that set its flow, with the spec that does it."""
    comps = _on_branch(system, branch)
    setters: list[tuple[Component, str]] = []
    for c in comps:
        if isinstance(c, Compressor) and c.flow_mode != "none":
            setters.append((c, "its flow model"))
        elif isinstance(c, ExpansionValve) and c.orifice:
            setters.append((c, "flow_coefficient_m2"))
        elif (
            isinstance(c, Coil) and not c.refrigerant_is_hot and c.ua_mode and c.has("superheat_k")
        ):
            setters.append((c, "superheat_k"))
    return setters


def _flow_rank(system: System, circuit: int) -> tuple[list[Branch], list[Branch], int]:
    """The circuit's branches, those whose flow nothing determines, and how many flows miss.

    The flows are linear in each other: a row per junction mass balance, per splitter share
    (``m_k = f_k m_in``), per flash tank (``m_vap = x m_in``), and a unit row per branch with a
    flow setter. A branch is determined when its unit vector lies in the rows' span; the
    number of missing flow specs is the number of branches minus the rank. Shares and flash
    fractions take generic values (the structure, not the numbers, decides).
    """
    topo = system.topology
    branches = [b for b in topo.branches if b.circuit == circuit]
    column = {b.flow: k for k, b in enumerate(branches)}
    rng = np.random.default_rng(1)
    rows: list[np.ndarray] = []
    for info in topo.junctions:
        if info.circuit != circuit:
            continue
        comp = system.components[info.name]
        port_flow = {
            p: topo.edge_vars[topo.port_edge[(info.name, p)]].m
            for p in (*info.inlets, *info.outlets)
        }
        mass = np.zeros(len(branches))
        for p in info.inlets:
            mass[column[port_flow[p]]] += 1.0
        for p in info.outlets:
            mass[column[port_flow[p]]] -= 1.0
        rows.append(mass)
        inlet = info.inlets[0]
        shares: list[str] = []
        if isinstance(comp, Splitter):
            shares = list(info.outlets[: len(comp.shares)])
        elif isinstance(comp, FlashTank):
            shares = ["vapour_outlet"]
        for port in shares:
            row = np.zeros(len(branches))
            row[column[port_flow[port]]] += 1.0
            row[column[port_flow[inlet]]] -= rng.uniform(0.2, 0.8)
            rows.append(row)
    for k, b in enumerate(branches):
        if _flow_setters(system, b) or _suction_of_flow_model(system, b):
            row = np.zeros(len(branches))
            row[k] = 1.0
            rows.append(row)
    matrix = np.array(rows) if rows else np.zeros((0, len(branches)))
    rank = int(np.linalg.matrix_rank(matrix)) if rows else 0
    unset = []
    for k, b in enumerate(branches):
        unit = np.zeros((1, len(branches)))
        unit[0, k] = 1.0
        if int(np.linalg.matrix_rank(np.vstack([matrix, unit]))) > rank:
            unset.append(b)
    return branches, unset, len(branches) - rank


def _flow_options(system: System, branch: Branch) -> list[str]:
    """The specs that would set a branch's flow."""
    comps = _on_branch(system, branch)
    options = [
        f"superheat_k on Evaporator '{c.name}' (with ua)"
        for c in comps
        if isinstance(c, Coil) and not c.refrigerant_is_hot
    ]
    options += [
        f"a flow_coefficient_m2 on ExpansionValve '{c.name}'"
        for c in comps
        if isinstance(c, ExpansionValve)
    ]
    options += [
        f"a flow model on Compressor '{c.name}'" for c in comps if isinstance(c, Compressor)
    ]
    if branch.source is not None:
        source = system.components[branch.source[0]]
        if isinstance(source, Splitter):
            options.append(f"fraction_1 or fractions on Splitter '{source.name}'")
    return options


def branch_tips_missing(system: System, circuit: int) -> list[str]:
    """What to add in an under-specified branching circuit (branch, junction, spec)."""
    tips = []
    _branches, unset, missing = _flow_rank(system, circuit)
    if len(unset) == 1:
        options = _flow_options(system, unset[0])
        tips.append(
            f"{describe_branch(system, unset[0])}: nothing sets its mass flow; add "
            + (" or ".join(options) if options else "a component that sets the flow")
        )
    elif unset:
        options = list(dict.fromkeys(o for b in unset for o in _flow_options(system, b)))
        tips.append(
            "the mass flows of "
            + ", ".join(describe_branch(system, b) for b in unset)
            + f" are not all set ({missing} missing): add {missing} of "
            + "; ".join(options)
        )
    for comp in _circuit_components(system, circuit):
        if (
            isinstance(comp, Coil)
            and not comp.refrigerant_is_hot
            and comp.ua_mode
            and not comp.has("superheat_k")
            and not comp.has("t_evap_k")
        ):
            on = _branch_of(system, comp)
            if on is not None and not any(
                isinstance(c, ExpansionValve) and c.orifice for c in _on_branch(system, on)
            ):
                tips.append(
                    f"Evaporator '{comp.name}' on {describe_branch(system, on)}: add "
                    "superheat_k (an ideal valve acts as a thermostatic valve holding it), or give "
                    "the branch's valve a flow_coefficient_m2"
                )
    compressors = [
        c
        for c in _circuit_components(system, circuit)
        if isinstance(c, Compressor | InjectionCompressor)
    ]
    flow_models = [c for c in compressors if c.flow_mode != "none"]
    for comp in _circuit_components(system, circuit):
        if (
            isinstance(comp, FlashTank)
            and not comp.fixed_pressure
            and len(flow_models) < 2
            and not any(
                isinstance(c, Coil) and c.has(c.sat_spec) for c in _zone_members(system, comp)
            )
        ):
            tips.append(
                f"FlashTank '{comp.name}': nothing sets its pressure; add pressure_pa, or give "
                "the compressors on both sides of it a flow model (the flows then set it)"
            )
        if isinstance(comp, ExpansionValve) and not comp.orifice:
            upstream = _upstream_evaporator(system, comp)
            if upstream is not None and not upstream.has("t_evap_k"):
                tips.append(
                    f"ExpansionValve '{comp.name}' after Evaporator '{upstream.name}' works as an "
                    f"evaporator pressure regulator: give '{upstream.name}' the t_evap_k it holds, "
                    "or remove the valve so the evaporator runs at the suction pressure"
                )
    return tips


def branch_tips_extra(system: System, circuit: int) -> list[str]:
    """What to remove in an over-specified branching circuit."""
    tips = []
    named: set[str] = set()
    for comp in _circuit_components(system, circuit):
        if comp.name in named or not _fixes_pressure(comp):
            continue
        zone = [c for c in _zone_members(system, comp) if _fixes_pressure(c)]
        named.update(c.name for c in zone)
        if len(zone) > 1:
            what = " and ".join(f"{c.type_name} '{c.name}' ({_pressure_spec(c)})" for c in zone)
            tips.append(
                f"{what} all fix the pressure of one pressure zone; keep one, or put a valve "
                "(an evaporator pressure regulator) after one of the evaporators"
            )
    topo = system.topology
    for branch in (b for b in topo.branches if b.circuit == circuit):
        setters = _flow_setters(system, branch)
        if len(setters) > 1:
            what = ", ".join(f"{c.type_name} '{c.name}' ({spec})" for c, spec in setters)
            tips.append(
                f"{describe_branch(system, branch)}: {what} all set its mass flow; keep one"
            )
    for comp in _circuit_components(system, circuit):
        if isinstance(comp, Splitter) and comp.shares:
            outs = [b for b in topo.branches if b.source and b.source[0] == comp.name]
            if outs and all(_flow_setters(system, b) for b in outs):
                tips.append(
                    f"Splitter '{comp.name}': its shares and the flow setters of every outlet "
                    "branch set the split twice; remove fraction_1 / fractions or one setter"
                )
        if isinstance(comp, FlashTank) and comp.fixed_pressure:
            near = [
                b
                for b in topo.branches
                if (b.source and b.source[0] == comp.name)
                or (b.target and b.target[0] == comp.name)
            ]
            compressors = {
                c.name
                for b in topo.branches
                if b.circuit == circuit
                for c, _spec in _flow_setters(system, b)
                if isinstance(c, Compressor)
            } | {
                c.name
                for b in topo.branches
                if b.circuit == circuit
                for c in [_suction_of_flow_model(system, b)]
                if c is not None
            }
            if len(compressors) > 1 and near:
                names = " and ".join(f"'{n}'" for n in sorted(compressors))
                tips.append(
                    f"FlashTank '{comp.name}': pressure_pa and the flow models of {names} all fix "
                    "its pressure; remove pressure_pa or one compressor's flow model"
                )
        if (
            isinstance(comp, Coil)
            and comp.ua_mode
            and comp.has(comp.sat_spec)
            and comp.has(comp.outlet_spec)
            and not _feeds_regulator(system, comp)
        ):
            tips.append(
                f"{comp.type_name} '{comp.name}': with UA, {comp.sat_spec} and {comp.outlet_spec} "
                "together fix one quantity too many unless a valve after it (an evaporator "
                "pressure regulator) takes up the pressure difference; remove one of them or add "
                "such a valve"
            )
    return tips


def _circuit_components(system: System, circuit: int) -> list[Component]:
    return [c for n, c in system.components.items() if system.flat.components[n].circuit == circuit]


def _zone_members(system: System, start: Component) -> list[Component]:
    """Components sharing the pressure of ``start``'s ports (through pressure-keeping parts)."""
    topo, flat = system.topology, system.flat
    seen = {start.name}
    todo = [start]
    out: list[Component] = []
    while todo:
        comp = todo.pop()
        out.append(comp)
        if (
            isinstance(comp, Compressor | ExpansionValve | InjectionCompressor)
            and comp is not start
        ):
            continue
        for port in topo.component_ports.get(comp.name, ()):
            edge = flat.edges[topo.port_edge[(comp.name, port)]]
            other = edge.dst if edge.src == comp.name else edge.src
            if other in seen:
                continue
            seen.add(other)
            neighbour = system.components[other]
            if isinstance(neighbour, Compressor | ExpansionValve | InjectionCompressor):
                continue
            todo.append(neighbour)
    return out


def _upstream_evaporator(system: System, valve: ExpansionValve) -> Coil | None:
    """The evaporator whose outlet feeds ``valve`` directly, if any."""
    edge = system.flat.edges[system.topology.port_edge[(valve.name, "inlet")]]
    comp = system.components[edge.src]
    return comp if isinstance(comp, Coil) and not comp.refrigerant_is_hot else None


def _feeds_regulator(system: System, coil: Coil) -> bool:
    """True when an ideal valve takes the coil's outlet (a pressure regulator after it)."""
    edge = system.flat.edges[system.topology.port_edge[(coil.name, "outlet")]]
    valve = system.components[edge.dst]
    return isinstance(valve, ExpansionValve) and not valve.orifice


def _branch_of(system: System, comp: Component) -> Branch | None:
    """The loop or branch whose edges enter ``comp``."""
    for branch in system.topology.branches:
        if any(system.flat.edges[i].dst == comp.name for i in branch.edges):
            return branch
    return None


def _fixes_pressure(comp: Component) -> bool:
    """A saturation-temperature spec or a flash tank's pressure_pa."""
    if isinstance(comp, Coil):
        return comp.has(comp.sat_spec)
    return isinstance(comp, FlashTank) and comp.fixed_pressure


def _pressure_spec(comp: Component) -> str:
    return comp.sat_spec if isinstance(comp, Coil) else "pressure_pa"


def zone_has_pressure_spec(system: System, comp: Component) -> bool:
    """True when a component sharing ``comp``'s pressure zone fixes its pressure."""
    return any(_fixes_pressure(c) for c in _zone_members(system, comp))


def _suction_of_flow_model(system: System, branch: Branch) -> InjectionCompressor | None:
    """The injection compressor whose flow model sets this branch's (its suction's) flow."""
    if branch.target is None or branch.target[1] != "inlet":
        return None
    comp = system.components[branch.target[0]]
    if isinstance(comp, InjectionCompressor) and comp.flow_mode != "none":
        return comp
    return None
