"""Where a solve starts: the spec-derived guess, or the best warm start near a neighbour.

``solve(scenario, initial=...)`` takes a previous :class:`SolveResult` (a notebook slider, a
sweep's neighbour) or a bare state vector (a sweep's predictor). A warm start must never
begin farther from the solution than a cold one; :func:`start` chooses among the candidates
(the tangent predictor of :mod:`workbench.solver.start.tangent` first)
and returns the point Newton starts from, with what it already knows there (its residuals,
and a Jacobian when one was evaluated to choose). docs/solver.md ("Warm starts") gives the
measured iterations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.errors import FluidPropertyError, SpecificationError
from workbench.solver.newton import _solve_linear, limit_step, safe_residuals
from workbench.solver.results import SolveResult
from workbench.solver.start.initial import initial_guess
from workbench.solver.start.tangent import changed_parameters, tangent_point
from workbench.solver.system import System

__all__ = ["Start", "start"]


@dataclass
class Start:
    """The starting point of a solve.

    Attributes
    ----------
    x : ndarray
        Where Newton starts [SI].
    reuse : bool
        Newton may begin with the system's last Jacobian (a warm start in a sweep).
    f : ndarray or None
        The scaled residuals at ``x`` when they were evaluated.
    guess : ndarray or None
        The spec-derived guess when it was computed (a result carries it for the next warm
        start's predictor).
    """

    x: np.ndarray
    reuse: bool = False
    f: np.ndarray | None = None
    guess: np.ndarray | None = None


def start(
    system: System, initial: SolveResult | np.ndarray | None, tolerance: float = 0.0
) -> Start:
    """The starting point of a solve of ``system``.

    Without ``initial``: the spec-derived guess (:func:`initial_guess`). With a
    :class:`SolveResult` whose parameters differ from the system's by numeric component
    parameters only, the **tangent** (Euler) predictor
    ``x_prev - J_prev^-1 dF/dt`` (:mod:`workbench.solver.start.tangent`), chord-corrected, starts
    when its largest scaled residual is below the guess's and at most :data:`TANGENT_TRUSTED`
    (after a 1 K step of the cascades' low-stage air it starts at 0.1 where the chord-corrected
    candidates below start at 27-60). A tangent above that (a step across a pinch, where the
    slope at the neighbour misleads) competes with the best of the candidates below after its
    chord correction. Otherwise the candidates are

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
    :func:`_chord_corrected`). A bare vector is compared with the guess by the largest scaled
    residual (:func:`_start_from_vector`). On heat_pump_v1 a 1 K step of the
    condenser water starts at 3.7 (predicted; previous solution 210, guess 65), 0.16 after the
    chord step, and converges in 2 Newton iterations (cold: 4); the measured table is in
    docs/solver.md.

    Parameters
    ----------
    system : System
        The assembled system.
    initial : SolveResult or ndarray, optional
        The warm start.
    tolerance : float
        The solver's tolerance [-]: a bare vector that already meets it is taken as it is.
    """
    warm = initial.x if isinstance(initial, SolveResult) else initial
    if not isinstance(warm, np.ndarray) or warm.size != system.n_vars:
        cold = initial_guess(system)
        return Start(cold, guess=cold)
    if not isinstance(initial, SolveResult):
        return _start_from_vector(system, warm, tolerance)
    guess: np.ndarray | None
    try:
        guess = initial_guess(system)
    except (SpecificationError, FluidPropertyError):  # no spec start: the warm one may do
        guess = None
    f_guess = safe_residuals(system, guess) if guess is not None else None
    tangent = _tangent_start(system, initial)
    if tangent is not None and (f_guess is None or _largest(tangent[1]) < _largest(f_guess)):
        if _largest(tangent[1]) <= TANGENT_TRUSTED:
            return Start(tangent[0], system.last_jacobian is not None, tangent[1], guess)
    else:
        tangent = None
    candidates: list[tuple[np.ndarray, bool]] = []
    previous_guess = initial.guess
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
        f = f_guess if x is guess else safe_residuals(system, x)
        if f is None:
            continue
        if best is None or np.max(np.abs(f), initial=0.0) < np.max(np.abs(best[2]), initial=0.0):
            best = (x, is_warm, f)
    if best is None:
        if tangent is not None:
            return Start(tangent[0], system.last_jacobian is not None, tangent[1], guess)
        return Start(guess if guess is not None else warm.copy(), guess=guess)
    x0, reuse_jac, f0 = best
    if x0 is not guess:
        x0, f0 = _chord_corrected(system, initial.jacobian, x0, f0)
    if tangent is not None and _largest(tangent[1]) < _largest(f0):
        return Start(tangent[0], system.last_jacobian is not None, tangent[1], guess)
    return Start(x0.copy(), reuse_jac, f0, guess)


TANGENT_TRUSTED = 1.0
"""A tangent start whose largest scaled residual is at most this starts without comparison;
above it the other candidates are evaluated too and the smallest residual starts (after a
1 K smaller superheat of r407c_heat_pump_v2's evaporator the tangent starts at 90 where the
neighbour's solution starts at 9.5: 7 iterations against 5)."""


def _largest(f: np.ndarray) -> float:
    return float(np.max(np.abs(f), initial=0.0))


def _tangent_start(system: System, initial: SolveResult) -> tuple[np.ndarray, np.ndarray] | None:
    """The tangent (Euler) predictor from ``initial``, chord-corrected, with its residuals.

    None when ``initial`` carries no Jacobian or parameters of this system's shape, no numeric
    parameter changed, or the predictor cannot be evaluated (:mod:`workbench.solver.start.tangent`).
    """
    jac = initial.jacobian
    if getattr(jac, "shape", None) != (system.n_eqs, system.n_vars) or not initial.parameters:
        return None
    changes = changed_parameters(system, initial.parameters)
    if changes is None:
        return None
    x = tangent_point(system, initial.x, jac, changes)
    if x is None or limit_step(system, initial.x, x - initial.x) < 1.0:
        return None
    f = safe_residuals(system, x)
    if f is None:
        return None
    return _chord_corrected(system, jac, x, f)


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


def _start_from_vector(system: System, warm: np.ndarray, tolerance: float) -> Start:
    """A bare vector: itself, or the spec-derived guess when its residual is the smaller.

    A prepared system in a sweep (it keeps its last Jacobian) takes the vector as it is, with
    that Jacobian, unless its equations are solved outright (no UA coils, no control loops or
    couplings: the guess is then cheap and compared by the largest scaled residual): the sweep
    tries its own fallbacks (the last solution, then the scenario's guess) and its speed comes
    from not computing the guess at every point.

    A new system (``solve(doc, initial=x)``: no Jacobian kept) starts from the one of the two
    with the smaller largest scaled residual. (Until the third session of 2026-11-26 a vector
    with the larger residual could still start when one Newton step from it estimated it
    clearly closer to the solution; with the coupling's step bound the cold cascades got faster
    and over every example's first air or water temperature stepped by +-1, 3 and 5 K that rule
    chose the vector five times, each as slow as the guess or slower: cascade_v2 at -3 K 6
    against 5, r290_heat_pump_charge_v2 at -5 K 8 against 3.)
    """
    f_warm = safe_residuals(system, warm)
    if f_warm is None:
        cold = initial_guess(system)
        return Start(cold, guess=cold)
    if np.max(np.abs(f_warm), initial=0.0) <= tolerance:
        return Start(warm.copy(), False, f_warm)
    explicit = len(system.blocks) == len(system.components) and not any(
        getattr(c, "ua_mode", False) for c in system.components.values()
    )
    kept = system.last_jacobian is not None
    if kept and not explicit:
        return Start(warm.copy(), True, f_warm)
    try:
        guess: np.ndarray | None = initial_guess(system)
    except (SpecificationError, FluidPropertyError):  # no spec start: the vector may do
        guess = None
    f_guess = safe_residuals(system, guess) if guess is not None else None
    if guess is None or f_guess is None:
        return Start(warm.copy(), kept, f_warm, guess)
    if np.max(np.abs(f_warm)) < np.max(np.abs(f_guess)):
        return Start(warm.copy(), kept, f_warm, guess)
    return Start(guess.copy(), False, f_guess, guess)
