"""The heat flow at which an exchanger's discretised profile needs a given conductance.

Read by the gas cooler's model and the cascade coupling: both have a required conductance
``UA_z(Q)`` that grows without bound as ``Q`` approaches its end-temperature limit ``Q_max``
(like ``-ln(Q_max - Q)`` near a pinch) and is infinite at or past an internal pinch. The root
of ``UA_z(Q) = UA`` is found by Newton's method in ``s = -ln(1 - Q/Q_max)``, where ``UA_z`` is
nearly linear near the pinch, with secant slopes and a bracket: a step out of the bracket (or
an infinite conductance) bisects it. Converged when a step moves ``Q`` by at most
``1e-12 Q_max`` onto a point whose conductance is ``UA`` to 1e-6 (not the edge of an internal
pinch, where the conductance jumps to infinity without reaching ``UA``: None), the tolerance of the bracketed Brent search
(:func:`workbench.components.counterflow.find_root`) it replaces: a few profile evaluations
where that search takes 20 to 40. None when :data:`MAX_STEPS` steps do not settle; the caller
then runs the bracketed search.
"""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["MAX_STEPS", "root_in_s"]

MAX_STEPS = 40
"""Steps before :func:`root_in_s` gives up (the caller falls back to a bracketed search)."""


def root_in_s(
    required_ua: Callable[[float], float],
    q_max: float,
    ua: float,
    q_guess: float | None,
    slope: Callable[[float], float | None] | None = None,
) -> float | None:
    """The heat flow [W] in ``(0, q_max)`` at which ``required_ua(q) = ua``, or None.

    Parameters
    ----------
    required_ua : callable
        ``q [W] -> UA_z [W/K]``, increasing, ``inf`` at or past a pinch.
    q_max : float
        End-temperature limit of the heat flow [W], > 0.
    ua : float
        Available conductance [W/K], > 0.
    q_guess : float, optional
        A nearby heat flow [W] (the last solution) to start from.
    slope : callable, optional
        ``q [W] -> dUA_z/dQ [1/K]`` at a ``q`` just passed to ``required_ua`` (None when not
        known): Newton's method with this derivative instead of secant slopes.

    Returns
    -------
    float or None
        The root, to ``1e-12 q_max``; None when the iteration does not settle.
    """
    if not (q_max > 0.0 and ua > 0.0):
        return None

    def g(s: float) -> float:
        return required_ua(q_max * -math.expm1(-s)) - ua

    lo, hi = 0.0, math.inf
    s = -math.log1p(-q_guess / q_max) if q_guess is not None and 0.0 < q_guess < q_max else 1.0
    g_s = g(s)
    prev: tuple[float, float] | None = None
    for _ in range(MAX_STEPS):
        if math.isfinite(g_s) and g_s < 0.0:
            lo = max(lo, s)
        else:
            hi = min(hi, s)
        d_g = math.nan
        q_s = q_max * -math.expm1(-s)
        exact = slope(q_s) if slope is not None and math.isfinite(g_s) else None
        if exact is not None and math.isfinite(exact):
            d_g = exact * (q_max - q_s)  # dUA/ds = dUA/dQ dQ/ds, Q = Q_max (1 - e^-s)
        elif prev is not None and math.isfinite(g_s) and math.isfinite(prev[1]) and prev[1] != g_s:
            d_g = (g_s - prev[1]) / (s - prev[0])
        elif math.isfinite(g_s):
            ds = 1e-7 * max(s, 1e-3)
            g_d = g(s + ds)
            if math.isfinite(g_d):
                d_g = (g_d - g_s) / ds
        s_new = s - g_s / d_g if math.isfinite(d_g) and d_g > 0.0 else math.nan
        if not lo <= s_new <= hi:  # (a step below the resolution of s stays put: converged)
            s_new = 0.5 * (lo + hi) if math.isfinite(hi) else 2.0 * max(s, 1.0)
        q_old, q_new = q_max * -math.expm1(-s), q_max * -math.expm1(-s_new)
        if abs(q_new - q_old) <= 1e-12 * q_max:
            if math.isfinite(g_s) and abs(g_s) <= 1e-6 * ua:
                return q_old  # this point is a root already: no evaluation to confirm it
            # a root of the conductance, not the edge of an internal pinch (where it jumps to
            # infinity without reaching ua: the bracketed search settles on that edge)
            g_new = g(s_new)
            return q_new if math.isfinite(g_new) and abs(g_new) <= 1e-6 * ua else None
        prev = (s, g_s)
        s, g_s = s_new, g(s_new)
    return None
