"""The result of a solve: state tables, component outputs, summary and diagnostics.

Inside everything is SI; the edges table uses the scenario contract's edge units (``p_bar``,
``h_kj_kg``, ``t_c``; ``s`` in kJ/(kg K)) and component outputs stay SI (W, K, Pa, kg/s).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from workbench.errors import ConvergenceError
from workbench.solver.iteration import StopReason

__all__ = [
    "SolveResult",
    "SUMMARY_KEYS",
    "HEADLINE_OUTPUTS",
    "EdgeState",
    "StateLoop",
    "follow_loops",
]

HEADLINE_OUTPUTS = (
    "type",
    "capacity",
    "power",
    "massFlowRate",
    "pressure",
    "temperature",
    "saturationTemperature",
    "superheat",
    "subcooling",
)
"""Component columns shown first in tables (the scenario contract's output names)."""

SUMMARY_KEYS = (
    "cooling_capacity_w",
    "heating_capacity_w",
    "compressor_power_w",
    "cop_cooling",
    "cop_heating",
    "energy_balance_w",
)


def _clean(value: Any) -> Any:
    """JSON-safe value: numpy scalars to Python, NaN/inf to None."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


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
    """One refrigerant stream loop of a result, its states in flow order (SI arrays).

    Attributes
    ----------
    circuit : int
        Circuit id.
    edges : tuple of int
        Indices into ``SolveResult.edge_states`` (and rows of ``SolveResult.edges``) in flow
        order; a closed loop starts at the edge entering a compressor (the suction state).
    closed : bool
        False for a chain that does not close (an incomplete graph at a failed solve).
    p_pa, h_j_kg, t_k, s_j_kgk : ndarray
        Pressure [Pa], enthalpy [J/kg], temperature [K] and entropy [J/(kg K)] per state.
    """

    circuit: int
    edges: tuple[int, ...]
    closed: bool
    p_pa: np.ndarray
    h_j_kg: np.ndarray
    t_k: np.ndarray
    s_j_kgk: np.ndarray


def _outlet_port(component_type: str | None, inlet_port: str) -> str | None:
    """The outlet port continuing the stream that enters ``inlet_port`` of a component type."""
    from workbench.components.models import component_class
    from workbench.errors import SpecificationError

    if component_type is None:
        return None
    try:
        streams = component_class(component_type).streams
    except SpecificationError:
        return None
    return next((b for a, b in streams if a == inlet_port), None)


def _is_compressor(component_type: str | None) -> bool:
    from workbench.components.models import Compressor, component_class
    from workbench.errors import SpecificationError

    try:
        return component_type is not None and issubclass(
            component_class(component_type), Compressor
        )
    except SpecificationError:
        return False


def follow_loops(states: list[EdgeState], types: dict[str, str]) -> list[StateLoop]:
    """Stream loops of a set of edge states, following the flow through each component.

    An edge enters ``dst:dst_port``; the component type's ``streams`` give the outlet port
    of that stream (``inlet -> outlet``, ``hot_inlet -> hot_outlet``); the next state is the
    edge leaving that port.

    Parameters
    ----------
    states : list of EdgeState
        One state per edge.
    types : dict
        Component type per flat component name.

    Returns
    -------
    list of StateLoop
        Ordered by circuit, then by the first edge in document order.
    """
    by_source = {(st.src, st.src_port): i for i, st in enumerate(states)}
    following: dict[int, int | None] = {}
    for i, st in enumerate(states):
        out = _outlet_port(types.get(st.dst), st.dst_port)
        following[i] = by_source.get((st.dst, out)) if out is not None else None
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
    chains.sort(key=lambda chain: (states[chain[0][0]].circuit, chain[0][0]))
    return [
        StateLoop(
            circuit=states[rows[0]].circuit,
            edges=tuple(rows),
            closed=closed,
            p_pa=np.array([states[r].p_pa for r in rows]),
            h_j_kg=np.array([states[r].h_j_kg for r in rows]),
            t_k=np.array([states[r].t_k for r in rows]),
            s_j_kgk=np.array([states[r].s_j_kgk for r in rows]),
        )
        for rows, closed in chains
    ]


@dataclass
class SolveResult:
    """Outcome of :func:`workbench.solve`.

    Attributes
    ----------
    converged : bool
        True when every scaled residual is below the tolerance and no physical check failed.
    iterations : int
        Newton iterations plus Picard sweeps.
    residual_norm : float
        Largest scaled residual at the end [-].
    residual_history : list of float
        Largest scaled residual per iteration.
    message : str
        Why the solver stopped, for people.
    stop_reason : StopReason
        Why the solver stopped, for code (``converged``, ``max_iterations``, ``timeout``,
        ``property_failure``, ``singular``, ``physically_impossible``).
    hint : str
        What to try when it did not converge.
    worst_residuals : list of (str, float)
        Largest scaled residuals, named ``<component>.<equation>``.
    problems : list of str
        Physical impossibilities found at the end (each makes ``converged`` False).
    warnings : list of str
        Questionable but possible conditions (wet suction, say).
    structure : list of str
        After a failed solve: equations competing for the same unknowns, unknowns no equation
        determines (from a matching of the Jacobian's sparsity at the last iterate).
    edges : pandas.DataFrame
        One row per edge: edge, circuit, m_kg_s, p_bar, h_kj_kg, t_c, quality, phase, s.
    components : dict
        Outputs per component name [SI]; ``type`` included.
    summary : dict
        cooling_capacity_w, heating_capacity_w, compressor_power_w, cop_cooling, cop_heating,
        energy_balance_w [W, -].
    controls : list of dict
        Control loop results (id, target, measured, error, actuator, saturated).
    couplings : list of dict
        Thermal coupling results.
    property_calls : int
        Fluid property evaluations during the solve.
    property_flashes : int
        Underlying state updates those calls needed (CoolProp flashes; fewer than the calls
        when remembered states serve them).
    elapsed_s : float
        Wall time of the solve [s].
    x : ndarray
        Solution vector [SI] (for warm starts).
    var_names, eq_names : list of str
        Names of the unknowns and equations.
    edge_states : list of EdgeState
        The state of each edge in SI with its endpoints as data, in the order of ``edges``.
    loops : list of StateLoop
        The stream loops in flow order (from ``edge_states``; see :meth:`loops`).
    """

    converged: bool
    iterations: int
    residual_norm: float
    residual_history: list[float]
    message: str
    stop_reason: StopReason = StopReason.NOT_STARTED
    hint: str = ""
    worst_residuals: list[tuple[str, float]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    structure: list[str] = field(default_factory=list)
    edge_rows: list[dict[str, Any]] = field(default_factory=list)
    components: dict[str, dict[str, Any]] = field(default_factory=dict)
    summary: dict[str, float | None] = field(default_factory=dict)
    controls: list[dict[str, Any]] = field(default_factory=list)
    couplings: list[dict[str, Any]] = field(default_factory=list)
    property_calls: int = 0
    property_flashes: int = 0
    elapsed_s: float = 0.0
    strategy_log: list[str] = field(default_factory=list)
    x: np.ndarray = field(default_factory=lambda: np.zeros(0))
    var_names: list[str] = field(default_factory=list)
    eq_names: list[str] = field(default_factory=list)
    scenario_name: str | None = None
    edge_states: list[EdgeState] = field(default_factory=list)

    @property
    def loops(self) -> list[StateLoop]:
        """The stream loops, states in flow order, each closed loop from its compressor suction.

        Built from :attr:`edge_states` and the component types on first access (empty when
        the result carries no edge states).
        """
        cached = self.__dict__.get("_loops")
        if cached is None:
            types = {name: str(out.get("type")) for name, out in self.components.items()}
            cached = follow_loops(self.edge_states, types)
            self.__dict__["_loops"] = cached
        return cached

    # -- tables ----------------------------------------------------------------------------
    @property
    def edges(self) -> pd.DataFrame:
        """One row per edge: edge, circuit, m_kg_s, p_bar, h_kj_kg, t_c, quality, phase, s.

        Built on first access (a sweep that only reads the summary never pays for it).
        """
        cached = self.__dict__.get("_edges_frame")
        if cached is None:
            cached = pd.DataFrame(self.edge_rows)
            self.__dict__["_edges_frame"] = cached
        return cached

    def components_table(self) -> pd.DataFrame:
        """Component outputs as a table (one row per component, SI columns)."""
        rows = [{"name": name, **out} for name, out in self.components.items()]
        return pd.DataFrame(rows).set_index("name") if rows else pd.DataFrame()

    def summary_table(self) -> pd.Series:
        """The summary as a Series."""
        return pd.Series(self.summary, name=self.scenario_name or "summary")

    # -- serialisation ---------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with the keys of ``workbench solve --json``."""
        components = [
            {"name": n, **{k: v for k, v in out.items()}} for n, out in self.components.items()
        ]
        doc = {
            "name": self.scenario_name,
            "converged": self.converged,
            "iterations": self.iterations,
            "residual_norm": self.residual_norm,
            "message": self.message,
            "stop_reason": str(self.stop_reason),
            "hint": self.hint or None,
            "worst_residuals": [
                {"equation": n, "scaled_residual": r} for n, r in self.worst_residuals
            ],
            "problems": self.problems,
            "warnings": self.warnings,
            "structure": self.structure,
            "summary": self.summary,
            "components": components,
            "edges": self.edge_rows,
            "controls": self.controls,
            "couplings": self.couplings,
            "property_calls": self.property_calls,
            "elapsed_s": self.elapsed_s,
            "residual_history": self.residual_history,
        }
        cleaned: dict[str, Any] = _clean(doc)
        return cleaned

    def to_json(self, indent: int | None = 2) -> str:
        """The result as a JSON string (see :meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent)

    def raise_for_convergence(self) -> SolveResult:
        """Return self when converged, else raise ConvergenceError with the diagnostics."""
        if not self.converged:
            raise ConvergenceError(self.report())
        return self

    def report(self) -> str:
        """Readable diagnostics of a failed (or successful) solve."""
        lines = [
            f"{'converged' if self.converged else 'NOT converged'}: {self.message}; "
            f"{self.iterations} iterations, max scaled residual {self.residual_norm:.3e}"
        ]
        if not self.converged and self.worst_residuals:
            lines.append("worst residuals (scaled):")
            lines += [f"  {n}: {r:+.3e}" for n, r in self.worst_residuals]
        lines += [f"problem: {p}" for p in self.problems]
        lines += [f"structure: {p}" for p in self.structure]
        lines += [f"warning: {w}" for w in self.warnings]
        if self.hint and not self.converged:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:  # pragma: no cover - notebook display
        head = f"<p><b>{self.scenario_name or 'scenario'}</b>: {self.report()}</p>"
        tables = self.summary_table().to_frame().to_html() + self.edges.to_html(index=False)
        return head + str(tables)
