"""The solved cycle as paths: states in flow order, per loop or branch, with their circuit.

The loops and branches come from the result itself (:attr:`workbench.solver.SolveResult.loops`:
the edge states in SI with their endpoints as data, followed through each component's streams;
a branch runs between junctions; where it leaves a flash tank or enters a mixer, the
junctions of :attr:`~workbench.solver.SolveResult.junctions` give the state its line starts
or ends at), so the diagrams never read display labels or convert table units back. This
module adds what is particular to drawing: the state numbers running over all loops and
branches, and the process path between two states.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend

__all__ = ["CycleLoop", "cycle_loops", "segment_states"]


@dataclass
class CycleLoop:
    """One stream loop of a solved cycle, in flow order.

    Attributes
    ----------
    circuit : int
        Circuit id.
    rows : list of int
        Row indices of ``result.edges`` (and of ``result.edge_states``) in flow order.
    edges : list of str
        Edge names (``a:outlet -> b:inlet``) in flow order, for display.
    p_pa, h_j_kg, t_k, s_j_kgk : ndarray
        Pressure [Pa], enthalpy [J/kg], temperature [K] and entropy [J/kg/K] of each state.
    numbers : list of int
        Label of each state on the diagrams (1-based, running over all loops).
    closed : bool
        The loop closes on itself (False for a branch, or an open chain at a failed solve).
    kind : str
        ``loop``, ``branch`` (between junctions) or ``chain``.
    name : str
        The loop's or branch's name (``circuit 0 branch from flash:vapour_outlet``).
    index, branches_in_circuit : int
        Position (1-based) among the loops and branches of its circuit, and their number.
    lead, tail : tuple of (p, h, T, s)
        Points a branch's line passes before its first state and after its last one (not
        numbered; T and s NaN where the backend fills them in): a branch leaving a flash tank
        starts at the tank's inlet state (the separation along the isobar), one leaving an
        injection compressor at its suction, through the end of the first stage and the mixed
        state; a branch entering a mixer ends at the mixed state.
    """

    circuit: int
    rows: list[int]
    edges: list[str]
    p_pa: np.ndarray
    h_j_kg: np.ndarray
    t_k: np.ndarray
    s_j_kgk: np.ndarray
    numbers: list[int] = field(default_factory=list)
    closed: bool = True
    kind: str = "loop"
    name: str = ""
    index: int = 0
    branches_in_circuit: int = 1
    lead: tuple[tuple[float, float, float, float], ...] = ()
    tail: tuple[tuple[float, float, float, float], ...] = ()

    @property
    def gid(self) -> str:
        """``cycle-<circuit>`` for a circuit drawn as one line, else ``cycle-<circuit>-<k>``."""
        if self.branches_in_circuit == 1:
            return f"cycle-{self.circuit}"
        return f"cycle-{self.circuit}-{self.index}"


def cycle_loops(result: Any) -> list[CycleLoop]:
    """Stream loops of a solve result, states in flow order, numbered 1, 2, ... across loops.

    Parameters
    ----------
    result : SolveResult
        A solve result; its :attr:`~workbench.solver.SolveResult.loops` and ``edge_states``
        are read.

    Returns
    -------
    list of CycleLoop
        Loops ordered by circuit, then by first appearance; each closed loop starts at its
        compressor's suction (state 1). Empty for a result without edge states.
    """
    states = getattr(result, "edge_states", None) or []
    out: list[CycleLoop] = []
    number = 1
    loops = getattr(result, "loops", None) or []
    per_circuit: dict[int, int] = {}
    for loop in loops:
        per_circuit[loop.circuit] = per_circuit.get(loop.circuit, 0) + 1
    seen: dict[int, int] = {}
    junctions = {j.name: j for j in getattr(result, "junctions", None) or []}

    def state(row: int) -> tuple[float, float, float, float]:
        st = states[row]
        return (st.p_pa, st.h_j_kg, st.t_k, st.s_j_kgk)

    components = getattr(result, "components", None) or {}

    for loop in loops:
        rows = list(loop.edges)
        seen[loop.circuit] = seen.get(loop.circuit, 0) + 1
        lead: tuple[tuple[float, float, float, float], ...] = ()
        tail: tuple[tuple[float, float, float, float], ...] = ()
        source = junctions.get(loop.source[0]) if getattr(loop, "source", None) else None
        target = junctions.get(loop.target[0]) if getattr(loop, "target", None) else None
        if source is not None and source.type == "FlashTank" and source.inlets:
            lead = (state(source.inlets[0]),)
        if source is not None and source.type == "InjectionCompressor" and source.inlets:
            given = components.get(source.name, {})
            suction = next(r for r in source.inlets if states[r].dst_port == "inlet")
            lead = (state(suction),)
            p_inj, h_mid, h_mix = (
                given.get(k)
                for k in ("injection_pressure", "first_stage_enthalpy", "mixed_enthalpy")
            )
            if p_inj is not None and h_mid is not None and h_mix is not None:
                nan = float("nan")
                lead += ((p_inj, h_mid, nan, nan), (p_inj, h_mix, nan, nan))
        if target is not None and target.type == "Mixer" and target.outlets:
            tail = (state(target.outlets[0]),)
        out.append(
            CycleLoop(
                circuit=loop.circuit,
                rows=rows,
                edges=[states[r].label for r in rows],
                p_pa=np.asarray(loop.p_pa, dtype=float),
                h_j_kg=np.asarray(loop.h_j_kg, dtype=float),
                t_k=np.asarray(loop.t_k, dtype=float),
                s_j_kgk=np.asarray(loop.s_j_kgk, dtype=float),
                numbers=list(range(number, number + len(rows))),
                closed=loop.closed,
                kind=getattr(loop, "kind", "loop" if loop.closed else "chain"),
                name=getattr(loop, "name", ""),
                index=seen[loop.circuit],
                branches_in_circuit=per_circuit[loop.circuit],
                lead=lead,
                tail=tail,
            )
        )
        number += len(rows)
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
