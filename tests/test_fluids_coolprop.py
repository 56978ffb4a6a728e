"""The CoolProp backend: state caching, blends, phases and errors that name their inputs."""

from __future__ import annotations

import math

import CoolProp.CoolProp as CP
import pytest
from CoolProp.CoolProp import PropsSI

from workbench.errors import FluidPropertyError
from workbench.fluids import get_backend


def test_coolprop_matches_raw_abstractstate():
    b = get_backend("R134a", "CoolProp")
    raw = CP.AbstractState("HEOS", "R134a")
    raw.update(CP.HmassP_INPUTS, 420e3, 3e5)
    state = b.state_ph(3e5, 420e3)
    # the backend solves (p, h) itself (Newton on (rho, T) updates) to 1e-13; CoolProp's
    # flash stops at about 1e-10
    t_state = state.T
    assert t_state == pytest.approx(raw.T(), rel=1e-12)
    assert state.s == pytest.approx(raw.smass(), rel=1e-12)
    assert state.rho == pytest.approx(raw.rhomass(), rel=1e-12)
    check = CP.AbstractState("HEOS", "R134a")
    check.update(CP.DmassT_INPUTS, state.rho, t_state)
    assert check.p() == pytest.approx(3e5, rel=1e-13)
    assert check.hmass() == pytest.approx(420e3, rel=1e-13)
    assert state.phase == "vapour"
    assert state.quality is None
    raw.update(CP.PSmass_INPUTS, 1e6, state.s)
    h2s = b.h_ps(1e6, state.s)  # superheated: Newton on (rho, T), CoolProp's flash to 1e-11
    assert h2s == pytest.approx(raw.hmass(), rel=1e-10)
    check.update(CP.HmassP_INPUTS, h2s, 1e6)
    assert check.smass() == pytest.approx(state.s, rel=1e-11)
    raw.update(CP.PT_INPUTS, 1e6, 330.0)
    assert b.h_pT(1e6, 330.0) == raw.hmass()


def test_coolprop_remembers_recent_states_and_answers_as_a_fresh_flash():
    from workbench.fluids.coolprop.backend import MEMO_SIZE

    b = get_backend("R134a", "CoolProp")
    t1 = b.T_ph(3e5, 420e3)
    b.reset_stats()
    assert b.s_ph(3e5, 420e3) > 0
    assert b.rho_ph(3e5, 420e3) > 0
    assert b.stats.calls == 2
    assert b.stats.flashes == 0  # outputs of the one (p, h) flash
    b.h_vap(8e5)  # a saturation flash: one flash gives T, h and s at that pressure
    assert b.stats.flashes == 1
    assert b.T_sat(8e5) > 0
    assert b.s_vap(8e5) > 0
    assert b.stats.flashes == 1
    assert b.T_ph(3e5, 420e3) == t1
    assert b.stats.flashes == 1
    # one memo, one rule: after MEMO_SIZE newer entries the oldest is flashed again
    for k in range(MEMO_SIZE):
        b.T_ph(3e5, 421e3 + k)
    flashes = b.stats.flashes
    assert b.T_ph(3e5, 420e3) == pytest.approx(t1, rel=1e-13)
    assert b.stats.flashes == flashes + 1
    # every remembered value is the one a fresh computation gives (to the 1e-13 the (p, h)
    # Newton converges to; its start depends on what was computed before)
    fresh = get_backend("R134a", "CoolProp")
    for k in range(0, MEMO_SIZE, 37):
        assert b.T_ph(3e5, 421e3 + k) == pytest.approx(fresh.T_ph(3e5, 421e3 + k), rel=1e-13)
    assert b.h_vap(8e5) == fresh.h_vap(8e5)
    assert b.T_sat(8e5) == fresh.T_sat(8e5)


def test_coolprop_derivatives_read_the_state_they_were_asked_about():
    # a derivative after flashes of other states still reads its own (p, h)
    b, fresh = get_backend("R134a", "CoolProp"), get_backend("R134a", "CoolProp")
    p, h = 3e5, 420e3
    b.T_ph(p, h)
    b.T_ph(9e5, 440e3)  # the (p, h) state now holds another flash
    b.h_vap(5e5)
    # brought back by a (rho, T) update from the record: the same state to rounding
    assert b.drho_dp_h(p, h) == pytest.approx(fresh.drho_dp_h(p, h), rel=1e-13)
    assert b.drho_dh_p(p, h) == pytest.approx(fresh.drho_dh_p(p, h), rel=1e-13)
    assert b.dT_dp_h(p, h) == pytest.approx(
        PropsSI("d(T)/d(P)|Hmass", "P", p, "H", h, "R134a"), rel=1e-10
    )
    assert b.dT_dh_p(p, h) == pytest.approx(1.0 / PropsSI("C", "P", p, "H", h, "R134a"), rel=1e-9)
    # two-phase: the glide slope from the bubble and dew records, in any call order
    h_mid = 0.5 * (b.h_liq(p) + b.h_vap(p))
    assert b.dT_dh_p(p, h_mid) == 0.0


@pytest.mark.parametrize("fluid", ["R134a", "R410A", "R404A", "R290"])
@pytest.mark.parametrize("x", [0.0, 0.03, 0.5, 0.97, 1.0])
def test_coolprop_two_phase_closed_form_equals_the_flash(fluid, x):
    # inside the dome a (p, h) state comes from the two saturation records, not a flash
    b = get_backend(fluid, "CoolProp")
    p = 0.4 * b.p_crit
    h = b.h_liq(p) + x * (b.h_vap(p) - b.h_liq(p))
    flashes = b.stats.flashes
    state = b.state_ph(p, h)
    assert b.stats.flashes == flashes  # the saturation records were already there
    ref = CP.AbstractState("HEOS", fluid)
    ref.update(CP.HmassP_INPUTS, h, p)
    assert state.phase == "two-phase"
    t_state = state.T
    assert t_state == pytest.approx(ref.T(), rel=1e-12)
    assert state.s == pytest.approx(ref.smass(), rel=1e-11)
    assert state.rho == pytest.approx(ref.rhomass(), rel=1e-10)
    assert state.quality == pytest.approx(ref.Q(), abs=1e-11)


def test_coolprop_two_phase_state_and_quality():
    b = get_backend("R134a", "CoolProp")
    p = 3e5
    h_l, h_v = b.h_liq(p), b.h_vap(p)
    state = b.state_ph(p, 0.6 * h_l + 0.4 * h_v)
    assert state.phase == "two-phase"
    assert state.quality == pytest.approx(0.4, abs=1e-9)
    t_state = state.T
    assert t_state == pytest.approx(b.T_sat(p), abs=1e-9)
    assert b.dT_dh_p(p, 0.5 * (h_l + h_v)) == 0.0
    assert b.quality_ph(p, h_l - 1e3) is None
    assert b.state_ph(p, h_l - 1e3).phase == "liquid"


def test_coolprop_supercritical_phase_labels():
    b = get_backend("R744", "CoolProp")
    assert b.name == "CO2"
    assert b.state_ph(10e6, 450e3).phase == "supercritical"
    assert b.state_ph(5e6, 500e3).phase == "vapour"  # above T_crit, below p_crit


def test_coolprop_r410a_bubble_and_dew_convention():
    b = get_backend("R410A", "CoolProp")
    p = 10e5
    t_bubble, t_dew = b.T_bubble(p), b.T_dew(p)
    assert 0.02 < t_dew - t_bubble < 0.3  # the small glide of the pseudo-pure blend
    assert b.T_sat(p) == t_dew
    assert b.p_sat(t_dew) == pytest.approx(p, rel=1e-6)
    assert b.T_ph(p, b.h_liq(p)) == pytest.approx(t_bubble, abs=1e-6)
    assert b.T_ph(p, b.h_vap(p)) == pytest.approx(t_dew, abs=1e-6)
    slope = (t_dew - t_bubble) / (b.h_vap(p) - b.h_liq(p))
    h_mid = 0.5 * (b.h_liq(p) + b.h_vap(p))
    assert b.dT_dh_p(p, h_mid) == pytest.approx(slope, rel=1e-9)


def test_coolprop_two_phase_near_critical_point_raises_named_error():
    b = get_backend("R134a", "CoolProp")
    with pytest.raises(FluidPropertyError) as info:
        b.h_vap(4.2e6)  # above the critical pressure: no saturation
    message = str(info.value)
    assert message.startswith("R134a (CoolProp HEOS): h_vap failed for p=4200000.0 Pa, q=1.0")
    assert "critical" in message


def test_coolprop_failure_names_inputs_never_returns_nan():
    b = get_backend("R290", "CoolProp")
    with pytest.raises(
        FluidPropertyError,
        match=r"R290 \(CoolProp HEOS\): state from \(p, h\) failed for p=300000.0 Pa, h=100000000.0 J/kg",
    ):
        b.T_ph(3e5, 1e8)
    with pytest.raises(FluidPropertyError, match=r"p=nan Pa"):
        b.T_sat(math.nan)
    with pytest.raises(FluidPropertyError, match=r"h=nan J/kg"):
        b.state_ph(3e5, math.nan)
    with pytest.raises(
        FluidPropertyError, match=r"h from \(p, T\) failed for p=-1.0 Pa, T=300.0 K"
    ):
        b.h_pT(-1.0, 300.0)
    # a failure does not leave a stale cached state behind
    good = b.T_ph(3e5, 600e3)
    with pytest.raises(FluidPropertyError):
        b.T_ph(3e5, 1e8)
    assert b.T_ph(3e5, 600e3) == good


def test_coolprop_tabular_out_of_table_raises_named_error():
    b = get_backend("R134a", "CoolProp", tabular=True)
    assert b.tabular
    assert b.cp_backend == "BICUBIC&HEOS"
    with pytest.raises(
        FluidPropertyError,
        match=r"R134a \(CoolProp BICUBIC&HEOS\): state from \(p, h\) failed for p=300000.0 Pa, h=10000000.0 J/kg",
    ):
        b.T_ph(3e5, 1e7)
    # derivatives work on tables too, and agree with HEOS
    heos = get_backend("R134a", "CoolProp")
    assert b.dhvap_dp(3e5) == pytest.approx(heos.dhvap_dp(3e5), rel=1e-3)
    assert b.drho_dh_p(3e5, 420e3) == pytest.approx(heos.drho_dh_p(3e5, 420e3), rel=1e-2)


def test_coolprop_valid_range_attributes():
    b = get_backend("R32", "CoolProp")
    assert 0 < b.p_min < 1e4 < b.p_crit < b.p_max
    assert b.T_crit == pytest.approx(351.255, abs=0.01)
    p = 1e6
    assert b.h_min(p) < b.h_liq(p) < b.h_vap(p) < b.h_max(p)


def test_coolprop_map_evaluates_arrays():
    b = get_backend("R134a", "CoolProp")
    out = b.map("T_ph", [3e5, 5e5], 420e3)
    assert out.shape == (2,)
    assert out[1] == b.T_ph(5e5, 420e3)


@pytest.mark.parametrize("offset_k", [-3.0, -1.0, 1.0, 3.0])
def test_tabular_h_pT_near_saturation_takes_the_right_phase(offset_k):
    heos = get_backend("R134a", "CoolProp")
    table = get_backend("R134a", "CoolProp", tabular=True)
    p = 8.0e5
    t = heos.T_sat(p) + offset_k
    assert table.h_pT(p, t) == pytest.approx(heos.h_pT(p, t), rel=1e-3)


def test_coolprop_repeated_ps_and_pt_flashes_are_remembered_exactly():
    b = get_backend("R134a", "CoolProp")
    s1 = b.s_ph(3e5, 420e3)
    h2s = b.h_ps(9e5, s1)
    h_sub = b.h_pT(9e5, 300.0)
    b.reset_stats()
    assert b.h_ps(9e5, s1) == h2s
    assert b.h_pT(9e5, 300.0) == h_sub
    assert b.stats.calls == 2
    assert b.stats.flashes == 0
    assert h2s == pytest.approx(PropsSI("H", "P", 9e5, "S", s1, "R134a"), rel=1e-10)
    assert b.h_ps(9e5, s1 + 1.0) != h2s
    assert b.stats.flashes == 1
