"""Counterflow relations of one zone: conductance from LMTD, NTU and effectiveness, bracketing.

For a zone with constant capacity rates on both sides, the conductance it needs for a heat flow
``q`` between end temperature differences ``a`` and ``b`` (hot minus cold) is::

    UA = q / LMTD,      LMTD = (a - b) / ln(a / b)      (= (a + b) / 2 when a = b)

which is the epsilon-NTU result for counterflow written without ``C_min``/``C_max``, so it
covers the two-phase limit ``Cr = 0`` too. :func:`lmtd_partials` gives ``LMTD`` with its
derivatives, which the zone model's analytic Newton steps and Jacobians need.

References
----------
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.3
(LMTD) and 11.4 (epsilon-NTU, counterflow).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from scipy.optimize import brentq

__all__ = [
    "counterflow_effectiveness",
    "counterflow_ntu",
    "counterflow_ua",
    "find_root",
    "lmtd_partials",
]

_EQUAL = 1e-9
"""Relative difference of the end temperature differences below which LMTD is their mean."""


def counterflow_ua(q: float, dt_a: float, dt_b: float) -> float:
    """Conductance a counterflow zone needs [W/K].

    Parameters
    ----------
    q : float
        Heat flow of the zone [W], >= 0.
    dt_a, dt_b : float
        Hot-minus-cold temperature differences at the two ends [K].

    Returns
    -------
    float
        ``q / LMTD``; ``inf`` when a difference is not positive (a pinch or a crossing).
    """
    if q <= 0.0:
        return 0.0
    if dt_a <= 0.0 or dt_b <= 0.0:
        return math.inf
    if abs(dt_a - dt_b) <= _EQUAL * max(dt_a, dt_b):
        lmtd = 0.5 * (dt_a + dt_b)
    else:
        lmtd = (dt_a - dt_b) / math.log(dt_a / dt_b)
    return q / lmtd


def lmtd_partials(dt_a: float, dt_b: float) -> tuple[float, float, float]:
    """LMTD [K] of two positive end differences and its partial derivatives [-].

    Returns
    -------
    (float, float, float)
        ``L``, ``dL/da = (ln r - 1 + 1/r) / ln(r)^2`` and ``dL/db = (r - 1 - ln r) / ln(r)^2``
        with ``r = a/b``; ``L`` equals what :func:`counterflow_ua` divides by. Near ``a = b``
        the derivatives come from the series ``1/2 -+ (r - 1)/6`` (the closed forms cancel).
    """
    if abs(dt_a - dt_b) <= _EQUAL * max(dt_a, dt_b):
        lmtd = 0.5 * (dt_a + dt_b)
    else:
        lmtd = (dt_a - dt_b) / math.log(dt_a / dt_b)
    ratio = dt_a / dt_b
    eps = ratio - 1.0
    if abs(eps) < 1e-3:
        return lmtd, 0.5 - eps / 6.0, 0.5 + eps / 6.0
    log_r = math.log(ratio)
    log2 = log_r * log_r
    return lmtd, (log_r - 1.0 + 1.0 / ratio) / log2, (ratio - 1.0 - log_r) / log2


def counterflow_ntu(eps: float, cr: float) -> float:
    """NTU of a counterflow exchanger from its effectiveness [-] and capacity ratio [-]."""
    if eps >= 1.0:
        return math.inf
    if abs(1.0 - cr) < 1e-12:
        return eps / (1.0 - eps)
    if eps * cr >= 1.0:
        return math.inf
    return math.log((1.0 - cr * eps) / (1.0 - eps)) / (1.0 - cr)


def counterflow_effectiveness(ntu: float, cr: float) -> float:
    """Effectiveness [-] of a counterflow exchanger from NTU [-] and capacity ratio [-]."""
    if ntu <= 0.0:
        return 0.0
    if abs(1.0 - cr) < 1e-9:
        return ntu / (1.0 + ntu)
    e = math.exp(-ntu * (1.0 - cr))
    return (1.0 - e) / (1.0 - cr * e)


def find_root(g: Callable[[float], float], q_hi: float, q_guess: float | None) -> float:
    """Root of the increasing function ``g`` on ``(0, q_hi)`` [W], bracketed near ``q_guess``.

    Brent's method to 1e-12 of ``q_hi``; a bracket of +-1e-4 relative around the guess is tried
    first and widened tenfold until it holds the root, else the full interval is used.
    """
    lo_full, hi_full = 0.0, q_hi
    if q_guess is not None and 0.0 < q_guess < q_hi:
        width = 1e-4 * q_guess
        while width < q_hi:
            lo, hi = max(q_guess - width, 0.0), min(q_guess + width, q_hi)
            g_lo, g_hi = g(lo), g(hi)
            if g_lo <= 0.0 <= g_hi:
                return float(brentq(g, lo, hi, xtol=1e-12 * q_hi, rtol=1e-14, maxiter=200))
            if g_lo > 0.0:
                hi_full = lo
            else:
                lo_full = hi
            width *= 10.0
    return float(brentq(g, lo_full, hi_full, xtol=1e-12 * q_hi, rtol=1e-14, maxiter=200))
