"""Conductance of a fan-driven coil at part fan speed.

The resistance ``1/UA_0`` splits into an air side (share ``f_air``, ``air_side_ua_fraction``)
whose conductance scales with the fan speed to the power ``n`` (``n_air_exponent``) and a
refrigerant side that does not::

    UA = z_ua * UA_0 / (f_air / fan_speed^n + 1 - f_air)      [W/K]

``UA_0`` is ``ua`` [W/K] or ``ua_nominal_kw_k`` [kW/K]; a stopped fan (``fan_speed <= 0``)
gives no conductance. Condensers, evaporators and gas coolers share this law.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component
from workbench.units import kw_k_to_w_k

__all__ = ["fan_scaled_ua"]


def fan_scaled_ua(coil: Component, x: np.ndarray) -> float:
    """Available conductance of one coil at its fan speed [W/K].

    Parameters
    ----------
    coil : Component
        A coil with ``ua`` or ``ua_nominal_kw_k``, ``fan_speed``, ``air_side_ua_fraction`` and
        ``n_air_exponent`` parameters and a ``z_ua`` factor.
    x : numpy.ndarray
        The system's unknowns (SI); ``z_ua`` may be one of them.

    Returns
    -------
    float
        ``z_ua * UA_0 / (f_air / fan_speed^n + 1 - f_air)`` [W/K]; 0 with the fan stopped.
    """
    par = coil.params
    ua0 = float(par["ua"]) if coil.has("ua") else kw_k_to_w_k(float(par["ua_nominal_kw_k"]))
    fan = float(par["fan_speed"])
    if fan <= 0.0:
        return 0.0
    f_air = float(par["air_side_ua_fraction"])
    scale = 1.0 / (f_air / fan ** float(par["n_air_exponent"]) + 1.0 - f_air)
    return float(coil.factor(x, "z_ua") * ua0 * scale)
