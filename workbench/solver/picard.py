"""Sequential substitution: nonlinear Gauss-Seidel on a matching of equations to unknowns.

Each residual equation is paired with one unknown it depends on (a maximum bipartite matching
of the Jacobian's sparsity pattern, so every pressure-level spec gets a pressure, every energy
equation an enthalpy, and so on). A sweep then visits the blocks in flow order and solves each
equation for its unknown with a few scalar secant steps, holding the others fixed: the
classical "march around the loop" of cycle programs, written generically. It converges slowly
but from far away; the ``fallback`` strategy uses it between two Newton runs.
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
    fluid = system.fluid
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
        for row, col in enumerate(match):
            if col < 0:
                continue
            block, r = system.block_of_equation(row)
            for _ in range(4):
                try:
                    fr = block.residuals(x)[r]
                    dx = system.step(col, x[col]) * 10.0
                    x[col] += dx
                    fr1 = block.residuals(x)[r]
                    x[col] -= dx
                except (FluidPropertyError, ValueError, ZeroDivisionError):
                    break
                slope = (fr1 - fr) / dx
                if slope == 0.0 or not np.isfinite(slope):
                    break
                delta = -fr / slope
                kind = system.var_kinds[col]
                if kind == "p":
                    delta = float(np.clip(delta, -0.3 * x[col], 0.3 * x[col]))
                    delta = float(np.clip(x[col] + delta, fluid.p_min, fluid.p_max) - x[col])
                elif kind == "h":
                    p = x[col - 1]
                    delta = float(np.clip(x[col] + delta, fluid.h_min(p), fluid.h_max(p)) - x[col])
                elif kind == "m":
                    delta = max(delta, -0.5 * x[col])
                x[col] += delta
                if abs(delta) <= 1e-12 * max(abs(x[col]), system.var_scale[col]):
                    break
    f = _safe_residuals(system, x)
    state.history.append(float(np.max(np.abs(f))) if f is not None and f.size else float("inf"))
    state.x = x
    state.converged = state.history[-1] < tolerance
    state.message = "converged" if state.converged else f"max_iterations ({max_iterations}) reached"
    return state
