"""Damped Newton iteration on the scaled system.

Each iteration solves ``J dx = -F``: the Jacobian is assembled block by block as sparse
entries, with columns scaled by the typical magnitude of each unknown; up to
:data:`DENSE_LIMIT` unknowns it is filled into a dense matrix and solved by LAPACK
(``numpy.linalg.solve``, least squares when singular), above that scipy's SuperLU solves the
sparse matrix (dense least squares when SuperLU fails). The step is limited so that
pressures stay positive and inside the backend's range, pressures change by at most 50 % and
enthalpies (each paired with its state's pressure through the named unknowns) stay between
the backend's ``h_min(p)`` and ``h_max(p)``, and every exchanger keeps a share of its
driving temperature difference (the blocks' ``step_fraction``,
:mod:`workbench.components.exchangers.zones.step_share`); then backtracking (Armijo, halving) on the
Euclidean norm of the scaled residuals (after two failed trials from a cold start, the
secant of their residuals proposes the next fraction: :func:`_secant_alpha`). Property
failures during a trial step count as a failed trial. The run stops when the largest scaled
residual is below the tolerance, at ``max_iterations``, at the deadline, or when the step
stalls; the reason is a :class:`~workbench.solver.iteration.StopReason`.

A warm start from a neighbouring solution (a sweep) may begin with the Jacobian of the
system's last step, updated by Broyden's formula while it keeps contracting fast (see
:func:`newton`): between neighbouring points of a sweep the Jacobian hardly changes, and its
evaluation is most of an iteration's cost.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from workbench.errors import FluidPropertyError
from workbench.solver.iteration import IterationLog, StopReason
from workbench.solver.system import System

__all__ = ["DENSE_LIMIT", "STALLED", "limit_step", "newton", "safe_residuals"]

STALLED = "the warm start stalled"
"""The message of a run stopped by ``stall_iterations`` (:func:`newton`)."""

SLOW_RATE = 0.5
"""An iteration that leaves more than this fraction of the largest residual is slow."""

STALL_BELOW = 1.0
"""Slow iterations count towards a stall only from this largest scaled residual down, where
Newton near its solution should converge fast (far from it, slow damped steps are normal)."""


def _step_plan(
    system: System,
) -> tuple[int, list[tuple[int, bool, float, float]], list[Any], list[Any]]:
    """What :func:`limit_step` checks, gathered once per system.

    The pressure and mass-flow unknowns with their fluid's pressure range, each state's
    enthalpy and pressure unknowns with its fluid, and the blocks that bound a step themselves
    (a ``step_fraction`` method: UA coils and thermal couplings); keyed by the number of
    unknowns.
    """
    plan = system.__dict__.get("_step_plan")
    if plan is None or plan[0] != system.n_vars:
        limits = []
        for i, kind in enumerate(system.var_kinds):
            if kind in ("p", "m"):
                fluid = system.fluid_of(system.var_circuit(i))
                limits.append((i, kind == "p", float(fluid.p_min), float(fluid.p_max)))
        states = [
            (state.h, state.p, system.fluid_of(system.var_circuit(state.h)))
            for state in system.unknowns.states
        ]
        bounding = [block for block in system.blocks if hasattr(block, "step_fraction")]
        plan = (system.n_vars, limits, states, bounding)
        system.__dict__["_step_plan"] = plan
    return plan


def limit_step(system: System, x: np.ndarray, dx: np.ndarray) -> float:
    """Largest fraction ``alpha`` in (0, 1] of ``dx`` that keeps ``x + alpha dx`` valid."""
    _, limits, states, bounding = _step_plan(system)
    xs, ds = x.tolist(), dx.tolist()
    alpha = 1.0
    for i, is_p, p_min, p_max in limits:
        d = ds[i]
        if d == 0.0:
            continue
        xi = xs[i]
        if is_p:
            lo, hi = max(0.5 * xi, p_min), min(1.5 * xi, p_max)
        else:
            lo, hi = 0.2 * xi if xi > 0 else -math.inf, math.inf
        target = xi + d
        if target < lo:
            alpha = min(alpha, (lo - xi) / d)
        elif target > hi:
            alpha = min(alpha, (hi - xi) / d)
    bounds = system.enthalpy_bounds
    for i, p_index, fluid in states:
        d = ds[i]
        if d == 0.0:
            continue
        p_new = xs[p_index] + alpha * ds[p_index]
        xi = xs[i]
        target = xi + alpha * d
        if bounds.clear_of(fluid, p_new, target):
            continue
        try:
            lo, hi = bounds.exact(fluid, p_new)
        except FluidPropertyError:  # no bound known there: the trial's own evaluation decides
            continue
        if target < lo:
            alpha = min(alpha, max((lo + 0.01 * (xi - lo) - xi) / d, 0.0))
        elif target > hi:
            alpha = min(alpha, max((hi - 0.01 * (hi - xi) - xi) / d, 0.0))
    for block in bounding:
        alpha = block.step_fraction(xs, ds, alpha)
    return max(alpha, 1e-6)


DENSE_LIMIT = 150
"""Up to this many unknowns the linear solve uses dense LAPACK (for small systems it beats
SuperLU's set-up); above it, sparse SuperLU."""


def _jacobian(system: System, x: np.ndarray, f: np.ndarray) -> np.ndarray | sp.csc_matrix:
    """The Jacobian of the scaled residuals with columns scaled by each unknown's size."""
    rows, cols, vals = system.jacobian_entries(x, f)
    vals = vals * system.var_scale[cols]
    n, m = system.n_eqs, system.n_vars
    if m <= DENSE_LIMIT:
        jac = np.zeros((n, m))
        np.add.at(jac, (rows, cols), vals)
        return jac
    return sp.csc_matrix((vals, (rows, cols)), shape=(n, m))


def _solve_linear(system: System, jac: np.ndarray | sp.csc_matrix, f: np.ndarray) -> np.ndarray:
    """Solve ``J dz = -f`` (dense LAPACK or SuperLU) and return the step ``dx`` [SI].

    A matrix or right-hand side with an infinite or NaN value gives a NaN step (the callers
    treat a non-finite step as no step) without calling LAPACK.
    """
    values = jac.data if sp.issparse(jac) else jac
    if not (np.all(np.isfinite(values)) and np.all(np.isfinite(f))):
        return np.full(system.n_vars, np.nan)
    if isinstance(jac, np.ndarray):
        try:
            dz = np.linalg.solve(jac, -f)
        except np.linalg.LinAlgError:
            dz = np.linalg.lstsq(jac, -f, rcond=None)[0]
    else:
        try:
            dz = spla.splu(jac).solve(-f)
        except RuntimeError:
            dz = np.linalg.lstsq(jac.toarray(), -f, rcond=None)[0]
    step: np.ndarray = dz * system.var_scale
    return step


def _non_finite_entry(system: System, jac: np.ndarray | sp.csc_matrix) -> str | None:
    """The first Jacobian entry that is infinite or NaN, by equation and unknown; else None.

    LAPACK would otherwise print its own complaint (``DLASCL parameter number 4``) and return
    a meaningless step.
    """
    values = jac.data if sp.issparse(jac) else jac
    if np.all(np.isfinite(values)):
        return None
    dense = jac if isinstance(jac, np.ndarray) else jac.toarray()
    row, col = (int(k[0]) for k in np.nonzero(~np.isfinite(dense)))
    return (
        f"d({system.eq_names[row]})/d({system.var_names[col]}) = {dense[row, col]} "
        "(a model's derivative overflows at this state)"
    )


def _newton_step(system: System, x: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Solve ``J dx = -f`` with columns scaled by the typical size of each unknown."""
    return _solve_linear(system, _jacobian(system, x, f), f)


REUSE_RATE = 0.03
"""With a reused Jacobian a full step must cut the residual norm by this factor at least;
otherwise the Jacobian is computed afresh at the current point. (0.1 until 2026-11-26: a
prepared cascade_v2 stepped 1 K took 4 Broyden iterations at a rate of 40-60 each where two
Newton iterations do; over 21-point sweeps of seven examples 0.03 evaluates 75 Jacobians and
406 residuals against 45 and 440, about the same work, and fewer iterations.)"""


def _broyden(jac: np.ndarray, dz: np.ndarray, df: np.ndarray) -> None:
    """Broyden's rank-one update of a scaled Jacobian in place: ``J dz = df`` afterwards."""
    denom = float(np.dot(dz, dz))
    if denom > 0.0:
        jac += np.outer(df - jac @ dz, dz) / denom


def _reused_step(
    system: System, jac: np.ndarray, x: np.ndarray, f: np.ndarray
) -> tuple[tuple[np.ndarray, np.ndarray] | None, bool]:
    """A full step with a reused Jacobian (updated in place by Broyden's formula).

    Returns the new point and residuals when the step lowers the residual norm (else None: the
    caller computes the Jacobian at ``x``), and whether the Jacobian may serve again: only
    when the step cut the norm by :data:`REUSE_RATE`.
    """
    dx = _solve_linear(system, jac, f)
    if not np.all(np.isfinite(dx)) or limit_step(system, x, dx) < 1.0:
        return None, False
    x_new = x + dx
    f_new = safe_residuals(system, x_new)
    if f_new is None:
        return None, False
    norm2, new2 = float(np.dot(f, f)), float(np.dot(f_new, f_new))
    if new2 >= (1.0 - 1e-4) * norm2:
        return None, False
    _broyden(jac, dx / system.var_scale, f_new - f)
    system.jacobian_point = None  # the matrix may be the last fresh one: no longer exact
    return (x_new, f_new), new2 <= REUSE_RATE**2 * norm2


def safe_residuals(system: System, x: np.ndarray) -> np.ndarray | None:
    """Scaled residuals at ``x``, or None when a property call fails or a value is not finite."""
    try:
        f = system.residuals(x)
    except FluidPropertyError as exc:
        system.property_error = str(exc)
        return None
    except (ValueError, ZeroDivisionError, OverflowError) as exc:
        system.property_error = f"{type(exc).__name__}: {exc}"
        return None
    return f if np.all(np.isfinite(f)) else None


def _stalled(history: list[float], iterations: int) -> bool:
    """Whether the last ``iterations`` steps together left more than ``SLOW_RATE**iterations``.

    Only steps that start below :data:`STALL_BELOW` count: there Newton near its solution cuts
    the largest residual at least quadratically, so a run whose last steps together fall short
    of halving it per step is crawling (a kink of a model between start and solution).
    """
    if len(history) <= iterations or history[-iterations - 1] >= STALL_BELOW:
        return False
    return history[-1] > SLOW_RATE**iterations * history[-iterations - 1]


def _secant_alpha(
    tried: tuple[float, np.ndarray] | None, alpha: float, f_alpha: np.ndarray | None
) -> float | None:
    """The step fraction below ``alpha`` where the residuals' secant is smallest, or None.

    ``tried`` is the previous failed trial ``(a, F(x + a dx))`` and ``f_alpha`` the residuals of
    the one that just failed at ``alpha < a``. Along the step each residual is taken as the
    straight line through the two, ``F(t) = F(alpha) + (t - alpha) d``, and the fraction that
    minimises its norm, ``alpha - F(alpha).d / d.d``, is tried next when it lies within
    ``[0.1, 0.9] alpha``; else None (halve). Where a model's kink lies between the start and
    the solution (a coil pinched at the start but not at the solution, whose residual steepens
    past the kink) Newton's step overshoots by the ratio of the two slopes, and the two failed
    trials lie beyond the kink: their secant finds the root there, where halving lands short of
    the kink and the next step overshoots again.
    """
    if tried is None or f_alpha is None:
        return None
    a, f_a = tried
    d = (f_a - f_alpha) / (a - alpha)
    dd = float(np.dot(d, d))
    if dd <= 0.0:
        return None
    best = alpha - float(np.dot(f_alpha, d)) / dd
    if not 0.1 * alpha <= best <= 0.9 * alpha:
        return None
    return best


def newton(
    system: System,
    x0: np.ndarray,
    *,
    tolerance: float,
    max_iterations: int,
    deadline: float | None = None,
    log_state: IterationLog | None = None,
    reuse_jacobian: bool = False,
    f0: np.ndarray | None = None,
    stall_iterations: int | None = None,
    secant_backtracking: bool = True,
) -> IterationLog:
    """Run damped Newton from ``x0``; see the module docstring.

    Parameters
    ----------
    system : System
        The assembled system.
    x0 : ndarray
        Starting point [SI].
    tolerance : float
        Largest scaled residual accepted [-].
    max_iterations : int
        Iterations this run may take (at most the log's remaining budget).
    deadline : float, optional
        ``time.perf_counter()`` value after which the run stops.
    log_state : IterationLog, optional
        The log to record into (a strategy passes its own); a new one otherwise.
    reuse_jacobian : bool
        Start from the Jacobian the system's last Newton step computed (a warm start from a
        neighbouring solution: a sweep). A reused Jacobian is updated by Broyden's rank-one
        formula after each step it makes and kept while a full step with it cuts the residual
        norm by :data:`REUSE_RATE`. A step that lowers the norm less is kept and the next
        iteration computes the Jacobian afresh; a step that does not lower it is dropped and the
        Jacobian is computed at the current point in the same iteration. Without it, every
        iteration computes the Jacobian.
    f0 : ndarray, optional
        The scaled residuals at ``x0`` when the caller has them (not evaluated again).
    stall_iterations : int, optional
        Stop (``MAX_ITERATIONS`` with the message :data:`STALLED`) when the last this many
        iterations, starting from a largest scaled residual below :data:`STALL_BELOW`, together
        left more than ``SLOW_RATE**stall_iterations`` of it (:func:`_stalled`): a start near
        the solution should converge fast, and one that crawls (a kink of a model between the
        start and the solution) is better abandoned for the cold start.
    secant_backtracking : bool
        After two failed trials, try the step fraction their residuals' secant puts nearest
        to zero (:func:`_secant_alpha`) before halving again. On for a start from the
        spec-derived guess, where a coil is often on the other side of its pinch from the
        solution; a warm start near its neighbour halves only (measured: from a neighbour 5 K
        away the secant's fraction lands beyond the best point halving finds).
    """
    state = log_state or IterationLog(x=x0.copy(), max_iterations=max_iterations)
    x = x0.copy()
    f = f0 if f0 is not None and f0.shape == (system.n_eqs,) else safe_residuals(system, x)
    if f is None:
        return state.stop(
            x, StopReason.PROPERTY_FAILURE, "property evaluation failed at the starting point"
        )
    stale = system.last_jacobian if reuse_jacobian else None
    if stale is not None and getattr(stale, "shape", None) != (system.n_eqs, system.n_vars):
        stale = None
    for _ in range(max_iterations):
        if state.should_stop(x, f, tolerance, deadline, "newton iteration"):
            return state
        if stall_iterations is not None and _stalled(state.history, stall_iterations):
            return state.stop(x, StopReason.MAX_ITERATIONS, STALLED)
        state.iterations += 1
        if isinstance(stale, np.ndarray):
            accepted, keep = _reused_step(system, stale, x, f)
            if accepted is not None:
                x, f = accepted
                if not keep:
                    stale = None
                continue
            stale = None
        try:
            jac = _jacobian(system, x, f)
        except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError) as exc:
            return state.stop(
                x, StopReason.PROPERTY_FAILURE, f"the Jacobian could not be evaluated: {exc}"
            )
        bad = _non_finite_entry(system, jac)
        if bad is not None:
            return state.stop(x, StopReason.SINGULAR, f"the Jacobian is not finite: {bad}")
        system.last_jacobian = jac
        system.jacobian_point = (jac, x.copy())
        stale = jac if reuse_jacobian and isinstance(jac, np.ndarray) else None
        dx = _solve_linear(system, jac, f)
        if not np.all(np.isfinite(dx)):
            return state.stop(
                x, StopReason.SINGULAR, "the Newton step is not finite (singular Jacobian)"
            )
        alpha = limit_step(system, x, dx)
        f_norm2 = float(np.dot(f, f))
        tried: tuple[float, np.ndarray] | None = None
        while True:
            x_new = x + alpha * dx
            f_new = safe_residuals(system, x_new)
            if f_new is not None and float(np.dot(f_new, f_new)) <= (1.0 - 1e-4 * alpha) * f_norm2:
                break
            if alpha < 1e-4:
                if f_new is None:
                    return state.stop(
                        x,
                        StopReason.PROPERTY_FAILURE,
                        "line search failed: property evaluations fail along the Newton step",
                    )
                break  # accept a small step that does not decrease: lets Newton leave a plateau
            secant = _secant_alpha(tried, alpha, f_new) if secant_backtracking else None
            tried = (alpha, f_new) if f_new is not None else None
            alpha = secant if secant is not None else 0.5 * alpha
        x, f = x_new, f_new
    return state.finish(x, f, tolerance)
