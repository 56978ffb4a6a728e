"""Topology of the flat graph: which unknowns exist and how components connect.

Unknowns [SI]: on every edge the pressure ``p`` [Pa] and enthalpy ``h`` [J/kg]; one mass flow
``m`` [kg/s] per *chain*: the edges joined through components' inlet -> outlet streams
(:func:`workbench.scenario.branches.trace_branches`).

- A **loop** is a chain that closes on itself (a circuit without mixers, splitters or flash
  tanks is one or more loops). Its mass balances hold by construction: no continuity equation
  and no redundant equation per closed loop.
- A **branch** runs from a junction outlet (``Splitter``, ``FlashTank``, ``Mixer``) to a
  junction inlet. Each branch has its own mass flow; the junctions balance them. In every
  connected group of junctions one mass balance follows from the others, so the group's first
  junction drops its own (:func:`workbench.scenario.branches.reference_junctions`).

Every port of every component must be connected exactly once, an edge must run from an
outlet-side port to an inlet-side port, and the flows of a branching circuit must be able to
balance; violations are reported with the component, port and the edge's JSON path.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.components.base import Component, PortVars
from workbench.components.junctions.junction import Junction
from workbench.errors import SpecificationError
from workbench.scenario import FlatEdge, FlatScenario
from workbench.scenario.branches import reference_junctions, trace_branches
from workbench.solver.variables import Unknowns

__all__ = ["Branch", "JunctionInfo", "Topology", "build_topology", "edge_label"]


@dataclass(frozen=True)
class Branch:
    """A chain of edges that shares one mass flow unknown.

    Attributes
    ----------
    name : str
        The name inside ``m[...]``: ``circuit 0 loop through comp:inlet`` or
        ``circuit 0 branch from split:outlet_2``.
    circuit : int
        Circuit id.
    edges : tuple of int
        Edge indices in flow order (a loop starts at the edge entering a compressor).
    closed : bool
        True for a loop, False for a branch between junctions.
    flow : int
        Index of the branch's mass flow unknown.
    source, target : (str, str) or None
        ``(junction, port)`` the branch leaves and enters (None for a loop).
    """

    name: str
    circuit: int
    edges: tuple[int, ...]
    closed: bool
    flow: int
    source: tuple[str, str] | None = None
    target: tuple[str, str] | None = None


@dataclass(frozen=True)
class JunctionInfo:
    """A junction, its ports in order and whether it keeps its own mass balance."""

    name: str
    circuit: int
    inlets: tuple[str, ...]
    outlets: tuple[str, ...]
    balances_mass: bool


@dataclass
class Topology:
    """Indices of the unknowns and the connection structure.

    Attributes
    ----------
    edge_vars : list of PortVars
        Per flat edge (same order as ``flat.edges``): indices of m, p, h.
    branches : list of Branch
        Loops and branches, each with its mass flow unknown.
    junctions : list of JunctionInfo
        The junctions in document order.
    port_edge : dict
        ``(component, port) -> edge index``.
    component_ports : dict
        Connected ports of each component, in order (junctions: listed, then numbered).
    n_vars : int
        Number of unknowns the topology added (before control states).
    """

    edge_vars: list[PortVars]
    branches: list[Branch]
    junctions: list[JunctionInfo]
    port_edge: dict[tuple[str, str], int]
    component_ports: dict[str, tuple[str, ...]]
    n_vars: int

    @property
    def loops(self) -> list[list[int]]:
        """Edge indices of every loop and branch, in flow order."""
        return [list(b.edges) for b in self.branches]

    @property
    def loop_circuit(self) -> list[int]:
        """Circuit id of every loop and branch."""
        return [b.circuit for b in self.branches]

    def circuit_has_junctions(self, circuit: int) -> bool:
        """True when the circuit branches (has a mixer, splitter or flash tank)."""
        return any(j.circuit == circuit for j in self.junctions)


def edge_label(edge: FlatEdge) -> str:
    """``<src>:<port> -> <dst>:<port>``: how an edge is named in unknowns and tables."""
    return f"{edge.source} -> {edge.target}"


def build_topology(
    flat: FlatScenario, components: dict[str, Component], unknowns: Unknowns
) -> Topology:
    """Check the connections and add their unknowns to ``unknowns``.

    One mass flow per chain (in the order of their first edges), named
    ``m[circuit <id> loop through <first edge's target>]`` for a loop and
    ``m[circuit <id> branch from <junction>:<outlet>]`` for a branch, then the state
    ``p[<edge>]``, ``h[<edge>]`` of every edge (in edge order). Sets each junction's
    ``balances_mass``.

    Raises
    ------
    SpecificationError
        A port connected twice or never, an edge running the wrong way, a dangling branch or
        flows that cannot balance.
    """
    graph = trace_branches(flat)
    if graph.issues:
        lines = [
            str(found.issue) if found.kind != "open" else found.issue.message
            for found in graph.issues
        ]
        raise SpecificationError(
            "the circuit graph is not a set of closed loops and balanced branches:\n  - "
            + "\n  - ".join(lines)
        )
    first_unknown = len(unknowns)
    branches: list[Branch] = []
    branch_of_edge: dict[int, int] = {}
    for k, chain in enumerate(graph.chains):
        first = flat.edges[chain.edges[0]]
        if chain.closed:
            name = f"circuit {first.circuit} loop through {first.target}"
        else:
            name = f"circuit {first.circuit} branch from {first.source}"
        flow = unknowns.add(f"m[{name}]", "m")
        branches.append(
            Branch(name, chain.circuit, chain.edges, chain.closed, flow, chain.source, chain.target)
        )
        branch_of_edge.update(dict.fromkeys(chain.edges, k))
    edge_vars: list[PortVars] = []
    for i, edge in enumerate(flat.edges):
        state = unknowns.add_state(edge_label(edge))
        edge_vars.append(PortVars(m=branches[branch_of_edge[i]].flow, p=state.p, h=state.h))
    references = reference_junctions(graph)
    junctions: list[JunctionInfo] = []
    component_ports: dict[str, tuple[str, ...]] = {}
    for name, comp in components.items():
        info = graph.junctions.get(name)
        if info is not None:
            ports = (*info.inlets, *info.outlets)
            junctions.append(
                JunctionInfo(name, info.circuit, info.inlets, info.outlets, name not in references)
            )
            if isinstance(comp, Junction):
                comp.balances_mass = name not in references
        else:
            ports = tuple(p for pair in comp.streams for p in pair)
        component_ports[name] = ports
    return Topology(
        edge_vars=edge_vars,
        branches=branches,
        junctions=junctions,
        port_edge=graph.port_edge,
        component_ports=component_ports,
        n_vars=len(unknowns) - first_unknown,
    )
