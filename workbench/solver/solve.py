"""``solve``: from a scenario to a :class:`SolveResult`.

load -> flatten -> assemble (components, topology, unknowns) -> degrees-of-freedom check ->
initial guess -> strategy (``newton``, ``picard`` or ``fallback``) -> physical checks ->
results. Non-convergence is a result (``converged=False`` with diagnostics and a
:class:`~workbench.solver.iteration.StopReason`), not an exception; bad input raises
:class:`~workbench.errors.ScenarioError` or :class:`~workbench.errors.SpecificationError`.

A solve owns what it mutates: the fluid backend of a cold solve is lent to it alone for the
solve's duration (:func:`~workbench.fluids.lease_backend`), a prepared :class:`System` owns
its backend, and the property counts of a result are the difference of the backend's
counters over the solve (nothing is reset). ``solver.verbose`` logs every iteration at INFO
on the ``workbench.solver`` logger; showing it is the caller's logging configuration (the
``workbench`` command line shows INFO).
"""

from __future__ import annotations

import contextlib
import logging
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend, get_backend, lease_backend
from workbench.scenario import FlatScenario, ScenarioLike, as_flat
from workbench.solver.capacity import failure_reason
from workbench.solver.controls import ControlLoop
from workbench.solver.diagnostics import (
    check_degrees_of_freedom,
    hint_for,
    structural_problems,
    worst_residuals,
)
from workbench.solver.extensions import attach
from workbench.solver.iteration import NUMERIC_FAILURES, IterationLog, StopReason
from workbench.solver.newton import STALLED, newton, safe_residuals
from workbench.solver.picard import match_equations, picard
from workbench.solver.results import SolveResult
from workbench.solver.start.tangent import system_parameters
from workbench.solver.start.warm_start import start
from workbench.solver.system import System, build_system
from workbench.solver.tables import collect_results

__all__ = ["assemble", "prepare", "solve"]

log = logging.getLogger("workbench.solver")

WARM_STALL_ITERATIONS = 2
"""A warm start is abandoned for the cold one after this many slow Newton iterations in a row
(each leaving more than half of the largest residual)."""

PICARD_SWEEPS_IN_FALLBACK = 30
"""At most this many Picard sweeps between the two Newton runs of the ``fallback`` strategy."""


def assemble(
    flat: FlatScenario, fluid: FluidBackend, fluids: dict[int, FluidBackend] | None = None
) -> System:
    """Build and check the system of a flat scenario with the given backend.

    ``fluids`` holds the backends of circuits with their own fluid (``circuits[i].fluid``).

    Raises
    ------
    SpecificationError
        The scenario cannot be posed (open circuit, too few or too many specs).
    """
    system = build_system(flat, fluid, fluids)
    extra = attach(system)
    system.finalise()
    check_degrees_of_freedom(system, extra)
    return system


def prepare(scenario: ScenarioLike, *, tabular: bool = False) -> System:
    """Build and check the system of ``scenario`` without solving it.

    The system owns a new fluid backend: reuse it with ``solve(..., system=...)`` from one
    thread at a time.

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        The scenario.
    tabular : bool
        Use CoolProp's tabular BICUBIC&HEOS backend (faster, for sweeps).
    """
    flat = as_flat(scenario)
    own = {
        cid: get_backend(name, backend, tabular=tabular)
        for cid, (name, backend) in flat.circuit_fluids.items()
    }
    return assemble(flat, get_backend(flat.fluid, flat.fluid_backend, tabular=tabular), own)


def solve(
    scenario: ScenarioLike,
    *,
    initial: SolveResult | np.ndarray | None = None,
    tabular: bool = False,
    system: System | None = None,
) -> SolveResult:
    """Solve a scenario to steady state.

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        The scenario (a path, a JSON string or a dict is loaded and validated first).
    initial : SolveResult or ndarray, optional
        Warm start: a previous result of the same structure (a sweep's neighbour).
    tabular : bool
        Use CoolProp's tabular backend.
    system : System, optional
        A system from :func:`prepare` to reuse (its fluid backend and models); ``scenario``
        is then not read.

    Returns
    -------
    SolveResult
        Converged or not, with tables, diagnostics and the stop reason.

    Raises
    ------
    ScenarioError
        The document is invalid.
    SpecificationError
        The scenario cannot be posed (open circuit, too few or too many specs).
    """
    t0 = time.perf_counter()
    if system is not None:
        return _solve_system(system, initial, t0)
    flat = as_flat(scenario)
    with contextlib.ExitStack() as stack:
        fluid = stack.enter_context(lease_backend(flat.fluid, flat.fluid_backend, tabular=tabular))
        own = {
            cid: stack.enter_context(lease_backend(name, backend, tabular=tabular))
            for cid, (name, backend) in flat.circuit_fluids.items()
        }
        return _solve_system(assemble(flat, fluid, own), initial, t0)


def _solve_system(
    system: System, initial: SolveResult | np.ndarray | None, t0: float
) -> SolveResult:
    cfg = system.flat.solver
    fluids = system.all_fluids()
    stats_before = [backend.stats for backend in fluids]
    system.evaluations = 0
    system.property_error = ""
    begin = start(system, initial, float(cfg.tolerance))
    x0, warm, f0, guess = begin.x, begin.reuse, begin.f, begin.guess
    deadline = t0 + cfg.timeout_ms / 1000.0 if cfg.timeout_ms else None
    state = IterationLog(
        x=x0.copy(),
        max_iterations=int(cfg.max_iterations),
        level=logging.INFO if cfg.verbose else logging.DEBUG,
    )
    _run_strategy(
        system,
        state,
        cfg.strategy,
        float(cfg.tolerance),
        deadline,
        warm,
        f0,
        cold=guess if _warm(begin.x, guess, initial) else None,
    )
    result = _finish(system, state)
    if guess is not None:
        result.guess = guess.copy()
    jac = system.last_jacobian
    if getattr(jac, "shape", None) == (system.n_eqs, system.n_vars):
        # a copy: a sweep's Broyden updates change the system's own in place
        result.jacobian = jac.copy()
    result.parameters = system_parameters(system)
    used = [backend.stats - before for backend, before in zip(fluids, stats_before)]
    result.property_calls = sum(u.calls for u in used)
    result.property_flashes = sum(u.flashes for u in used)
    result.elapsed_s = time.perf_counter() - t0
    return result


def _run_strategy(
    system: System,
    state: IterationLog,
    strategy: str,
    tol: float,
    deadline: float | None,
    warm: bool = False,
    f0: np.ndarray | None = None,
    cold: np.ndarray | None = None,
) -> None:
    """Run ``strategy`` from ``state.x``, recording into ``state``.

    ``warm``: the start is a neighbour's solution, so the first Newton run may begin with the
    Jacobian of the system's last step (:func:`~workbench.solver.newton.newton`). ``cold``: the spec-derived guess when the run starts
    elsewhere (a warm start): a first Newton run that stalls
    (:data:`WARM_STALL_ITERATIONS` slow iterations in a row) is abandoned for a Newton run
    from it, within the same budget.

    ``fallback``: Newton; when it stops short of convergence for a reason other than time,
    Picard sweeps (from the start when a property call failed, else from where Newton
    stopped), then Newton again. All phases share the one budget ``solver.max_iterations``.
    """
    x0 = state.x.copy()
    if strategy == "picard":
        state.methods.append("picard")
        picard(
            system,
            x0,
            tolerance=tol,
            max_iterations=state.remaining,
            deadline=deadline,
            log_state=state,
        )
        return
    state.methods.append("newton")
    newton(
        system,
        x0,
        tolerance=tol,
        max_iterations=state.remaining,
        deadline=deadline,
        log_state=state,
        reuse_jacobian=warm,
        f0=f0,
        stall_iterations=WARM_STALL_ITERATIONS if cold is not None else None,
        secant_backtracking=cold is None and not warm,
    )
    if cold is not None and state.message == STALLED and state.remaining > 0:
        log.info("the warm start stalled; newton again from the cold start")
        state.reason, state.message = StopReason.NOT_STARTED, ""
        newton(
            system,
            cold,
            tolerance=tol,
            max_iterations=state.remaining,
            deadline=deadline,
            log_state=state,
        )
    if state.converged or strategy == "newton" or state.reason is StopReason.TIMEOUT:
        return
    if state.remaining == 0:
        return
    log.info("newton stopped (%s); trying picard sweeps, then newton again", state.message)
    state.methods.append("picard")
    x_newton = state.x
    picard(
        system,
        x0 if state.reason is StopReason.PROPERTY_FAILURE else state.x,
        tolerance=tol,
        max_iterations=min(PICARD_SWEEPS_IN_FALLBACK, state.remaining),
        deadline=deadline,
        log_state=state,
    )
    if _finished(state):
        return
    state.methods.append("newton")
    start = state.x if safe_residuals(system, state.x) is not None else x_newton
    newton(
        system,
        start,
        tolerance=tol,
        max_iterations=state.remaining,
        deadline=deadline,
        log_state=state,
    )


def _warm(x0: np.ndarray, guess: np.ndarray | None, initial: object) -> bool:
    """True when a solve with a warm start ``initial`` begins elsewhere than at the guess."""
    return initial is not None and guess is not None and not np.array_equal(x0, guess)


def _finished(state: IterationLog) -> bool:
    """True when a strategy must not start another phase: converged, out of time or budget."""
    return state.converged or state.reason is StopReason.TIMEOUT or state.remaining == 0


FINAL_JACOBIAN_STEP = 1e-6
"""The final Jacobian serves the control sensitivities when the solution lies within this many
typical sizes (``var_scale``) of the point it was evaluated at, in every unknown. Near a coil's
pinch its implicit-function derivatives change fast (they divide by ``dUA/dQ``, which grows
like ``1 / (Q_max - Q)``): on superheat_control_v2 a Jacobian 3e-6 typical sizes from the
solution gives the evaporator's ``dQ/dm`` 6e-4 off and the loop's sensitivity 3e-4 off."""


def _final_jacobian(system: System, x: np.ndarray) -> np.ndarray | sp.csc_matrix | None:
    """The Jacobian Newton last evaluated, unscaled [1/unit of x], when it was taken near ``x``.

    Newton evaluates it at the iterate before the last step; after a converging step that point
    is within :data:`FINAL_JACOBIAN_STEP` of the solution, and the matrix is the solution's to
    that order. None when there is none, a Broyden update changed it, or the point is farther.
    """
    found = system.jacobian_point
    if found is None or found[0] is not system.last_jacobian:
        return None
    jac, point = found
    if getattr(jac, "shape", None) != (system.n_eqs, system.n_vars) or point.shape != x.shape:
        return None
    if float(np.max(np.abs(x - point) / system.var_scale, initial=0.0)) > FINAL_JACOBIAN_STEP:
        return None
    if isinstance(jac, np.ndarray):
        return jac / system.var_scale
    return sp.csc_matrix(jac @ sp.diags(1.0 / system.var_scale))


def _opened_jacobian(
    system: System, base: np.ndarray | sp.csc_matrix, loop: ControlLoop, xs: np.ndarray
) -> np.ndarray | sp.csc_matrix:
    """The closed-loop Jacobian ``base`` turned into the opened loop's at ``xs``.

    Two things differ: the loop's row becomes ``d(u - fixed)/dx = e_u`` (scaled), and the
    column of its state, because the opened loop applies the state unclamped: that column is
    differenced afresh over the blocks that read the state (one residual evaluation of each,
    where the full Jacobian needs one per unknown).
    """
    jac = base.copy() if isinstance(base, np.ndarray) else base.tolil(copy=True)
    col, k = loop.index, system.blocks.index(loop)
    row = system.eq_offsets[k]
    jac[:, col] = 0.0
    step = system.step(col, float(xs[col]))
    moved = xs.copy()
    moved[col] += step
    for block, offset, n in zip(system.blocks, system.eq_offsets, system.eq_counts, strict=True):
        if n == 0 or block is loop or col not in block.local_vars:
            continue
        scale = system.eq_scale[offset : offset + n]
        d = (block.residuals(moved) - block.residuals(xs)) / (step * scale)
        jac[offset : offset + n, col] = d.reshape(-1, 1) if not isinstance(jac, np.ndarray) else d
    jac[row, :] = 0.0
    jac[row, col] = 1.0 / system.eq_scale[row]
    return jac if isinstance(jac, np.ndarray) else sp.csc_matrix(jac)


def _control_sensitivities(system: System, x: np.ndarray) -> dict[str, float | None]:
    """d(measured)/d(actuator) of each loop at the solution, with the plant responding.

    The loop is opened (its residual becomes ``u - a`` with the actuator applied unclamped)
    and the implicit-function theorem on the full Jacobian gives the plant's response
    ``dx/da = J^-1 e_loop``; the measured output is then differentiated along it. Other loops
    stay closed. The Jacobian is the one Newton evaluated last, when it was taken at the
    solution to :data:`FINAL_JACOBIAN_STEP` (:func:`_final_jacobian`), with the opened loop's
    row and state column replaced (:func:`_opened_jacobian`); otherwise it is evaluated afresh
    at the solution.
    """
    out: dict[str, float | None] = {}
    loops = [b for b in system.blocks if isinstance(b, ControlLoop)]
    if not loops:
        return out
    base = _final_jacobian(system, x)
    for loop in loops:
        c = loop.config
        xs = x.copy()
        xs[loop.index] = loop.actuator(x)
        loop.fixed, loop.linear = float(xs[loop.index]), True
        try:
            jac = system.jacobian(xs) if base is None else _opened_jacobian(system, base, loop, xs)
            row = system.eq_offsets[system.blocks.index(loop)]
            rhs = np.zeros(system.n_eqs)
            rhs[row] = 1.0 / system.eq_scale[row]
            if isinstance(jac, np.ndarray):
                dxda = np.linalg.solve(jac, rhs)
            else:
                dxda = spla.splu(sp.csc_matrix(jac)).solve(rhs)
            t = 1e-6 / max(float(np.max(np.abs(dxda) / system.var_scale)), 1e-12)
            y0 = loop.measured.measure(xs, c.measure.output)
            y1 = loop.measured.measure(xs + t * dxda, c.measure.output)
            out[c.id] = (y1 - y0) / t
        except NUMERIC_FAILURES:
            out[c.id] = None
        finally:
            loop.fixed, loop.linear = None, False
    return out


def _finish(system: System, state: IterationLog) -> SolveResult:
    x = state.x
    tested = state.last
    f = tested[1] if tested is not None and tested[0] is x else safe_residuals(system, x)
    norm = float(np.max(np.abs(f))) if f is not None and f.size else float("inf")
    worst = worst_residuals(system, f) if f is not None else []
    message = state.message
    if state.reason is StopReason.MAX_ITERATIONS and len(state.methods) > 1:
        message += f" ({' -> '.join(state.methods)})"
    result = SolveResult(
        converged=state.converged,
        iterations=state.iterations,
        residual_norm=norm,
        residual_history=list(state.history),
        message=message,
        stop_reason=state.reason,
        worst_residuals=worst,
        x=x.copy(),
        var_names=list(system.var_names),
        eq_names=list(system.eq_names),
        scenario_name=system.flat.name,
        strategy_log=list(state.methods),
        fluid=system.flat.fluid,
        fluid_backend=system.flat.fluid_backend,
        coolprop_version=_coolprop_version(system.fluid),
    )
    if not state.converged:
        with contextlib.suppress(FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
            result.structure.extend(structural_problems(system, match_equations(system, x)))
    sensitivities = _control_sensitivities(system, x) if state.converged else {}
    try:
        collect_results(system, x, result)
    except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError) as exc:
        result.problems.append(f"results could not be evaluated at the last iterate: {exc}")
    for entry in result.controls:
        entry["sensitivity"] = sensitivities.get(entry["id"])
        loop = next(
            b for b in system.blocks if isinstance(b, ControlLoop) and b.config.id == entry["id"]
        )
        sens, gain = entry["sensitivity"], loop.config.gain
        if sens is not None and sens * gain < 0:
            out, factor = loop.config.measure.output, loop.config.actuator.factor
            result.problems.append(
                f"controls.{entry['id']}: gain {gain:+g} has the wrong sign: "
                f"d({out})/d({factor}) = {sens:+.4g} at the solution; use a gain of the opposite sign"
            )
    if result.problems and result.converged:
        result.converged = False
        result.stop_reason = StopReason.PHYSICALLY_IMPOSSIBLE
        result.message = "the equations are satisfied but the state is physically impossible"
    if not result.converged:
        result.hint = (
            hint_for(
                worst,
                result.stop_reason,
                system.flat.solver.strategy,
                history=result.residual_history,
                max_iterations=system.flat.solver.max_iterations,
            )
            if not result.problems
            else ("a physically impossible state: " + result.problems[0])
        )
        if result.stop_reason is StopReason.PROPERTY_FAILURE and system.property_error:
            result.message += f" ({system.property_error})"
        if not result.problems and (cause := failure_reason(system, x)) is not None:
            result.hint = cause
    return result


def _coolprop_version(fluid: FluidBackend) -> str | None:
    """CoolProp's version when the properties come from it, else None."""
    if fluid.backend_name != "CoolProp":
        return None
    import CoolProp

    return str(CoolProp.__version__)
