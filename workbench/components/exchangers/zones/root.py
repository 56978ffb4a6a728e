"""The heat flow at which an exchanger's discretised profile needs a given conductance.

Read by the gas cooler's model (written for the cascade coupling too): a required conductance
``UA_z(Q)`` that grows without bound as ``Q`` approaches its end-temperature limit ``Q_max``
(like ``-ln(Q_max - Q)`` near a pinch) and is infinite at or past an internal pinch. The root
of ``UA_z(Q) = UA`` is found by Newton's method in ``s = -ln(1 - Q/Q_max)``, where ``UA_z`` is
nearly linear near the pinch, on ``G(s) = 1/UA - 1/UA_z``, with secant slopes and a bracket: a
step out of the bracket (or an infinite conductance) bisects it. ``G`` is finite everywhere
(``1/UA`` at and past a pinch) and bends the other way than ``UA_z``, which blows up like
``-ln(s_pinch - s)`` towards an internal pinch: a Newton step on ``UA_z`` from below
overshoots into the pinch and needs bisections and slow steps back from above, one on ``G``
does not (the R744 heat pump example: 43 profile evaluations for its ten roots where Newton on
``UA_z`` took 60, the roots the same to 4e-13). Converged when a step moves ``Q`` by at most
``1e-12 Q_max`` from a point whose conductance is ``UA`` to 1e-6 (that step taken) (not the edge of an internal
pinch, where the conductance jumps to infinity without reaching ``UA``: None), the tolerance of the bracketed Brent search
(:func:`workbench.components.exchangers.zones.counterflow.find_root`) it replaces: a few profile evaluations
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
    inv_ua = 1.0 / ua

    def g(s: float) -> tuple[float, float]:
        """``(1/UA - 1/UA_z, UA_z)`` at ``s``: increasing, ``1/UA`` at or past a pinch."""
        u = required_ua(q_max * -math.expm1(-s))
        if not u > 0.0:
            return -math.inf, u
        return inv_ua - 1.0 / u, u

    lo, hi = 0.0, math.inf
    s = -math.log1p(-q_guess / q_max) if q_guess is not None and 0.0 < q_guess < q_max else 1.0
    g_s, u_s = g(s)
    prev: tuple[float, float] | None = None
    for _ in range(MAX_STEPS):
        finite = math.isfinite(u_s) and math.isfinite(g_s)
        if finite and g_s < 0.0:
            lo = max(lo, s)
        else:
            hi = min(hi, s)
        d_g = math.nan
        q_s = q_max * -math.expm1(-s)
        exact = slope(q_s) if slope is not None and finite else None
        if exact is not None and math.isfinite(exact):
            # dG/ds = dUA_z/dQ dQ/ds / UA_z^2, Q = Q_max (1 - e^-s)
            d_g = exact * (q_max - q_s) / (u_s * u_s)
        elif prev is not None and finite and math.isfinite(prev[1]) and prev[1] != g_s:
            d_g = (g_s - prev[1]) / (s - prev[0])
        elif finite:
            ds = 1e-7 * max(s, 1e-3)
            g_d = g(s + ds)[0]
            if math.isfinite(g_d):
                d_g = (g_d - g_s) / ds
        s_new = s - g_s / d_g if math.isfinite(d_g) and d_g > 0.0 else math.nan
        if not lo <= s_new <= hi:  # (a step below the resolution of s stays put: converged)
            s_new = 0.5 * (lo + hi) if math.isfinite(hi) else 2.0 * max(s, 1.0)
        q_old, q_new = q_max * -math.expm1(-s), q_max * -math.expm1(-s_new)
        if abs(q_new - q_old) <= 1e-12 * q_max:
            if math.isfinite(u_s) and abs(u_s - ua) <= 1e-6 * ua:
                # this point is a root already: its last Newton step (below 1e-12 Q_max, its
                # error the square of that) is taken without an evaluation to confirm it
                return q_new
            # a root of the conductance, not the edge of an internal pinch (where it jumps to
            # infinity without reaching ua: the bracketed search settles on that edge)
            u_new = g(s_new)[1]
            return q_new if math.isfinite(u_new) and abs(u_new - ua) <= 1e-6 * ua else None
        prev = (s, g_s)
        s = s_new
        g_s, u_s = g(s)
    return None
