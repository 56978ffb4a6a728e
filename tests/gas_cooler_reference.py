"""Independent references for the transcritical tests: CoolProp (PropsSI) hand calculations.

Nothing here imports the workbench: the cycle states and the gas-cooler profile are rebuilt from
PropsSI alone, so the tests compare two separate computations.
"""

from __future__ import annotations

import numpy as np
from CoolProp.CoolProp import PropsSI
from scipy.optimize import brentq, minimize_scalar


def fixed_cycle(p_gc_pa, t_gc_out_k, t_evap_k, superheat_k, eta_s, m_kg_s, fluid="CO2"):
    """A simple transcritical cycle from PropsSI: heat flows [W] and COPs."""
    p_e = PropsSI("P", "T", t_evap_k, "Q", 1, fluid)
    if superheat_k > 0:
        h1 = PropsSI("H", "P", p_e, "T", t_evap_k + superheat_k, fluid)
    else:
        h1 = PropsSI("H", "P", p_e, "Q", 1, fluid)
    s1 = PropsSI("S", "P", p_e, "H", h1, fluid)
    h2 = h1 + (PropsSI("H", "P", p_gc_pa, "S", s1, fluid) - h1) / eta_s
    h3 = PropsSI("H", "P", p_gc_pa, "T", t_gc_out_k, fluid)
    q_evap, w, q_gc = m_kg_s * (h1 - h3), m_kg_s * (h2 - h1), m_kg_s * (h2 - h3)
    return {
        "p_evap": p_e,
        "h": (h1, h2, h3, h3),
        "q_evap": q_evap,
        "power": w,
        "q_gc": q_gc,
        "cop_cooling": q_evap / w,
        "cop_heating": q_gc / w,
    }


def _lmtd(a, b):
    same = np.abs(a - b) <= 1e-9 * np.maximum(a, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(same, 0.5 * (a + b), (a - b) / np.log(a / b))


def water_temperature(t_in_k, q_w, m_w):
    """Water outlet temperature [K] after taking ``q_w`` [W], from PropsSI enthalpies (1 bar)."""
    h_in = PropsSI("H", "T", t_in_k, "P", 101325.0, "Water")
    return PropsSI("T", "H", h_in + q_w / m_w, "P", 101325.0, "Water")


def fine_gas_cooler(p_in, h_in, m, t_sec_in, secondary, ua, n=600, fluid="CO2"):
    """Counterflow gas cooler on ``n`` enthalpy segments with PropsSI on both streams.

    ``secondary`` is ``("water", m_w)`` (water enthalpy from PropsSI, so its cp varies) or
    ``("cp", c_sec)`` (a constant capacity rate [W/K]). Returns the heat flow [W], the
    refrigerant outlet temperature [K] and the smallest temperature difference [K].
    """
    kind, value = secondary
    h_w_in = PropsSI("H", "T", t_sec_in, "P", 101325.0, "Water") if kind == "water" else 0.0

    def t_sec(q_taken):
        if kind == "water":
            return PropsSI("T", "H", h_w_in + q_taken / value, "P", 101325.0, "Water")
        return t_sec_in + q_taken / value

    def profile(q):
        hs = np.linspace(h_in, h_in - q / m, n + 1)
        dt = PropsSI("T", "P", p_in, "H", hs, fluid) - t_sec(m * (hs - hs[-1]))
        return hs, dt

    def g(q):
        hs, dt = profile(q)
        if dt.min() <= 0.0:
            return 0.5
        ua_req = float(np.sum(m * (hs[:-1] - hs[1:]) / _lmtd(dt[:-1], dt[1:])))
        return ua_req / (ua_req + ua) - 0.5

    t_in = PropsSI("T", "P", p_in, "H", h_in, fluid)
    h_lim = PropsSI("H", "P", p_in, "T", t_sec_in, fluid)
    q_hi = m * (h_in - h_lim)
    if kind == "water":
        h_w_hot = PropsSI("H", "T", t_in, "P", 101325.0, "Water")
        q_hi = min(q_hi, value * (h_w_hot - h_w_in))
    else:
        q_hi = min(q_hi, value * (t_in - t_sec_in))
    b = q_hi * (1.0 - 1e-12)
    q = b if g(b) <= 0.0 else brentq(g, 1e-9 * q_hi, b, xtol=1e-6 * q_hi)  # else: pinched
    _hs, dt = profile(q)
    return q, PropsSI("T", "P", p_in, "H", h_in - q / m, fluid), float(dt.min())


def fine_min_dt(
    p_in, h_in, p_out, h_out, m, t_sec_in, c_sec, refrigerant_is_hot, n=400, fluid="CO2"
):
    """Smallest hot-minus-cold difference [K] of a solved refrigerant/secondary exchanger.

    ``n`` equal enthalpy steps with PropsSI, the pressure linear along the path, then the
    minimum polished on its two neighbouring segments.
    """
    sign = 1.0 if refrigerant_is_hot else -1.0

    def dt(x):
        h = h_in + x * (h_out - h_in)
        t = PropsSI("T", "P", p_in + x * (p_out - p_in), "H", h, fluid)
        return sign * (t - (t_sec_in + m * (h - h_out) / c_sec))

    xs = np.linspace(0.0, 1.0, n + 1)
    values = [dt(x) for x in xs]
    k = int(np.argmin(values))
    lo, hi = xs[max(k - 1, 0)], xs[min(k + 1, n)]
    best = minimize_scalar(dt, bounds=(lo, hi), method="bounded", options={"xatol": 1e-9})
    return min(min(values), float(best.fun))


def liao_optimal_pressure_bar(t_out_c, t_e_c):
    """Liao, Zhao and Jakobsen (2000): optimal high-side pressure [bar] of an R744 cycle."""
    return (2.778 - 0.0157 * t_e_c) * t_out_c + (0.381 * t_e_c - 9.34)


def optimal_pressure_bar(t_out_c, t_e_c, eta_s=0.7):
    """The COP-optimal gas-cooler pressure [bar] by brute force on :func:`fixed_cycle`."""
    best = minimize_scalar(
        lambda p_bar: (
            -fixed_cycle(p_bar * 1e5, t_out_c + 273.15, t_e_c + 273.15, 0.0, eta_s, 1.0)[
                "cop_cooling"
            ]
        ),
        bounds=(75.0, 160.0),
        method="bounded",
        options={"xatol": 0.01},
    )
    return float(best.x), -float(best.fun)
