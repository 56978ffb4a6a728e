"""One segment against its air share: saturated air, dry epsilon-NTU, wetting, the tube temperature."""

from __future__ import annotations

import math

import numpy as np
import psychrolib
import pytest
from ht import effectiveness_from_NTU

from workbench.components.exchangers.fin_tube.segment import segment_air
from workbench.components.exchangers.fin_tube.tube_side import molar_mass_g_mol, tube_fluid
from workbench.correlations import humid_air as ha
from workbench.correlations.saturated_air import saturated_air
from workbench.correlations.wet_coil import wet_coil
from workbench.fluids import get_backend
from workbench.fluids.transport import transport_for

P = 101325.0


def _no_wet_change(_b: float) -> float:
    return 1.0


@pytest.mark.parametrize("t_c", [-20.0, -5.0, 0.0, 0.01, 0.02, 5.0, 12.0, 25.0, 45.0])
def test_saturated_air_matches_psychrolib(t_c):
    psychrolib.SetUnitSystem(psychrolib.SI)
    h_s, slope, w_s = saturated_air(t_c + 273.15, P)
    assert h_s == pytest.approx(psychrolib.GetSatAirEnthalpy(t_c, P), rel=1e-9, abs=1e-6)
    assert w_s == pytest.approx(psychrolib.GetSatHumRatio(t_c, P), rel=1e-9)
    up = psychrolib.GetSatAirEnthalpy(t_c + 1e-4, P)
    down = psychrolib.GetSatAirEnthalpy(t_c - 1e-4, P)
    if abs(t_c - 0.01) > 1e-3:  # the two branches meet at the triple point
        assert slope == pytest.approx((up - down) / 2e-4, rel=1e-5)


def test_dry_segment_is_epsilon_ntu_against_a_constant_temperature():
    m_da, t_in, t_r, ua_o, r_i = 0.01, 300.0, 280.0, 12.0, 0.02
    cp = ha.cp_moist(0.0)
    seg = segment_air(
        m_da, t_in, 0.0, 1006.0 * (t_in - 273.15), -math.inf, P, ua_o, r_i, t_r, _no_wet_change
    )
    ua = 1.0 / (1.0 / ua_o + r_i)
    eps = effectiveness_from_NTU(ua / (m_da * cp), 0.0, subtype="counterflow")  # Cr = 0: any
    assert seg.q == pytest.approx(eps * m_da * cp * (t_in - t_r), rel=1e-12)
    assert seg.wet_fraction == 0.0
    assert seg.w_out == 0.0
    # a hot refrigerant heats the air by the same law
    hot = segment_air(
        m_da, t_in, 0.0, 1006.0 * (t_in - 273.15), -math.inf, P, ua_o, r_i, 320.0, _no_wet_change
    )
    assert hot.q == pytest.approx(eps * m_da * cp * (t_in - 320.0), rel=1e-12)


def _segment_at_rh(rh: float, t_r: float = 282.0):
    t_in = 299.85
    w = ha.humidity_ratio(t_in, rh, P) if rh > 0 else 0.0
    t_dew = ha.dew_point(t_in, w, P) if w > 0 else -math.inf
    h = 1006.0 * (t_in - 273.15) + w * (2501000.0 + 1860.0 * (t_in - 273.15))
    return segment_air(0.01, t_in, w, h, t_dew, P, 10.0, 0.03, t_r, _no_wet_change), w


def test_wet_fraction_grows_with_humidity_and_capacity_is_continuous_at_the_onset():
    rhs = np.linspace(0.2, 0.9, 351)
    results = [_segment_at_rh(float(rh)) for rh in rhs]
    q = np.array([r.q for r, _ in results])
    wet = np.array([r.wet_fraction for r, _ in results])
    assert wet[0] == 0.0
    assert wet.max() > 0.0
    assert wet[-1] == 1.0
    assert np.all(np.diff(wet) >= -1e-12)
    assert np.all(np.diff(q) >= -1e-9)  # more moisture, more heat
    # no jump: the largest step is a few times the typical one of the wet range
    steps = np.diff(q)
    assert steps.max() < 3.0 * np.median(steps[wet[1:] > 0])
    # at the onset itself the capacity is continuous to the bisection's resolution
    lo, hi = 0.2, 0.9
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _segment_at_rh(mid)[0].wet_fraction == 0.0 else (lo, mid)
    dry, wet_seg = _segment_at_rh(lo)[0], _segment_at_rh(hi)[0]
    assert wet_seg.wet_fraction < 1e-6
    assert abs(wet_seg.q - dry.q) < 1e-6 * dry.q
    # water balance and a drier outlet for every case
    for r, w in results:
        assert r.w_out <= w + 1e-15
        assert r.q == pytest.approx(
            0.01 * (1006.0 * 26.7 + w * (2501000.0 + 1860.0 * 26.7) - r.h_out), rel=1e-9
        )


def test_fully_wet_segment_agrees_with_braun_klein_mitchell_of_the_floor():
    t_in, rh, t_r = 299.85, 0.8, 278.0
    w = ha.humidity_ratio(t_in, rh, P)
    h = 1006.0 * (t_in - 273.15) + w * (2501000.0 + 1860.0 * (t_in - 273.15))
    ua_o, r_i = 10.0, 0.005
    seg = segment_air(0.01, t_in, w, h, ha.dew_point(t_in, w, P), P, ua_o, r_i, t_r, _no_wet_change)
    assert seg.wet_fraction == 1.0
    ref = wet_coil(0.01 / 1.0, t_in, w, ua_o, 1.0 / r_i, math.inf, t_r)
    assert seg.q == pytest.approx(ref.capacity_w, rel=0.01)
    assert seg.w_out == pytest.approx(ref.w_air_out, rel=0.01)


def test_tube_temperature_follows_the_backend_along_a_condenser_path():
    fl = get_backend("R32", "CoolProp")
    tr = transport_for(fl)
    p_in = float(fl.p_sat(318.15))
    t_in = 360.0
    h_in = float(fl.h_pT(p_in, t_in))
    tf = tube_fluid(tr, p_in, h_in, t_in, molar_mass_g_mol(tr), 0.005, 0.0088)
    assert molar_mass_g_mol(tr) == pytest.approx(52.02, rel=1e-3)
    h_out = float(fl.h_pT(p_in, 312.0))
    for h in np.linspace(h_in, h_out, 41):
        p = p_in - 3000.0 * (h_in - h) / (h_in - h_out)  # 3 kPa drop along the path
        assert tf.temperature(p, float(h)) == pytest.approx(float(fl.T_ph(p, float(h))), abs=0.05)


def test_tube_temperature_follows_the_backend_through_an_evaporator_superheat():
    fl = get_backend("R32", "CoolProp")
    tr = transport_for(fl)
    p_in = float(fl.p_sat(280.0))
    h_in = 0.7 * float(fl.h_liq(p_in)) + 0.3 * float(fl.h_vap(p_in))
    tf = tube_fluid(tr, p_in, h_in, float(fl.T_ph(p_in, h_in)), molar_mass_g_mol(tr), 0.005, 0.0088)
    h_out = float(fl.h_pT(p_in, 292.0))
    for h in np.linspace(h_in, h_out, 41):
        p = p_in - 5000.0 * (h - h_in) / (h_out - h_in)
        assert tf.temperature(p, float(h)) == pytest.approx(float(fl.T_ph(p, float(h))), abs=0.05)
