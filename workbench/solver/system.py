"""The assembled nonlinear system ``F(x) = 0`` of a flat scenario.

Blocks are components (and, when present, control loops and thermal couplings): each block
exposes ``local_vars``, ``equations()`` (its residual equations as data: name and kind),
``residuals(x)`` and ``jacobian(x, f0, step)``. The system stacks their residuals, divides
each by the scale of its kind (:data:`workbench.components.base.RESIDUAL_SCALES`) and assembles
the sparse Jacobian block by block. The unknowns are a named map
(:class:`~workbench.solver.variables.Unknowns`), never positions assumed in the vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import scipy.sparse as sp

from workbench.components.base import RESIDUAL_SCALES, Component, Equation, PortVars, StepFunction
from workbench.components.models import model_class
from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend
from workbench.scenario import FlatScenario
from workbench.solver.context import with_context
from workbench.solver.lines import with_lines
from workbench.solver.step_bounds import EnthalpyBounds
from workbench.solver.topology import Topology, build_topology
from workbench.solver.variables import VAR_SCALES, Unknowns, VarKind

__all__ = ["VAR_SCALES", "Block", "System", "build_system"]


class Block(Protocol):
    """What the system needs from a component, a control loop or a coupling."""

    name: str

    @property
    def local_vars(self) -> list[int]:
        """Indices of every unknown the block's residuals may depend on."""

    def equations(self) -> Sequence[Equation]:
        """The block's equations, in the order of :meth:`residuals`."""

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Residuals at ``x`` [SI unit of each equation's kind]; zero at the solution."""

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Entries (local equation row, global column, derivative) of the block's Jacobian.

        ``f0`` is :meth:`residuals` at ``x``; ``step(i, x_i)`` gives the finite-difference
        perturbation of unknown ``i`` for blocks without analytic derivatives.
        """


@dataclass
class System:
    """Unknowns, blocks and their equations.

    Attributes
    ----------
    flat : FlatScenario
        The scenario the system was built from.
    fluid : FluidBackend
        Working-fluid backend (owned by whoever built the system; not thread-safe).
    components : dict
        Component models by flat name.
    topology : Topology
        Loops, edges and the unknowns of each edge.
    unknowns : Unknowns
        Name and kind of every unknown, and which pressure and enthalpy form one state.
    blocks : list
        Every block whose residuals make up ``F`` (components first).
    eq_names : list of str
        ``<block>.<equation>`` per residual.
    eq_scale : ndarray
        Scale of each residual [its unit].
    eq_offsets, eq_counts : list of int
        First row and number of rows of each block.
    """

    flat: FlatScenario
    fluid: FluidBackend
    components: dict[str, Component]
    topology: Topology
    unknowns: Unknowns = field(default_factory=Unknowns)
    blocks: list[Any] = field(default_factory=list)
    eq_names: list[str] = field(default_factory=list)
    eq_scale: np.ndarray = field(default_factory=lambda: np.zeros(0))
    eq_offsets: list[int] = field(default_factory=list)
    eq_counts: list[int] = field(default_factory=list)
    var_scale: np.ndarray = field(default_factory=lambda: np.zeros(0))
    evaluations: int = 0
    saturation_hints: dict[str, float] = field(default_factory=dict)
    """Starting saturation temperatures [K] per coil name (set for coupled coils)."""
    property_error: str = ""
    """The last property failure met while evaluating (with the block that met it)."""
    last_jacobian: Any = None
    """The scaled Jacobian of the last Newton step (a warm start may begin with it)."""
    jacobian_point: tuple[Any, np.ndarray] | None = None
    """``(matrix, x)``: the last Jacobian Newton evaluated afresh and the point it evaluated it
    at; None once a Broyden update has changed it (it is then an approximation)."""
    fluids: dict[int, FluidBackend] = field(default_factory=dict)
    """Backends of circuits whose fluid is not :attr:`fluid` (``circuits[i].fluid``)."""
    enthalpy_bounds: EnthalpyBounds = field(default_factory=EnthalpyBounds)
    """The enthalpy bounds Newton's step limit met so far (evaluated only near them)."""

    def fluid_of(self, circuit: int) -> FluidBackend:
        """The property backend of a circuit's working fluid."""
        return self.fluids.get(circuit, self.fluid)

    def all_fluids(self) -> list[FluidBackend]:
        """Every distinct backend the system uses (the scenario's first)."""
        out = [self.fluid]
        for backend in self.fluids.values():
            if all(backend is not known for known in out):
                out.append(backend)
        return out

    def var_circuit(self, i: int) -> int:
        """The circuit of unknown ``i`` (a pressure or enthalpy; 0 for a control state)."""
        table = self.__dict__.get("_var_circuit")
        if table is None:
            table = {}
            for k, edge in enumerate(self.flat.edges):
                v = self.topology.edge_vars[k]
                table.setdefault(v.p, edge.circuit)
                table.setdefault(v.h, edge.circuit)
                table.setdefault(v.m, edge.circuit)
            self.__dict__["_var_circuit"] = table
        return int(table.get(i, self.flat.circuits[0] if self.flat.circuits else 0))

    @property
    def var_names(self) -> list[str]:
        """Name of each unknown (``p[cond:outlet -> valve:inlet]``)."""
        return self.unknowns.names

    @property
    def var_kinds(self) -> list[VarKind]:
        """Kind of each unknown (``m``, ``p``, ``h``, ``z``)."""
        return self.unknowns.kinds

    @property
    def n_vars(self) -> int:
        """Number of unknowns."""
        return len(self.unknowns)

    @property
    def n_eqs(self) -> int:
        """Number of residual equations."""
        return len(self.eq_names)

    def add_variable(self, name: str, kind: VarKind) -> int:
        """Append an unknown (a control state, say) and return its index."""
        return self.unknowns.add(name, kind)

    def finalise(self) -> None:
        """Collect equation names and scales once every block is in place."""
        names: list[str] = []
        scales: list[float] = []
        offsets: list[int] = []
        counts: list[int] = []
        for block in self.blocks:
            equations = block.equations()
            offsets.append(len(names))
            counts.append(len(equations))
            names.extend(f"{block.name}.{eq.name}" for eq in equations)
            scales.extend(RESIDUAL_SCALES[eq.kind] for eq in equations)
        self.eq_names, self.eq_scale = names, np.array(scales)
        self.eq_offsets, self.eq_counts = offsets, counts
        self.var_scale = np.array([VAR_SCALES[k] for k in self.var_kinds])

    # -- evaluation ------------------------------------------------------------------------
    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Scaled residual vector ``F(x) / scale`` [-].

        Raises
        ------
        FluidPropertyError
            A property call failed; the message names the block whose equations made it.
        """
        self.evaluations += 1
        parts = []
        try:
            for block in self.blocks:
                parts.append(block.residuals(x))
        except FluidPropertyError as exc:
            raise with_context(exc, block) from exc
        stacked: np.ndarray = np.concatenate(parts) if parts else np.zeros(0)
        scaled: np.ndarray = stacked / self.eq_scale
        return scaled

    def step(self, i: int, xi: float) -> float:
        """Forward-difference perturbation of unknown ``i`` at value ``xi``."""
        if self.var_kinds[i] == "z":
            return 1e-7
        return 1e-7 * max(abs(xi), 0.01 * float(self.var_scale[i]))

    def jacobian_entries(
        self, x: np.ndarray, f_scaled: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows, columns and values of the Jacobian of the scaled residuals [1/unit of x]."""
        entries: list[tuple[int, int, float]] = []
        offsets: list[int] = []
        for block, offset, n in zip(self.blocks, self.eq_offsets, self.eq_counts, strict=True):
            if n == 0:
                continue
            try:
                f0 = (
                    f_scaled[offset : offset + n] * self.eq_scale[offset : offset + n]
                    if f_scaled is not None
                    else block.residuals(x)
                )
                block_entries = block.jacobian(x, f0, self.step)
            except FluidPropertyError as exc:
                raise with_context(exc, block) from exc
            entries.extend(block_entries)
            offsets.extend([offset] * len(block_entries))
        if not entries:
            return np.zeros(0, dtype=int), np.zeros(0, dtype=int), np.zeros(0)
        table = np.array(entries, dtype=float)  # block row, column, value; exact for indices
        rows = table[:, 0].astype(int) + np.array(offsets, dtype=int)
        cols = table[:, 1].astype(int)
        return rows, cols, table[:, 2] / self.eq_scale[rows]

    def jacobian(self, x: np.ndarray, f_scaled: np.ndarray | None = None) -> sp.csc_matrix:
        """Sparse Jacobian of the scaled residuals ``d(F/scale)/dx`` [1/unit of x]."""
        rows, cols, vals = self.jacobian_entries(x, f_scaled)
        return sp.csc_matrix((vals, (rows, cols)), shape=(self.n_eqs, self.n_vars))

    def block_of_equation(self, row: int) -> tuple[Any, int]:
        """The block that owns residual ``row`` and the row's index inside it."""
        k = int(np.searchsorted(self.eq_offsets, row, side="right")) - 1
        return self.blocks[k], row - self.eq_offsets[k]


def build_system(
    flat: FlatScenario, fluid: FluidBackend, fluids: dict[int, FluidBackend] | None = None
) -> System:
    """Instantiate the component models and lay out the unknowns of ``flat``.

    ``fluid`` is the scenario's backend; ``fluids`` those of circuits with their own fluid
    (``circuits[i].fluid``): each component gets the backend of its circuit.

    Raises
    ------
    SpecificationError
        A component whose parameters do not make a model, an open circuit, or branches
        whose flows cannot balance.
    """
    flat = with_lines(flat)  # an edge with a "line" becomes a line component (docs/lines.md)
    components: dict[str, Component] = {}
    for spec in flat.components.values():
        cls = model_class(spec.type, spec.params, spec.path)
        own = (fluids or {}).get(spec.circuit, fluid)
        components[spec.name] = cls(spec.name, spec.params, own, spec.path)
    unknowns = Unknowns()
    topo = build_topology(flat, components, unknowns)
    system = System(flat=flat, fluid=fluid, components=components, topology=topo, unknowns=unknowns)
    system.fluids = dict(fluids or {})
    for comp in components.values():
        ports: dict[str, PortVars] = {
            port: topo.edge_vars[topo.port_edge[(comp.name, port)]]
            for port in topo.component_ports[comp.name]
        }
        comp.bind(ports)
    system.blocks = list(components.values())
    return system
