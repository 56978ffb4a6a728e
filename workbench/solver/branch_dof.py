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

from workbench.components.base import Component
from workbench.components.coils import Coil
from workbench.components.compressor import Compressor
from workbench.components.flash_tank import FlashTank
from workbench.components.junction import Junction
from workbench.components.splitter import Splitter
from workbench.components.valve import ExpansionValve
from workbench.solver.system import System
from workbench.solver.topology import Branch

__all__ = ["branch_tips_missing", "branch_tips_extra", "describe_branch"]


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


def _junction_relations(comp: Junction) -> int:
    """Relations among a junction's port flows: mass balance, shares, a flash tank's split."""
    if isinstance(comp, Splitter):
        return 1 + len(comp.shares)
    if isinstance(comp, FlashTank):
        return 2
    return 1


def _unset_branches(system: System, circuit: int) -> list[Branch]:
    """Branches whose flow neither a setter nor the junctions around them determine."""
    topo = system.topology
    branches = [b for b in topo.branches if b.circuit == circuit]
    known = {b.flow for b in branches if _flow_setters(system, b)}
    ports: dict[str, list[int]] = {}
    for b in branches:
        for end in (b.source, b.target):
            if end is not None:
                ports.setdefault(end[0], []).append(b.flow)
    changed = True
    while changed:
        changed = False
        for name, flows in ports.items():
            comp = system.components[name]
            assert isinstance(comp, Junction)
            unknown = [f for f in set(flows) if f not in known]
            relations = _junction_relations(comp) - (0 if comp.balances_mass else 1)
            if unknown and len(unknown) <= relations:
                known.update(unknown)
                changed = True
    return [b for b in branches if b.flow not in known]


def branch_tips_missing(system: System, circuit: int) -> list[str]:
    """What to add in an under-specified branching circuit (branch, junction, spec)."""
    tips = []
    for branch in _unset_branches(system, circuit):
        comps = _on_branch(system, branch)
        options = []
        evaps = [c for c in comps if isinstance(c, Coil) and not c.refrigerant_is_hot]
        valves = [c for c in comps if isinstance(c, ExpansionValve)]
        options += [f"superheat_k on Evaporator '{e.name}' (with ua)" for e in evaps]
        options += [f"a flow_coefficient_m2 on ExpansionValve '{v.name}'" for v in valves]
        options += [
            f"a flow model on Compressor '{c.name}'" for c in comps if isinstance(c, Compressor)
        ]
        if branch.source is not None:
            source = system.components[branch.source[0]]
            if isinstance(source, Splitter):
                options.append(f"fraction_1 or fractions on Splitter '{source.name}'")
        tips.append(
            f"{describe_branch(system, branch)}: nothing sets its mass flow; add "
            + (" or ".join(options) if options else "a component that sets the flow")
        )
    for comp in _circuit_components(system, circuit):
        if (
            isinstance(comp, Coil)
            and not comp.refrigerant_is_hot
            and comp.ua_mode
            and not comp.has("superheat_k")
            and not comp.has("t_evap_k")
        ):
            branch = _branch_of(system, comp)
            if branch is not None and not any(
                isinstance(c, ExpansionValve) and c.orifice for c in _on_branch(system, branch)
            ):
                tips.append(
                    f"Evaporator '{comp.name}' on {describe_branch(system, branch)}: add "
                    "superheat_k (an ideal valve acts as a thermostatic valve holding it), or give "
                    "the branch's valve a flow_coefficient_m2"
                )
    compressors = [c for c in _circuit_components(system, circuit) if isinstance(c, Compressor)]
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
        if isinstance(comp, Compressor | ExpansionValve) and comp is not start:
            continue
        for port in topo.component_ports.get(comp.name, ()):
            edge = flat.edges[topo.port_edge[(comp.name, port)]]
            other = edge.dst if edge.src == comp.name else edge.src
            if other in seen:
                continue
            seen.add(other)
            neighbour = system.components[other]
            if isinstance(neighbour, Compressor | ExpansionValve):
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
