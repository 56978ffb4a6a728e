"""Unit conversions at the edges of the workbench.

Inside the package every quantity is SI (Pa, J/kg, K, kg/s, W, W/K). The scenario contract's field
names carry unit suffixes (``_bar``, ``_kj_kg``, ``_c``, ``_kw_k``); conversion happens here only.
"""

from __future__ import annotations

__all__ = [
    "ZERO_CELSIUS_K",
    "bar_to_pa",
    "celsius_to_kelvin",
    "fmt_fixed",
    "j_kg_to_kj_kg",
    "kelvin_to_celsius",
    "kj_kg_to_j_kg",
    "kw_k_to_w_k",
    "pa_to_bar",
    "w_k_to_kw_k",
]

ZERO_CELSIUS_K = 273.15
"""0 degC in K [K]."""


def bar_to_pa(p_bar: float) -> float:
    """Pressure [bar] -> [Pa]."""
    return p_bar * 1.0e5


def pa_to_bar(p_pa: float) -> float:
    """Pressure [Pa] -> [bar]."""
    return p_pa / 1.0e5


def kj_kg_to_j_kg(h_kj_kg: float) -> float:
    """Specific enthalpy [kJ/kg] -> [J/kg]."""
    return h_kj_kg * 1.0e3


def j_kg_to_kj_kg(h_j_kg: float) -> float:
    """Specific enthalpy [J/kg] -> [kJ/kg]."""
    return h_j_kg / 1.0e3


def celsius_to_kelvin(t_c: float) -> float:
    """Temperature [degC] -> [K]."""
    return t_c + ZERO_CELSIUS_K


def kelvin_to_celsius(t_k: float) -> float:
    """Temperature [K] -> [degC]."""
    return t_k - ZERO_CELSIUS_K


def kw_k_to_w_k(ua_kw_k: float) -> float:
    """Thermal conductance [kW/K] -> [W/K]."""
    return ua_kw_k * 1.0e3


def w_k_to_kw_k(ua_w_k: float) -> float:
    """Thermal conductance [W/K] -> [kW/K]."""
    return ua_w_k / 1.0e3


def fmt_fixed(value: float, decimals: int = 2) -> str:
    """A number for a message: fixed-point with ``decimals`` places, compact when huge or tiny.

    ``fmt_fixed(374.2142)`` is ``'374.21'``; ``fmt_fixed(1e308)`` is ``'1e+308'`` (never a
    300-digit number); non-finite values print as ``inf`` or ``nan``.

    Parameters
    ----------
    value : float
        The number [any unit].
    decimals : int
        Places after the point for ordinary magnitudes.

    Returns
    -------
    str
        The text.
    """
    magnitude = abs(value)
    if magnitude != magnitude or magnitude == float("inf"):
        return str(value)
    if magnitude >= 1e9 or (0.0 < magnitude < 10.0 ** (-decimals)):
        return f"{value:.6g}"
    return f"{value:.{decimals}f}"
