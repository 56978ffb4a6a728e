"""The assembled nonlinear system ``F(x) = 0`` of a flat scenario.

Blocks are components (and, when present, control loops and thermal couplings): each block
exposes ``local_vars``, ``equation_names``, ``residual_kinds``, ``residuals(x)`` and
``jacobian(x, f0, step)``. The system stacks their residuals, divides each by the scale of its
kind (:data:`workbench.components.base.RESIDUAL_SCALES`) and assembles the sparse Jacobian
block by block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import scipy.sparse as sp

from workbench.components.base import RESIDUAL_SCALES, Component, PortVars
from workbench.components.models import component_class
from workbench.fluids import FluidBackend
from workbench.scenario import FlatScenario
from workbench.solver.topology import Topology, build_topology

__all__ = ["Block", "System", "build_system", "VAR_SCALES"]

VAR_SCALES = {"m": 0.1, "p": 1.0e5, "h": 1.0e5, "z": 1.0}
"""Typical magnitude of each kind of unknown [kg/s, Pa, J/kg, -], used to scale Newton."""


class Block(Protocol):
    """What the system needs from a component, a control loop or a coupling."""

    name: str
    local_vars: list[int]

    def equation_names(self) -> list[str]: ...

    def residual_kinds(self) -> list[str]: ...

    def residuals(self, x: np.ndarray) -> np.ndarray: ...

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: Any
    ) -> list[tuple[int, int, float]]: ...


@dataclass
class System:
    """Unknowns, blocks and their equations.

    Attributes
    ----------
    flat : FlatScenario
        The scenario the system was built from.
    fluid : FluidBackend
        Working-fluid backend.
    components : dict
        Component models by flat name.
    topology : Topology
        Layout of the edge unknowns.
    blocks : list
        Every block whose residuals make up ``F`` (components first).
    var_names, var_kinds : list of str
        Name (``p[cond:outlet -> valve:inlet]``) and kind (``m``, ``p``, ``h``, ``z``) per unknown.
    eq_names : list of str
        ``<block>.<equation>`` per residual.
    eq_scale : ndarray
        Scale of each residual [its unit].
    """

    flat: FlatScenario
    fluid: FluidBackend
    components: dict[str, Component]
    topology: Topology
    blocks: list[Any] = field(default_factory=list)
    var_names: list[str] = field(default_factory=list)
    var_kinds: list[str] = field(default_factory=list)
    eq_names: list[str] = field(default_factory=list)
    eq_scale: np.ndarray = field(default_factory=lambda: np.zeros(0))
    eq_offsets: list[int] = field(default_factory=list)
    evaluations: int = 0
    saturation_hints: dict[str, float] = field(default_factory=dict)
    """Starting saturation temperatures [K] per coil name (set for coupled coils)."""

    @property
    def n_vars(self) -> int:
        return len(self.var_names)

    @property
    def n_eqs(self) -> int:
        return len(self.eq_names)

    def add_variable(self, name: str, kind: str) -> int:
        """Append an unknown (a control state, say) and return its index."""
        self.var_names.append(name)
        self.var_kinds.append(kind)
        return len(self.var_names) - 1

    def finalise(self) -> None:
        """Collect equation names and scales once every block is in place."""
        names: list[str] = []
        scales: list[float] = []
        offsets: list[int] = []
        for block in self.blocks:
            offsets.append(len(names))
            names.extend(f"{block.name}.{eq}" for eq in block.equation_names())
            scales.extend(RESIDUAL_SCALES[k] for k in block.residual_kinds())
        self.eq_names, self.eq_scale, self.eq_offsets = names, np.array(scales), offsets
        self.var_scale = np.array([VAR_SCALES[k] for k in self.var_kinds])

    # -- evaluation ------------------------------------------------------------------------
    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Scaled residual vector ``F(x) / scale`` [-]."""
        self.evaluations += 1
        parts = [block.residuals(x) for block in self.blocks]
        return (np.concatenate(parts) if parts else np.zeros(0)) / self.eq_scale

    def step(self, i: int, xi: float) -> float:
        """Forward-difference perturbation of unknown ``i`` at value ``xi``."""
        return 1e-7 * max(abs(xi), 0.01 * self.var_scale[i]) if self.var_kinds[i] != "z" else 1e-7

    def jacobian_entries(
        self, x: np.ndarray, f_scaled: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows, columns and values of the Jacobian of the scaled residuals [1/unit of x]."""
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        for block, offset in zip(self.blocks, self.eq_offsets):
            n = len(block.equation_names())
            if n == 0:
                continue
            f0 = (
                f_scaled[offset : offset + n] * self.eq_scale[offset : offset + n]
                if f_scaled is not None
                else block.residuals(x)
            )
            for r, c, v in block.jacobian(x, f0, self.step):
                rows.append(offset + r)
                cols.append(c)
                vals.append(v / self.eq_scale[offset + r])
        return np.array(rows, dtype=int), np.array(cols, dtype=int), np.array(vals)

    def jacobian(self, x: np.ndarray, f_scaled: np.ndarray | None = None) -> sp.csc_matrix:
        """Sparse Jacobian of the scaled residuals ``d(F/scale)/dx`` [1/unit of x]."""
        rows, cols, vals = self.jacobian_entries(x, f_scaled)
        return sp.csc_matrix((vals, (rows, cols)), shape=(self.n_eqs, self.n_vars))

    def block_of_equation(self, row: int) -> tuple[Any, int]:
        """The block that owns residual ``row`` and the row's index inside it."""
        k = int(np.searchsorted(self.eq_offsets, row, side="right")) - 1
        return self.blocks[k], row - self.eq_offsets[k]


def _edge_label(flat: FlatScenario, i: int) -> str:
    e = flat.edges[i]
    return f"{e.source} -> {e.target}"


def build_system(flat: FlatScenario, fluid: FluidBackend) -> System:
    """Instantiate the component models and lay out the unknowns of ``flat``.

    Raises
    ------
    SpecificationError
        A component whose parameters do not make a model, or an open circuit.
    """
    components: dict[str, Component] = {}
    for comp in flat.components.values():
        cls = component_class(comp.type)
        components[comp.name] = cls(comp.name, comp.params, fluid, comp.path)
    topo = build_topology(flat, components)
    system = System(flat=flat, fluid=fluid, components=components, topology=topo)
    for loop in topo.loops:
        first = flat.edges[loop[0]]
        system.add_variable(f"m[circuit {first.circuit} loop through {first.target}]", "m")
    for i in range(len(flat.edges)):
        label = _edge_label(flat, i)
        system.add_variable(f"p[{label}]", "p")
        system.add_variable(f"h[{label}]", "h")
    for comp in components.values():
        ports: dict[str, PortVars] = {}
        for a, b in comp.streams:
            for port in (a, b):
                ports[port] = topo.edge_vars[topo.port_edge[(comp.name, port)]]
        comp.bind(ports)
    system.blocks = list(components.values())
    return system
