"""Dry, wet and partly wet cooling coils by the enthalpy-potential method (Braun, Klein & Mitchell 1989).

Who reads it: the geometric evaporators of issue 40, per coil or per segment. Everything is a
pure function of numbers: the air's dry-air flow and inlet state, the two conductances and the
refrigerant's capacity rate and inlet temperature.

Dry coil: epsilon-NTU on temperatures, ``UA = 1/(1/UA_air + 1/UA_ref)``, ``C_air = m_da
c_p,moist``; effectiveness from ``ht.effectiveness_from_NTU``.

Wet coil (BKM): the air's enthalpy is the potential and the saturated-air enthalpy at the
refrigerant temperature its counterpart. With the saturated-air enthalpy linearised between
the refrigerant and the surface, slope ``b_r`` [J/(kg K)], the air-to-refrigerant path has the
conductance (in kg/s)

``UA* = 1 / (c_p / UA_air,wet + b_r / UA_ref)``,

the capacity rates are ``C_air* = m_da`` and ``C_ref* = C_ref / b_r``, and the same
epsilon-NTU relation gives ``Q = eps* C_min* (h_air,in - h_sat(T_ref,in))``. The air leaves
towards the state of saturated air at an effective surface temperature T_s,eff:
``h_s,eff = h_in - (h_in - h_out) / (1 - exp(-NTU_o))``, ``NTU_o = UA_air,wet / (m_da c_p)``,
``W_out = W_s,eff + (W_in - W_s,eff) exp(-NTU_o)`` and likewise the temperature. ``b_r`` is the
secant slope between the mean refrigerant temperature and T_s,eff, found by a few passes.

Dry/wet split (counterflow, as in Braun's thesis and ACHP): the air meets the dry part first.
The coil is dry when the surface at the air outlet (the coldest) stays above the inlet dew
point; wet when the surface at the air inlet is at or below it; otherwise the dry area
fraction is the one at which the surface between the parts is at the dew point. The surface
temperature is that of a dry wall, ``T_s = (UA_air T_air + UA_ref T_ref)/(UA_air + UA_ref)``
(on the dry side of the boundary the wall is dry, which is the condition being tested).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ht import effectiveness_from_NTU
from scipy.optimize import brentq

from workbench.correlations import humid_air as ha

__all__ = ["CoilResult", "coil", "dry_coil", "wet_coil"]


@dataclass(frozen=True)
class CoilResult:
    """What a coil does to the air and the refrigerant.

    Parameters
    ----------
    capacity_w : float
        Total heat taken from the air, ``m_da (h_in - h_out)`` [W].
    sensible_w : float
        Sensible part, ``m_da c_p (T_in - T_out)`` [W].
    latent_w : float
        Latent part, capacity less sensible [W].
    t_air_out_k, w_air_out : float
        Air outlet temperature [K] and humidity ratio [kg/kg_da].
    t_ref_out_k : float
        Refrigerant outlet temperature [K] (the inlet one when its capacity rate is infinite).
    condensate_kg_s : float
        Water condensed, ``m_da (W_in - W_out)`` [kg/s].
    wet_fraction : float
        Share of the area that is wet, 0 to 1 [-].
    """

    capacity_w: float
    sensible_w: float
    latent_w: float
    t_air_out_k: float
    w_air_out: float
    t_ref_out_k: float
    condensate_kg_s: float
    wet_fraction: float


def _eps(ntu: float, c_min: float, c_max: float, arrangement: str) -> float:
    cr = 0.0 if math.isinf(c_max) else c_min / c_max
    if cr == 0.0:
        return 1.0 - math.exp(-ntu)
    return float(effectiveness_from_NTU(ntu, cr, subtype=arrangement))  # type: ignore[no-untyped-call]


def dry_coil(
    air_mass_flow_kg_s: float,
    t_air_in_k: float,
    w_air_in: float,
    ua_air_w_k: float,
    ua_ref_w_k: float,
    ref_capacity_w_k: float,
    t_ref_in_k: float,
    arrangement: str = "counterflow",
) -> CoilResult:
    """A dry coil by epsilon-NTU on temperatures.

    Parameters
    ----------
    air_mass_flow_kg_s : float
        Dry-air mass flow m_da [kg/s].
    t_air_in_k, w_air_in : float
        Air inlet temperature [K] and humidity ratio [kg/kg_da].
    ua_air_w_k : float
        Air-side conductance ``eta_o h_o A_o`` of the dry surface [W/K].
    ua_ref_w_k : float
        Refrigerant-side conductance, wall included [W/K].
    ref_capacity_w_k : float
        Refrigerant capacity rate ``m c_p`` [W/K]; ``math.inf`` for a boiling refrigerant.
    t_ref_in_k : float
        Refrigerant inlet temperature [K].
    arrangement : str
        Flow arrangement of ``ht.effectiveness_from_NTU`` ("counterflow", "crossflow", ...).

    Returns
    -------
    CoilResult
        With no condensate and ``wet_fraction`` 0.
    """
    c_air = air_mass_flow_kg_s * ha.cp_moist(w_air_in)
    c_min, c_max = min(c_air, ref_capacity_w_k), max(c_air, ref_capacity_w_k)
    ua = 1.0 / (1.0 / ua_air_w_k + 1.0 / ua_ref_w_k)
    q = _eps(ua / c_min, c_min, c_max, arrangement) * c_min * (t_air_in_k - t_ref_in_k)
    t_ref_out = t_ref_in_k if math.isinf(ref_capacity_w_k) else t_ref_in_k + q / ref_capacity_w_k
    return CoilResult(q, q, 0.0, t_air_in_k - q / c_air, w_air_in, t_ref_out, 0.0, 0.0)


def _saturated_temperature(h_sat: float, low: float, high: float) -> float:
    """The temperature at which saturated air has the enthalpy h_sat [K]."""
    return float(
        brentq(lambda t: ha.saturated_enthalpy(t) - h_sat, low - 60.0, high + 60.0, xtol=1e-9)
    )


def wet_coil(
    air_mass_flow_kg_s: float,
    t_air_in_k: float,
    w_air_in: float,
    ua_air_wet_w_k: float,
    ua_ref_w_k: float,
    ref_capacity_w_k: float,
    t_ref_in_k: float,
    arrangement: str = "counterflow",
    passes: int = 4,
) -> CoilResult:
    """A fully wet coil by Braun, Klein & Mitchell's enthalpy effectiveness.

    Parameters
    ----------
    air_mass_flow_kg_s : float
        Dry-air mass flow m_da [kg/s].
    t_air_in_k, w_air_in : float
        Air inlet temperature [K] and humidity ratio [kg/kg_da].
    ua_air_wet_w_k : float
        Air-side conductance of the wet surface ``eta_o,wet h_o A_o`` [W/K].
    ua_ref_w_k : float
        Refrigerant-side conductance, wall included [W/K].
    ref_capacity_w_k : float
        Refrigerant capacity rate [W/K]; ``math.inf`` for a boiling refrigerant.
    t_ref_in_k : float
        Refrigerant inlet temperature [K].
    arrangement : str
        Flow arrangement of ``ht.effectiveness_from_NTU``.
    passes : int
        Passes of the secant slope b_r [-].

    Returns
    -------
    CoilResult
        ``wet_fraction`` 1.

    References
    ----------
    .. [1] J. E. Braun, S. A. Klein, J. W. Mitchell, "Effectiveness models for cooling towers
       and cooling coils", ASHRAE Trans. 95(2) (1989) 164–174.
    """
    m = air_mass_flow_kg_s
    cp = ha.cp_moist(w_air_in)
    h_in = ha.enthalpy(t_air_in_k, w_air_in)
    ntu_o = ua_air_wet_w_k / (m * cp)
    t_ref_out = t_ref_in_k
    t_s = 0.5 * (t_air_in_k + t_ref_in_k)
    q = 0.0
    for _ in range(passes):
        t_ref_mean = 0.5 * (t_ref_in_k + t_ref_out)
        if abs(t_s - t_ref_mean) > 1e-3:
            b_r = (ha.saturated_enthalpy(t_s) - ha.saturated_enthalpy(t_ref_mean)) / (
                t_s - t_ref_mean
            )
        else:
            b_r = ha.saturated_enthalpy_slope(t_ref_mean)
        ua_star = 1.0 / (cp / ua_air_wet_w_k + b_r / ua_ref_w_k)
        c_ref_star = ref_capacity_w_k / b_r
        c_min, c_max = min(m, c_ref_star), max(m, c_ref_star)
        eps = _eps(ua_star / c_min, c_min, c_max, arrangement)
        q = eps * c_min * (h_in - ha.saturated_enthalpy(t_ref_in_k))
        if not math.isinf(ref_capacity_w_k):
            t_ref_out = t_ref_in_k + q / ref_capacity_w_k
        h_out = h_in - q / m
        h_s_eff = h_in - (h_in - h_out) / (1.0 - math.exp(-ntu_o))
        t_s = _saturated_temperature(h_s_eff, t_ref_in_k, t_air_in_k)
    w_s = ha.saturated_humidity_ratio(t_s)
    decay = math.exp(-ntu_o)
    w_out = min(w_air_in, w_s + (w_air_in - w_s) * decay)
    t_out = t_s + (t_air_in_k - t_s) * decay
    sensible = m * cp * (t_air_in_k - t_out)
    condensate = m * (w_air_in - w_out)
    return CoilResult(q, sensible, q - sensible, t_out, w_out, t_ref_out, condensate, 1.0)


def coil(
    air_mass_flow_kg_s: float,
    t_air_in_k: float,
    w_air_in: float,
    ua_air_dry_w_k: float,
    ua_air_wet_w_k: float,
    ua_ref_w_k: float,
    ref_capacity_w_k: float,
    t_ref_in_k: float,
    p_pa: float = ha.P_ATM,
) -> CoilResult:
    """A counterflow cooling coil, dry, wet or partly wet, whichever its surface is.

    Parameters
    ----------
    air_mass_flow_kg_s : float
        Dry-air mass flow [kg/s].
    t_air_in_k, w_air_in : float
        Air inlet temperature [K] and humidity ratio [kg/kg_da].
    ua_air_dry_w_k, ua_air_wet_w_k : float
        Air-side conductance of the whole coil, dry and wet surface efficiency [W/K].
    ua_ref_w_k : float
        Refrigerant-side conductance of the whole coil, wall included [W/K].
    ref_capacity_w_k : float
        Refrigerant capacity rate [W/K]; ``math.inf`` for a boiling refrigerant.
    t_ref_in_k : float
        Refrigerant inlet temperature [K].
    p_pa : float
        Air pressure, for the dew point [Pa].

    Returns
    -------
    CoilResult
        The whole coil; for a partly wet one, the sum of its dry and wet parts, with
        ``wet_fraction`` the wet share of the area.

    Notes
    -----
    The split: ``g(f) = T_s(boundary) - T_dew`` with f the dry area fraction, solved by Brent's
    method; within a split coil the refrigerant temperature at the boundary is found by a
    second Brent solve when its capacity rate is finite.
    """
    t_dew = ha.dew_point(t_air_in_k, w_air_in, p_pa) if w_air_in > 1e-6 else -math.inf
    args = (air_mass_flow_kg_s, t_air_in_k, w_air_in)
    dry = dry_coil(*args, ua_air_dry_w_k, ua_ref_w_k, ref_capacity_w_k, t_ref_in_k)
    t_s_out = (ua_air_dry_w_k * dry.t_air_out_k + ua_ref_w_k * t_ref_in_k) / (
        ua_air_dry_w_k + ua_ref_w_k
    )
    if t_s_out >= t_dew:
        return dry
    wet = wet_coil(*args, ua_air_wet_w_k, ua_ref_w_k, ref_capacity_w_k, t_ref_in_k)
    cp = ha.cp_moist(w_air_in)
    t_s_in = (ua_air_dry_w_k * t_air_in_k + ua_ref_w_k * wet.t_ref_out_k) / (
        ua_air_dry_w_k + ua_ref_w_k
    )
    if t_s_in <= t_dew:
        return wet

    def split(f: float) -> tuple[CoilResult, CoilResult]:
        """The dry part (area fraction f, air first) and the wet part after it."""

        def parts(t_ref_x: float) -> tuple[CoilResult, CoilResult]:
            d = dry_coil(*args, f * ua_air_dry_w_k, f * ua_ref_w_k, ref_capacity_w_k, t_ref_x)
            w = wet_coil(
                air_mass_flow_kg_s,
                d.t_air_out_k,
                w_air_in,
                (1 - f) * ua_air_wet_w_k,
                (1 - f) * ua_ref_w_k,
                ref_capacity_w_k,
                t_ref_in_k,
            )
            return d, w

        if math.isinf(ref_capacity_w_k):
            return parts(t_ref_in_k)
        t_x = brentq(lambda t: parts(t)[1].t_ref_out_k - t, t_ref_in_k, t_air_in_k, xtol=1e-7)
        return parts(float(t_x))

    def boundary(f: float) -> float:
        d, w = split(f)
        t_s = (ua_air_dry_w_k * d.t_air_out_k + ua_ref_w_k * w.t_ref_out_k) / (
            ua_air_dry_w_k + ua_ref_w_k
        )
        return t_s - t_dew

    f_dry = float(brentq(boundary, 1e-6, 1.0 - 1e-6, xtol=1e-7))
    d, w = split(f_dry)
    q = d.capacity_w + w.capacity_w
    sensible = air_mass_flow_kg_s * cp * (t_air_in_k - w.t_air_out_k)
    t_ref_out = d.t_ref_out_k
    return CoilResult(
        q,
        sensible,
        q - sensible,
        w.t_air_out_k,
        w.w_air_out,
        t_ref_out,
        w.condensate_kg_s,
        1.0 - f_dry,
    )
