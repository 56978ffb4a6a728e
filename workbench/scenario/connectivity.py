"""Connections of a flat scenario: every port joined, every circuit one connected graph.

Rules (each problem names the component's JSON path, or the circuit's):

- **Open circuits.** Every port of every component (the ports its type declares in the
  component catalog) takes one edge; a port without one leaves the refrigerant circuit open,
  and the solver has no state there.
- **Disconnected components.** A component none of whose ports has an edge is reported once,
  as not connected (rather than once per port).
- **A circuit in pieces.** The components of one circuit id form one connected graph (edges
  join them); parts that no edge joins are separate circuits and must have their own ids
  (a thermal coupling joins circuits by heat, not by edges).

Circuits with a junction (mixer, splitter, flash tank) are checked by
:mod:`workbench.scenario.branches` instead (open junction ports, dangling branches). Edge
directions and ports taken twice are checked by :mod:`workbench.scenario.validate`; these
checks only read the flat scenario.
"""

from __future__ import annotations

from workbench.components.catalog.specs import get_spec
from workbench.errors import ScenarioIssue
from workbench.scenario.flat import FlatScenario
from workbench.scenario.paths import allowed

__all__ = ["check_connectivity"]


def check_connectivity(flat: FlatScenario) -> list[ScenarioIssue]:
    """Every open port, unconnected component and circuit in pieces (module docstring)."""
    issues: list[ScenarioIssue] = []
    joined: dict[str, set[str]] = {}
    parent: dict[str, str] = {name: name for name in flat.components}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for edge in flat.edges:
        joined.setdefault(edge.src, set()).add(edge.src_port)
        joined.setdefault(edge.dst, set()).add(edge.dst_port)
        if edge.src in parent and edge.dst in parent:
            parent[root(edge.src)] = root(edge.dst)
    branching = {
        c.circuit for c in flat.components.values() if (spec := get_spec(c.type)) and spec.junction
    }
    for comp in flat.components.values():
        spec = get_spec(comp.type)
        if spec is None or comp.circuit in branching:
            continue  # unknown type: the parameter checks; a junction's circuit: .branches
        ports = joined.get(comp.name, set())
        label = f"{spec.type_name} '{comp.name}'"
        if not ports:
            issues.append(
                ScenarioIssue(
                    comp.path,
                    f"{label} is not connected: no edge joins any of its ports "
                    f"({allowed(spec.ports)}); connect it into its circuit or remove it",
                )
            )
            continue
        for port in spec.ports:
            if port not in ports:
                direction = "from" if port.endswith("outlet") else "to"
                issues.append(
                    ScenarioIssue(
                        comp.path,
                        f"open circuit: port '{comp.name}:{port}' is not connected; every port "
                        f'takes one edge (add an edge with "{direction}": "{comp.name}:{port}")',
                    )
                )
    for circuit in flat.circuits:
        if circuit in branching:
            continue
        members = [c for c in flat.circuit_components(circuit) if c.name in joined]
        parts: dict[str, list[str]] = {}
        for comp in members:
            parts.setdefault(root(comp.name), []).append(comp.name)
        if len(parts) > 1:
            groups = " and ".join(f"[{', '.join(names)}]" for names in parts.values())
            first = members[0].path.split(".components[")[0]
            issues.append(
                ScenarioIssue(
                    first if first.startswith("circuits[") else "circuits",
                    f"circuit {circuit} falls apart into {len(parts)} parts that no edge joins: "
                    f"{groups}; join them with edges, or give each part a circuit id of its own",
                )
            )
    return issues
