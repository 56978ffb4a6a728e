"""UA coils of zeotropic blends against a 400-segment HEOS model, down to 1 K approach.

The two-phase zone's temperature glide is curved in enthalpy; the zone model cuts it into
:data:`~workbench.components.exchangers.zones.zone_profile.GLIDE_CUTS` straight pieces. The reference here is
independent: the refrigerant's T(h) from CoolProp's own HEOS mixture flashes ((p, Q) in the
dome, (p, T) outside), 400 equal enthalpy segments, each a counterflow LMTD zone, and the heat
flow whose segments need exactly the coil's UA.
"""

from __future__ import annotations

import CoolProp.CoolProp as CP
import numpy as np
import pytest
from scipy.optimize import brentq

from workbench.components.exchangers.zones.heat_flow import coil_heat_flow
from workbench.fluids import get_backend
from workbench.fluids.blend.spec import parse_blend


def _heos_curve(fluid: str, p: float, t_lo: float, t_hi: float, n: int = 1200):
    """(h, T) along the isobar from ``t_lo`` to ``t_hi`` by HEOS flashes, sorted by h."""
    spec = parse_blend(fluid)
    st = CP.AbstractState("HEOS", spec.coolprop_fluids)
    st.set_mole_fractions(list(spec.mole_fractions))
    hs, ts = [], []
    for q in np.linspace(0.0, 1.0, n):
        st.update(CP.PQ_INPUTS, p, float(q))
        hs.append(st.hmass())
        ts.append(st.T())
    t_bub, t_dew = ts[0], ts[-1]
    for phase, temps in (
        (CP.iphase_liquid, np.linspace(min(t_lo, t_bub - 20.0), t_bub, 200, endpoint=False)),
        (CP.iphase_gas, np.linspace(t_dew, t_hi, 200)[1:]),
    ):
        st.specify_phase(phase)
        for t in temps:
            st.update(CP.PT_INPUTS, p, float(t))
            hs.append(st.hmass())
            ts.append(st.T())
        st.unspecify_phase()
    order = np.argsort(hs)
    return np.array(hs)[order], np.array(ts)[order]


def _segment_q(curve, h_in, m, t_sec_in, c_sec, ua, hot, segments=400):
    hs, ts = curve
    sign = 1.0 if hot else -1.0

    def ua_needed(q):
        h = np.linspace(h_in, h_in - sign * q / m, segments + 1)
        t_r = np.interp(h, hs, ts)
        t_s = t_sec_in + (h - h[-1]) * m / c_sec  # the secondary enters at the outlet
        dt = sign * (t_r - t_s)
        if np.any(dt <= 0):
            return np.inf
        a, b = dt[:-1], dt[1:]
        lmtd = np.where(np.abs(a - b) > 1e-12, (a - b) / np.log(a / b), a)
        return float(np.sum(m * np.abs(np.diff(h)) / lmtd))

    q_max = sign * c_sec * (np.interp(h_in, hs, ts) - t_sec_in)
    hi = q_max * (1 - 1e-9)
    while not np.isfinite(ua_needed(hi)):
        hi *= 0.9999
    return brentq(lambda q: ua_needed(q) - ua, 1e-6 * q_max, hi, xtol=1e-9 * q_max)


CASES = [
    # fluid, condenser?, dew T [K], inlet T offset [K], m [kg/s], secondary in [K], C [W/K],
    # approach [K]
    ("R449A", True, 313.15, 20.0, 0.03, 303.15, 900.0, 1.0),
    ("R449A", False, 268.15, None, 0.03, 275.15, 1500.0, 1.0),
    ("R407C", True, 318.15, 25.0, 0.04, 308.15, 1200.0, 1.5),
    ("R454C", False, 273.15, None, 0.02, 281.15, 900.0, 1.0),
    ("R455A", True, 313.15, 15.0, 0.02, 300.15, 600.0, 1.0),
]


def _ua_for_approach(fl, p, h_in, m, t_sec, c_sec, cond, approach):
    """The UA [W/K] whose solved coil has the smallest temperature difference ``approach``."""

    def miss(log_ua):
        return coil_heat_flow(fl, p, h_in, m, t_sec, c_sec, np.exp(log_ua), cond).min_dt - approach

    return float(np.exp(brentq(miss, np.log(10.0), np.log(1e6), xtol=1e-6)))


@pytest.mark.parametrize(
    ("fluid", "cond", "t_dew", "dt_in", "m", "t_sec", "c_sec", "approach"), CASES
)
def test_a_glide_coil_agrees_with_a_400_segment_heos_model(
    fluid, cond, t_dew, dt_in, m, t_sec, c_sec, approach
):
    fl = get_backend(fluid, "CoolProp")
    p = fl.p_sat(t_dew)
    # a condenser fed by superheated vapour; an evaporator by liquid expanded from the bubble
    # point at 40 degC
    h_in = fl.h_pT(p, t_dew + dt_in) if cond else fl.h_liq(fl.p_bubble(313.15))
    ua = _ua_for_approach(fl, p, h_in, m, t_sec, c_sec, cond, approach)
    zones = coil_heat_flow(fl, p, h_in, m, t_sec, c_sec, ua, cond)
    assert zones.min_dt == pytest.approx(approach, abs=1e-3)  # a tight approach
    assert "two-phase" in [z[0] for z in zones.zones]
    curve = _heos_curve(fluid, p, t_sec - 15.0, t_dew + (dt_in or 10.0) + 5.0)
    q_ref = _segment_q(curve, h_in, m, t_sec, c_sec, ua, cond)
    assert zones.q == pytest.approx(q_ref, rel=1e-3)


def test_the_glide_cuts_move_with_the_pressure_in_the_jacobian():
    # the implicit-function derivative of the heat flow in p (the cuts inside the glide move
    # along the dome) against a central difference of the root-found heat flow
    from workbench.components.exchangers.zones.heat_flow import coil_heat_flow_sensitivity

    fl = get_backend("R455A", "CoolProp")
    p = fl.p_sat(313.15)
    h_in = fl.h_pT(p, 328.15)
    args = (0.02, 300.15, 600.0, 650.0, True)
    q = coil_heat_flow(fl, p, h_in, *args).q
    sens = coil_heat_flow_sensitivity(fl, p, h_in, *args, q)
    dp = 1e-5 * p
    q_up = coil_heat_flow(fl, p + dp, h_in, *args).q
    q_dn = coil_heat_flow(fl, p - dp, h_in, *args).q
    assert sens.p == pytest.approx((q_up - q_dn) / (2 * dp), rel=1e-4)
    dh = 1e-5 * h_in
    q_h = coil_heat_flow(fl, p, h_in + dh, *args).q - coil_heat_flow(fl, p, h_in - dh, *args).q
    assert sens.h_in == pytest.approx(q_h / (2 * dh), rel=1e-4)


def test_glide_pieces_follow_the_bend_of_each_blend():
    """Fewer pieces for a blend whose glide bends less; R455A keeps all eight; a pure fluid 2."""
    from workbench.components.exchangers.zones.zone_profile import (
        GLIDE_CUTS,
        glide_bow,
        glide_pieces,
    )

    pieces = {f: glide_pieces(get_backend(f, "CoolProp")) for f in ("R407C", "R449A", "R455A")}
    assert pieces["R455A"] == GLIDE_CUTS
    assert 2 <= pieces["R407C"] < pieces["R449A"] < GLIDE_CUTS
    fl = get_backend("R407C", "CoolProp")
    assert glide_bow(fl, fl.p_sat(253.15)) > glide_bow(fl, fl.p_sat(313.15)) > 0.0
