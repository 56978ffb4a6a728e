"""The solved cycle as paths: states in flow order, per stream loop, with their circuit.

The solver's edge table lists one state per edge in document order. This module rebuilds the
loops by following the flow: an edge enters ``component:inlet_port``; the component's stream
maps that inlet to an outlet port; the next edge is the one leaving ``component:outlet_port``.
Each loop starts at the edge entering a compressor (the compressor's suction state is state 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from workbench.errors import FluidPropertyError, SpecificationError
from workbench.fluids import FluidBackend
from workbench.units import bar_to_pa, kj_kg_to_j_kg

__all__ = ["CycleLoop", "cycle_loops", "parse_edge", "segment_states"]


@dataclass
class CycleLoop:
    """One stream loop of a solved cycle, in flow order.

    Attributes
    ----------
    circuit : int
        Circuit id.
    rows : list of int
        Row indices of ``result.edges`` in flow order.
    edges : list of str
        Edge names (``a:outlet -> b:inlet``) in flow order.
    p_pa, h_j_kg, t_k, s_j_kgk : ndarray
        Pressure [Pa], enthalpy [J/kg], temperature [K] and entropy [J/kg/K] of each state.
    numbers : list of int
        Label of each state on the diagrams (1-based, running over all loops).
    """

    circuit: int
    rows: list[int]
    edges: list[str]
    p_pa: np.ndarray
    h_j_kg: np.ndarray
    t_k: np.ndarray
    s_j_kgk: np.ndarray
    numbers: list[int] = field(default_factory=list)


def parse_edge(name: str) -> tuple[str, str, str, str]:
    """Split ``"a:outlet -> b:inlet"`` into ``(a, outlet, b, inlet)``.

    Component names may contain dots and colons; the port is after the last colon.

    Raises
    ------
    ValueError
        The name is not of the form ``<component>:<port> -> <component>:<port>``.
    """
    try:
        source, target = name.split(" -> ")
        src, src_port = source.rsplit(":", 1)
        dst, dst_port = target.rsplit(":", 1)
    except ValueError:
        raise ValueError(
            f"edge name {name!r} is not '<component>:<port> -> <component>:<port>'"
        ) from None
    return src, src_port, dst, dst_port


def _outlet_of(component_type: str | None, inlet_port: str) -> str:
    """The outlet port continuing the stream that enters ``inlet_port``."""
    if component_type:
        from workbench.components.models import component_class

        try:
            streams = component_class(component_type).streams
        except SpecificationError:  # unknown type: guess from the port name below
            streams = ()
        for a, b in streams:
            if a == inlet_port:
                return b
    return inlet_port.replace("inlet", "outlet")


def cycle_loops(result: Any) -> list[CycleLoop]:
    """Stream loops of a solve result, states in flow order.

    Parameters
    ----------
    result : SolveResult
        A result with an ``edges`` table (``edge``, ``circuit``, ``p_bar``, ``h_kj_kg``,
        ``t_c``, ``s``) and ``components`` (for each component's ``type``).

    Returns
    -------
    list of CycleLoop
        Loops ordered by circuit, then by first appearance; states numbered 1, 2, ... across
        all loops. A chain that does not close (an incomplete table) is returned as it runs.
    """
    table: pd.DataFrame = result.edges
    if table is None or table.empty:
        return []
    names = [str(e) for e in table["edge"]]
    parsed = [parse_edge(n) for n in names]
    by_source = {f"{src}:{sp}": i for i, (src, sp, _d, _dp) in enumerate(parsed)}
    types = {name: out.get("type") for name, out in (result.components or {}).items()}
    next_row: dict[int, int | None] = {}
    for i, (_s, _sp, dst, dst_port) in enumerate(parsed):
        next_row[i] = by_source.get(f"{dst}:{_outlet_of(types.get(dst), dst_port)}")
    seen: set[int] = set()
    loops: list[list[int]] = []
    for start in range(len(names)):
        if start in seen:
            continue
        # walk backwards to the start of an open chain, so an open chain is kept whole
        prev = {v: k for k, v in next_row.items() if v is not None}
        i = start
        visited = {i}
        while prev.get(i) is not None and prev[i] not in visited and prev[i] not in seen:
            i = prev[i]
            visited.add(i)
        rows: list[int] = []
        j: int | None = i
        while j is not None and j not in seen:
            seen.add(j)
            rows.append(j)
            j = next_row[j]
        closed = j is not None and j == rows[0]
        if closed:
            for k, r in enumerate(rows):
                if types.get(parsed[r][2]) == "Compressor":
                    rows = rows[k:] + rows[:k]
                    break
        loops.append(rows)
    loops.sort(key=lambda rows: (int(table["circuit"].iloc[rows[0]]), rows[0]))
    out: list[CycleLoop] = []
    number = 1
    for rows in loops:
        sub = table.iloc[rows]
        loop = CycleLoop(
            circuit=int(sub["circuit"].iloc[0]),
            rows=list(rows),
            edges=[names[r] for r in rows],
            p_pa=np.array([bar_to_pa(float(v)) for v in sub["p_bar"]]),
            h_j_kg=np.array([kj_kg_to_j_kg(float(v)) for v in sub["h_kj_kg"]]),
            t_k=np.array([float(v) + 273.15 for v in sub["t_c"]]),
            s_j_kgk=np.array([float(v) * 1e3 for v in sub["s"]]),
        )
        loop.numbers = list(range(number, number + len(rows)))
        number += len(rows)
        out.append(loop)
    return out


def segment_states(
    fluid: FluidBackend | None,
    p1: float,
    h1: float,
    p2: float,
    h2: float,
    n: int = 24,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """States along the process from state 1 to state 2.

    The path is linear in ``log p`` and ``h``: an isobar stays an isobar (so a condenser
    path follows the dome), a throttle stays isenthalpic, and a compression is a straight
    line on the P-h chart.

    Parameters
    ----------
    fluid : FluidBackend or None
        Backend for T and s along the path; None gives NaN temperatures and entropies.
    p1, h1, p2, h2 : float
        Pressure [Pa] and enthalpy [J/kg] at both ends.
    n : int
        Number of points including both ends.

    Returns
    -------
    p, h, T, s : ndarray
        Pressure [Pa], enthalpy [J/kg], temperature [K] and entropy [J/kg/K]; NaN where the
        backend could not evaluate a state.
    """
    u = np.linspace(0.0, 1.0, n)
    p = np.exp(np.log(p1) + (np.log(p2) - np.log(p1)) * u)
    h = h1 + (h2 - h1) * u
    t = np.full(n, np.nan)
    s = np.full(n, np.nan)
    if fluid is not None:
        for k in range(n):
            try:
                st = fluid.state_ph(float(p[k]), float(h[k]))
                t[k], s[k] = float(st.T), float(st.s)
            except (FluidPropertyError, ValueError):
                continue
    return p, h, t, s
