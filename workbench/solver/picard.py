"""Sequential substitution: nonlinear Gauss-Seidel on a matching of equations to unknowns.

Each residual equation is paired with one unknown it depends on (a maximum bipartite matching
of the Jacobian's sparsity pattern, so every pressure-level spec gets a pressure, every energy
equation an enthalpy, and so on). A sweep then visits the blocks in flow order and solves each
equation for its unknown with a few scalar secant steps, holding the others fixed: the
classical "march around the loop" of cycle programs, written generically. It converges slowly
but from far away; each block's equations are solved together for their matched unknowns
(a few small Newton steps with the same step limits as the global Newton), and a sweep that
raises the residual norm is halved (up to six times); the ``fallback`` strategy uses it between two Newton runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import maximum_bipartite_matching, min_weight_full_bipartite_matching

from workbench.errors import FluidPropertyError
from workbench.solver.iteration import IterationLog, StopReason
from workbench.solver.newton import limit_step, safe_residuals
from workbench.solver.system import System

__all__ = ["match_equations", "picard"]


def match_equations(system: System, x: np.ndarray) -> np.ndarray:
    """For each residual row the index of its matched unknown, or -1 when none is free.

    Among the perfect matchings of the Jacobian's sparsity, the one with the largest product
    of the matched derivatives (each scaled by its equation's and unknown's typical size) is
    taken: a minimum-weight perfect matching on ``-ln |J_ij|`` (as MC64 chooses pivots). Each
    equation then moves the unknown it depends on most, which is the physical assignment: a
    UA coil's heat balance sets its saturation pressure and its superheat or subcooling spec
    its outlet enthalpy (a matching on the pattern alone may pair the condenser's heat balance
    with the compressor's outlet enthalpy, around which Gauss-Seidel drifts away). When the
    pattern has no perfect matching, a maximum one on the pattern (unmatched rows get -1).
    """
    jac = system.jacobian(x).tocoo()
    values = np.abs(jac.data * system.var_scale[jac.col])
    keep = (values > 0.0) & np.isfinite(values)
    pattern = sp.csr_matrix(
        (np.ones(int(keep.sum())), (jac.row[keep], jac.col[keep])), shape=jac.shape
    )
    if jac.shape[0] == jac.shape[1] and keep.any():
        weights = -np.log(values[keep])
        weights = weights - weights.min() + 1.0  # positive: zero would read as "no edge"
        graph = sp.csr_matrix((weights, (jac.row[keep], jac.col[keep])), shape=jac.shape)
        try:
            rows, cols = min_weight_full_bipartite_matching(graph)
        except ValueError:  # structurally singular: no perfect matching
            pass
        else:
            match = -np.ones(jac.shape[0], dtype=int)
            match[rows] = cols
            return match
    structural: np.ndarray = maximum_bipartite_matching(pattern, perm_type="column")
    return structural


def _block_norm(block: Any, x: np.ndarray, rows: list[int], scale: np.ndarray) -> float:
    try:
        f = block.residuals(x)[rows] / scale
    except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
        return float("inf")
    return float(np.dot(f, f)) if np.all(np.isfinite(f)) else float("inf")


def _solve_block(
    system: System, block: Any, x: np.ndarray, rows: list[int], cols: list[int], offset: int
) -> None:
    """Solve a block's equations ``rows`` for its matched unknowns ``cols``.

    Small Newton steps on the block alone, each scaled as a whole to the global step limits and
    backtracked until the block's scaled residual norm drops.
    """
    scale = system.eq_scale[[offset + r for r in rows]]
    sub_vars = np.array(cols)
    for _ in range(8):
        norm = _block_norm(block, x, rows, scale)
        if norm == float("inf") or norm < 1e-30:
            return
        try:
            f_all = block.residuals(x)
            f0 = f_all[rows]
            # the block's own Jacobian (analytic where its family has one), rows x matched cols
            jac = np.zeros((len(rows), len(cols)))
            where = {col: j for j, col in enumerate(cols)}
            place = {r: i for i, r in enumerate(rows)}
            for r, c, v in block.jacobian(x, f_all, system.step):
                if r in place and c in where:
                    jac[place[r], where[c]] += v
            delta = np.linalg.solve(jac, -f0)
        except (
            FluidPropertyError,
            ValueError,
            ZeroDivisionError,
            OverflowError,
            np.linalg.LinAlgError,
        ):
            return
        if not np.all(np.isfinite(delta)):
            return
        full = np.zeros_like(x)
        full[sub_vars] = delta
        alpha = limit_step(system, x, full)
        x_try = x.copy()
        while alpha > 1e-4:
            x_try[sub_vars] = x[sub_vars] + alpha * delta
            if _block_norm(block, x_try, rows, scale) < norm:
                x[sub_vars] = x_try[sub_vars]
                break
            alpha *= 0.5
        else:
            return


def picard(
    system: System,
    x0: np.ndarray,
    *,
    tolerance: float,
    max_iterations: int,
    deadline: float | None = None,
    log_state: IterationLog | None = None,
) -> IterationLog:
    """Run Gauss-Seidel sweeps from ``x0``; see the module docstring.

    The parameters are those of :func:`~workbench.solver.newton.newton`.
    """
    state = log_state or IterationLog(x=x0.copy(), max_iterations=max_iterations)
    x = x0.copy()
    try:
        match = match_equations(system, x)
    except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
        return state.stop(
            x, StopReason.PROPERTY_FAILURE, "property evaluation failed at the starting point"
        )
    for _ in range(max_iterations):
        f = safe_residuals(system, x)
        if f is None:
            return state.stop(
                x, StopReason.PROPERTY_FAILURE, "property evaluation failed during a sweep"
            )
        if state.should_stop(x, f, tolerance, deadline, "picard sweep"):
            return state
        state.iterations += 1
        x_old = x.copy()
        for block, offset, n in zip(system.blocks, system.eq_offsets, system.eq_counts):
            rows = [r for r in range(n) if match[offset + r] >= 0]
            cols = [int(match[offset + r]) for r in rows]
            if rows:
                _solve_block(system, block, x, rows, cols, offset)
        # relax a sweep that made things worse: halve it until the residual norm drops
        norm2 = float(np.dot(f, f))
        for _ in range(6):
            f_new = safe_residuals(system, x)
            if f_new is not None and float(np.dot(f_new, f_new)) < norm2:
                break
            x = x_old + 0.5 * (x - x_old)
    f = safe_residuals(system, x)
    return state.finish(x, f, tolerance)
