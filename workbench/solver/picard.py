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
from scipy.sparse.csgraph import maximum_bipartite_matching

from workbench.errors import FluidPropertyError
from workbench.solver.iteration import IterationLog, StopReason
from workbench.solver.newton import limit_step, safe_residuals
from workbench.solver.system import System

__all__ = ["picard", "match_equations"]


def match_equations(system: System, x: np.ndarray) -> np.ndarray:
    """For each residual row the index of its matched unknown, or -1 when none is free."""
    jac = system.jacobian(x)
    pattern = jac.copy().tocsr()
    pattern.data = np.ones_like(pattern.data)
    pattern.eliminate_zeros()
    match: np.ndarray = maximum_bipartite_matching(pattern, perm_type="column")
    return match


def _block_norm(block: Any, x: np.ndarray, rows: list[int], scale: np.ndarray) -> float:
    try:
        f = block.residuals(x)[rows] / scale
    except (FluidPropertyError, ValueError, ZeroDivisionError):
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
            f0 = block.residuals(x)[rows]
            jac = np.empty((len(rows), len(cols)))
            for j, col in enumerate(cols):
                dx = system.step(col, x[col])
                x[col] += dx
                jac[:, j] = (block.residuals(x)[rows] - f0) / dx
                x[col] -= dx
            delta = np.linalg.solve(jac, -f0)
        except (FluidPropertyError, ValueError, ZeroDivisionError, np.linalg.LinAlgError):
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
    """Run Gauss-Seidel sweeps from ``x0``; see the module docstring (parameters as
    :func:`~workbench.solver.newton.newton`)."""
    state = log_state or IterationLog(x=x0.copy(), max_iterations=max_iterations)
    x = x0.copy()
    try:
        match = match_equations(system, x)
    except (FluidPropertyError, ValueError, ZeroDivisionError):
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
