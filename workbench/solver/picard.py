"""Sequential substitution: nonlinear Gauss-Seidel on a matching of equations to unknowns.

Each residual equation is paired with one unknown it depends on (a maximum bipartite matching
of the Jacobian's sparsity pattern, so every pressure-level spec gets a pressure, every energy
equation an enthalpy, and so on). A sweep then visits the blocks in flow order and solves each
equation for its unknown with a few scalar secant steps, holding the others fixed: the
classical "march around the loop" of cycle programs, written generically. It converges slowly
but from far away; each block's equations are solved together for their matched unknowns
(a few small Newton steps with the same step limits as the global Newton); the ``fallback`` strategy uses it between two Newton runs.
"""

from __future__ import annotations

import logging
import time

import numpy as np
from scipy.sparse.csgraph import maximum_bipartite_matching

from workbench.errors import FluidPropertyError
from workbench.solver.newton import IterationLog, _safe_residuals
from workbench.solver.system import System

__all__ = ["picard", "match_equations"]

log = logging.getLogger("workbench.solver")


def match_equations(system: System, x: np.ndarray) -> np.ndarray:
    """For each residual row the index of its matched unknown, or -1 when none is free."""
    jac = system.jacobian(x)
    pattern = jac.copy().tocsr()
    pattern.data = np.ones_like(pattern.data)
    pattern.eliminate_zeros()
    return maximum_bipartite_matching(pattern, perm_type="column")


def _solve_block(system: System, block, x: np.ndarray, rows: list[int], cols: list[int]) -> None:
    """Solve a block's equations ``rows`` for its matched unknowns ``cols`` (a few Newton steps)."""
    fluid = system.fluid
    for _ in range(4):
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
        for j, col in enumerate(cols):
            kind = system.var_kinds[col]
            d = float(delta[j])
            if kind == "p":
                d = float(np.clip(d, -0.2 * x[col], 0.2 * x[col]))
                d = float(np.clip(x[col] + d, fluid.p_min, fluid.p_max) - x[col])
            elif kind == "h":
                p = x[col - 1]
                d = float(np.clip(d, -5e4, 5e4))
                d = float(np.clip(x[col] + d, fluid.h_min(p), fluid.h_max(p)) - x[col])
            elif kind == "m":
                d = max(d, -0.5 * x[col])
            x[col] += d


def picard(
    system: System,
    x0: np.ndarray,
    *,
    tolerance: float,
    max_iterations: int,
    deadline: float | None = None,
    log_state: IterationLog | None = None,
) -> IterationLog:
    """Run Gauss-Seidel sweeps from ``x0``; see the module docstring."""
    state = log_state or IterationLog(x=x0.copy())
    x = x0.copy()
    try:
        match = match_equations(system, x)
    except (FluidPropertyError, ValueError, ZeroDivisionError):
        state.x, state.message = x, "property evaluation failed at the starting point"
        return state
    for _ in range(max_iterations):
        f = _safe_residuals(system, x)
        if f is None:
            state.x, state.message = x, "property evaluation failed during a sweep"
            return state
        norm = float(np.max(np.abs(f))) if f.size else 0.0
        state.history.append(norm)
        log.debug("picard sweep %d: max scaled residual %.3e", state.iterations, norm)
        if norm < tolerance:
            state.x, state.converged, state.message = x, True, "converged"
            return state
        if deadline is not None and time.perf_counter() > deadline:
            state.x, state.message = x, "timeout_ms reached"
            return state
        state.iterations += 1
        for block, offset in zip(system.blocks, system.eq_offsets):
            n = len(block.equation_names())
            rows = [r for r in range(n) if match[offset + r] >= 0]
            cols = [int(match[offset + r]) for r in rows]
            if rows:
                _solve_block(system, block, x, rows, cols)
    f = _safe_residuals(system, x)
    state.history.append(float(np.max(np.abs(f))) if f is not None and f.size else float("inf"))
    state.x = x
    state.converged = state.history[-1] < tolerance
    state.message = "converged" if state.converged else f"max_iterations ({max_iterations}) reached"
    return state
