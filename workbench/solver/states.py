"""Solved states in flow order: the edges, the loops and branches, and the junctions.

The P-h and T-s diagrams (and anything else that follows the flow) read these as data, never
display labels: an :class:`EdgeState` per edge with its endpoints as fields, the loops and
branches of :func:`follow_loops` (:class:`StateLoop`) and the junctions of
:func:`find_junctions` (:class:`JunctionState`), built from the component types alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "EdgeState",
    "JunctionState",
    "StateLoop",
    "find_junctions",
    "follow_loops",
]


@dataclass(frozen=True)
class EdgeState:
    """The solved state on one edge, SI, with the edge's endpoints as data.

    Attributes
    ----------
    src, src_port, dst, dst_port : str
        The edge ``src:src_port -> dst:dst_port`` (flat component names and port names).
    circuit : int
        Circuit id.
    m_kg_s : float
        Mass flow [kg/s].
    p_pa, h_j_kg, t_k, s_j_kgk : float
        Pressure [Pa], specific enthalpy [J/kg], temperature [K], specific entropy [J/(kg K)].
    quality : float or None
        Vapour quality [-] inside the dome, None outside.
    phase : str
        ``liquid``, ``two-phase``, ``vapour`` or ``supercritical``.
    """

    src: str
    src_port: str
    dst: str
    dst_port: str
    circuit: int
    m_kg_s: float
    p_pa: float
    h_j_kg: float
    t_k: float
    s_j_kgk: float
    quality: float | None
    phase: str

    @property
    def label(self) -> str:
        """The display name ``src:src_port -> dst:dst_port`` (the ``edge`` column)."""
        return f"{self.src}:{self.src_port} -> {self.dst}:{self.dst_port}"


@dataclass(frozen=True)
class StateLoop:
    """One refrigerant loop or branch of a result, its states in flow order (SI arrays).

    A *loop* closes on itself; a *branch* runs from a junction outlet (``Splitter``,
    ``FlashTank``, ``Mixer``) to a junction inlet and has a mass flow of its own.

    Attributes
    ----------
    circuit : int
        Circuit id.
    edges : tuple of int
        Indices into ``SolveResult.edge_states`` (and rows of ``SolveResult.edges``) in flow
        order; a closed loop starts at the edge entering a compressor (the suction state).
    closed : bool
        True for a loop; False for a branch (or a chain that does not close, at a failed solve).
    p_pa, h_j_kg, t_k, s_j_kgk : ndarray
        Pressure [Pa], enthalpy [J/kg], temperature [K] and entropy [J/(kg K)] per state.
    source, target : (str, str) or None
        ``(junction, port)`` a branch leaves and enters; None for a loop.
    m_kg_s : float
        Mass flow of the loop or branch [kg/s].
    name : str
        ``circuit 0 loop through comp:inlet`` or ``circuit 0 branch from split:outlet_1``: the
        words of the solver's mass flow unknown of the loop or branch.
    """

    circuit: int
    edges: tuple[int, ...]
    closed: bool
    p_pa: np.ndarray
    h_j_kg: np.ndarray
    t_k: np.ndarray
    s_j_kgk: np.ndarray
    source: tuple[str, str] | None = None
    target: tuple[str, str] | None = None
    m_kg_s: float = float("nan")
    name: str = ""

    @property
    def kind(self) -> str:
        """``loop``, ``branch`` (between junctions) or ``chain`` (open, no junction)."""
        if self.closed:
            return "loop"
        return "branch" if self.source is not None or self.target is not None else "chain"


@dataclass(frozen=True)
class JunctionState:
    """A junction of a result and the edge rows at its ports (what joins the branches).

    Attributes
    ----------
    name, type : str
        Component name and type (``Mixer``, ``Splitter``, ``FlashTank``).
    circuit : int
        Circuit id.
    inlets, outlets : tuple of int
        Rows of ``SolveResult.edges`` (indices of ``edge_states``) entering and leaving it.
    """

    name: str
    type: str
    circuit: int
    inlets: tuple[int, ...]
    outlets: tuple[int, ...]


def _spec(component_type: str | None) -> Any:
    from workbench.components.catalog.specs import get_spec

    return get_spec(component_type) if component_type is not None else None


def _outlet_port(component_type: str | None, inlet_port: str) -> str | None:
    """The outlet port continuing the stream that enters ``inlet_port`` of a component type."""
    spec = _spec(component_type)
    if spec is None:
        return None
    return next((b for a, b in spec.streams if a == inlet_port), None)


def _is_compressor(component_type: str | None) -> bool:
    from workbench.components.models import Compressor, InjectionCompressor, component_class
    from workbench.errors import SpecificationError

    try:
        return component_type is not None and issubclass(
            component_class(component_type), Compressor | InjectionCompressor
        )
    except SpecificationError:
        return False


def _is_junction(component_type: str | None) -> bool:
    spec = _spec(component_type)
    return spec is not None and spec.junction


def follow_loops(states: list[EdgeState], types: dict[str, str]) -> list[StateLoop]:
    """Loops and branches of a set of edge states, following the flow through each component.

    An edge enters ``dst:dst_port``; the component type's ``streams`` give the outlet port
    of that stream (``inlet -> outlet``, ``hot_inlet -> hot_outlet``); the next state is the
    edge leaving that port. A junction (mixer, splitter, flash tank) has no streams: a chain
    that reaches one ends there, and a branch starts at each of its outlets.

    Parameters
    ----------
    states : list of EdgeState
        One state per edge.
    types : dict
        Component type per flat component name.

    Returns
    -------
    list of StateLoop
        Ordered by circuit; in a circuit the loops (first edge in document order), then the
        branches through a compressor by rising suction pressure (a two-stage circuit reads
        from the low stage up), then the other branches in document order.
    """
    by_source = {(st.src, st.src_port): i for i, st in enumerate(states)}
    following: dict[int, int | None] = {}
    for i, st in enumerate(states):
        port = _outlet_port(types.get(st.dst), st.dst_port)
        following[i] = by_source.get((st.dst, port)) if port is not None else None
    preceding = {j: i for i, j in following.items() if j is not None}
    seen: set[int] = set()
    chains: list[tuple[list[int], bool]] = []
    for start in range(len(states)):
        if start in seen:
            continue
        first, visited = start, {start}
        while preceding.get(first) is not None and preceding[first] not in visited | seen:
            first = preceding[first]
            visited.add(first)
        rows: list[int] = []
        j: int | None = first
        while j is not None and j not in seen:
            seen.add(j)
            rows.append(j)
            j = following[j]
        closed = j is not None and j == rows[0]
        if closed:
            k = next((k for k, r in enumerate(rows) if _is_compressor(types.get(states[r].dst))), 0)
            rows = rows[k:] + rows[:k]
        chains.append((rows, closed))

    def order(chain: tuple[list[int], bool]) -> tuple[int, int, float, int]:
        rows, closed = chain
        suction = [states[r].p_pa for r in rows if _is_compressor(types.get(states[r].dst))]
        rank = 0 if closed else (1 if suction else 2)
        return (states[rows[0]].circuit, rank, min(suction, default=0.0), rows[0])

    chains.sort(key=order)
    out: list[StateLoop] = []
    for rows, closed in chains:
        head, tail = states[rows[0]], states[rows[-1]]
        source = (head.src, head.src_port) if _is_junction(types.get(head.src)) else None
        target = (tail.dst, tail.dst_port) if _is_junction(types.get(tail.dst)) else None
        if source is not None:
            name = f"circuit {head.circuit} branch from {head.src}:{head.src_port}"
        else:
            kind = "loop" if closed else "chain"
            name = f"circuit {head.circuit} {kind} through {head.dst}:{head.dst_port}"
        out.append(
            StateLoop(
                circuit=head.circuit,
                edges=tuple(rows),
                closed=closed,
                p_pa=np.array([states[r].p_pa for r in rows]),
                h_j_kg=np.array([states[r].h_j_kg for r in rows]),
                t_k=np.array([states[r].t_k for r in rows]),
                s_j_kgk=np.array([states[r].s_j_kgk for r in rows]),
                source=source,
                target=target,
                m_kg_s=head.m_kg_s,
                name=name,
            )
        )
    return out


def find_junctions(states: list[EdgeState], types: dict[str, str]) -> list[JunctionState]:
    """The junctions among ``types`` with the edge rows at their ports (document order)."""
    out = []
    for name, component_type in types.items():
        if not _is_junction(component_type):
            continue
        inlets = tuple(i for i, st in enumerate(states) if st.dst == name)
        outlets = tuple(i for i, st in enumerate(states) if st.src == name)
        circuit = states[(inlets + outlets)[0]].circuit if inlets or outlets else 0
        out.append(JunctionState(name, component_type, circuit, inlets, outlets))
    return out
