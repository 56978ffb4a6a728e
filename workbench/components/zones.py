"""Zone-by-zone counterflow heat transfer between a refrigerant and a secondary stream.

The refrigerant path from inlet to outlet enthalpy is cut at the saturated liquid and vapour
enthalpies into zones (desuperheating, two-phase, subcooled for a condenser; two-phase,
superheated for an evaporator). In each zone both capacity rates are constant, so the zone
is a counterflow exchanger whose required conductance follows from epsilon-NTU::

    eps = Q / (C_min (T_hot,in - T_cold,in)),   NTU = ln((1 - Cr eps) / (1 - eps)) / (1 - Cr),
    UA_zone = NTU * C_min                       (NTU = eps / (1 - eps) when Cr = 1)

which for counterflow is identical to ``UA_zone = Q / LMTD`` (used here: it covers the
two-phase limit Cr = 0 without a special case). The heat flow of the whole exchanger is the
``Q`` for which the zones' conductances add up to the available UA; it is found by Brent's
method on ``Q`` in ``(0, Q_max)``, where ``Q_max`` is the pinch limit (the refrigerant outlet
reaching the secondary inlet temperature, or the secondary outlet reaching the refrigerant inlet
temperature). Temperatures never cross: a zone with a non-positive temperature difference at
either end needs an infinite UA.

References
----------
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.4
(epsilon-NTU, counterflow). Moving-boundary zone models as in Bell, Quoilin, Lemort, "Compact
heat exchanger models", 2015.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from scipy.optimize import brentq

from workbench.fluids import FluidBackend

__all__ = [
    "ZoneResult",
    "CoupledResult",
    "counterflow_ua",
    "counterflow_ntu",
    "counterflow_effectiveness",
    "coil_heat_flow",
    "coupled_heat_flow",
    "enthalpy_at",
    "find_root",
]


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
    if abs(dt_a - dt_b) <= 1e-9 * max(dt_a, dt_b):
        lmtd = 0.5 * (dt_a + dt_b)
    else:
        lmtd = (dt_a - dt_b) / math.log(dt_a / dt_b)
    return q / lmtd


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


@dataclass(frozen=True)
class ZoneResult:
    """Heat flow of a coil and its zones.

    Attributes
    ----------
    q : float
        Heat flow [W] (positive from the hot to the cold stream).
    h_out : float
        Refrigerant outlet enthalpy [J/kg].
    t_secondary_out : float
        Secondary outlet temperature [K].
    zones : list of tuple
        ``(name, q [W], ua [W/K])`` per zone in refrigerant flow order.
    min_dt : float
        Smallest hot-minus-cold temperature difference at any zone boundary [K].
    q_max : float
        Pinch limit of the heat flow [W].
    """

    q: float
    h_out: float
    t_secondary_out: float
    zones: list[tuple[str, float, float]]
    min_dt: float
    q_max: float


def _zone_name(h_mid: float, h_liq: float, h_vap: float) -> str:
    if h_mid >= h_vap:
        return "superheated"
    if h_mid <= h_liq:
        return "subcooled"
    return "two-phase"


def coil_heat_flow(
    fluid: FluidBackend,
    p: float,
    h_in: float,
    m: float,
    t_sec_in: float,
    c_sec: float,
    ua: float,
    refrigerant_is_hot: bool,
    q_guess: float | None = None,
) -> ZoneResult:
    """Heat flow of a counterflow coil with refrigerant zones.

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant properties.
    p : float
        Refrigerant pressure [Pa] (pressure drop neglected inside the zone model).
    h_in : float
        Refrigerant inlet enthalpy [J/kg].
    m : float
        Refrigerant mass flow [kg/s], > 0.
    t_sec_in : float
        Secondary inlet temperature [K].
    c_sec : float
        Secondary capacity rate m_sec * cp [W/K], >= 0.
    ua : float
        Available conductance [W/K], >= 0.
    refrigerant_is_hot : bool
        True for a condenser (refrigerant gives heat), False for an evaporator.
    q_guess : float, optional
        A nearby heat flow [W] (the last solution): the root is first bracketed closely
        around it, which saves most iterations during finite differences and Newton steps.

    Returns
    -------
    ZoneResult
        Heat flow and zone details; ``q = 0`` when the streams cannot exchange heat in the
        right direction (the caller reports it).
    """
    sign = 1.0 if refrigerant_is_hot else -1.0
    h_liq, h_vap = fluid.h_liq(p), fluid.h_vap(p)
    t_in = fluid.T_ph(p, h_in)
    t_liq, t_vap = fluid.T_ph(p, h_liq), fluid.T_ph(p, h_vap)
    # pinch limits: refrigerant outlet at the secondary inlet temperature, secondary outlet
    # at the refrigerant inlet temperature
    q_hi = sign * (t_in - t_sec_in) * c_sec
    if q_hi > 0.0 and m > 0.0:
        h_lim = enthalpy_at(fluid, p, t_sec_in, h_liq, h_vap, t_liq, t_vap)
        q_hi = min(q_hi, sign * m * (h_in - h_lim))
    if q_hi <= 0.0 or ua <= 0.0 or c_sec <= 0.0 or m <= 0.0:
        return ZoneResult(0.0, h_in, t_sec_in, [], sign * (t_in - t_sec_in), max(q_hi, 0.0))

    def profile(q: float) -> tuple[float, list[tuple[str, float, float]], float, float]:
        h_out = h_in - sign * q / m
        lo, hi = min(h_in, h_out), max(h_in, h_out)
        cuts = [h for h in (h_vap, h_liq) if lo < h < hi]
        points = [h_in, *sorted(cuts, reverse=refrigerant_is_hot), h_out]
        temps = []
        for h in points:
            if h == h_in:
                temps.append(t_in)
            elif h == h_vap:
                temps.append(t_vap)
            elif h == h_liq:
                temps.append(t_liq)
            else:
                temps.append(fluid.T_ph(p, h))
        # secondary enters at the refrigerant outlet end (counterflow)
        dts = [sign * (t - (t_sec_in + m * (h - h_out) / c_sec)) for h, t in zip(points, temps)]
        zones = []
        total = 0.0
        for k in range(len(points) - 1):
            qk = m * abs(points[k] - points[k + 1])
            uak = counterflow_ua(qk, dts[k], dts[k + 1])
            zones.append((_zone_name(0.5 * (points[k] + points[k + 1]), h_liq, h_vap), qk, uak))
            total += uak
        return total, zones, min(dts), h_out

    def g(q: float) -> float:
        if q >= q_hi:
            return 0.5  # the pinch itself (UA grows only logarithmically near it)
        total = profile(q)[0]
        return 0.5 if math.isinf(total) else total / (total + ua) - 0.5

    q = find_root(g, q_hi, q_guess)
    _total, zones, min_dt, h_out = profile(q)
    return ZoneResult(q, h_out, t_sec_in + sign * q / c_sec, zones, min_dt, q_hi)


def enthalpy_at(
    fluid: FluidBackend,
    p: float,
    t: float,
    h_liq: float,
    h_vap: float,
    t_liq: float,
    t_vap: float,
) -> float:
    """Refrigerant enthalpy at pressure ``p`` [Pa] and temperature ``t`` [K] [J/kg].

    Inside the two-phase glide of a zeotrope the enthalpy is interpolated linearly in
    temperature between bubble and dew point; for a pure fluid at its saturation temperature
    the saturated-liquid enthalpy is returned (the largest heat flow a condenser can reach and
    the smallest an evaporator can start from).
    """
    if t > t_vap + 1e-9 or t < t_liq - 1e-9:
        return float(fluid.h_pT(p, t))
    if t_vap - t_liq > 1e-9:
        return h_liq + (h_vap - h_liq) * (t - t_liq) / (t_vap - t_liq)
    return h_liq


@dataclass(frozen=True)
class CoupledResult:
    """Heat flow between two refrigerant streams (a cascade heat exchanger).

    Attributes
    ----------
    q : float
        Heat leaving the hot refrigerant [W].
    q_cold : float
        Heat reaching the cold refrigerant, ``efficiency * q`` [W].
    min_dt : float
        Smallest hot-minus-cold temperature difference along the exchanger [K].
    zones : list of tuple
        ``(q [W], ua [W/K])`` per segment.
    q_max : float
        Pinch limit [W].
    """

    q: float
    q_cold: float
    min_dt: float
    zones: list[tuple[float, float]]
    q_max: float


def coupled_heat_flow(
    fluid: FluidBackend,
    hot: tuple[float, float, float],
    cold: tuple[float, float, float],
    ua: float,
    efficiency: float,
    q_guess: float | None = None,
) -> CoupledResult:
    """Counterflow heat flow between a hot and a cold refrigerant stream.

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant of both streams.
    hot, cold : tuple of float
        ``(p [Pa], h_in [J/kg], m [kg/s])`` of each stream.
    ua : float
        Conductance [W/K].
    efficiency : float
        Share of the heat leaving the hot stream that reaches the cold one [-]; the rest is
        lost to ambient, spread evenly along the exchanger.

    Returns
    -------
    CoupledResult
        Heat flows and the temperature profile's pinch. Both streams are cut into segments at
        their own saturation boundaries; each segment is a counterflow zone with conductance
        ``q_segment / LMTD`` (epsilon-NTU for constant capacity rates), and ``q`` makes the
        segments' conductances add up to ``ua`` (Brent's method).
    """
    p_h, h_hi, m_h = hot
    p_c, h_ci, m_c = cold
    t_hi, t_ci = fluid.T_ph(p_h, h_hi), fluid.T_ph(p_c, h_ci)
    if t_hi <= t_ci or ua <= 0.0 or m_h <= 0.0 or m_c <= 0.0 or efficiency <= 0.0:
        return CoupledResult(0.0, 0.0, t_hi - t_ci, [], 0.0)
    hl_h, hv_h, hl_c, hv_c = fluid.h_liq(p_h), fluid.h_vap(p_h), fluid.h_liq(p_c), fluid.h_vap(p_c)
    tl_h, tv_h = fluid.T_ph(p_h, hl_h), fluid.T_ph(p_h, hv_h)
    tl_c, tv_c = fluid.T_ph(p_c, hl_c), fluid.T_ph(p_c, hv_c)
    q_hot_lim = m_h * (h_hi - enthalpy_at(fluid, p_h, t_ci, hl_h, hv_h, tl_h, tv_h))
    q_cold_lim = m_c * (enthalpy_at(fluid, p_c, t_hi, hl_c, hv_c, tl_c, tv_c) - h_ci) / efficiency
    q_hi = min(q_hot_lim, q_cold_lim)
    if q_hi <= 0.0:
        return CoupledResult(0.0, 0.0, t_hi - t_ci, [], 0.0)

    def profile(q: float) -> tuple[float, list[tuple[float, float]], float]:
        dh_h, dh_c = q / m_h, efficiency * q / m_c
        h_co = h_ci + dh_c
        xis = {0.0, 1.0}
        for hb in (hv_h, hl_h):
            if h_hi - dh_h < hb < h_hi:
                xis.add((h_hi - hb) / dh_h)
        for cb in (hv_c, hl_c):
            if h_ci < cb < h_co:
                xis.add((h_co - cb) / dh_c)
        points = sorted(xis)
        dts = [
            fluid.T_ph(p_h, h_hi - xi * dh_h) - fluid.T_ph(p_c, h_co - xi * dh_c) for xi in points
        ]
        zones = []
        total = 0.0
        for k in range(len(points) - 1):
            qk = q * (points[k + 1] - points[k])
            uak = counterflow_ua(qk, dts[k], dts[k + 1])
            zones.append((qk, uak))
            total += uak
        return total, zones, min(dts)

    def g(q: float) -> float:
        if q >= q_hi:
            return 0.5
        total = profile(q)[0]
        return 0.5 if math.isinf(total) else total / (total + ua) - 0.5

    q = find_root(g, q_hi, q_guess)
    _total, zones, min_dt = profile(q)
    return CoupledResult(q, efficiency * q, min_dt, zones, q_hi)
