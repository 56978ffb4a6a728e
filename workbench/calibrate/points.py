"""The operating points of a calibration, solved on one prepared system with warm starts.

A calibration solves the same points again and again, each time with slightly different free
parameters. The points differ from each other and from one evaluation to the next only in
values, never in structure, so the system is built once (:func:`workbench.solver.prepare`) and
each solve sets the point's conditions and the free parameters on it
(:func:`workbench.sweep.prepared.apply_values`, the sweeps' machinery). A point is warm-started
from its own solution at the previous parameters moved along its tangent
(:meth:`PointSolver.tangent`), with its own last Jacobian; else from that solution; else from
the previous point in neighbour order (the first evaluation); else from the scenario's own
guess; the best of these is kept. A point that does not converge is a result with a reason, never an
exception.

Who reads it: :func:`workbench.calibrate.calibrate`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from workbench.scenario import FlatScenario
from workbench.solver import SolveResult, prepare, solve
from workbench.sweep.paths import SweepPath
from workbench.sweep.prepared import StructureChanged, apply_values

__all__ = ["CALIBRATION_TOLERANCE", "PointSolver", "neighbour_order"]

CALIBRATION_TOLERANCE = 1e-9
"""Solver tolerance (scaled residual) of calibration solves, unless the scenario's is tighter:
the parameter Jacobian is a finite difference of solutions, which must be converged far below
the change a step of the free parameters makes. (For that reason calibration solves use
CoolProp's HEOS backend, not the tabular one, whose interpolation is not smooth at that
level.)"""


def neighbour_order(values: np.ndarray) -> list[int]:
    """Points in an order where each is close to the previous one (greedy nearest neighbour).

    Parameters
    ----------
    values : numpy.ndarray
        Shape ``(n_points, n_conditions)``: the conditions of each point.

    Returns
    -------
    list of int
        Point indices, starting with the first point; distances are measured in conditions
        scaled by their range.
    """
    n = len(values)
    if n == 0:
        return []
    if values.size == 0:
        return list(range(n))
    span = np.ptp(values, axis=0)
    scaled = values / np.where(span > 0, span, 1.0)
    order, left = [0], set(range(1, n))
    while left:
        last = scaled[order[-1]]
        nearest = min(left, key=lambda k: (float(np.sum((scaled[k] - last) ** 2)), k))
        order.append(nearest)
        left.remove(nearest)
    return order


@dataclass
class PointSolver:
    """Solves every point for given free-parameter values on one prepared system.

    Parameters
    ----------
    flat : FlatScenario
        The scenario being calibrated.
    conditions : list of SweepPath
        The condition paths (set per point).
    condition_values : numpy.ndarray
        Shape ``(n_points, n_conditions)`` [the document's units].
    free : list of SweepPath
        The free parameters (set per evaluation).
    """

    flat: FlatScenario
    conditions: list[SweepPath]
    condition_values: np.ndarray
    free: list[SweepPath]
    solves: int = 0
    solutions: list[np.ndarray | None] = field(default_factory=list)
    jacobians: list[np.ndarray | None] = field(default_factory=list)
    solved_at: list[np.ndarray | None] = field(default_factory=list)
    order: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Build the prepared system with the calibration tolerance."""
        base = copy.deepcopy(self.flat.to_dict())
        solver = base.setdefault("solver", {})
        solver["tolerance"] = min(float(solver.get("tolerance", 1e-6)), CALIBRATION_TOLERANCE)
        self.base = base
        self.system = prepare(base)
        self.solutions = [None] * len(self.condition_values)
        self.jacobians = [None] * len(self.condition_values)
        self.solved_at = [None] * len(self.condition_values)
        self.order = neighbour_order(np.asarray(self.condition_values, dtype=float))

    @property
    def specs(self) -> list[SweepPath]:
        """Condition paths, then free paths (the order of the values set)."""
        return [*self.conditions, *self.free]

    def tangent(
        self, index: int, theta: Sequence[float] | np.ndarray, moved: Sequence[float] | np.ndarray
    ) -> np.ndarray | None:
        """Point ``index``'s solution at ``theta`` moved along its tangent to ``moved``.

        ``dx = -J^-1 F(x; moved)`` at the point's solution ``x`` (where ``F(x; theta)`` is
        below the solver tolerance), with ``J``
        the point's last Jacobian (the implicit function theorem, as the sweeps' tangent
        predictor): for a small change of the free values the start is then within the
        square of the change, and Newton needs an iteration or none. None when the point has
        no solution or Jacobian, or the prediction is not finite.
        """
        x, jac = self.solutions[index], self.jacobians[index]
        if x is None or jac is None:
            return None
        system = self.system
        try:
            apply_values(system, self.specs, (*self.condition_values[index], *moved))
            f1 = system.residuals(x)  # F(x; theta) is below the tolerance: taken as zero
            dz = np.linalg.solve(jac, -f1)
        except Exception:  # no prediction: the point starts from its solution
            return None
        predicted: np.ndarray = x + dz * system.var_scale
        return predicted if np.all(np.isfinite(predicted)) else None

    def solve_point(
        self,
        index: int,
        theta: Sequence[float] | np.ndarray,
        previous: Any,
        predicted: np.ndarray | None = None,
    ) -> SolveResult | str:
        """Solve point ``index`` at free values ``theta`` (a result, or the reason it failed).

        Parameters
        ----------
        index : int
            The point (row of the measurements).
        theta : sequence of float
            Values of the free parameters [the document's units].
        previous : SolveResult or ndarray or None
            The neighbouring point's solution (a start when the point has none of its own).
        predicted : ndarray, optional
            A start tried first; default: the point's solution moved along its tangent from
            the free values it was solved at (:meth:`tangent`).

        Returns
        -------
        SolveResult or str
            The best result of the starts tried (converged or not), or the error message when
            the values could not be set or the solve raised.
        """
        at = self.solved_at[index]
        if predicted is None and at is not None and not np.array_equal(at, theta):
            predicted = self.tangent(index, at, theta)
        values = (*self.condition_values[index], *theta)
        try:
            apply_values(self.system, self.specs, tuple(float(v) for v in values))
        except StructureChanged as exc:
            return f"{exc} (calibrate only values that keep the model's equations)"
        starts: list[Any] = [] if predicted is None else [predicted]
        own = self.solutions[index]
        if own is not None:
            starts.append(own)
        if previous is not None:
            starts.append(previous)
        starts.append(None)
        best: SolveResult | None = None
        own_jacobian = self.jacobians[index]
        try:
            for start in starts:
                if (start is own or start is predicted) and own_jacobian is not None:
                    # Newton reuses (and updates in place) the system's last Jacobian: the
                    # point's own, not the previous point's
                    self.system.last_jacobian = own_jacobian.copy()
                result = solve(self.base, system=self.system, initial=start)
                self.solves += 1
                if (
                    best is None
                    or (result.converged and not best.converged)
                    or (
                        result.converged == best.converged
                        and result.residual_norm < best.residual_norm
                    )
                ):
                    best = result
                if result.converged:
                    break
        except Exception as exc:  # a failed point is reported, not raised
            lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
            return f"{type(exc).__name__}: {'; '.join(lines)}"
        assert best is not None
        if best.converged:
            self.solutions[index] = best.x.copy()
            self.solved_at[index] = np.array(theta, dtype=float)
            jac = self.system.last_jacobian
            self.jacobians[index] = jac.copy() if isinstance(jac, np.ndarray) else None
        return best

    def solve_all(
        self, theta: Sequence[float] | np.ndarray, points: Sequence[int] | None = None
    ) -> dict[int, SolveResult | str]:
        """Solve the points (all, or ``points``) in neighbour order at free values ``theta``.

        Returns
        -------
        dict
            Point index -> its result or the reason it failed.
        """
        wanted = set(range(len(self.condition_values)) if points is None else points)
        out: dict[int, SolveResult | str] = {}
        previous: Any = None
        for index in self.order:
            if index not in wanted:
                continue
            result = self.solve_point(index, theta, previous)
            out[index] = result
            if isinstance(result, SolveResult) and result.converged:
                previous = result.x
        return out
