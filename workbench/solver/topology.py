"""Topology of the flat graph: which unknowns exist and how components connect.

Unknowns [SI]: on every edge the pressure ``p`` [Pa] and enthalpy ``h`` [J/kg]; one mass flow
``m`` [kg/s] per *stream loop*. Components here have no splitters or mixers, so every inlet ->
outlet stream inside a component continues the mass flow of its inlet edge: the edges joined
that way form loops that share one mass flow, and mass balances hold by construction (no
continuity equations and no redundant equation per closed loop).

Every port of every component must be connected exactly once, and an edge must run from an
outlet-side port to an inlet-side port; violations are reported with the component, port and
the edge's JSON path.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.components.base import Component, PortVars
from workbench.errors import SpecificationError
from workbench.scenario import FlatEdge, FlatScenario
from workbench.solver.variables import Unknowns

__all__ = ["Topology", "build_topology"]


@dataclass
class Topology:
    """Indices of the unknowns and the connection structure.

    Attributes
    ----------
    edge_vars : list of PortVars
        Per flat edge (same order as ``flat.edges``): indices of m, p, h.
    loops : list of list of int
        Edge indices per stream loop, in flow order.
    loop_circuit : list of int
        Circuit id of each loop.
    port_edge : dict
        ``(component, port) -> edge index``.
    n_vars : int
        Number of unknowns the topology added (before control states).
    """

    edge_vars: list[PortVars]
    loops: list[list[int]]
    loop_circuit: list[int]
    port_edge: dict[tuple[str, str], int]
    n_vars: int


def edge_label(edge: FlatEdge) -> str:
    """``<src>:<port> -> <dst>:<port>``: how an edge is named in unknowns and tables."""
    return f"{edge.source} -> {edge.target}"


def build_topology(
    flat: FlatScenario, components: dict[str, Component], unknowns: Unknowns
) -> Topology:
    """Check the connections and add their unknowns to ``unknowns``.

    One mass flow ``m[circuit <id> loop through <first edge's target>]`` per stream loop (in
    loop order), then the state ``p[<edge>]``, ``h[<edge>]`` of every edge (in edge order).

    Raises
    ------
    SpecificationError
        A port connected twice or never, or an edge running the wrong way.
    """
    problems: list[str] = []
    port_edge: dict[tuple[str, str], int] = {}
    out_ports: dict[str, str] = {}
    in_ports: dict[str, str] = {}
    for comp in components.values():
        for a, b in comp.streams:
            out_ports[f"{comp.name}:{b}"] = a
            in_ports[f"{comp.name}:{a}"] = b

    def use(edge: FlatEdge, index: int, comp: str, port: str, role: str) -> None:
        key = (comp, port)
        if key in port_edge:
            other = flat.edges[port_edge[key]]
            problems.append(
                f"{edge.path}: port {comp}:{port} is already connected by {other.path}; "
                "each port takes exactly one edge (there are no splitters or mixers)"
            )
            return
        port_edge[key] = index
        endpoint = f"{comp}:{port}"
        if role == "source" and endpoint not in out_ports:
            problems.append(
                f"{edge.path}: the edge leaves {endpoint}, an inlet-side port; edges run from an "
                "outlet to an inlet"
            )
        if role == "target" and endpoint not in in_ports:
            problems.append(
                f"{edge.path}: the edge enters {endpoint}, an outlet-side port; edges run from an "
                "outlet to an inlet"
            )

    for i, edge in enumerate(flat.edges):
        use(edge, i, edge.src, edge.src_port, "source")
        use(edge, i, edge.dst, edge.dst_port, "target")
    for comp in components.values():
        for a, b in comp.streams:
            for port in (a, b):
                if (comp.name, port) not in port_edge:
                    problems.append(
                        f"{comp.type_name} {comp.name!r} ({comp.path}): port {port!r} is not "
                        "connected; a refrigerant circuit must be closed"
                    )
    if problems:
        raise SpecificationError(
            "the circuit graph is not a set of closed loops:\n  - " + "\n  - ".join(problems)
        )

    # follow each loop: edge -> target component's stream -> its outlet edge
    next_edge: dict[int, int] = {}
    for i, edge in enumerate(flat.edges):
        outlet_port = in_ports[f"{edge.dst}:{edge.dst_port}"]
        next_edge[i] = port_edge[(edge.dst, outlet_port)]
    loops: list[list[int]] = []
    seen: set[int] = set()
    for start in range(len(flat.edges)):
        if start in seen:
            continue
        loop = []
        i = start
        while i not in seen:
            seen.add(i)
            loop.append(i)
            i = next_edge[i]
        loops.append(_rotate_to_compressor_inlet(loop, flat))
    first_unknown = len(unknowns)
    loop_of_edge: dict[int, int] = {}
    flows: list[int] = []
    for k, loop in enumerate(loops):
        first = flat.edges[loop[0]]
        flows.append(unknowns.add(f"m[circuit {first.circuit} loop through {first.target}]", "m"))
        loop_of_edge.update(dict.fromkeys(loop, k))
    edge_vars: list[PortVars] = []
    for i, edge in enumerate(flat.edges):
        state = unknowns.add_state(edge_label(edge))
        edge_vars.append(PortVars(m=flows[loop_of_edge[i]], p=state.p, h=state.h))
    return Topology(
        edge_vars=edge_vars,
        loops=loops,
        loop_circuit=[flat.edges[loop[0]].circuit for loop in loops],
        port_edge=port_edge,
        n_vars=len(unknowns) - first_unknown,
    )


def _rotate_to_compressor_inlet(loop: list[int], flat: FlatScenario) -> list[int]:
    """Start a loop at the edge entering a compressor (a natural reading order)."""
    for k, i in enumerate(loop):
        if flat.components[flat.edges[i].dst].type == "Compressor":
            return loop[k:] + loop[:k]
    return loop
