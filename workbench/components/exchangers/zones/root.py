"""The one 1-D root every exchanger solves: the heat flow at which its zones need the given UA.

Every zoned exchanger (a coil against its secondary, :mod:`.heat_flow`; two refrigerant streams,
:mod:`.coupled_profile`; the gas cooler's discretised profile,
:mod:`workbench.components.exchangers.gas_cooler.model`) needs a conductance ``UA_z(Q)`` that
grows without bound as ``Q`` approaches its end-temperature limit ``Q_max`` (like
``-ln(Q_max - Q)`` near a pinch) and is infinite at or past an internal pinch. The exchanger
states its residual ``r(Q)``: dimensionless, increasing, zero at the root and ``+inf`` (or NaN)
at or past a pinch, with ``dr/dQ`` where it knows it; :func:`newton_in_s` finds the root:

- **Newton's method in** ``s = -ln(1 - Q/Q_max)``, where ``UA_z`` is nearly linear near the
  pinch (exactly for one two-phase zone against the secondary), ``dr/ds = dr/dQ (Q_max - Q)``;
  without ``dr/dQ``, the secant through the last evaluation (when finite), else a forward
  difference;
- **bisection safeguard**: a step that leaves the bracket ``[s_lo, s_hi]`` (``r < 0`` at
  ``s_lo``, ``r > 0`` or a pinch at ``s_hi``), or has no positive slope, halves the bracket;
- **one overflow guard**: ``s`` stays in ``[0, s_cap]``, ``s_cap = -ln(tol / 2)``: ``s >= 0``
  is ``Q >= 0`` (and ``exp(-s)`` finite), ``s <= s_cap`` keeps ``Q`` at least ``tol Q_max / 2``
  below the pinch, where ``UA_z`` is infinite; a Newton step beyond ``s_cap`` from below goes
  to ``s_cap`` (the root is at the pinch to the tolerance: halving towards it would gain only
  ``ln 2`` of ``s`` per evaluation);
- **one stopping rule**: a step that leaves an error of at most ``tol Q_max`` in ``Q`` ends the
  search: the step itself, or in Newton's quadratic phase the square of the step times the
  constant the two steps before measure (:func:`_error_after`); that step is taken without an evaluation to confirm it (quadratic convergence leaves an error of
  the order of its square) when the point it starts from has ``|r| <= RESIDUAL_TOLERANCE`` or is
  at ``s_cap``; otherwise (a step onto the edge of an internal pinch, where ``UA_z`` jumps to
  infinity without reaching ``UA``) the end point is evaluated and accepted only when its
  ``|r|`` is at most ``RESIDUAL_TOLERANCE`` or a tenth of the start's (Newton converging, which
  a step along the edge is not); None then, and after :data:`MAX_EVALUATIONS`: the caller runs
  the bracketed search (:func:`bracketed_root`).

:func:`root_in_s` is the same root stated with a required conductance ``UA_z(Q)`` and its slope
(the residual ``1 - UA/UA_z``, which bends the other way than ``UA_z`` towards an internal pinch
and so needs no slow steps back from above one).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from workbench.components.exchangers.zones.counterflow import find_root

__all__ = [
    "ESTIMATE_MARGIN",
    "MAX_EVALUATIONS",
    "RESIDUAL_TOLERANCE",
    "ROOT_TOLERANCE",
    "Residual",
    "bracketed_root",
    "newton_in_s",
    "root_in_s",
]

ROOT_TOLERANCE = 1e-12
"""Default ``tol``: the search stops on a step below this share of ``Q_max`` [-]."""

RESIDUAL_TOLERANCE = 1e-6
"""A point with ``|r|`` at most this [-] is a root: its last small step needs no confirming."""

MAX_EVALUATIONS = 60
"""Residual evaluations before :func:`newton_in_s` gives up (the caller falls back)."""

ESTIMATE_MARGIN = 10.0
"""The quadratic-phase error estimate is trusted to this factor [-] (two steps measure its
constant only roughly)."""
"""Residual evaluations before :func:`newton_in_s` gives up (the caller falls back)."""

Residual = Callable[[float], tuple[float, float | None]]
"""``Q [W] -> (r [-], dr/dQ [1/W] or None)``: increasing, ``+inf`` at or past a pinch."""


def newton_in_s(
    residual: Residual,
    q_max: float,
    q_start: float | None,
    *,
    tol: float = ROOT_TOLERANCE,
    max_evaluations: int = MAX_EVALUATIONS,
) -> float | None:
    """The heat flow [W] in ``(0, q_max)`` where ``residual`` is zero, or None (module docstring).

    Parameters
    ----------
    residual : callable
        ``Q [W] -> (r, dr/dQ)``: ``r`` [-] increasing in ``Q``, zero at the root, ``+inf`` or
        NaN at or past a pinch; ``dr/dQ`` [1/W] or None when not known (secant steps then).
    q_max : float
        End-temperature limit of the heat flow [W], > 0.
    q_start : float, optional
        Where to start [W] (the last solution, a prediction); ``s = 1`` when None or outside
        ``(0, q_max)``.
    tol : float
        The stopping rule's share of ``q_max`` [-].
    max_evaluations : int
        Evaluations of ``residual`` before giving up.

    Returns
    -------
    float or None
        The root [W] to ``tol q_max``; None when the search does not settle on a root.
    """
    if not q_max > 0.0:
        return None
    s_cap = -math.log(0.5 * tol)
    lo, hi, hi_is_pinch = 0.0, s_cap, False
    if q_start is not None and 0.0 < q_start < q_max:
        s = min(-math.log1p(-q_start / q_max), s_cap)
    else:
        s = 1.0
    prev: tuple[float, float] | None = None  # (s, r) of the last evaluation, when finite
    last_step = math.inf  # the last Newton step in s (inf after a bisection)
    for _ in range(max_evaluations):
        q = -q_max * math.expm1(-s)
        r, dr_dq = residual(q)
        finite = math.isfinite(r)
        if finite and r == 0.0:
            return q
        if finite and r < 0.0:
            lo = max(lo, s)
        elif s <= hi:
            hi, hi_is_pinch = s, not finite
        d_r = math.nan  # dr/ds
        exact = finite and dr_dq is not None and math.isfinite(dr_dq)
        if finite and dr_dq is not None and math.isfinite(dr_dq):
            d_r = dr_dq * (q_max - q)
        elif finite and prev is not None and prev[1] != r:
            d_r = (r - prev[1]) / (s - prev[0])
        elif finite:
            ds = 1e-7 * max(s, 1e-3)
            r_d = residual(-q_max * math.expm1(-(s + ds)))[0]
            if math.isfinite(r_d):
                d_r = (r_d - r) / ds
        s_new = s - r / d_r if math.isfinite(d_r) and d_r > 0.0 else math.nan
        newton = exact  # (a secant step converges too slowly for the quadratic estimate)
        if r < 0.0 and s_new > hi == s_cap and not hi_is_pinch:
            s_new, newton = s_cap, False  # the root is at the pinch to the tolerance
        elif not lo <= s_new <= hi:
            s_new, newton = 0.5 * (lo + hi), False
        q_new = -q_max * math.expm1(-s_new)
        step = s_new - s
        if _error_after(step, last_step if newton else math.inf, q_new - q, q_max - q_new) <= (
            tol * q_max
        ):
            if finite and (abs(r) <= RESIDUAL_TOLERANCE or s == s_cap):
                return q_new
            r_new = residual(q_new)[0]  # a root where Newton converges, not a pinch's edge
            shrunk = abs(r_new) <= max(RESIDUAL_TOLERANCE, 0.1 * abs(r) if finite else 0.0)
            return q_new if shrunk else None
        prev = (s, r) if finite else None
        last_step = step if newton else math.inf
        s = s_new
    return None


def _error_after(step: float, last_step: float, dq: float, room: float) -> float:
    """The error [W] left in ``Q`` after a step of ``step`` in ``s`` (``dq`` [W] in ``Q``).

    The step itself, ``|dq|``; in Newton's quadratic phase (``|step| <= 1e-3`` and at most a
    tenth of the Newton step before, ``last_step``, inf after a bisection) the error after it is ``K step^2`` with
    ``K = |step| / last_step^2`` (two steps measure the constant; :data:`ESTIMATE_MARGIN` for its
    error), in ``Q`` that times the room
    to the pinch ``room = Q_max - Q`` [W]: the evaluation that would only confirm it is saved.
    """
    error = abs(dq)
    if math.isfinite(last_step) and abs(step) <= 1e-3 and abs(step) <= 0.1 * abs(last_step):
        error = min(error, ESTIMATE_MARGIN * room * abs(step) ** 3 / (last_step * last_step))
    return error


def bracketed_root(residual: Residual, q_max: float, q_guess: float | None) -> float:
    """The root of ``residual`` by Brent's method to ``1e-12 q_max`` [W] (the fallback).

    :func:`~workbench.components.exchangers.zones.counterflow.find_root` on ``r / (1 + |r|)``
    (``1`` at or past a pinch and at ``q_max``), bracketed near ``q_guess``; it settles on the
    edge of an internal pinch where :func:`newton_in_s` gives None.
    """

    def g(q: float) -> float:
        if q >= q_max:
            return 1.0
        r = residual(q)[0]
        return r / (1.0 + abs(r)) if math.isfinite(r) else 1.0

    return find_root(g, q_max, q_guess)


def root_in_s(
    required_ua: Callable[[float], float],
    q_max: float,
    ua: float,
    q_guess: float | None,
    slope: Callable[[float], float | None] | None = None,
) -> float | None:
    """The heat flow [W] in ``(0, q_max)`` at which ``required_ua(q) = ua``, or None.

    :func:`newton_in_s` on ``r = 1 - UA/UA_z`` (``dr/dQ = UA dUA_z/dQ / UA_z^2``).

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

    def residual(q: float) -> tuple[float, float | None]:
        u = required_ua(q)
        if not u > 0.0 or math.isinf(u):
            return math.inf, None
        exact = slope(q) if slope is not None else None
        return 1.0 - ua / u, (ua * exact / (u * u) if exact is not None else None)

    return newton_in_s(residual, q_max, q_guess)
