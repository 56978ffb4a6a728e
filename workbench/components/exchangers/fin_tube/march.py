"""The segment march along a coil's refrigerant path: heat, pressure, air outlet.

Who reads it: the geometric coil components
(:mod:`workbench.components.exchangers.fin_tube.component`), once per residual evaluation at a
new inlet state (the result is kept by its inputs).

Method (the lead's design for issue 40, docs/components.md "Coils from geometry"):

* every circuit carries ``m / circuits`` and is cut into ``N`` segments of equal tube length
  ``L_s = path_length / N``; all circuits are alike, so one is marched and multiplied;
* parallel air, as ACHP does: each segment meets its area share of the air flow,
  ``m_da / (circuits N)``, at the coil's air inlet state and exchanges in crossflow with a
  refrigerant at one temperature (:func:`~workbench.components.exchangers.fin_tube.segment.segment_air`);
  the air outlet is the mix of the segment outlets;
* Heun's step (second order): a segment is evaluated at its inlet ``(p_k, h_k)`` and at the
  predicted outlet ``(p_k - g_0 L_s, h_k + q_0/m_c)``; the heat ``(q_0 + q_1)/2`` and the
  pressure gradient ``(g_0 + g_1)/2`` are the averages, and the segment's air outlet the
  average of the two air outlets, so refrigerant and air balance exactly;
* the refrigerant temperature is ``T(p_local, h)`` at each evaluation
  (:meth:`~workbench.components.exchangers.fin_tube.tube_side.TubeFluid.temperature`), so
  the saturation temperature falls with the pressure along the path (and a blend's glide is
  followed); the pressure falls by the friction of
  :func:`~workbench.components.exchangers.fin_tube.tube_side.friction_gradient`.

Everything is a smooth function of ``(p_in, h_in, m)`` and the air inlet (no switches that jump):
the film coefficient is blended across the saturation lines and the wet/dry boundary is a
closed form, so the solver's forward-difference Jacobian sees a smooth residual.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from workbench.components.exchangers.fin_tube.air_side import AirSide
from workbench.components.exchangers.fin_tube.geometry import CoilGeometry
from workbench.components.exchangers.fin_tube.segment import segment_air
from workbench.components.exchangers.fin_tube.supercritical import SupercriticalFluid
from workbench.components.exchangers.fin_tube.tube_side import TubeFluid
from workbench.correlations.saturated_air import moist_temperature

__all__ = ["MarchResult", "march"]

_MIN_CIRCUIT_FLOW = 1e-7
"""Smallest circuit flow the march uses [kg/s] (a Newton step may pass through zero)."""


@dataclass(frozen=True)
class MarchResult:
    """A marched coil, whole-coil totals [SI].

    Attributes
    ----------
    q : float
        Heat from the air into the refrigerant (negative for a condenser) [W].
    h_out, p_out : float
        Refrigerant outlet enthalpy [J/kg] and pressure [Pa].
    dp : float
        Refrigerant pressure drop ``p_in - p_out`` [Pa].
    condensate_kg_s : float
        Water condensed on the coil [kg/s].
    sensible : float
        Sensible heat from the air, ``m_da c_p (T_in - T_out)`` [W] (per segment, summed).
    wet_fraction : float
        Wet share of the air-side area [-].
    ua : float
        Effective conductance ``sum 1/(R_o + R_i)`` over the segments (dry basis) [W/K].
    h_i_mean : float
        Area-mean refrigerant film coefficient [W/(m^2 K)].
    t_surface_min : float
        Coldest air-side surface temperature [K].
    zones : list of tuple
        ``(zone, q [W], ua [W/K])`` for the superheated, two-phase and subcooled parts, in flow
        order, ``q`` as the refrigerant sees it (positive heat flow from hot to cold).
    profile : list of tuple
        ``(p [Pa], h [J/kg], T_r [K])`` at each segment boundary, inlet first.
    """

    q: float
    h_out: float
    p_out: float
    dp: float
    condensate_kg_s: float
    sensible: float
    wet_fraction: float
    ua: float
    h_i_mean: float
    t_surface_min: float
    zones: list[tuple[str, float, float]] = field(default_factory=list)
    profile: list[tuple[float, float, float]] = field(default_factory=list)


@dataclass
class _Eval:
    q: float
    grad: float
    h_air_out: float
    w_air_out: float
    wet: float
    ua: float
    h_i: float
    t_r: float
    t_s_min: float


def _zone_shares(
    h_a: float, h_b: float, h_l: float, h_v: float, dome: bool
) -> list[tuple[str, float]]:
    """The shares of a segment from ``h_a`` to ``h_b`` [J/kg] in each zone, by enthalpy.

    A segment that crosses a saturation line is split in proportion, so the zones' heat and
    conductance (and the charge the inventory gives them) move continuously with the state.
    """
    if not dome:
        return [("supercritical", 1.0)]
    lo, hi = min(h_a, h_b), max(h_a, h_b)
    span = hi - lo
    if span <= 0.0:
        zone = "superheated" if lo > h_v else ("subcooled" if lo < h_l else "two-phase")
        return [(zone, 1.0)]
    parts = (
        ("subcooled", lo, min(hi, h_l)),
        ("two-phase", max(lo, h_l), min(hi, h_v)),
        ("superheated", max(lo, h_v), hi),
    )
    if h_b < h_a:  # flow order: a condenser meets the superheated part first
        parts = parts[::-1]
    return [(name, (b - a) / span) for name, a, b in parts if b > a]


def march(
    geometry: CoilGeometry,
    air: AirSide,
    tube: TubeFluid | SupercriticalFluid,
    m: float,
    p_in: float,
    h_in: float,
    evaporating: bool,
    ref_factor: float = 1.0,
    dp_factor: float = 1.0,
) -> MarchResult:
    """March the refrigerant through the coil (module docstring).

    Parameters
    ----------
    geometry : CoilGeometry
        The coil.
    air : AirSide
        Its air side at the operating point.
    tube : TubeFluid or SupercriticalFluid
        The refrigerant's properties for this march (a gas cooler's above the critical
        pressure).
    m : float
        Refrigerant flow through the whole coil [kg/s].
    p_in, h_in : float
        Inlet pressure [Pa] and enthalpy [J/kg].
    evaporating : bool
        An evaporator (boiling coefficient, wet surfaces possible).
    ref_factor, dp_factor : float
        Factors on the film coefficient and the friction [-].

    Returns
    -------
    MarchResult
        Totals, zones and the profile.

    Raises
    ------
    FluidPropertyError
        A state of the march is outside the fluid's range.
    """
    n = geometry.segments
    circuits = geometry.circuits
    m_c = max(m / circuits, _MIN_CIRCUIT_FLOW)
    m_tube = m_c / geometry.ports  # one channel: a round tube, or a microchannel port
    length = geometry.path_length_m / n
    d_i = geometry.inner_diameter_m
    shares = circuits * n
    a_i = geometry.inner_area_m2 / shares
    ua_o = air.conductance_w_k / shares
    r_wall = geometry.wall_resistance_k_w * shares
    inl = air.inlet
    m_da = inl.dry_mass_flow_kg_s / shares
    t_a, w_a, h_a, p_a = inl.t_k, inl.w, inl.enthalpy_j_kg, inl.p_pa
    t_dew = inl.dew_point_k if evaporating else -math.inf
    eta_o = air.surface_efficiency

    def wet_ratio(b_w: float) -> float:
        return air.wet_surface_efficiency(b_w) / eta_o

    state = {"flux": math.nan, "h_i": 3000.0}

    def evaluate(p: float, h: float) -> _Eval:
        t_r = tube.temperature(p, h)
        flux = state["flux"]
        if math.isnan(flux):  # first evaluation: half the air side's reach
            flux = 0.5 * ua_o * abs(t_a - t_r) / a_i
        h_i = ref_factor * tube.film(
            p, h, m_tube, d_i, evaporating, flux, state["h_i"] / ref_factor
        )
        r_i = 1.0 / (h_i * a_i) + r_wall
        seg = segment_air(m_da, t_a, w_a, h_a, t_dew, p_a, ua_o, r_i, t_r, wet_ratio)
        state["flux"] = seg.q / a_i
        state["h_i"] = h_i
        grad = dp_factor * tube.friction(p, h, m_tube, d_i)
        ua = 1.0 / (1.0 / ua_o + r_i)
        return _Eval(
            seg.q, grad, seg.h_out, seg.w_out, seg.wet_fraction, ua, h_i, t_r, seg.t_surface_min
        )

    dome = isinstance(tube, TubeFluid)
    h_l, h_v = (tube.sat.h_liq, tube.sat.h_vap) if isinstance(tube, TubeFluid) else (0.0, 0.0)
    p, h = p_in, h_in
    q_sum = sens_sum = cond_sum = wet_sum = ua_sum = hi_sum = 0.0
    t_s_min = math.inf
    zone_q: dict[str, float] = {}
    zone_ua: dict[str, float] = {}
    profile: list[tuple[float, float, float]] = []
    cp = inl.cp_j_kg_k
    for _ in range(n):
        e0 = evaluate(p, h)
        profile.append((p, h, e0.t_r))
        e1 = evaluate(p - e0.grad * length, h + e0.q / m_c)
        q = 0.5 * (e0.q + e1.q)
        h_air = 0.5 * (e0.h_air_out + e1.h_air_out)
        w_air = 0.5 * (e0.w_air_out + e1.w_air_out)
        t_air = moist_temperature(h_air, w_air)
        ua = 0.5 * (e0.ua + e1.ua)
        for zone, share in _zone_shares(h, h + q / m_c, h_l, h_v, dome):
            zone_q[zone] = zone_q.get(zone, 0.0) + share * q
            zone_ua[zone] = zone_ua.get(zone, 0.0) + share * ua
        q_sum += q
        sens_sum += m_da * cp * (t_a - t_air)
        cond_sum += m_da * (w_a - w_air)
        wet_sum += 0.5 * (e0.wet + e1.wet)
        ua_sum += ua
        hi_sum += 0.5 * (e0.h_i + e1.h_i)
        t_s_min = min(t_s_min, e0.t_s_min, e1.t_s_min)
        h += q / m_c
        p -= 0.5 * (e0.grad + e1.grad) * length
    profile.append((p, h, tube.temperature(p, h)))
    sign = 1.0 if evaporating else -1.0
    zones = [(z, sign * circuits * zone_q[z], circuits * zone_ua[z]) for z in zone_q]
    return MarchResult(
        q=circuits * q_sum,
        h_out=h,
        p_out=p,
        dp=p_in - p,
        condensate_kg_s=circuits * cond_sum,
        sensible=circuits * sens_sum,
        wet_fraction=wet_sum / n,
        ua=circuits * ua_sum,
        h_i_mean=hi_sum / n,
        t_surface_min=t_s_min,
        zones=zones,
        profile=profile,
    )
