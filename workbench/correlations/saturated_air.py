"""Saturated air at a wet surface: enthalpy, its slope and humidity ratio in one call.

Who reads it: the wet part of a segment (:mod:`workbench.components.exchangers.fin_tube.segment`),
several times per segment evaluation. The equations are those of psychrolib, which
:mod:`workbench.correlations.humid_air` wraps (ASHRAE Handbook Fundamentals 2017, ch. 1): the
Hyland-Wexler saturation pressure over water (eq. 6; over ice, eq. 5, at or below the triple
point 0.01 C), ``W_s = 0.621945 p_ws / (p - p_ws)`` (eq. 36) and
``h_s = 1006 t + W_s (2501000 + 1860 t)`` (eq. 32, t in C). Written out here so that the slope
``dh_s/dT`` is analytic and one call returns all three: a segment asks for them about five
times, and psychrolib's separate calls with a central-difference slope cost ten times more
(tests/test_fin_tube_segment.py compares the two to 1e-9).

:func:`moist_enthalpy` and :func:`moist_temperature` are eq. 32 and its inverse at any ``W``:
psychrolib raises a zero humidity ratio to 1e-7, which would put 0.26 J/kg between the dry
air's enthalpy and ``c_p T`` and break a dry coil's balance of sensible heat.
"""

from __future__ import annotations

import math

__all__ = ["moist_enthalpy", "moist_temperature", "saturated_air"]

_T0 = 273.15
_TRIPLE_K = 273.16


def saturated_air(t_k: float, p_pa: float) -> tuple[float, float, float]:
    """Saturated air at a temperature: enthalpy, slope and humidity ratio.

    Parameters
    ----------
    t_k : float
        Temperature [K].
    p_pa : float
        Total pressure [Pa].

    Returns
    -------
    tuple of float
        ``(h_s [J/kg_da], dh_s/dT [J/(kg_da K)], W_s [kg/kg_da])``.
    """
    t = t_k
    if t <= _TRIPLE_K:
        ln_p = (
            -5.6745359e03 / t
            + 6.3925247
            - 9.677843e-03 * t
            + 6.2215701e-07 * t**2
            + 2.0747825e-09 * t**3
            - 9.484024e-13 * t**4
            + 4.1635019 * math.log(t)
        )
        dln = (
            5.6745359e03 / t**2
            - 9.677843e-03
            + 2.0 * 6.2215701e-07 * t
            + 3.0 * 2.0747825e-09 * t**2
            - 4.0 * 9.484024e-13 * t**3
            + 4.1635019 / t
        )
    else:
        ln_p = (
            -5.8002206e03 / t
            + 1.3914993
            - 4.8640239e-02 * t
            + 4.1764768e-05 * t**2
            - 1.4452093e-08 * t**3
            + 6.5459673 * math.log(t)
        )
        dln = (
            5.8002206e03 / t**2
            - 4.8640239e-02
            + 2.0 * 4.1764768e-05 * t
            - 3.0 * 1.4452093e-08 * t**2
            + 6.5459673 / t
        )
    p_ws = math.exp(ln_p)
    dp_ws = p_ws * dln
    w_s = 0.621945 * p_ws / (p_pa - p_ws)
    dw_s = 0.621945 * p_pa * dp_ws / (p_pa - p_ws) ** 2
    tc = t - _T0
    latent = 2501000.0 + 1860.0 * tc
    h_s = 1006.0 * tc + w_s * latent
    slope = 1006.0 + dw_s * latent + w_s * 1860.0
    return h_s, slope, w_s


def moist_enthalpy(t_k: float, w: float) -> float:
    """Moist-air enthalpy ``1006 t + W (2501000 + 1860 t)``, t in C [J/kg_da].

    Parameters
    ----------
    t_k : float
        Dry-bulb temperature [K].
    w : float
        Humidity ratio [kg/kg_da].
    """
    tc = t_k - _T0
    return 1006.0 * tc + w * (2501000.0 + 1860.0 * tc)


def moist_temperature(h: float, w: float) -> float:
    """Dry-bulb temperature of moist air from its enthalpy and humidity ratio [K].

    Parameters
    ----------
    h : float
        Enthalpy [J/kg_da].
    w : float
        Humidity ratio [kg/kg_da].
    """
    return (h - 2501000.0 * w) / (1006.0 + 1860.0 * w) + _T0
