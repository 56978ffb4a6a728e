"""Derivatives of the cascade exchanger's heat flow: the implicit function theorem on its cuts.

The heat flow ``Q`` of a thermal coupling solves ``UA_z(Q, x) = UA``
(:mod:`workbench.components.exchangers.zones.coupled_profile`), ``x`` the hot and cold inlet ``m``, ``p``,
``h``. At the solved ``Q``::

    dQ/dx = -(dUA_z/dx) / (dUA_z/dQ)

with every partial analytic on the same cuts: a cut's position ``xi`` moves with the heat flows
per kilogram ``d_h = Q/m_h``, ``d_c = efficiency Q/m_c`` and, for a saturation cut, with the
saturation enthalpy (``xi = (h_hi - h_sat(p_h)) / d_h`` on the hot side, ``(h_co - h_sat(p_c))
/ d_c`` on the cold side); the side that moves at a cut changes its temperature through
``(dT/dh)_p`` and ``(dT/dp)_h``, the side the cut fixes through ``dT_sat/dp`` or the inlet's own
derivatives; then the chain rule through ``UA_z = sum Q (xi_k+1 - xi_k) / LMTD(dT_k, dT_k+1)``
(:func:`~workbench.components.exchangers.zones.counterflow.lmtd_partials`). No root-find per column: the
Newton system's Jacobian of a coupling costs one set of derivatives at the solved state.

Within :data:`PINCHED` of the end-temperature limit ``Q_max`` (where both partials grow without
bound) the derivatives are those of ``Q_max`` itself (:func:`pinch_sensitivity`).
"""

from __future__ import annotations

import math

from workbench.components.exchangers.zones.counterflow import lmtd_partials
from workbench.components.exchangers.zones.coupled_profile import CoupledProfile, Cut, _around

__all__ = [
    "PINCHED",
    "REUSE_S",
    "conductance_tangents",
    "coupled_sensitivity",
    "evaluated_near",
    "pinch_sensitivity",
]

PINCHED = 1e-6
"""A heat flow within this share of ``Q_max`` is at the pinch: no implicit-function derivative
(two values that grow without bound would be divided)."""

REUSE_S = 1e-6
"""The root's last evaluated heat flow stands in for the root in the derivatives when they are
this close in ``s = -ln(1 - Q/Q_max)`` (the root's last step, below 1e-7, is never evaluated):
the derivatives move by about that share, far below what Newton's method notices."""


def evaluated_near(prof: CoupledProfile, q: float) -> float:
    """The heat flow [W] to take the derivatives of the root ``q`` [W] at.

    The last heat flow whose cuts ``prof`` remembers when it lies within :data:`REUSE_S` of
    ``q`` in ``s`` (``|dQ| <= REUSE_S (Q_max - Q)``), else ``q``: the Jacobian then needs no new
    cut states (4 to 6 property calls and their derivatives), only the derivatives the root's
    slope did not already ask for.
    """
    last = prof.last
    if last is None or not 0.0 < q < prof.q_max:
        return q
    q_last = last[0]
    if q_last > 0.0 and abs(q_last - q) <= REUSE_S * (prof.q_max - max(q, q_last)):
        return q_last
    return q


# directions of the derivatives: the heat flow, then the hot and cold inlet m, p, h
_Q, _MH, _PH, _HH, _MC, _PC, _HC = range(7)


def _moving_slopes(prof: CoupledProfile, cut: Cut) -> tuple[float, float]:
    """``dT/dh`` [K kg/J] and ``dT/dp`` [K/Pa] of the side that moves at ``cut``."""
    if cut.kind in ("in", "hot"):  # the cold side moves
        fl, p, h = prof.fc, prof.p_c, cut.h_cold
    else:
        fl, p, h = prof.fh, prof.p_h, cut.h_hot
    return float(fl.dT_dh_p(p, h)), float(fl.dT_dp_h(p, h))


def conductance_tangents(prof: CoupledProfile, q: float) -> list[float] | None:
    """Partial derivatives of the zones' conductance at heat flow ``q`` [W].

    Returns
    -------
    list of float or None
        ``[dUA/dQ, dUA/dm_h, dUA/dp_h, dUA/dh_hi, dUA/dm_c, dUA/dp_c, dUA/dh_ci]`` (W/K per
        unit of each); None where a temperature difference is not positive (no finite
        derivative).
    """
    cuts = prof.cuts(q)
    dts = [c.t_hot - c.t_cold for c in cuts]
    if min(dts) <= 0.0:
        return None
    m_h, m_c, eff = prof.m_h, prof.m_c, prof.eff
    d_h, d_c = q / m_h, eff * q / m_c
    moving = [(0.0, 0.0) if c.kind == "sub" else _moving_slopes(prof, c) for c in cuts]
    both = {  # a sub-cut moves on both sides: (dT/dh, dT/dp) of the hot and the cold side
        i: (
            float(prof.fh.dT_dh_p(prof.p_h, c.h_hot)),
            float(prof.fh.dT_dp_h(prof.p_h, c.h_hot)),
            float(prof.fc.dT_dh_p(prof.p_c, c.h_cold)),
            float(prof.fc.dT_dp_h(prof.p_c, c.h_cold)),
        )
        for i, c in enumerate(cuts)
        if c.kind == "sub"
    }
    ends = (
        float(prof.fh.dT_dh_p(prof.p_h, prof.h_hi)),
        float(prof.fh.dT_dp_h(prof.p_h, prof.h_hi)),
        float(prof.fc.dT_dh_p(prof.p_c, prof.h_ci)),
        float(prof.fc.dT_dp_h(prof.p_c, prof.h_ci)),
    )
    none = (0.0, 0.0, 0.0, 0.0)
    sat_h = prof.memo.slopes(prof.fh, prof.p_h) if any(c.kind == "hot" for c in cuts) else none
    sat_c = prof.memo.slopes(prof.fc, prof.p_c) if any(c.kind == "cold" for c in cuts) else none
    lmtds = [lmtd_partials(dts[k], dts[k + 1]) for k in range(len(cuts) - 1)]
    out = []
    for direction in range(7):
        e = [0.0] * 7
        e[direction] = 1.0
        dd_h = e[_Q] / m_h - e[_MH] * q / (m_h * m_h)
        dd_c = eff * (e[_Q] / m_c - e[_MC] * q / (m_c * m_c))
        dh_co = e[_HC] + dd_c
        dxis, ddts = [], []
        for cut, (t_h, t_p) in zip(cuts, moving, strict=True):
            xi = cut.xi
            if cut.kind == "sub":  # filled below, from the cuts around it
                dxis.append(math.nan)
                ddts.append(math.nan)
                continue
            if cut.kind == "in":
                dxi = 0.0
                dt_hot = ends[0] * e[_HH] + ends[1] * e[_PH]
                dt_cold = t_h * dh_co + t_p * e[_PC]
            elif cut.kind == "out":
                dxi = 0.0
                dt_hot = t_h * (e[_HH] - dd_h) + t_p * e[_PH]
                dt_cold = ends[2] * e[_HC] + ends[3] * e[_PC]
            elif cut.kind == "hot":
                dxi = (e[_HH] - sat_h[cut.which] * e[_PH] - xi * dd_h) / d_h
                dt_hot = sat_h[2 + cut.which] * e[_PH]
                dt_cold = t_h * (dh_co - dxi * d_c - xi * dd_c) + t_p * e[_PC]
            else:
                dxi = (dh_co - sat_c[cut.which] * e[_PC] - xi * dd_c) / d_c
                dt_cold = sat_c[2 + cut.which] * e[_PC]
                dt_hot = t_h * (e[_HH] - dxi * d_h - xi * dd_h) + t_p * e[_PH]
            dxis.append(dxi)
            ddts.append(dt_hot - dt_cold)
        for i, slopes in both.items():
            cut = cuts[i]
            a, b = _around(cuts, i)
            dxi = (1.0 - cut.share) * dxis[a] + cut.share * dxis[b]
            dh_hot = e[_HH] - dxi * d_h - cut.xi * dd_h
            dh_cold = dh_co - dxi * d_c - cut.xi * dd_c
            dxis[i] = dxi
            ddts[i] = (slopes[0] * dh_hot + slopes[1] * e[_PH]) - (
                slopes[2] * dh_cold + slopes[3] * e[_PC]
            )
        total = 0.0
        for k, (lmtd, l_a, l_b) in enumerate(lmtds):
            span = cuts[k + 1].xi - cuts[k].xi
            total += (e[_Q] * span + q * (dxis[k + 1] - dxis[k])) / lmtd
            total -= q * span / (lmtd * lmtd) * (l_a * ddts[k] + l_b * ddts[k + 1])
        out.append(total)
    return out


def coupled_sensitivity(prof: CoupledProfile, q: float, ua: float) -> list[float] | None:
    """``dQ/dx`` at the root ``q`` [W] of ``UA_z = ua`` [W/K] for both inlets' ``m, p, h``.

    Returns
    -------
    list of float or None
        ``[dQ/dm_h, dQ/dp_h, dQ/dh_hi, dQ/dm_c, dQ/dp_c, dQ/dh_ci]`` (J/kg, W/Pa, kg/s). At the
        pinch (``q`` within :data:`PINCHED` of ``Q_max``) those of ``Q_max``
        (:func:`pinch_sensitivity`). None without heat flow, where ``q`` is not a root of the
        conductance (the edge of an internal pinch, where it jumps to infinity) or where the
        conductance has no finite positive slope.
    """
    if not 0.0 < q <= prof.q_max:
        return None
    if q >= (1.0 - PINCHED) * prof.q_max:
        return pinch_sensitivity(prof)
    if not abs(prof.conductance(q)[0] - ua) <= 1e-6 * ua:
        return None
    d = conductance_tangents(prof, q)
    if d is None or not (math.isfinite(d[0]) and d[0] > 0.0):
        return None
    out = [-v / d[0] for v in d[1:]]
    return out if all(math.isfinite(v) for v in out) else None


def pinch_sensitivity(prof: CoupledProfile) -> list[float] | None:
    """``dQ_max/dx`` for both inlets' ``m``, ``p``, ``h`` (order of :func:`coupled_sensitivity`).

    The active limit is ``m_h (h_hi - h_h(p_h, T_ci))`` (the hot outlet at the cold inlet
    temperature) or ``m_c (h_c(p_c, T_hi) - h_ci) / efficiency``; ``h(p, T)`` outside the dome
    has ``dh/dT = 1 / (dT/dh)_p`` and ``(dh/dp)_T = -(dT/dp)_h / (dT/dh)_p``. None when the
    limit temperature is inside the other stream's dome (a pure fluid's ``h(T)`` jumps there).
    """
    if prof.hot_limits:
        fl, p, h_lim, sat = prof.fh, prof.p_h, prof.h_ho_min, prof.sat_h
        other, p_o, h_o, t_lim = prof.fc, prof.p_c, prof.h_ci, prof.t_ci
    else:
        fl, p, h_lim, sat = prof.fc, prof.p_c, prof.h_co_max, prof.sat_c
        other, p_o, h_o, t_lim = prof.fh, prof.p_h, prof.h_hi, prof.t_hi
    if sat[2] - 1e-9 <= t_lim <= sat[3] + 1e-9:
        return None
    t_h = float(fl.dT_dh_p(p, h_lim))
    if not t_h > 0.0:
        return None
    dh_dt = 1.0 / t_h
    dh_dp = -float(fl.dT_dp_h(p, h_lim)) / t_h
    dt_dh, dt_dp = float(other.dT_dh_p(p_o, h_o)), float(other.dT_dp_h(p_o, h_o))
    if prof.hot_limits:  # Q_max = m_h (h_hi - H(p_h, T_ci(p_c, h_ci)))
        m = prof.m_h
        return [prof.h_hi - h_lim, -m * dh_dp, m, 0.0, -m * dh_dt * dt_dp, -m * dh_dt * dt_dh]
    k = prof.m_c / prof.eff  # Q_max = m_c (H(p_c, T_hi(p_h, h_hi)) - h_ci) / eff
    return [
        0.0,
        k * dh_dt * dt_dp,
        k * dh_dt * dt_dh,
        (h_lim - prof.h_ci) / prof.eff,
        k * dh_dp,
        -k,
    ]
