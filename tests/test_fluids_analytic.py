"""The analytic Test backend: exact thermodynamic consistency, energy closure, arrays, ranges."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from workbench.errors import FluidPropertyError
from workbench.fluids import ANALYTIC_FLUIDS, get_backend
from workbench.units import celsius_to_kelvin

FLUIDS = sorted(ANALYTIC_FLUIDS)


def _cycle_pressures(b):
    if b.name == "CO2":
        return b.p_sat(celsius_to_kelvin(-30.0)), b.p_sat(celsius_to_kelvin(20.0))
    if b.name == "Water":
        return b.p_sat(celsius_to_kelvin(20.0)), b.p_sat(celsius_to_kelvin(80.0))
    return b.p_sat(celsius_to_kelvin(-10.0)), b.p_sat(celsius_to_kelvin(45.0))


@pytest.mark.parametrize("fluid", FLUIDS)
def test_analytic_ideal_cycle_closes_energy_balance(fluid):
    b = get_backend(fluid)
    p_evap, p_cond = _cycle_pressures(b)
    h1 = b.h_vap(p_evap) + 5e3  # slightly superheated suction
    s1 = b.s_ph(p_evap, h1)
    h2 = b.h_ps(p_cond, s1)  # isentropic compression
    h3 = b.h_liq(p_cond) - 3e3  # slightly subcooled liquid
    h4 = h3  # isenthalpic valve
    q_evap, w, q_cond = h1 - h4, h2 - h1, h2 - h3
    assert q_cond == pytest.approx(q_evap + w, rel=1e-9)
    assert b.s_ph(p_cond, h2) == pytest.approx(s1, rel=1e-12)
    assert b.state_ph(p_cond, h2).phase == "vapour"  # dry compression
    assert b.state_ph(p_evap, h4).phase == "two-phase"
    # second law: the reversible-compression COP stays below Carnot between the saturation temperatures
    t_low, t_high = b.T_sat(p_evap), b.T_sat(p_cond)
    assert 0.0 < q_evap / w < t_low / (t_high - t_low)
    # and the valve produces entropy
    assert b.s_ph(p_evap, h4) > b.s_ph(p_cond, h3)


@pytest.mark.parametrize("fluid", FLUIDS)
@pytest.mark.parametrize("where", ["liquid", "two-phase", "vapour"])
def test_analytic_gibbs_relation_holds(fluid, where):
    """Gibbs relation dh = T ds + v dp: (dh/dp)_s = 1/rho and (dh/ds)_p = T, from the backend's own calls."""
    b = get_backend(fluid)
    p, _ = _cycle_pressures(b)
    h_l, h_v = b.h_liq(p), b.h_vap(p)
    h = {
        "liquid": b.h_pT(p, b.T_sat(p) - 10.0),
        "two-phase": 0.5 * (h_l + h_v),
        "vapour": h_v + 0.1 * (h_v - h_l),
    }[where]
    s = b.s_ph(p, h)
    dp = 1e-6 * p
    dh_dp_s = (b.h_ps(p + dp, s) - b.h_ps(p - dp, s)) / (2 * dp)
    assert dh_dp_s == pytest.approx(1.0 / b.rho_ph(p, h), rel=1e-5)
    ds = 1e-3
    dh_ds_p = (b.h_ps(p, s + ds) - b.h_ps(p, s - ds)) / (2 * ds)
    assert dh_ds_p == pytest.approx(b.T_ph(p, h), rel=1e-7)


@pytest.mark.parametrize("fluid", FLUIDS)
def test_analytic_clausius_clapeyron_exact(fluid):
    b = get_backend(fluid)
    p, _ = _cycle_pressures(b)
    t = b.T_sat(p)
    latent = b.h_vap(p) - b.h_liq(p)
    v_v = 1.0 / b.rho_ph(p, b.h_vap(p))
    v_l = 1.0 / b.rho_ph(p, b.h_liq(p))
    assert latent == pytest.approx(t * (v_v - v_l) / b.dTsat_dp(p), rel=1e-12)
    assert b.s_vap(p) - b.s_liq(p) == pytest.approx(latent / t, rel=1e-12)


@pytest.mark.parametrize("fluid", FLUIDS)
def test_analytic_round_trips(fluid):
    b = get_backend(fluid)
    p, p_hi = _cycle_pressures(b)
    t = b.T_sat(p)
    assert b.p_sat(t) == pytest.approx(p, rel=1e-13)
    for temp in (t - 7.0, t + 25.0):
        assert b.T_ph(p, b.h_pT(p, temp)) == pytest.approx(temp, rel=1e-13)
    for h in (b.h_liq(p) - 2e3, 0.5 * (b.h_liq(p) + b.h_vap(p)), b.h_vap(p) + 2e4):
        assert b.h_ps(p_hi, b.s_ph(p_hi, h)) == pytest.approx(h, rel=1e-12)
    # T is continuous at both saturation lines
    assert b.T_ph(p, b.h_liq(p)) == pytest.approx(t, rel=1e-12)
    assert b.T_ph(p, b.h_vap(p) * (1 + 1e-12)) == pytest.approx(t, rel=1e-9)


def test_analytic_quality_and_phase_labels():
    b = get_backend("R134a")
    p = 3e5
    h_l, h_v = b.h_liq(p), b.h_vap(p)
    assert b.quality_ph(p, 0.25 * h_v + 0.75 * h_l) == pytest.approx(0.25)
    assert b.quality_ph(p, h_l - 1e3) is None
    assert b.quality_ph(p, h_v + 1e3) is None
    assert b.state_ph(p, h_l - 1e3).phase == "liquid"
    assert b.state_ph(p, h_v + 1e3).phase == "vapour"
    state = b.state_ph(np.array([p, p, p]), np.array([h_l - 1e3, h_l + 1e3, h_v + 1e3]))
    assert list(state.phase) == ["liquid", "two-phase", "vapour"]
    assert np.isnan(state.quality[0])
    assert np.isnan(state.quality[2])
    assert 0.0 < state.quality[1] < 0.01


SCALAR_METHODS_PH = ["T_ph", "s_ph", "rho_ph", "dT_dh_p", "drho_dp_h", "drho_dh_p"]
SCALAR_METHODS_P = [
    "T_sat",
    "h_liq",
    "h_vap",
    "s_liq",
    "s_vap",
    "dhliq_dp",
    "dhvap_dp",
    "dTsat_dp",
    "h_max",
    "h_min",
]


@pytest.mark.parametrize("fluid", FLUIDS)
def test_analytic_scalar_and_array_agree(fluid):
    b = get_backend(fluid)
    p_lo, p_hi = _cycle_pressures(b)
    p = np.array([p_lo, p_lo, p_lo, p_hi, p_hi, p_hi])
    h_l, h_v = b.h_liq(p), b.h_vap(p)
    h = np.array(
        [
            h_l[0] - 5e3,
            0.3 * h_l[1] + 0.7 * h_v[1],
            h_v[2] + 3e4,
            h_l[3] - 1e4,
            h_l[4] + 1e3,
            h_v[5] + 1e3,
        ]
    )
    for name in SCALAR_METHODS_PH:
        arr = getattr(b, name)(p, h)
        scal = [getattr(b, name)(float(pi), float(hi)) for pi, hi in zip(p, h, strict=True)]
        np.testing.assert_allclose(arr, scal, rtol=1e-13, atol=0, err_msg=name)
    for name in SCALAR_METHODS_P:
        arr = getattr(b, name)(p)
        scal = [getattr(b, name)(float(pi)) for pi in p]
        np.testing.assert_allclose(arr, scal, rtol=1e-13, atol=0, err_msg=name)
    s = b.s_ph(p, h)
    np.testing.assert_allclose(
        b.h_ps(p, s), [b.h_ps(float(a), float(c)) for a, c in zip(p, s, strict=True)], rtol=1e-13
    )
    temps = b.T_sat(p) + np.array([-5.0, 5.0, 20.0, -5.0, 5.0, 20.0])
    np.testing.assert_allclose(
        b.h_pT(p, temps),
        [b.h_pT(float(a), float(c)) for a, c in zip(p, temps, strict=True)],
        rtol=1e-13,
    )
    np.testing.assert_allclose(b.p_sat(b.T_sat(p)), p, rtol=1e-13)
    # numpy scalars and ints take the scalar path
    assert b.T_ph(np.float64(p_lo), float(h[0])) == pytest.approx(
        b.T_ph(float(p_lo), float(h[0])), rel=0
    )
    assert isinstance(b.T_sat(np.float64(p_lo)), float)


@settings(max_examples=60, deadline=None)
@given(
    fluid=st.sampled_from(FLUIDS),
    frac_p=st.floats(0.02, 0.95),
    frac_h=st.floats(-0.3, 1.6),
)
@example(fluid="R134a", frac_p=0.25, frac_h=1.0)  # exactly saturated vapour
@example(fluid="R134a", frac_p=0.25, frac_h=0.0)  # exactly saturated liquid
def test_analytic_property_invariants(fluid, frac_p, frac_h):
    b = get_backend(fluid)
    p = math.exp(math.log(b.p_min) + frac_p * (math.log(b.p_max) - math.log(b.p_min)))
    h_l, h_v = b.h_liq(p), b.h_vap(p)
    h = min(max(h_l + frac_h * (h_v - h_l), b.h_min(p) + 1.0), b.h_max(p) - 1.0)
    state = b.state_ph(p, h)
    t_sat, temp = b.T_sat(p), state.T
    assert state.rho > 0.0
    assert temp > 0.0
    assert b.dT_dh_p(p, h) >= 0.0
    assert b.drho_dh_p(p, h) <= 0.0  # density falls as enthalpy rises
    if state.phase == "two-phase":
        assert 0.0 <= state.quality <= 1.0
        assert temp == t_sat
    elif state.phase == "liquid":  # saturated liquid (h == h_l) may carry either label
        assert temp <= t_sat
        assert h <= h_l
    else:
        assert temp >= t_sat
        assert h >= h_v
    assert b.h_ps(p, state.s) == pytest.approx(h, rel=1e-11, abs=1e-6)


def test_analytic_range_errors_name_fluid_and_inputs():
    b = get_backend("R134a")
    with pytest.raises(
        FluidPropertyError,
        match=r"R134a \(Test\).*p=5000000\.0 Pa, h=400000\.0 J/kg.*subcritical only",
    ):
        b.state_ph(5e6, 4e5)
    with pytest.raises(FluidPropertyError, match=r"R134a \(Test\).*liquid below T_min"):
        b.T_ph(3e5, b.h_min(3e5) - 1e3)
    with pytest.raises(FluidPropertyError, match=r"index=1"):
        b.T_ph(np.array([3e5, 5e6]), np.array([4e5, 4e5]))
    with pytest.raises(FluidPropertyError, match=r"p=nan"):
        b.T_sat(float("nan"))
    with pytest.raises(FluidPropertyError, match="phase is ambiguous"):
        b.h_pT(3e5, b.T_sat(3e5))
    with pytest.raises(FluidPropertyError, match=r"p_sat failed for T=400\.0 K"):
        b.p_sat(400.0)


def test_analytic_valid_range_is_consistent():
    b = get_backend("R134a")
    assert b.p_min < b.p_max < b.p_crit
    assert b.T_sat(b.p_max) == pytest.approx(b.T_crit - 0.5)
    for p in (b.p_min * 1.01, 3e5, b.p_max * 0.99):
        assert b.h_min(p) < b.h_liq(p) < b.h_vap(p) < b.h_max(p)
        b.T_ph(p, b.h_min(p) + 1.0)
        b.T_ph(p, b.h_max(p) - 1.0)


def test_analytic_stats_count_calls_and_reset():
    b = get_backend("R32")
    assert b.stats.calls == 0
    b.T_ph(1e6, 4e5)
    b.state_ph(np.array([1e6, 1e6]), np.array([3e5, 4e5]))
    b.h_vap(1e6)
    assert b.stats.calls == 3
    assert int(b.stats) == 3
    b.reset_stats()
    assert b.stats.calls == 0
    assert b.stats.flashes == 0
