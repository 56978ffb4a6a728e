"""The required conductance of a gas cooler's isobaric temperature table, evaluated lean.

Read by :mod:`workbench.components.exchangers.gas_cooler.model`: without a pressure drop the model's
profile at a heat flow ``Q`` (outlet enthalpy ``h_out = h_in - Q / m``) is the outlet point on
its table segment and every node above it, each segment a counterflow zone::

    dT_j   = T_j - (T_sec,in + (m / C_sec) (h_j - h_out))
           = (T_j - (m / C_sec) h_j) + ((m / C_sec) h_out - T_sec,in)
    UA_req = sum_j Q_j / LMTD(dT_j, dT_j+1),   Q_j = m (h_j+1 - h_j)

The first bracket of ``dT_j`` and the nodes' ``Q_j`` do not depend on ``Q``: they are formed
once per table and state, so an evaluation (a root-find takes a few, every Jacobian column
one) is one shift of that array and the logarithmic means. The slope ``dUA_req/dQ`` is
analytic: the nodes' ``dT`` all fall by ``dQ / C_sec``, a segment's ``Q_j / LMTD_j`` then
changes by ``Q_j / (a_j b_j C_sec)`` (``dLMTD/da + dLMTD/db = LMTD^2 / (a b)``), and the
first segment adds the outlet point's motion along its table segment.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable

import numpy as np

from workbench.components.exchangers.gas_cooler.isobar import TemperatureTable

__all__ = ["Profile", "isobaric_profile", "smallest_between_nodes"]

Profile = Callable[[float], tuple[float, float, float]]
"""``q [W] -> (UA_req [W/K], smallest temperature difference [K], dUA_req/dQ [1/K])``."""


def smallest_between_nodes(h: tuple[float, float, float], dt: tuple[float, float, float]) -> float:
    """The smallest difference [K] on a parabola through three neighbouring points.

    ``h`` [J/kg] and ``dt`` [K] at the smallest node value (the middle one) and its two
    neighbours: a pinch inside the exchanger falls between nodes, and linear interpolation
    would miss a few mK of it. The middle value when the parabola opens downwards or its
    vertex lies outside the two segments.
    """
    (h0, h1, h2), (y0, y1, y2) = h, dt
    x0, x2 = h0 - h1, h2 - h1
    # y = a x^2 + b x + y1 through (x0, y0), (0, y1), (x2, y2)
    a = ((y0 - y1) / x0 - (y2 - y1) / x2) / (x0 - x2)
    b = (y0 - y1) / x0 - a * x0
    if a > 0.0:
        xv = -b / (2.0 * a)
        if min(x0, x2) < xv < max(x0, x2):
            return min(y1, y1 - b * b / (4.0 * a))
    return y1


def isobaric_profile(
    table: TemperatureTable,
    h_in: float,
    m: float,
    t_sec_in: float,
    c_sec: float,
    off_nodes: Profile,
) -> Profile:
    """The isobaric table's ``q -> (UA_req, smallest dT, dUA_req/dQ)`` (module docstring).

    Parameters
    ----------
    table : TemperatureTable
        An isobaric table (equal temperature lists) whose last node is ``h_in``.
    h_in : float
        Refrigerant inlet enthalpy [J/kg].
    m : float
        Refrigerant mass flow [kg/s].
    t_sec_in : float
        Secondary inlet temperature [K].
    c_sec : float
        Secondary capacity rate [W/K].
    off_nodes : callable
        The general profile, for an outlet off the table's nodes (no heat, or below its
        first node).
    """
    hs, ts, kinks = table.h, table.t_out, table.kinks
    h_nodes, _t_in, t_nodes = table.arrays()
    last = len(hs) - 2
    m_c = m / c_sec
    base = t_nodes - m_c * h_nodes  # dT_j without the shift of the outlet
    seg_all = m * (h_nodes[1:] - h_nodes[:-1])
    inv_c = 1.0 / c_sec

    def profile(q: float) -> tuple[float, float, float]:
        """Required conductance [W/K], smallest temperature difference [K] and slope at ``q``."""
        h_out = h_in - q / m
        j0 = bisect.bisect_right(hs, h_out)
        if j0 == 0 or j0 > last:
            return off_nodes(q)
        j = j0 - 1
        h_j = hs[j]
        sigma = (ts[j0] - ts[j]) / (hs[j0] - h_j)
        dts = base[j:] + (m_c * h_out - t_sec_in)
        dts[0] = ts[j] + sigma * (h_out - h_j) - t_sec_in
        k = int(dts.argmin())
        smallest = float(dts[k])
        if 0 < k < len(dts) - 1 and hs[j + k] not in kinks:
            h_prev = h_out if k == 1 else hs[j + k - 1]
            smallest = smallest_between_nodes(
                (h_prev, hs[j + k], hs[j + k + 1]),
                (float(dts[k - 1]), smallest, float(dts[k + 1])),
            )
        if not float(dts[k]) > 0.0:
            return math.inf, smallest, math.inf
        a, b = dts[1:], dts[:-1]
        seg_q = seg_all[j:].copy()
        seg_q[0] = m * (hs[j0] - h_out)
        log = np.log(a / b)
        equal = np.abs(log) <= 1e-9
        if equal.any():  # equal ends: the arithmetic mean (no 0 / 0 computed)
            lmtd = np.where(equal, 0.5 * (a + b), (a - b) / np.where(equal, 1.0, log))
        else:
            lmtd = (a - b) / log
        total = float((seg_q / lmtd).sum())
        slope = float((seg_q / (a * b)).sum()) * inv_c
        # the first segment: its outlet end moves along the table (not by -dQ / C_sec)
        b0, l0, q0 = float(b[0]), float(lmtd[0]), float(seg_q[0])
        l_b = 0.5 if bool(equal[0]) else (l0 / b0 - 1.0) / float(log[0])
        slope += q0 / l0**2 * l_b * (sigma / m - inv_c) + 1.0 / l0
        return total, smallest, slope

    return profile
