"""Single-phase states by Newton's method on CoolProp (rho, T) updates.

A state given by the pressure and a second property ``y`` (the enthalpy or the entropy) is the
(T, rho) that solves ``p(T, rho) = p``, ``y(T, rho) = y`` with the phase imposed. Each step is
one ``DmassT`` update (about 1 us) and four partial derivatives; from a start near the answer
two to five steps reach 1e-13 relative, where CoolProp's own (p, h) and (p, s) flashes cost
25-90 us and stop at about 3e-10. With ``J`` the Jacobian of (p, y) in (T, rho) and
``m = (p(T, rho) - p, y(T, rho) - y)`` the miss, a step is ``(dT, drho) = -J^-1 m``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import CoolProp.CoolProp as CP

from workbench.fluids.coolprop.records import DT, is_bad

__all__ = [
    "BY_H",
    "BY_S",
    "LAST_STEP",
    "NEWTON_STEPS",
    "NewtonState",
    "Second",
    "newton_rho_at_t",
    "newton_rho_t",
    "polish_ph",
]

NEWTON_STEPS = 10
"""(rho, T) updates a single-phase state may take before the caller falls back to a flash."""
LAST_STEP = 1e-7
"""A Newton step on (T, rho) below this (relative) is the last one, taken to first order."""

NewtonState = tuple[float, float, float, bool, float, float]
"""What :func:`newton_rho_t` finds: T [K], rho [kg/m3], the other property, whether the state
holds that (T, rho), (dT/dy)_p and (drho/dy)_p (NaN unless asked for)."""


class Second(NamedTuple):
    """The second input of a state besides the pressure, and the property read with it.

    Attributes
    ----------
    key : int
        CoolProp's key of the input (``iHmass`` or ``iSmass``).
    read : callable
        The ``AbstractState`` method that returns it (``AbstractState.hmass`` or ``.smass``).
    other_key : int
        Key of the property returned with the state (the entropy for an enthalpy input, and
        the other way round).
    read_other : callable
        The ``AbstractState`` method that returns that property.
    atol : float
        Absolute part of the tolerance on the input [J/kg or J/kg/K]: the state is found when
        ``|y(T, rho) - y| <= 1e-13 |y| + atol`` and ``|p(T, rho) - p| <= 1e-13 p``.
    """

    key: int
    read: Callable[[Any], float]
    other_key: int
    read_other: Callable[[Any], float]
    atol: float


BY_H = Second(CP.iHmass, CP.AbstractState.hmass, CP.iSmass, CP.AbstractState.smass, 1e-9)
"""(p, h) states: the entropy is read with them."""
BY_S = Second(CP.iSmass, CP.AbstractState.smass, CP.iHmass, CP.AbstractState.hmass, 1e-12)
"""(p, s) states: the enthalpy is read with them."""


def newton_rho_t(
    state: Any,
    phase: Any,
    p: float,
    y: float,
    second: Second,
    T: float,
    rho: float,
    t_min: float,
    t_max: float,
    slopes: bool,
) -> NewtonState | None:
    """The single-phase state at pressure ``p`` and second property ``y``; None if Newton fails.

    A step smaller than :data:`LAST_STEP` (relative) leaves an error of its square: it is taken
    to first order (the other property along it) instead of one more update to confirm it.

    Parameters
    ----------
    state : CoolProp.AbstractState
        The state to update; it holds the last (rho, T) update afterwards.
    phase : int
        CoolProp's phase code imposed on ``state`` during the iteration (lifted afterwards).
    p : float
        Pressure [Pa].
    y : float
        The second input: enthalpy [J/kg] for :data:`BY_H`, entropy [J/kg/K] for :data:`BY_S`.
    second : Second
        Which property ``y`` is.
    T, rho : float
        The start: temperature [K] and density [kg/m3].
    t_min, t_max : float
        The fluid's temperature range [K]: a step that leaves it (or makes the density not
        positive) fails.
    slopes : bool
        Also read ``(dT/dy)_p`` and ``(drho/dy)_p`` at the last update (else they are NaN).

    Returns
    -------
    NewtonState or None
        Temperature [K], density [kg/m3], the other property (entropy [J/kg/K] of a (p, h)
        state, enthalpy [J/kg] of a (p, s) state), whether ``state`` holds exactly that
        (T, rho) (False when the last step was taken to first order), ``(dT/dy)_p`` and
        ``(drho/dy)_p``; None when CoolProp fails, a Jacobian is singular, a step leaves the
        range, or :data:`NEWTON_STEPS` updates do not settle.
    """
    key, read, other_key, read_other, atol = second
    partial = state.first_partial_deriv
    state.specify_phase(phase)
    held = True
    try:
        for _ in range(NEWTON_STEPS):
            state.update(DT, rho, T)
            miss_p, miss_y = state.p() - p, read(state) - y
            if abs(miss_y) <= 1e-13 * abs(y) + atol and abs(miss_p) <= 1e-13 * p:
                other = read_other(state)
                break
            p_t = partial(CP.iP, CP.iT, CP.iDmass)
            p_r = partial(CP.iP, CP.iDmass, CP.iT)
            y_t = partial(key, CP.iT, CP.iDmass)
            y_r = partial(key, CP.iDmass, CP.iT)
            det = p_t * y_r - p_r * y_t
            if det == 0.0 or det != det:
                return None
            d_t = (-miss_p * y_r + p_r * miss_y) / det
            d_rho = (y_t * miss_p - p_t * miss_y) / det
            if abs(d_t) <= LAST_STEP * T and abs(d_rho) <= LAST_STEP * rho:
                other = read_other(state) + partial(other_key, CP.iT, CP.iDmass) * d_t
                other += partial(other_key, CP.iDmass, CP.iT) * d_rho
                T, rho, held = T + d_t, rho + d_rho, False
                break
            T += d_t
            rho += d_rho
            if not (rho > 0.0 and t_min <= T <= t_max):
                return None
        else:
            return None
        if slopes:
            t_y = partial(CP.iT, key, CP.iP)
            rho_y = partial(CP.iDmass, key, CP.iP)
        else:
            t_y = rho_y = math.nan
    except ValueError:
        return None
    finally:
        state.unspecify_phase()
    return T, rho, other, held, t_y, rho_y


def polish_ph(
    check: Any, p: float, h: float, T: float, rho: float, phase: Any
) -> tuple[float, float, float] | None:
    """One Newton step on (T, rho) when a (p, h) flash missed its inputs; else None.

    CoolProp's (p, h) flash stops at a tolerance: now and then its state's own enthalpy
    is 1e-4 J/kg (3e-10 relative) away from the input, and which inputs miss jumps with
    the input, so T and s jitter by 1e-7 K and 1e-7 J/kg/K over steps of 1e-9. A solver
    converging to 1e-4 J/kg sees that as noise and stalls. The state is checked with a
    (rho, T) update (about 1 us) and, when it misses, corrected by one Newton step on
    ``p(T, rho) = p``, ``h(T, rho) = h`` (to machine precision from there).

    Parameters
    ----------
    check : CoolProp.AbstractState
        A state of the same fluid that may be updated (the flash's own state is left alone).
    p, h : float
        The flash's inputs: pressure [Pa] and enthalpy [J/kg].
    T, rho : float
        The flash's temperature [K] and density [kg/m3].
    phase : int
        The flash's CoolProp phase, imposed on ``check``.

    Returns
    -------
    tuple of (float, float, float) or None
        The corrected temperature [K], entropy [J/kg/K] and density [kg/m3]; None when the
        flash met its inputs (to 1e-13) or the step could not be made.
    """
    check.specify_phase(phase)
    try:
        check.update(DT, rho, T)
        miss_p, miss_h = check.p() - p, check.hmass() - h
        if abs(miss_h) <= 1e-13 * abs(h) + 1e-9 and abs(miss_p) <= 1e-13 * p:
            return None
        p_t = check.first_partial_deriv(CP.iP, CP.iT, CP.iDmass)
        p_r = check.first_partial_deriv(CP.iP, CP.iDmass, CP.iT)
        h_t = check.first_partial_deriv(CP.iHmass, CP.iT, CP.iDmass)
        h_r = check.first_partial_deriv(CP.iHmass, CP.iDmass, CP.iT)
        det = p_t * h_r - p_r * h_t
        if det == 0.0 or det != det:
            return None
        T_new = T + (-miss_p * h_r + p_r * miss_h) / det
        rho_new = rho + (-h_t * -miss_p - p_t * miss_h) / det
        check.update(DT, rho_new, T_new)
        s_new = check.smass()
    except ValueError:
        return None
    finally:
        check.unspecify_phase()
    if is_bad(T_new) or is_bad(rho_new) or is_bad(s_new):
        return None
    return T_new, s_new, rho_new


def newton_rho_at_t(
    state: Any, phase: Any, p: float, T: float, rho: float
) -> tuple[float, float, float, float, float] | None:
    """The single-phase state at pressure ``p`` and temperature ``T``; None if Newton fails.

    Halley's method on the density alone, ``p(T, rho) = p`` at the given temperature (one
    ``DmassT`` update and two derivatives per step, where CoolProp's (p, T) flash of CO2
    above its critical pressure costs 30-60 us): from a start 1e-3 off, the second update
    is already within :data:`LAST_STEP`, and that step is taken to first order, as in
    :func:`newton_rho_t`.

    Parameters
    ----------
    state : CoolProp.AbstractState
        The state to update.
    phase : int
        CoolProp's phase code imposed during the iteration (lifted afterwards).
    p : float
        Pressure [Pa].
    T : float
        Temperature [K].
    rho : float
        Starting density [kg/m3].

    Returns
    -------
    tuple of float or None
        Density [kg/m3], enthalpy [J/kg], ``(dT/dh)_p`` [K kg/J], ``(drho/dh)_p``
        [kg2/(m3 J)] and ``(dh/dp)_T`` [J/(kg Pa)] (the slopes at the last update, a step of
        at most :data:`LAST_STEP` from the state); None when CoolProp fails, ``(dp/drho)_T`` is not positive (an unstable
        or metastable branch), the density leaves the positive range, or
        :data:`NEWTON_STEPS` updates do not settle.
    """
    partial = state.first_partial_deriv
    state.specify_phase(phase)
    try:
        for _ in range(NEWTON_STEPS):
            state.update(DT, rho, T)
            p_r = partial(CP.iP, CP.iDmass, CP.iT)
            if not p_r > 0.0:
                return None
            d_rho = (p - state.p()) / p_r
            # Halley: the curvature of p(rho) corrects the Newton step (the last one too: its
            # first-order end then leaves a third-order error, not a second-order one)
            p_rr = state.second_partial_deriv(CP.iP, CP.iDmass, CP.iT, CP.iDmass, CP.iT)
            damp = 1.0 + 0.5 * d_rho * p_rr / p_r
            if damp > 0.5:
                d_rho /= damp
            if abs(d_rho) <= LAST_STEP * rho:
                h = state.hmass() + partial(CP.iHmass, CP.iDmass, CP.iT) * d_rho
                cp = partial(CP.iHmass, CP.iT, CP.iP)
                rho_t = partial(CP.iDmass, CP.iT, CP.iP)
                h_p = partial(CP.iHmass, CP.iP, CP.iT)
                if is_bad(h) or not cp > 0.0:
                    return None
                return rho + d_rho, h, 1.0 / cp, rho_t / cp, h_p
            rho += d_rho
            if not rho > 0.0:
                return None
        return None
    except ValueError:
        return None
    finally:
        state.unspecify_phase()
