"""The flat scenario: one graph of named components and edges, templates expanded.

This is what the solver and every downstream consumer read. It converts back to a
:class:`ScenarioConfig` without subsystems, instances or connections, and to a JSON-ready dict
that loads again with :func:`workbench.scenario.load_scenario`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from workbench.scenario.models import (
    COMPONENT_CONTRACT_FIELDS,
    ChargeConfig,
    CircuitConfig,
    ComponentConfig,
    ControlConfig,
    EdgeConfig,
    InitialStateConfig,
    LineConfig,
    SafetyConfig,
    ScenarioConfig,
    SolverConfig,
    ThermalCouplingConfig,
)

__all__ = ["FlatComponent", "FlatEdge", "FlatScenario"]


@dataclass
class FlatComponent:
    """A component of the flat graph.

    Parameters
    ----------
    name : str
        Globally unique name (``<instance>.<local>`` for template components).
    type : str
        Component type (a key of the component catalog).
    circuit : int
        Id of the circuit the component belongs to.
    params : dict
        Every parameter that was given, ``$name`` references substituted, calibration factor
        keys normalised from ``f_`` to ``z_``. Defaults are not filled in.
    path : str
        JSON path of the component in the source document, e.g.
        ``instances[0] (unit_a) -> subsystems.unit.components[1]``.
    """

    name: str
    type: str
    circuit: int
    params: dict[str, Any]
    path: str


@dataclass
class FlatEdge:
    """A directed edge ``src:src_port -> dst:dst_port`` inside circuit ``circuit``.

    ``path`` is the JSON path of the edge in the source document (``circuits[0].edges[3]``,
    ``connections[1]`` or ``instances[0] (unit_a) -> subsystems.unit.edges[2]``).
    """

    src: str
    src_port: str
    dst: str
    dst_port: str
    circuit: int
    path: str
    volume_m3: float | None = None
    """Refrigerant volume of the line [m3] (None: holds no charge)."""
    line: LineConfig | None = None
    """The refrigerant line the edge is (None: the edge joins its two ports directly)."""

    @property
    def source(self) -> str:
        """The ``<component>:<port>`` source endpoint."""
        return f"{self.src}:{self.src_port}"

    @property
    def target(self) -> str:
        """The ``<component>:<port>`` target endpoint."""
        return f"{self.dst}:{self.dst_port}"


@dataclass
class FlatScenario:
    """A scenario with every template expanded into its circuit.

    ``components`` (by name) and ``edges`` are grouped by circuit, in the order of ``circuits``
    (first appearance in the document), and in document order inside a circuit: circuit
    entries first, then instances, then ``connections``.
    """

    fluid: str
    fluid_backend: str | None = None
    name: str | None = None
    schema_version: str = "1"
    saturation_reference: str = "dew"
    solver: SolverConfig = field(default_factory=SolverConfig)
    controls: list[ControlConfig] = field(default_factory=list)
    thermal_couplings: list[ThermalCouplingConfig] = field(default_factory=list)
    components: dict[str, FlatComponent] = field(default_factory=dict)
    edges: list[FlatEdge] = field(default_factory=list)
    circuits: list[int] = field(default_factory=list)
    initial_state: dict[int, InitialStateConfig | None] = field(default_factory=dict)
    circuit_fluids: dict[int, tuple[str, str | None]] = field(default_factory=dict)
    """(fluid, fluid_backend) of circuits whose fluid is not the scenario's (schema v2)."""
    metadata: dict[str, Any] | None = None
    charge: ChargeConfig | None = None
    safety: SafetyConfig | None = None
    charge_kg: dict[int, float] = field(default_factory=dict)
    """Fixed charge [kg] per circuit id (``circuits[i].charge_kg``)."""
    charge_paths: dict[int, str] = field(default_factory=dict)
    """JSON path of each circuit's ``charge_kg``."""

    def fluid_of(self, circuit: int) -> tuple[str, str | None]:
        """``(fluid, fluid_backend)`` of a circuit: its own, or the scenario's."""
        return self.circuit_fluids.get(circuit, (self.fluid, self.fluid_backend))

    def circuit_components(self, circuit: int) -> list[FlatComponent]:
        """Components of one circuit, in document order."""
        return [c for c in self.components.values() if c.circuit == circuit]

    def circuit_edges(self, circuit: int) -> list[FlatEdge]:
        """Edges of one circuit, in document order."""
        return [e for e in self.edges if e.circuit == circuit]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready scenario document (no subsystems, instances or connections)."""
        doc: dict[str, Any] = {"schema_version": self.schema_version, "fluid": self.fluid}
        if self.fluid_backend is not None:
            doc["fluid_backend"] = self.fluid_backend
        if self.name is not None:
            doc["name"] = self.name
        if self.saturation_reference != "dew":
            doc["saturation_reference"] = self.saturation_reference
        circuits = []
        for cid in self.circuits:
            circuit: dict[str, Any] = {
                "id": cid,
                "components": [
                    {"name": c.name, "type": c.type, **copy.deepcopy(c.params)}
                    for c in self.circuit_components(cid)
                ],
                "edges": [_edge_doc(e) for e in self.circuit_edges(cid)],
            }
            if cid in self.charge_kg:
                circuit["charge_kg"] = self.charge_kg[cid]
            state = self.initial_state.get(cid)
            if state is not None:
                circuit["initial_state"] = state.model_dump(exclude_none=True)
            if cid in self.circuit_fluids:
                fluid, backend = self.circuit_fluids[cid]
                circuit["fluid"] = fluid
                if backend is not None:
                    circuit["fluid_backend"] = backend
            circuits.append(circuit)
        doc["circuits"] = circuits
        if self.controls:
            doc["controls"] = [c.model_dump(by_alias=True) for c in self.controls]
        if self.thermal_couplings:
            doc["thermal_couplings"] = [
                c.model_dump(exclude_none=True) for c in self.thermal_couplings
            ]
        doc["solver"] = self.solver.model_dump()
        if self.metadata is not None:
            doc["metadata"] = copy.deepcopy(self.metadata)
        if self.charge is not None:
            doc["charge"] = self.charge.model_dump()
        if self.safety is not None:
            doc["safety"] = self.safety.model_dump(exclude_none=True)
        return doc

    def to_scenario(self) -> ScenarioConfig:
        """The flat graph as a ScenarioConfig (circuits, controls, couplings, solver kept)."""
        circuits = []
        for cid in self.circuits:
            components = []
            for comp in self.circuit_components(cid):
                params = copy.deepcopy(comp.params)
                typed = {k: params.pop(k) for k in COMPONENT_CONTRACT_FIELDS if k in params}
                model = ComponentConfig(name=comp.name, type=comp.type, **typed, **params)
                components.append(model)
            edges = [EdgeConfig.model_validate(_edge_doc(e)) for e in self.circuit_edges(cid)]
            circuits.append(
                CircuitConfig(
                    id=cid,
                    components=components,
                    edges=edges,
                    initial_state=self.initial_state.get(cid),
                    charge_kg=self.charge_kg.get(cid),
                    fluid=self.circuit_fluids[cid][0] if cid in self.circuit_fluids else None,
                    fluid_backend=self.circuit_fluids[cid][1]
                    if cid in self.circuit_fluids
                    else None,
                )
            )
        return ScenarioConfig(
            fluid=self.fluid,
            fluid_backend=self.fluid_backend,
            name=self.name,
            saturation_reference=self.saturation_reference,  # type: ignore[arg-type]
            schema_version=self.schema_version,  # type: ignore[arg-type]
            circuits=circuits,
            controls=[c.model_copy(deep=True) for c in self.controls],
            thermal_couplings=[c.model_copy() for c in self.thermal_couplings],
            solver=self.solver.model_copy(),
            metadata=copy.deepcopy(self.metadata),
            charge=self.charge.model_copy() if self.charge is not None else None,
            safety=self.safety.model_copy() if self.safety is not None else None,
        )


def _edge_doc(edge: FlatEdge) -> dict[str, Any]:
    """The JSON of an edge: from, to and, when given, volume_m3 and line."""
    doc: dict[str, Any] = {"from": edge.source, "to": edge.target}
    if edge.volume_m3 is not None:
        doc["volume_m3"] = edge.volume_m3
    if edge.line is not None:
        doc["line"] = edge.line.model_dump(exclude_none=True)
    return doc
