"""Humid-air properties a coil needs, from psychrolib (ASHRAE Handbook Fundamentals 2017, ch. 1).

Which library and why: psychrolib answers in 1–30 us per call against 16–530 us for CoolProp's
``HAPropsSI`` (benchmarks/bench_humid_air.py, table in docs/benchmarks.md), and the two agree
to a few parts in a thousand at coil conditions (tests/test_correlations_humid_air.py). A wet
coil asks for the saturated-air enthalpy and its slope in every segment, so the faster one is
used. psychrolib has no transport properties; viscosity and conductivity are Sutherland's laws
for dry air (White 2006), within 1.5 % of ``HAPropsSI`` for humid air from -20 to 60 C at
humidity ratios up to 0.02 (the vapour changes them by under 1 %).

Units: SI throughout, temperatures in kelvin at this module's edge (psychrolib's SI mode
takes Celsius; the conversion is here). Enthalpy and specific heat are per kilogram of dry
air [J/kg_da], ASHRAE's convention, as the enthalpy-potential method needs them.

psychrolib keeps its unit system in a module global. This module sets it to SI on first use
when nobody has set it, and raises when another caller has chosen IP units rather than
switching them under that caller.
"""

from __future__ import annotations

import math

import psychrolib

__all__ = [
    "P_ATM",
    "conductivity",
    "cp_moist",
    "density",
    "dew_point",
    "enthalpy",
    "humidity_ratio",
    "relative_humidity",
    "saturated_enthalpy",
    "saturated_enthalpy_slope",
    "saturated_humidity_ratio",
    "viscosity",
]

#: Standard atmosphere [Pa].
P_ATM = 101325.0
_T0 = 273.15


def _si() -> None:
    """Put psychrolib in SI units, or refuse if a caller chose IP."""
    units = psychrolib.PSYCHROLIB_UNITS
    if units is None:
        psychrolib.SetUnitSystem(psychrolib.SI)
    elif units != psychrolib.SI:
        raise RuntimeError(
            "psychrolib is set to IP units by another caller; workbench.correlations.humid_air "
            "needs SI (psychrolib.SetUnitSystem(psychrolib.SI))"
        )


def humidity_ratio(t_k: float, rh: float, p_pa: float = P_ATM) -> float:
    """Humidity ratio from dry-bulb temperature and relative humidity [kg_w/kg_da].

    Parameters
    ----------
    t_k : float
        Dry-bulb temperature [K].
    rh : float
        Relative humidity, 0 to 1 [-].
    p_pa : float
        Total pressure [Pa].

    Returns
    -------
    float
        ``W = 0.621945 p_w / (p - p_w)`` with ``p_w = rh p_ws(T)`` (ASHRAE eq. 20, 22) [kg/kg_da].

    Raises
    ------
    ValueError
        ``rh`` outside 0–1 (psychrolib's message names it).
    """
    _si()
    return float(psychrolib.GetHumRatioFromRelHum(t_k - _T0, rh, p_pa))


def relative_humidity(t_k: float, w: float, p_pa: float = P_ATM) -> float:
    """Relative humidity from temperature and humidity ratio [-].

    Parameters
    ----------
    t_k : float
        Dry-bulb temperature [K].
    w : float
        Humidity ratio [kg/kg_da].
    p_pa : float
        Total pressure [Pa].

    Returns
    -------
    float
        Relative humidity, 0 to 1 (above 1 is supersaturated and raises in psychrolib) [-].
    """
    _si()
    return float(psychrolib.GetRelHumFromHumRatio(t_k - _T0, w, p_pa))


def saturated_humidity_ratio(t_k: float, p_pa: float = P_ATM) -> float:
    """Humidity ratio of saturated air at a temperature [kg/kg_da].

    Parameters
    ----------
    t_k : float
        Temperature [K].
    p_pa : float
        Total pressure [Pa].
    """
    _si()
    return float(psychrolib.GetSatHumRatio(t_k - _T0, p_pa))


def enthalpy(t_k: float, w: float) -> float:
    """Moist-air enthalpy per kilogram of dry air, 0 at 0 C dry air [J/kg_da].

    Parameters
    ----------
    t_k : float
        Dry-bulb temperature [K].
    w : float
        Humidity ratio [kg/kg_da].

    Returns
    -------
    float
        ``h = 1006 t + W (2501000 + 1860 t)``, t in C (ASHRAE eq. 32) [J/kg_da].
    """
    _si()
    return float(psychrolib.GetMoistAirEnthalpy(t_k - _T0, w))


def cp_moist(w: float) -> float:
    """Specific heat of moist air at constant humidity ratio, per kg of dry air [J/(kg_da K)].

    Parameters
    ----------
    w : float
        Humidity ratio [kg/kg_da].

    Returns
    -------
    float
        ``dh/dT at constant W = 1006 + 1860 W``, exact for :func:`enthalpy` [J/(kg_da K)].
    """
    return 1006.0 + 1860.0 * w


def dew_point(t_k: float, w: float, p_pa: float = P_ATM) -> float:
    """Dew-point temperature [K].

    Parameters
    ----------
    t_k : float
        Dry-bulb temperature [K].
    w : float
        Humidity ratio [kg/kg_da].
    p_pa : float
        Total pressure [Pa].
    """
    _si()
    return float(psychrolib.GetTDewPointFromHumRatio(t_k - _T0, w, p_pa)) + _T0


def saturated_enthalpy(t_k: float, p_pa: float = P_ATM) -> float:
    """Enthalpy of saturated air at a surface temperature [J/kg_da].

    Parameters
    ----------
    t_k : float
        Temperature [K].
    p_pa : float
        Total pressure [Pa].
    """
    _si()
    return float(psychrolib.GetSatAirEnthalpy(t_k - _T0, p_pa))


def saturated_enthalpy_slope(t_k: float, p_pa: float = P_ATM, dt_k: float = 0.01) -> float:
    """Slope of the saturated-air enthalpy with temperature, ``b = dh_s/dT`` [J/(kg_da K)].

    The "saturation specific heat" of the enthalpy-potential method (Braun, Klein & Mitchell
    1989), by a central difference over ``2 dt_k``.

    Parameters
    ----------
    t_k : float
        Temperature [K].
    p_pa : float
        Total pressure [Pa].
    dt_k : float
        Half step of the difference [K].
    """
    up = saturated_enthalpy(t_k + dt_k, p_pa)
    down = saturated_enthalpy(t_k - dt_k, p_pa)
    return (up - down) / (2.0 * dt_k)


def density(t_k: float, w: float, p_pa: float = P_ATM) -> float:
    """Density of moist air, mass of dry air and vapour per volume [kg/m^3].

    Parameters
    ----------
    t_k : float
        Dry-bulb temperature [K].
    w : float
        Humidity ratio [kg/kg_da].
    p_pa : float
        Total pressure [Pa].

    Returns
    -------
    float
        ``(1 + W) / v`` with v the ideal-gas specific volume per kg of dry air (ASHRAE eq. 28)
        [kg/m^3].
    """
    _si()
    return float(psychrolib.GetMoistAirDensity(t_k - _T0, w, p_pa))


def viscosity(t_k: float) -> float:
    """Dynamic viscosity of air, Sutherland's law [Pa s].

    Parameters
    ----------
    t_k : float
        Temperature [K].

    Returns
    -------
    float
        ``mu = 1.716e-5 (T/273.15)^1.5 (273.15 + 110.4)/(T + 110.4)`` [Pa s].

    References
    ----------
    .. [1] F. M. White, Viscous Fluid Flow, 3rd ed., McGraw-Hill (2006), eq. 1-36, table 1-2.
    """
    return 1.716e-5 * math.pow(t_k / _T0, 1.5) * (_T0 + 110.4) / (t_k + 110.4)


def conductivity(t_k: float) -> float:
    """Thermal conductivity of air, Sutherland's law [W/(m K)].

    Parameters
    ----------
    t_k : float
        Temperature [K].

    Returns
    -------
    float
        ``k = 0.0241 (T/273.15)^1.5 (273.15 + 194)/(T + 194)`` [W/(m K)].

    References
    ----------
    .. [1] F. M. White, Viscous Fluid Flow, 3rd ed., McGraw-Hill (2006), eq. 1-44, table 1-3.
    """
    return 0.0241 * math.pow(t_k / _T0, 1.5) * (_T0 + 194.0) / (t_k + 194.0)
