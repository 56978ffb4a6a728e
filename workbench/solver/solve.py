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

from workbench.errors import FluidPropertyError, SpecificationError
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
from workbench.solver.initial import initial_guess
from workbench.solver.iteration import IterationLog, StopReason
from workbench.solver.newton import _solve_linear, limit_step, newton, safe_residuals
from workbench.solver.picard import match_equations, picard
from workbench.solver.results import SolveResult
from workbench.solver.system import System, build_system
from workbench.solver.tables import collect_results

__all__ = ["assemble", "prepare", "solve"]

log = logging.getLogger("workbench.solver")

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
    x0, warm, f0, guess = _start(system, initial)
    deadline = t0 + cfg.timeout_ms / 1000.0 if cfg.timeout_ms else None
    state = IterationLog(
        x=x0.copy(),
        max_iterations=int(cfg.max_iterations),
        level=logging.INFO if cfg.verbose else logging.DEBUG,
    )
    _run_strategy(system, state, cfg.strategy, float(cfg.tolerance), deadline, warm, f0)
    result = _finish(system, state)
    if guess is not None:
        result.guess = guess.copy()
    jac = system.last_jacobian
    if getattr(jac, "shape", None) == (system.n_eqs, system.n_vars):
        # a copy: a sweep's Broyden updates change the system's own in place
        result.jacobian = jac.copy()
    used = [backend.stats - before for backend, before in zip(fluids, stats_before)]
    result.property_calls = sum(u.calls for u in used)
    result.property_flashes = sum(u.flashes for u in used)
    result.elapsed_s = time.perf_counter() - t0
    return result


def _start(
    system: System, initial: SolveResult | np.ndarray | None
) -> tuple[np.ndarray, bool, np.ndarray | None, np.ndarray | None]:
    """The starting point, whether to reuse the last Jacobian, its residuals, the spec guess.

    Without ``initial``: the spec-derived guess (:func:`initial_guess`). With it, the
    candidates are

    - the **predicted** start ``x_prev + (guess_new - guess_prev)``: the neighbour's solution
      moved by as much as the spec-derived guess moves with the changed parameters (the guess
      balances each UA coil's saturation temperature against its secondary, so it follows an
      air or water temperature step as the solution does, and the neighbour's solution carries
      what the guess misses, such as the pinch of a superheated zone), when ``initial`` is a
      :class:`SolveResult` that carries its guess;
    - the neighbour's solution itself;
    - the spec-derived guess;

    and the one with the smallest largest scaled residual is kept, so that a warm start never
    begins farther from the solution (in the residual) than a cold one. When the kept one is
    a warm candidate and ``initial`` carries the Jacobian its solve ended with, one chord step
    ``x - J_prev^-1 F(x)`` corrects it (the implicit-function-theorem tangent: no Jacobian is
    evaluated, one residual evaluation decides whether the step is kept,
    :func:`_chord_corrected`). A bare vector (a sweep's predictor) is taken as it is
    (:func:`_start_from_vector`). On heat_pump_v1 a 1 K step of the condenser water starts at
    3.7 (predicted; previous solution 210, guess 65), 0.16 after the chord step, and
    converges in 2 Newton iterations (cold: 4); the measured table is in docs/solver.md.
    """
    warm = initial.x if isinstance(initial, SolveResult) else initial
    if not isinstance(warm, np.ndarray) or warm.size != system.n_vars:
        cold = initial_guess(system)
        return cold, False, None, cold
    if not isinstance(initial, SolveResult):
        return _start_from_vector(system, warm)
    guess: np.ndarray | None
    try:
        guess = initial_guess(system)
    except (SpecificationError, FluidPropertyError):  # no spec start: the warm one may do
        guess = None
    candidates: list[tuple[np.ndarray, bool]] = []
    previous_guess = initial.guess if isinstance(initial, SolveResult) else None
    if guess is not None and previous_guess is not None and previous_guess.shape == guess.shape:
        # a system that kept its last Jacobian (a prepared one in a sweep) starts with it and
        # Broyden's updates, the cheapest iterations; a new system computes it afresh at
        # each step: from the predicted start Newton is quadratic at once, where Broyden's
        # updates of a Jacobian computed there would add an iteration
        reuse = system.last_jacobian is not None
        candidates.append((warm + (guess - previous_guess), reuse))
    candidates.append((warm.copy(), True))
    if guess is not None:
        candidates.append((guess, False))
    best: tuple[np.ndarray, bool, np.ndarray] | None = None
    for x, is_warm in candidates:
        f = safe_residuals(system, x)
        if f is None:
            continue
        if best is None or np.max(np.abs(f), initial=0.0) < np.max(np.abs(best[2]), initial=0.0):
            best = (x, is_warm, f)
    if best is None:
        return (guess if guess is not None else warm.copy()), False, None, guess
    x0, reuse_jac, f0 = best
    if x0 is not guess:
        x0, f0 = _chord_corrected(system, initial.jacobian, x0, f0)
    return x0.copy(), reuse_jac, f0, guess


def _chord_corrected(
    system: System, jac: object, x: np.ndarray, f: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``x`` moved by one chord step with a previous solve's Jacobian, when that lowers the residual.

    The neighbour's Jacobian at its solution turns the residual left at the predicted start
    into the step the implicit-function theorem predicts (``dx = -J_prev^-1 F(x)``); it costs
    a linear solve and one residual evaluation. The step is kept only when it stays within the
    step limits and lowers the largest scaled residual; otherwise ``x`` is returned unchanged.
    """
    if getattr(jac, "shape", None) != (system.n_eqs, system.n_vars):
        return x, f
    try:
        dx = _solve_linear(system, jac, f)
    except (ValueError, RuntimeError, np.linalg.LinAlgError):
        return x, f
    if not np.all(np.isfinite(dx)) or limit_step(system, x, dx) < 1.0:
        return x, f
    x_new = x + dx
    f_new = safe_residuals(system, x_new)
    if f_new is None or np.max(np.abs(f_new), initial=0.0) >= np.max(np.abs(f), initial=0.0):
        return x, f
    return x_new, f_new


def _start_from_vector(
    system: System, warm: np.ndarray
) -> tuple[np.ndarray, bool, np.ndarray | None, np.ndarray | None]:
    """A bare vector (a sweep's predictor): itself, or the guess when that starts closer.

    The two are compared by their largest scaled residual (one evaluation each) wherever the
    guess is cheap or the solve is not part of a sweep: systems solved outright (no UA coils,
    no control loops or couplings), and any system that has not kept a Jacobian (a new one:
    ``solve(doc, initial=x)``). A prepared system in a sweep (it keeps its last Jacobian) takes
    the vector as it is: the sweep tries its own fallbacks (the last solution, then the
    scenario's guess) and its speed comes from not computing the guess at every point.
    """
    f_warm = safe_residuals(system, warm)
    if f_warm is None:
        cold = initial_guess(system)
        return cold, False, None, cold
    explicit = len(system.blocks) == len(system.components) and not any(
        getattr(c, "ua_mode", False) for c in system.components.values()
    )
    guess: np.ndarray | None = None
    if explicit or system.last_jacobian is None:
        try:
            guess = initial_guess(system)
        except (SpecificationError, FluidPropertyError):  # no spec start: the vector may do
            guess = None
        f_guess = safe_residuals(system, guess) if guess is not None else None
        if (
            guess is not None
            and f_guess is not None
            and np.max(np.abs(f_guess)) <= np.max(np.abs(f_warm))
        ):
            return guess.copy(), False, f_guess, guess
    # reuse a Jacobian only where the system kept one (a prepared system in a sweep): Broyden's
    # updates of a Jacobian computed afresh at a neighbour's solution cost an iteration
    return warm.copy(), system.last_jacobian is not None, f_warm, guess


def _run_strategy(
    system: System,
    state: IterationLog,
    strategy: str,
    tol: float,
    deadline: float | None,
    warm: bool = False,
    f0: np.ndarray | None = None,
) -> None:
    """Run ``strategy`` from ``state.x``, recording into ``state``.

    ``warm``: the start is a neighbour's solution, so the first Newton run may begin with the
    Jacobian of the system's last step (:func:`~workbench.solver.newton.newton`).

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


def _finished(state: IterationLog) -> bool:
    """True when a strategy must not start another phase: converged, out of time or budget."""
    return state.converged or state.reason is StopReason.TIMEOUT or state.remaining == 0


FINAL_JACOBIAN_STEP = 1e-3
"""The final Jacobian serves the control sensitivities when the solution lies within this many
typical sizes (``var_scale``) of the point it was evaluated at, in every unknown."""


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
        except (
            FluidPropertyError,
            ValueError,
            ZeroDivisionError,
            RuntimeError,
            np.linalg.LinAlgError,
        ):
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
        with contextlib.suppress(FluidPropertyError, ValueError, ZeroDivisionError):
            result.structure.extend(structural_problems(system, match_equations(system, x)))
    sensitivities = _control_sensitivities(system, x) if state.converged else {}
    try:
        collect_results(system, x, result)
    except (FluidPropertyError, ValueError, ZeroDivisionError) as exc:
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
