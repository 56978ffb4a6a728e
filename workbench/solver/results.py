"""The result of a solve: state tables, component outputs, summary and diagnostics.

Inside everything is SI; the edges table uses the scenario contract's edge units (``p_bar``,
``h_kj_kg``, ``t_c``; ``s`` in kJ/(kg K)) and component outputs stay SI (W, K, Pa, kg/s).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.errors import ConvergenceError
from workbench.solver.iteration import StopReason
from workbench.solver.states import (
    EdgeState,
    JunctionState,
    StateLoop,
    find_junctions,
    follow_loops,
)

if TYPE_CHECKING:
    from workbench.solver.exergy import ExergyAnalysis

__all__ = [
    "HEADLINE_OUTPUTS",
    "SUMMARY_KEYS",
    "EdgeState",
    "JunctionState",
    "SolveResult",
    "StateLoop",
    "find_junctions",
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
        energy_balance_w [W, -]; when a component gives ``fan_power_w``, also fan_power_w [W]
        and the system COPs with the fans, cop_cooling_system and cop_heating_system [-].
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
    guess : ndarray
        The spec-derived starting point at this result's parameters [SI] (empty when it could
        not be computed): a warm start from this result moves :attr:`x` by how that guess
        moves with the new parameters.
    jacobian : ndarray, sparse matrix or None
        The scaled Jacobian of the solve's last Newton step (near :attr:`x`), or None: a warm
        start from this result corrects its predicted start by one chord step with it.
    parameters : dict
        Component name -> the parameters it was solved with: a warm start from this result
        follows the solution's tangent from them to the new ones (:mod:`workbench.solver.start.tangent`).
    var_names, eq_names : list of str
        Names of the unknowns and equations.
    edge_states : list of EdgeState
        The state of each edge in SI with its endpoints as data, in the order of ``edges``.
    loops : list of StateLoop
        The loops and branches in flow order (from ``edge_states``; see :meth:`loops`).
    junctions : list of JunctionState
        The mixers, splitters and flash tanks with the rows at their ports.
    coolprop_version : str or None
        CoolProp version of the properties (blend models change between releases); None for
        the Test backend.
    fluid, fluid_backend : str or None
        The working fluid and its backend (what :meth:`exergy` evaluates the dead state with).
    charge : dict or None
        The refrigerant inventory (``total_kg``, ``items`` per component and edge; see
        docs/charge.md); None when the scenario gives no volumes.
    safety : dict or None
        The IEC 60335-2-40 Annex GG verdict on the charge, with a ``safety`` block.
    lines : list of dict
        One row per refrigerant line (an edge with a ``line``): pressure drop and its parts,
        saturation temperature drop, heat gain, velocity, charge (docs/lines.md).
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
    guess: np.ndarray = field(default_factory=lambda: np.zeros(0))
    jacobian: Any = None
    parameters: dict[str, dict[str, Any]] = field(default_factory=dict)
    var_names: list[str] = field(default_factory=list)
    eq_names: list[str] = field(default_factory=list)
    scenario_name: str | None = None
    edge_states: list[EdgeState] = field(default_factory=list)
    fluid: str | None = None
    fluid_backend: str | None = None
    charge: dict[str, Any] | None = None
    safety: dict[str, Any] | None = None
    coolprop_version: str | None = None
    lines: list[dict[str, Any]] = field(default_factory=list)

    @property
    def loops(self) -> list[StateLoop]:
        """The loops and branches, states in flow order, each loop from its compressor suction.

        Built from :attr:`edge_states` and the component types on first access (empty when
        the result carries no edge states). A circuit without junctions has only loops; a
        branching one has a branch per junction outlet (:attr:`StateLoop.kind`).
        """
        cached = self.__dict__.get("_loops")
        if cached is None:
            cached = follow_loops(self.edge_states, self._types())
            self.__dict__["_loops"] = cached
        return cached

    @property
    def junctions(self) -> list[JunctionState]:
        """Mixers, splitters and flash tanks with the edge rows at their ports."""
        return find_junctions(self.edge_states, self._types())

    def _types(self) -> dict[str, str]:
        return {name: str(out.get("type")) for name, out in self.components.items()}

    def exergy(
        self,
        ambient_k: float,
        *,
        ambient_pa: float = 101325.0,
        purpose: str = "auto",
        reservoirs_k: dict[str, float] | None = None,
    ) -> ExergyAnalysis:
        """Exergy analysis of this result: destruction per component, fuel, product, losses.

        See :func:`workbench.solver.exergy.exergy_analysis` (and ``docs/exergy.md``) for the
        definitions; ``.table`` is the per-component DataFrame, ``plot_exergy`` draws it.
        """
        from workbench.solver.exergy import exergy_analysis

        return exergy_analysis(
            self,
            ambient_k,
            ambient_pa=ambient_pa,
            purpose=purpose,
            reservoirs_k=reservoirs_k,
        )

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

    def lines_table(self) -> pd.DataFrame:
        """The refrigerant lines, one row each (SI columns with units; docs/lines.md)."""
        return pd.DataFrame(self.lines).set_index("name") if self.lines else pd.DataFrame()

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
            "branches": [
                {
                    "name": loop.name,
                    "kind": loop.kind,
                    "circuit": loop.circuit,
                    "m_kg_s": loop.m_kg_s,
                    "edges": [self.edge_states[r].label for r in loop.edges],
                }
                for loop in self.loops
            ],
            "property_calls": self.property_calls,
            "elapsed_s": self.elapsed_s,
            "residual_history": self.residual_history,
        }
        if self.lines:
            doc["lines"] = self.lines
        if self.charge is not None:
            doc["charge"] = self.charge
        if self.safety is not None:
            doc["safety"] = self.safety
        if self.coolprop_version is not None:
            doc["coolprop_version"] = self.coolprop_version
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
