"""``solve``: from a scenario to a :class:`SolveResult`.

load -> flatten -> assemble (components, topology, unknowns) -> degrees-of-freedom check ->
initial guess -> strategy (``newton``, ``picard`` or ``fallback``) -> physical checks ->
results. Non-convergence is a result (``converged=False`` with diagnostics), not an exception;
bad input raises :class:`~workbench.errors.ScenarioError` or
:class:`~workbench.errors.SpecificationError`.
"""

from __future__ import annotations

import contextlib
import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse.linalg as spla

from workbench.errors import FluidPropertyError
from workbench.fluids import get_backend
from workbench.scenario import FlatScenario, ScenarioConfig, flatten, load_flat
from workbench.solver.controls import ControlLoop
from workbench.solver.diagnostics import (
    check_degrees_of_freedom,
    hint_for,
    structural_problems,
    worst_residuals,
)
from workbench.solver.initial import initial_guess
from workbench.solver.newton import IterationLog, _safe_residuals, newton
from workbench.solver.picard import match_equations, picard
from workbench.solver.results import SolveResult
from workbench.solver.system import System, build_system
from workbench.solver.tables import collect_results

__all__ = ["solve", "prepare"]

log = logging.getLogger("workbench.solver")

PICARD_SWEEPS_IN_FALLBACK = 30


def _as_flat(scenario: Any) -> FlatScenario:
    if isinstance(scenario, FlatScenario):
        return scenario
    if isinstance(scenario, ScenarioConfig):
        return flatten(scenario)
    return load_flat(scenario if not isinstance(scenario, Path) else str(scenario))


def prepare(scenario: Any, *, tabular: bool = False) -> System:
    """Build and check the system of ``scenario`` without solving it.

    Parameters
    ----------
    scenario : ScenarioConfig, FlatScenario, dict, str or path
        The scenario.
    tabular : bool
        Use CoolProp's tabular BICUBIC&HEOS backend (faster, for sweeps).
    """
    flat = _as_flat(scenario)
    fluid = (
        get_backend(flat.fluid, flat.fluid_backend, tabular=tabular)
        if tabular
        else get_backend(flat.fluid, flat.fluid_backend)
    )
    system = build_system(flat, fluid)
    extra = _attach_extensions(system)
    system.finalise()
    check_degrees_of_freedom(system, extra)
    return system


def _attach_extensions(system: System) -> dict[int, int]:
    """Add control loops and thermal couplings as blocks; return equations added per circuit."""
    from workbench.solver.extensions import attach

    return attach(system)


def solve(
    scenario: Any,
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
        A system from :func:`prepare` to reuse (its fluid backend and models).

    Returns
    -------
    SolveResult
        Converged or not, with tables and diagnostics.

    Raises
    ------
    ScenarioError
        The document is invalid.
    SpecificationError
        The scenario cannot be posed (open circuit, too few or too many specs).
    """
    t0 = time.perf_counter()
    if system is None:
        system = prepare(scenario, tabular=tabular)
    cfg = system.flat.solver
    fluid = system.fluid
    fluid.reset_stats()
    system.evaluations = 0
    x0 = initial_guess(system)
    warm = initial.x if isinstance(initial, SolveResult) else initial
    if isinstance(warm, np.ndarray) and warm.size == system.n_vars:
        # keep whichever start is closer to a solution: the spec-derived guess solves
        # ideal-mode cycles exactly, the neighbour's solution is better for UA-mode ones
        f_guess, f_warm = _safe_residuals(system, x0), _safe_residuals(system, warm)
        if f_warm is not None and (
            f_guess is None or np.max(np.abs(f_warm)) < np.max(np.abs(f_guess))
        ):
            x0 = warm.copy()
    deadline = t0 + cfg.timeout_ms / 1000.0 if cfg.timeout_ms else None
    tol, max_it = float(cfg.tolerance), int(cfg.max_iterations)
    previous_level = log.level
    handler = None
    if cfg.verbose:
        log.setLevel(logging.DEBUG)
        if not logging.getLogger().handlers and not log.handlers:
            handler = logging.StreamHandler()  # nobody configured logging: show it on stderr
            log.addHandler(handler)
    try:
        state = _run_strategy(system, x0, cfg.strategy, tol, max_it, deadline)
    finally:
        log.setLevel(previous_level)
        if handler is not None:
            log.removeHandler(handler)
    return _finish(system, state, t0)


def _run_strategy(
    system: System, x0: np.ndarray, strategy: str, tol: float, max_it: int, deadline: float | None
) -> IterationLog:
    state = IterationLog(x=x0.copy())
    if strategy == "picard":
        state.methods.append("picard")
        return picard(
            system, x0, tolerance=tol, max_iterations=max_it, deadline=deadline, log_state=state
        )
    state.methods.append("newton")
    state = newton(
        system, x0, tolerance=tol, max_iterations=max_it, deadline=deadline, log_state=state
    )
    if state.converged or strategy == "newton" or "timeout" in state.message:
        return state
    remaining = max(max_it - state.iterations, 10)
    log.info("newton stopped (%s); trying picard sweeps, then newton again", state.message)
    state.methods.append("picard")
    x_newton = state.x
    state = picard(
        system,
        x0 if "property" in state.message else state.x,
        tolerance=tol,
        max_iterations=min(PICARD_SWEEPS_IN_FALLBACK, remaining),
        deadline=deadline,
        log_state=state,
    )
    if state.converged:
        return state
    state.methods.append("newton")
    start = state.x if _safe_residuals(system, state.x) is not None else x_newton
    return newton(
        system, start, tolerance=tol, max_iterations=remaining, deadline=deadline, log_state=state
    )


def _control_sensitivities(system: System, x: np.ndarray) -> dict[str, float | None]:
    """d(measured)/d(actuator) of each loop at the solution, with the plant responding.

    The loop is opened (its residual becomes ``u - a`` with the actuator applied unclamped)
    and the implicit-function theorem on the full Jacobian gives the plant's response
    ``dx/da = J^-1 e_loop``; the measured output is then differentiated along it. Other loops
    stay closed.
    """
    out: dict[str, float | None] = {}
    for loop in system.blocks:
        if not isinstance(loop, ControlLoop):
            continue
        c = loop.config
        xs = x.copy()
        xs[loop.index] = loop.actuator(x)
        loop.fixed, loop.linear = float(xs[loop.index]), True
        try:
            jac = system.jacobian(xs)
            row = system.eq_offsets[system.blocks.index(loop)]
            rhs = np.zeros(system.n_eqs)
            rhs[row] = 1.0 / system.eq_scale[row]
            dxda = spla.splu(jac.tocsc()).solve(rhs)
            t = 1e-6 / max(float(np.max(np.abs(dxda) / system.var_scale)), 1e-12)
            y0 = loop.measured.measure(xs, c.measure.output)
            y1 = loop.measured.measure(xs + t * dxda, c.measure.output)
            out[c.id] = (y1 - y0) / t
        except (FluidPropertyError, ValueError, ZeroDivisionError, RuntimeError):
            out[c.id] = None
        finally:
            loop.fixed, loop.linear = None, False
    return out


def _finish(system: System, state: IterationLog, t0: float) -> SolveResult:
    x = state.x
    f = _safe_residuals(system, x)
    norm = float(np.max(np.abs(f))) if f is not None and f.size else float("inf")
    worst = worst_residuals(system, f) if f is not None else []
    result = SolveResult(
        converged=state.converged,
        iterations=state.iterations,
        residual_norm=norm,
        residual_history=list(state.history),
        message=state.message,
        worst_residuals=worst,
        x=x.copy(),
        var_names=list(system.var_names),
        eq_names=list(system.eq_names),
        scenario_name=system.flat.name,
        strategy_log=list(state.methods),
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
        result.message = "the equations are satisfied but the state is physically impossible"
    if not result.converged:
        result.hint = (
            hint_for(worst, result.message)
            if not result.problems
            else ("a physically impossible state: " + result.problems[0])
        )
    result.property_calls = system.fluid.stats.calls
    result.elapsed_s = time.perf_counter() - t0
    return result
