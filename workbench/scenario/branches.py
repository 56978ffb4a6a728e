"""Branches and junctions of a flat scenario: tracing the graph and checking that flows balance.

A *junction* is a component without through streams (``Mixer``, ``Splitter``, ``FlashTank``:
:attr:`~workbench.components.catalog.specs.ComponentSpec.junction`); every other component carries
each inlet on to one outlet (its catalog ``streams``). Following the edges through the
streams cuts a circuit into *chains* of edges that share one mass flow:

- a **loop**: a chain that closes on itself without meeting a junction (every circuit of a
  scenario without junctions is one or more loops);
- a **branch**: a chain from a junction outlet to a junction inlet.

The junctions and branches form a directed graph. Steady flows can balance at every junction
only when every branch lies on a directed cycle of that graph (each weakly connected group of
junctions is strongly connected): a branch from one group of junctions to another with no way
back would pile mass up. In each weakly connected group one junction mass balance follows from
the others (every branch leaves one junction and enters one), so the solver drops the mass
balance of the group's first junction (:func:`reference_junctions`).

:func:`trace_branches` only reads the flat scenario and the catalog; :func:`check_branches`
turns what it finds into :class:`~workbench.errors.ScenarioIssue` values for the validator
(dangling branches, unconnected or gapped junction ports, branches that cannot balance, split
fractions that do not fit the outlets), each naming the JSON path, the component and the port.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from workbench.components.catalog.specs import ComponentSpec, get_spec, port_role
from workbench.errors import ScenarioIssue
from workbench.scenario.flat import FlatScenario

__all__ = [
    "BranchGraph",
    "Chain",
    "JunctionPorts",
    "TraceIssue",
    "check_branches",
    "reference_junctions",
    "trace_branches",
]

IssueKind = Literal["edge", "open", "junction", "balance", "fractions"]
"""What a traced problem is about: an edge's ends (``edge``: reported by the validator's edge
rules already), an unconnected port (``open``), a junction's ports (``junction``), flows that
cannot balance (``balance``), a splitter's fractions (``fractions``)."""


@dataclass(frozen=True)
class TraceIssue:
    """One problem found while tracing (see :data:`IssueKind`)."""

    kind: IssueKind
    circuit: int
    issue: ScenarioIssue


@dataclass(frozen=True)
class Chain:
    """Edges that share one mass flow, in flow order.

    Attributes
    ----------
    circuit : int
        Circuit id.
    edges : tuple of int
        Indices into ``flat.edges`` in flow order.
    closed : bool
        True for a loop (no junction on it).
    source : (str, str) or None
        ``(junction, outlet port)`` the branch leaves (None for a loop or a dangling start).
    target : (str, str) or None
        ``(junction, inlet port)`` the branch enters (None for a loop or a dangling end).
    """

    circuit: int
    edges: tuple[int, ...]
    closed: bool
    source: tuple[str, str] | None = None
    target: tuple[str, str] | None = None

    @property
    def is_branch(self) -> bool:
        """True for a chain from a junction outlet to a junction inlet."""
        return self.source is not None and self.target is not None


@dataclass(frozen=True)
class JunctionPorts:
    """A junction and its connected ports (listed ports first, then numbered ones in order)."""

    name: str
    type: str
    circuit: int
    path: str
    inlets: tuple[str, ...]
    outlets: tuple[str, ...]


@dataclass
class BranchGraph:
    """What :func:`trace_branches` found.

    Attributes
    ----------
    chains : list of Chain
        Loops and branches (every edge in exactly one), in order of their first edge in the
        document; a loop is rotated to start at the edge entering a compressor.
    junctions : dict
        :class:`JunctionPorts` by component name, in document order.
    port_edge : dict
        ``(component, port) -> edge index`` (the first edge, when a port is joined twice).
    issues : list of TraceIssue
        Problems found; an empty list means every chain is a loop or a balanced branch.
    """

    chains: list[Chain] = field(default_factory=list)
    junctions: dict[str, JunctionPorts] = field(default_factory=dict)
    port_edge: dict[tuple[str, str], int] = field(default_factory=dict)
    issues: list[TraceIssue] = field(default_factory=list)

    def junction_circuits(self) -> set[int]:
        """Ids of the circuits that contain a junction."""
        return {j.circuit for j in self.junctions.values()}


def _junction_ports(
    name: str, spec: ComponentSpec, used: list[str]
) -> tuple[tuple[str, ...], tuple[str, ...], list[str]]:
    """Connected inlets and outlets of a junction in order, and what is wrong with its ports."""
    problems: list[str] = []
    numbered: dict[str, list[int]] = {stem: [] for stem in spec.numbered}
    for port in used:
        parsed = spec.port_number(port)
        if parsed is not None and port not in spec.ports:
            numbered[parsed[0]].append(parsed[1])
    ordered = list(spec.ports)
    for stem, numbers in numbered.items():
        listed = [n for s, n in filter(None, map(spec.port_number, spec.ports)) if s == stem]
        top = max(numbers, default=0)
        for n in range(max(listed, default=0) + 1, top + 1):
            port = f"{stem}_{n}"
            ordered.append(port)
            if n not in numbers:
                problems.append(
                    f"port '{port}' is not connected but '{stem}_{top}' is; number the "
                    f"{stem}s 1, 2, 3 ... without gaps"
                )
    for port in spec.ports:
        if port not in used:
            role = port_role(port) or "port"
            what = "starts" if role == "outlet" else "ends"
            problems.append(
                f"port '{port}' is not connected; every {role} of a {spec.type_name} {what} a "
                "branch of the circuit (connect it with an edge)"
            )
    inlets = tuple(p for p in ordered if port_role(p) == "inlet")
    outlets = tuple(p for p in ordered if port_role(p) == "outlet")
    del name
    return inlets, outlets, problems


def trace_branches(flat: FlatScenario) -> BranchGraph:
    """Cut the flat graph into loops and branches and check its ports and balances.

    Components of unknown types are ignored (the validator reports them).
    """
    graph = BranchGraph()
    comps = flat.components
    specs = {name: get_spec(c.type) for name, c in comps.items()}

    def add(kind: IssueKind, circuit: int, path: str, message: str) -> None:
        graph.issues.append(TraceIssue(kind, circuit, ScenarioIssue(path, message)))

    used: dict[str, list[str]] = {name: [] for name in comps}
    for i, edge in enumerate(flat.edges):
        for comp, port, role in (
            (edge.src, edge.src_port, "outlet"),
            (edge.dst, edge.dst_port, "inlet"),
        ):
            spec = specs.get(comp)
            if spec is None:
                continue
            endpoint = f"{comp}:{port}"
            if (comp, port) in graph.port_edge:
                other = flat.edges[graph.port_edge[(comp, port)]]
                add(
                    "edge",
                    edge.circuit,
                    edge.path,
                    f"port {endpoint} is already connected by {other.path}; each port takes "
                    "exactly one edge (branches meet in a Mixer, Splitter or FlashTank)",
                )
                continue
            if not spec.has_port(port) or port_role(port) != role:
                side = "leaves" if role == "outlet" else "enters"
                other_side = "an inlet-side" if role == "outlet" else "an outlet-side"
                add(
                    "edge",
                    edge.circuit,
                    edge.path,
                    f"the edge {side} {endpoint}, {other_side} port or no port of "
                    f"{spec.type_name}; edges run from an outlet to an inlet",
                )
                continue
            graph.port_edge[(comp, port)] = i
            used[comp].append(port)

    stream_out: dict[tuple[str, str], str] = {}
    for name, spec in specs.items():
        flat_comp = comps[name]
        if spec is None:
            continue
        if spec.junction:
            inlets, outlets, problems = _junction_ports(name, spec, used[name])
            graph.junctions[name] = JunctionPorts(
                name, flat_comp.type, flat_comp.circuit, flat_comp.path, inlets, outlets
            )
            for problem in problems:
                add(
                    "junction",
                    flat_comp.circuit,
                    flat_comp.path,
                    f"{flat_comp.type} '{name}': {problem}",
                )
            continue
        for a, b in spec.streams:
            stream_out[(name, a)] = b
            for port in (a, b):
                if (name, port) not in graph.port_edge:
                    add(
                        "open",
                        flat_comp.circuit,
                        flat_comp.path,
                        f"{flat_comp.type} {name!r} ({flat_comp.path}): port {port!r} is not connected; a "
                        "refrigerant circuit must be closed",
                    )

    # chains: each edge continues through the stream of the component it enters
    following: dict[int, int | None] = {}
    for i, edge in enumerate(flat.edges):
        out = stream_out.get((edge.dst, edge.dst_port))
        following[i] = graph.port_edge.get((edge.dst, out)) if out is not None else None
    preceding = {j: i for i, j in following.items() if j is not None}
    seen: set[int] = set()
    for start in range(len(flat.edges)):
        if start in seen:
            continue
        # a loop closes on itself walking forward from any of its edges
        walk, j = [start], following[start]
        on_walk = {start}
        while j is not None and j not in on_walk:
            walk.append(j)
            on_walk.add(j)
            j = following[j]
        closed = j == start
        if closed:
            seen.update(walk)
            graph.chains.append(Chain(flat.edges[start].circuit, _rotate(walk, flat), True))
            continue
        first = start
        while preceding.get(first) is not None and preceding[first] not in seen:
            first = preceding[first]
            if first == start:
                break
        rows: list[int] = []
        k: int | None = first
        while k is not None and k not in seen:
            seen.add(k)
            rows.append(k)
            k = following[k]
        head, tail = flat.edges[rows[0]], flat.edges[rows[-1]]
        source = (head.src, head.src_port) if head.src in graph.junctions else None
        target = (tail.dst, tail.dst_port) if tail.dst in graph.junctions else None
        graph.chains.append(Chain(head.circuit, tuple(rows), False, source, target))
    _check_dangling(flat, graph)
    _check_balance(flat, graph)
    _check_fractions(flat, graph)
    return graph


def _rotate(loop: list[int], flat: FlatScenario) -> tuple[int, ...]:
    """Start a loop at the edge entering a compressor (a natural reading order)."""
    for k, i in enumerate(loop):
        if flat.components[flat.edges[i].dst].type == "Compressor":
            return tuple(loop[k:] + loop[:k])
    return tuple(loop)


def _check_dangling(flat: FlatScenario, graph: BranchGraph) -> None:
    """A branch that starts or ends at an unconnected port of a through component."""
    for chain in graph.chains:
        if chain.closed or (chain.source is None and chain.target is None):
            continue  # a loop, or an open chain without junctions (reported as open ports)
        head, tail = flat.edges[chain.edges[0]], flat.edges[chain.edges[-1]]
        ends = [("starts at", head.src, head.src_port, chain.source is None)]
        ends.append(("ends at", tail.dst, tail.dst_port, chain.target is None))
        named = (
            f"from '{chain.source[0]}:{chain.source[1]}'"
            if chain.source
            else f"into '{chain.target[0]}:{chain.target[1]}'"
            if chain.target
            else ""
        )
        for verb, comp, port, dangling in ends:
            if not dangling:
                continue
            spec = get_spec(flat.components[comp].type)
            if spec is None:
                continue
            pair = next((s for s in spec.streams if port in s), None)
            open_port = (pair[1] if pair[0] == port else pair[0]) if pair else port
            graph.issues.append(
                TraceIssue(
                    "balance",
                    chain.circuit,
                    ScenarioIssue(
                        flat.components[comp].path,
                        f"the branch {named} dangles: it {verb} {flat.components[comp].type} "
                        f"'{comp}', whose port '{open_port}' is not connected; a branch runs from "
                        "a junction outlet to a junction inlet (Mixer, Splitter, FlashTank)",
                    ),
                )
            )


def _strong_components(nodes: list[str], arcs: list[tuple[str, str]]) -> dict[str, int]:
    """Strongly connected component id of every node (Kosaraju; the graphs are tiny)."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    pred: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in arcs:
        succ[a].append(b)
        pred[b].append(a)
    order: list[str] = []
    visited: set[str] = set()
    for root in nodes:
        if root in visited:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        visited.add(root)
        while stack:
            node, k = stack.pop()
            if k < len(succ[node]):
                stack.append((node, k + 1))
                nxt = succ[node][k]
                if nxt not in visited:
                    visited.add(nxt)
                    stack.append((nxt, 0))
            else:
                order.append(node)
    component: dict[str, int] = {}
    for root in reversed(order):
        if root in component:
            continue
        label = len(set(component.values()))
        todo = [root]
        component[root] = label
        while todo:
            node = todo.pop()
            for prev in pred[node]:
                if prev not in component:
                    component[prev] = label
                    todo.append(prev)
    return component


def _check_balance(flat: FlatScenario, graph: BranchGraph) -> None:
    """Every branch must lie on a directed cycle of junctions, or its flow cannot be steady."""
    branches = [c for c in graph.chains if c.is_branch]
    if not branches:
        return
    nodes = list(graph.junctions)
    arcs = [(c.source[0], c.target[0]) for c in branches if c.source and c.target]
    scc = _strong_components(nodes, arcs)
    for chain in branches:
        assert chain.source is not None
        assert chain.target is not None
        a, b = chain.source[0], chain.target[0]
        if scc[a] == scc[b]:
            continue
        graph.issues.append(
            TraceIssue(
                "balance",
                chain.circuit,
                ScenarioIssue(
                    flat.edges[chain.edges[0]].path,
                    f"the branch from '{a}:{chain.source[1]}' to '{b}:{chain.target[1]}' cannot "
                    f"carry a steady flow: no branch leads from '{b}' back to '{a}', so the mass "
                    f"balance at '{b}' cannot close (mass would pile up downstream); route a "
                    f"branch back, or join the two parts in a Mixer",
                ),
            )
        )


def _check_fractions(flat: FlatScenario, graph: BranchGraph) -> None:
    """Splitter ``fractions``: at most one fewer than the outlets, each in (0, 1), sum below 1."""
    for name, junction in graph.junctions.items():
        params = flat.components[name].params
        fractions = params.get("fractions")
        if not isinstance(fractions, list):
            continue
        path = f"{junction.path}.fractions"
        n = len(junction.outlets)
        if not fractions or len(fractions) > n - 1:
            graph.issues.append(
                TraceIssue(
                    "fractions",
                    junction.circuit,
                    ScenarioIssue(
                        path,
                        f"{junction.type} '{name}' has {n} outlets, so fractions takes 1 to "
                        f"{n - 1} shares (outlet_1, outlet_2, ...; the last outlet takes the "
                        f"rest), got {len(fractions)}",
                    ),
                )
            )
        elif any(not 0.0 < f < 1.0 for f in fractions) or sum(fractions) >= 1.0:
            graph.issues.append(
                TraceIssue(
                    "fractions",
                    junction.circuit,
                    ScenarioIssue(
                        path,
                        f"{junction.type} '{name}': each share must lie in (0, 1) and together "
                        f"below 1 (the rest leaves through '{junction.outlets[-1]}'), got "
                        f"{fractions}",
                    ),
                )
            )


def reference_junctions(graph: BranchGraph) -> set[str]:
    """The junction of each weakly connected group whose mass balance follows from the others.

    The first junction of each group in document order. Its mass balance is implied: every
    branch leaves one junction of the group and enters one, so the balances of a group sum to
    zero identically.
    """
    parent = {name: name for name in graph.junctions}

    def find(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for chain in graph.chains:
        if chain.source and chain.target:
            a, b = find(chain.source[0]), find(chain.target[0])
            if a != b:
                parent[b] = a
    chosen: dict[str, str] = {}
    for name in graph.junctions:
        chosen.setdefault(find(name), name)
    return set(chosen.values())


def check_branches(flat: FlatScenario) -> list[ScenarioIssue]:
    """Validation rules for branching circuits (called by the scenario validator).

    In circuits with a junction: unconnected or gapped junction ports, dangling branches (a
    chain that starts or ends at an unconnected port), branches whose flow cannot balance, and
    splitter fractions that do not fit. Edge ends are checked by the edge rules; circuits
    without junctions are left to the solver's topology (open circuits).
    """
    graph = trace_branches(flat)
    junction_circuits = graph.junction_circuits()
    named = {f.issue.path for f in graph.issues if f.kind == "balance"}
    out: list[ScenarioIssue] = []
    for found in graph.issues:
        if found.kind == "edge":
            continue
        if found.kind == "open" and (
            found.circuit not in junction_circuits or found.issue.path in named
        ):
            continue  # left to the solver, or named with its branch already
        out.append(found.issue)
    return out
