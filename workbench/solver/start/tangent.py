"""The tangent (Euler) predictor of a warm start: the solution path's slope at the neighbour.

A warm start from a :class:`~workbench.solver.results.SolveResult` knows the neighbour's
solution ``x_prev``, the Jacobian ``J_prev`` its solve ended with, and (:attr:`SolveResult.parameters`)
the component parameters it was solved with. When only numeric parameters changed, the
solution moves along ``dx/dt = -J_prev^-1 dF/dt`` as the parameters go from the old values
(``t = 0``) to the new ones (``t = 1``); the Euler step

    x = x_prev - J_prev^-1 (F(x_prev; p_old + eps (p_new - p_old)) - F(x_prev; p_old)) / eps

takes the derivative of the residuals over a small parameter step (:data:`TANGENT_STEP`), not
over the whole step as the chord step ``x_prev - J_prev^-1 F(x_prev; p_new)`` does. The two
differ where the residuals are strongly non-linear in the parameter: an air coil at its pinch
(a superheated zone whose heat flow is limited by the air inlet temperature) answers a 1 K
warmer air with a residual far smaller than its slope at the neighbour predicts, and the chord
step then hardly moves. The residuals at blended parameters come from systems built from the
current one's component parameters with the changed ones blended (:func:`blended_system`):
a build costs well under a millisecond and shares the fluid backend.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from workbench.components.base import Component
from workbench.errors import WorkbenchError
from workbench.solver.charge.block import CircuitCharge
from workbench.solver.controls import ControlLoop
from workbench.solver.extensions import attach
from workbench.solver.iteration import NUMERIC_FAILURES
from workbench.solver.newton import _solve_linear
from workbench.solver.system import System, build_system

__all__ = [
    "TANGENT_STEP",
    "blended_system",
    "changed_parameters",
    "system_parameters",
    "tangent_point",
]

TANGENT_STEP = 1e-3
"""The fraction ``eps`` of the parameter step the residuals' derivative is differenced over."""

Changes = dict[str, dict[str, tuple[float, float]]]
"""Component name -> parameter -> (old value, new value)."""


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def system_parameters(system: System) -> dict[str, dict[str, Any]]:
    """The parameters a solve of ``system`` uses, by block name.

    Each component's given parameters (a prepared system's swept values included), each
    control loop's configuration (``controls.<id>``) and each fixed charge
    (``circuit[<id>]``: ``charge_kg``). A result carries them
    (:attr:`~workbench.solver.results.SolveResult.parameters`) for the next warm start.
    """
    out: dict[str, dict[str, Any]] = {
        name: dict(comp.given) for name, comp in system.components.items()
    }
    for block in system.blocks:
        if isinstance(block, ControlLoop):
            out[block.name] = block.config.model_dump()
        elif isinstance(block, CircuitCharge):
            out[block.name] = {"charge_kg": block.charge_kg}
    return out


def _same(a: Any, b: Any) -> bool:
    try:
        return a is b or bool(a == b)
    except (ValueError, TypeError):  # arrays and the like: compared as different
        return False


def changed_parameters(system: System, previous: dict[str, dict[str, Any]]) -> Changes | None:
    """The numeric component parameters of ``system`` that differ from ``previous``.

    Parameters
    ----------
    system : System
        The system being solved (its components' ``given`` parameters are the new values).
    previous : dict
        The neighbour's :func:`system_parameters` (:attr:`SolveResult.parameters`).

    Returns
    -------
    dict or None
        Component -> parameter -> ``(old, new)``; None when nothing changed, the blocks
        differ, a control loop or a fixed charge changed (the tangent follows component
        parameters only), or a parameter was added, removed or changed to or from a
        non-number (no path between the two scenarios to follow).
    """
    current = system_parameters(system)
    if set(previous) != set(current):
        return None
    changes: Changes = {}
    for name, new in current.items():
        old = previous[name]
        if old.keys() != new.keys():
            return None
        for key, value in new.items():
            before = old[key]
            if _same(before, value):
                continue
            if name not in system.components or not (_number(before) and _number(value)):
                return None
            changes.setdefault(name, {})[key] = (float(before), float(value))
    return changes or None


def blended_system(system: System, changes: Changes, t: float) -> System | None:
    """A system like ``system`` with each changed parameter at ``old + t (new - old)``.

    Every component is built from its current parameters (a prepared system's swept values
    included), the changed ones blended; couplings, control loops and charges are attached as
    for a solve. The system shares ``system``'s fluid backends. None when the blended
    parameters do not make the same unknowns and equations.
    """
    flat = copy.copy(system.flat)
    flat.components = {}
    for name, spec in system.flat.components.items():
        params = dict(system.components[name].given)
        for key, (old, new) in changes.get(name, {}).items():
            params[key] = old + t * (new - old)
        flat.components[name] = dataclasses.replace(spec, params=params)
    try:
        blended = build_system(flat, system.fluid, system.fluids)
        attach(blended)
        blended.finalise()
    except (WorkbenchError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if blended.var_names != system.var_names or blended.eq_names != system.eq_names:
        return None
    return blended


def tangent_point(
    system: System,
    x_prev: np.ndarray,
    jac: np.ndarray | sp.csc_matrix,
    changes: Changes,
) -> np.ndarray | None:
    """The Euler predictor from ``x_prev`` to the new parameters, or None.

    Parameters
    ----------
    system : System
        The system with the new parameters.
    x_prev : ndarray
        The neighbour's solution [SI].
    jac : ndarray or scipy.sparse.csc_matrix
        The scaled Jacobian the neighbour's solve ended with (near ``x_prev``).
    changes : dict
        The changed parameters (:func:`changed_parameters`).

    Returns
    -------
    ndarray or None
        ``x_prev - J_prev^-1 dF/dt`` [SI], ``dF/dt`` the scaled residuals' forward difference
        over :data:`TANGENT_STEP` of the parameter step; None when a blended system cannot be
        built or evaluated at ``x_prev``, or the step is not finite.
    """
    at_old = blended_system(system, changes, 0.0)
    near_old = blended_system(system, changes, TANGENT_STEP)
    if at_old is None or near_old is None:
        return None
    try:
        f0 = _touched_residuals(at_old, x_prev, changes)
        f1 = _touched_residuals(near_old, x_prev, changes)
        dx = _solve_linear(system, jac, (f1 - f0) / TANGENT_STEP)
    except NUMERIC_FAILURES:
        return None
    if not np.all(np.isfinite(dx)):
        return None
    moved: np.ndarray = x_prev + dx
    return moved


def _touched_residuals(system: System, x: np.ndarray, changes: Changes) -> np.ndarray:
    """Scaled residuals at ``x`` of the blocks a parameter change can move, zeros elsewhere.

    A component whose parameters did not change gives the same residuals in both blended
    systems (same parameters, same ``x``), so its rows of the difference are zero and it is
    not evaluated; changed components and every block beyond the components (couplings,
    control loops, charges: they read components' models) are.
    """
    f = np.zeros(system.n_eqs)
    for block, offset, n in zip(system.blocks, system.eq_offsets, system.eq_counts, strict=True):
        if n == 0 or (isinstance(block, Component) and block.name not in changes):
            continue
        f[offset : offset + n] = block.residuals(x) / system.eq_scale[offset : offset + n]
    if not np.all(np.isfinite(f)):
        raise ValueError("a residual is not finite at the neighbour's solution")
    return f
