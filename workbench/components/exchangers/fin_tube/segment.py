"""One segment of a coil against its share of the air: dry, partly wet or wet, in closed form.

Who reads it: the march (:mod:`workbench.components.exchangers.fin_tube.march`), twice per
segment (Heun's step). The refrigerant is taken at one temperature ``T_r`` across the
segment's air path (it changes by little against its share of the air, and the march's
second-order step corrects for what it changes), so the air relaxes exponentially towards it:

Dry (epsilon-NTU of a stream against a constant temperature)::

    1/UA = R_o + R_i,  R_o = 1/(eta_o h_o A_o),  R_i = 1/(h_i A_i) + R_wall     [K/W]
    T_a(xi) = T_r + (T_a,in - T_r) exp(-NTU xi),  NTU = UA / (m_da c_p)          [K]

with ``xi`` the fraction of the air path. The air-side surface is at
``T_s = T_r + (T_a - T_r) R_i / (R_o + R_i)``, falling along the path for a cooling coil.

Partly wet: the surface reaches the air's dew point ``T_dp`` where the air has cooled to
``T_a,b = T_r + (T_dp - T_r)(R_o + R_i)/R_i``, at ``xi_b = ln((T_a,in - T_r)/(T_a,b - T_r))/NTU``
(closed form). Dry before ``xi_b``; after it the Braun-Klein-Mitchell enthalpy potential on the
remaining ``1 - xi_b`` of the area (fully wet when ``T_a,b >= T_a,in``)::

    1/UA* = c_p / (eta_o,wet h_o A_o) + b_r R_i                               [s/kg]
    h_a,out = h_s(T_r) + (h_a,b - h_s(T_r)) exp(-UA* (1 - xi_b) / m_da)        [J/kg_da]

``b_r`` the secant slope of the saturated-air enthalpy between ``T_r`` and the surface at the
wet part's entrance, ``eta_o,wet`` the wet surface efficiency at the slope there. The air
leaves along the straight line towards the effective surface state:
``h_s,eff = h_a,b - (h_a,b - h_a,out)/(1 - exp(-NTU_o))``, ``NTU_o = eta_o,wet h_o A_o (1 - xi_b)
/ (m_da c_p)``, ``W_out = W_s,eff + (W_in - W_s,eff) exp(-NTU_o)``. As ``xi_b -> 1`` the wet area
and its heat vanish, so the capacity is continuous where the coil starts to wet.

References: J. E. Braun, S. A. Klein, J. W. Mitchell, ASHRAE Trans. 95(2) (1989) 164-174;
ACHP's ``DryWetSegment`` (I. Bell), whose dry/wet split this follows for one segment.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from workbench.correlations import humid_air as ha
from workbench.correlations.saturated_air import (
    moist_enthalpy,
    moist_temperature,
    saturated_air,
)

__all__ = ["SegmentAir", "segment_air"]


@dataclass(frozen=True)
class SegmentAir:
    """What one segment does to its share of the air.

    Attributes
    ----------
    q : float
        Heat taken from the air (negative when the air is heated) [W].
    h_out : float
        Air outlet enthalpy [J/kg_da].
    w_out : float
        Air outlet humidity ratio [kg/kg_da].
    wet_fraction : float
        Wet share of the segment's area [-].
    t_surface_min : float
        Coldest air-side surface temperature (at the air outlet) [K].
    """

    q: float
    h_out: float
    w_out: float
    wet_fraction: float
    t_surface_min: float


def _saturated_temperature(h_target: float, start: float, p_pa: float) -> tuple[float, float]:
    """Temperature [K] and humidity ratio [kg/kg_da] of saturated air with enthalpy ``h_target``.

    Three Newton steps from ``start`` (a fixed count, so the result is smooth in its inputs).
    """
    t = start
    for _ in range(3):
        h_s, slope, _w = saturated_air(t, p_pa)
        t -= (h_s - h_target) / slope
    return t, saturated_air(t, p_pa)[2]


def segment_air(
    m_da: float,
    t_in: float,
    w_in: float,
    h_in: float,
    t_dew: float,
    p_air: float,
    ua_o: float,
    r_i: float,
    t_r: float,
    wet_efficiency_ratio: Callable[[float], float],
) -> SegmentAir:
    """One segment's exchange with its air share (module docstring).

    Parameters
    ----------
    m_da : float
        Dry-air flow of the segment's share [kg/s].
    t_in, w_in, h_in : float
        Air inlet temperature [K], humidity ratio [kg/kg_da], enthalpy [J/kg_da].
    t_dew : float
        Air inlet dew point [K] (-inf for dry air).
    p_air : float
        Air pressure [Pa].
    ua_o : float
        Dry air-side conductance ``eta_o h_o A_o`` of the segment [W/K].
    r_i : float
        Refrigerant-side resistance with the wall, ``1/(h_i A_i) + R_wall`` [K/W].
    t_r : float
        Refrigerant temperature [K].
    wet_efficiency_ratio : callable
        ``b_w -> eta_o,wet / eta_o`` at a saturated-air enthalpy slope [J/(kg_da K)].

    Returns
    -------
    SegmentAir
        Heat, outlet air, wet fraction and coldest surface.
    """
    cp = ha.cp_moist(w_in)
    r_o = 1.0 / ua_o
    ntu = 1.0 / ((r_o + r_i) * m_da * cp)
    share = r_i / (r_o + r_i)  # surface position between refrigerant and air
    decay = math.exp(-ntu)
    t_dry_out = t_r + (t_in - t_r) * decay
    t_s_out = t_r + (t_dry_out - t_r) * share
    t_a_b = t_r + (t_dew - t_r) / share if t_dew > t_r else -math.inf
    if t_a_b <= t_dry_out:  # the surface stays above the dew point: dry
        q = m_da * cp * (t_in - t_dry_out)
        return SegmentAir(q, h_in - q / m_da, w_in, 0.0, t_s_out)
    if t_a_b >= t_in:  # wet from the air inlet on
        xi_b, t_b = 0.0, t_in
        t_s_entry = t_r + (t_in - t_r) * share
    else:
        xi_b = math.log((t_in - t_r) / (t_a_b - t_r)) / ntu
        t_b, t_s_entry = t_a_b, t_dew
    h_b = moist_enthalpy(t_b, w_in)
    h_s_r, slope_r, _w_r = saturated_air(t_r, p_air)
    h_s_entry, b_w, _w_e = saturated_air(t_s_entry, p_air)
    b_r = (h_s_entry - h_s_r) / (t_s_entry - t_r) if t_s_entry - t_r > 1e-3 else slope_r
    ua_o_wet = ua_o * wet_efficiency_ratio(b_w)
    wet = 1.0 - xi_b
    ua_star = 1.0 / (cp / ua_o_wet + b_r * r_i)  # kg/s
    h_out = h_s_r + (h_b - h_s_r) * math.exp(-ua_star * wet / m_da)
    ntu_o = ua_o_wet * wet / (m_da * cp)
    decay_o = math.exp(-ntu_o)
    if ntu_o > 1e-12:
        h_s_eff = h_b - (h_b - h_out) / (1.0 - decay_o)
        _t_s_eff, w_s_eff = _saturated_temperature(h_s_eff, t_s_entry, p_air)
        w_out = min(w_in, w_s_eff + (w_in - w_s_eff) * decay_o)
    else:
        w_out = w_in
    t_a_out = moist_temperature(h_out, w_out)
    t_s_min = t_r + (t_a_out - t_r) * share
    return SegmentAir(m_da * (h_in - h_out), h_out, w_out, wet, t_s_min)
