"""A blend's states above its dome: exact HEOS where the tables end (transcritical cycles).

Who reads this: :class:`~workbench.fluids.blend.backend.BlendBackend`, for every state at a
pressure above its tables (a gas cooler's high side, a compressor's discharge there). Above the
**cricondenbar** ``p_cb`` (the highest pressure of the mixture's phase envelope, CoolProp's
``build_phase_envelope``; for the predefined blends 0.01-0.2 % above the critical pressure) no
state of the blend has two phases, so a single-phase HEOS state is the state. Between the top of
the tables and ``p_cb`` the dome is not tabulated (CoolProp's (p, Q) flash of the mixture stops
converging there): such a state is refused with that reason, never extrapolated.

A state at ``p >= p_cb`` (:data:`CB_MARGIN` above) is found without CoolProp's mixture flashes,
which cost 25 ms to 1.4 s a call and, with a phase imposed, land on the wrong density root
(R455A at 46.5 bar and 300 K: 800 instead of 1050 kg/m3; at 60 bar and 250 K a negative
enthalpy of -6.5 MJ/kg):

- the density at (p, T) by Newton's method on ``p(T, rho) = p`` (HEOS (rho, T) updates, 10 us
  each) kept inside a bracket, started once from a compressed liquid (1.05 times the coldest
  tabulated bubble density) and once from the ideal gas; where both converge to different
  roots the one with the lower Gibbs energy ``g = h - T s`` is the stable state (the rule of
  every cubic or multiparameter equation of state);
- (p, h) and (p, s) states: Brent's method on the temperature between the model's limits (the
  enthalpy and entropy rise with T along an isobar), then :func:`~workbench.fluids.coolprop.newton.
  newton_rho_t` from there to 1e-13; nearby states then start from the remembered ones (the
  supercritical layer of the CoolProp backend, :mod:`~workbench.fluids.coolprop.supercritical`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import CoolProp.CoolProp as CP
from scipy.optimize import brentq

from workbench.fluids.coolprop.records import DT, is_bad

__all__ = ["CB_MARGIN", "DENSITY_STEPS", "Root", "cricondenbar", "density_root", "solve_t"]

CB_MARGIN = 1e-3
"""A blend's state counts as above the dome from ``(1 + CB_MARGIN) p_cb`` [-] (the envelope is
CoolProp's traced curve, exact to its step)."""

DENSITY_STEPS = 80
"""(rho, T) updates one start of :func:`density_root` may take."""

Root = tuple[float, float, float, float]
"""A single-phase state at (p, T): density [kg/m3], enthalpy [J/kg], entropy [J/kg/K] and
``cp`` [J/(kg K)]."""


def cricondenbar(state: Any, p_crit: float) -> float:
    """Highest pressure of the mixture's phase envelope [Pa] (``p_crit`` [Pa] if none is traced).

    Parameters
    ----------
    state : CoolProp.AbstractState
        A HEOS mixture state (its envelope is built; the state is otherwise left as it was).
    p_crit : float
        The blend's critical pressure [Pa]: the answer is never below it.
    """
    try:
        state.build_phase_envelope("")
        found = max(float(p) for p in state.get_phase_envelope_data().p)
    except (ValueError, RuntimeError):
        return p_crit
    return max(found, p_crit) if math.isfinite(found) else p_crit


def _newton(state: Any, p: float, T: float, rho: float) -> Root | None:
    """Density root of ``p(T, rho) = p`` from ``rho``, bracketed; None when it does not settle."""
    lo, hi = 0.0, math.inf
    partial = state.first_partial_deriv
    for _ in range(DENSITY_STEPS):
        state.update(DT, rho, T)
        miss = state.p() - p
        if miss > 0.0:
            hi = min(hi, rho)
        else:
            lo = max(lo, rho)
        slope = partial(CP.iP, CP.iDmass, CP.iT)
        if abs(miss) <= 1e-13 * p and slope > 0.0:
            cp = partial(CP.iHmass, CP.iT, CP.iP)
            h, s = state.hmass(), state.smass()
            if is_bad(h) or is_bad(s) or not cp > 0.0:
                return None
            return rho, h, s, cp
        new = rho - miss / slope if slope > 0.0 else math.nan
        if not lo < new < hi:  # outside the bracket (or an unstable slope): bisect
            new = 0.5 * (lo + hi) if math.isfinite(hi) else 2.0 * rho
        if hi - lo <= 1e-15 * hi:
            return None
        rho = new
    return None


def density_root(state: Any, phase: Any, p: float, T: float, rho_liquid: float) -> Root | None:
    """The stable single-phase state at (p, T) above the dome (module docstring).

    Parameters
    ----------
    state : CoolProp.AbstractState
        The HEOS mixture state to update (it holds the chosen root afterwards).
    phase : int
        CoolProp's phase code imposed during the updates (lifted afterwards).
    p : float
        Pressure [Pa].
    T : float
        Temperature [K].
    rho_liquid : float
        Start of the liquid-side search [kg/m3] (above every liquid density of the blend).

    Returns
    -------
    Root or None
        Density [kg/m3], enthalpy [J/kg], entropy [J/kg/K], ``cp`` [J/(kg K)]; None when no
        start converges.
    """
    rho_gas = p * state.molar_mass() / (8.314462618 * T)
    state.specify_phase(phase)
    try:
        roots = []
        for rho in (rho_liquid, rho_gas):
            try:
                found = _newton(state, p, T, rho)
            except ValueError:
                found = None
            if found is not None:
                roots.append(found)
        if not roots:
            return None
        best = min(roots, key=lambda r: r[1] - T * r[2])
        state.update(DT, best[0], T)  # the state holds the chosen root
        return best
    except ValueError:
        return None
    finally:
        state.unspecify_phase()


def solve_t(value_at: Callable[[float], float], target: float, t_lo: float, t_hi: float) -> float:
    """The temperature [K] in ``[t_lo, t_hi]`` where the rising ``value_at(T)`` meets ``target``.

    Brent's method to 1e-10 K (the caller polishes the state by Newton's method).

    Raises
    ------
    ValueError
        ``target`` is outside ``value_at`` over the range (the message says which end).
    """
    a, b = value_at(t_lo) - target, value_at(t_hi) - target
    if a > 0.0:
        raise ValueError(f"below the lowest the blend reaches at this pressure (T={t_lo:.6g} K)")
    if b < 0.0:
        raise ValueError(f"above the highest the blend reaches at this pressure (T={t_hi:.6g} K)")
    return float(brentq(lambda t: value_at(t) - target, t_lo, t_hi, xtol=1e-10, rtol=1e-14))
