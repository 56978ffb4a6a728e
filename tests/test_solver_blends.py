"""Blend cycles against independent hand calculations with CoolProp's HEOS mixture model."""

from __future__ import annotations

import CoolProp.CoolProp as CP
import pytest

from workbench.fluids.blend.spec import parse_blend
from workbench.scenario.reference_cases import loop_edges
from workbench.solver import solve

M_KG_S = 0.05


def _state(fluid: str):
    spec = parse_blend(fluid)
    state = CP.AbstractState("HEOS", spec.coolprop_fluids)
    state.set_mole_fractions(list(spec.mole_fractions))
    return state


def _fixed_cycle(fluid, t_evap, t_cond, superheat, subcooling, eta_s, reference="dew"):
    doc = {
        "schema_version": "2",
        "fluid": fluid,
        "fluid_backend": "CoolProp",
        "saturation_reference": reference,
        "circuits": [
            {
                "components": [
                    {
                        "name": "comp",
                        "type": "Compressor",
                        "mass_flow_kg_s": M_KG_S,
                        "isentropic_efficiency": eta_s,
                    },
                    {
                        "name": "cond",
                        "type": "Condenser",
                        "t_cond_k": t_cond,
                        "subcooling_k": subcooling,
                    },
                    {"name": "valve", "type": "ExpansionValve"},
                    {
                        "name": "evap",
                        "type": "Evaporator",
                        "t_evap_k": t_evap,
                        "superheat_k": superheat,
                    },
                ],
                "edges": loop_edges("comp", "cond", "valve", "evap"),
            }
        ],
    }
    return doc


def _pressure(state, t, reference):
    """Pressure [Pa] whose dew, bubble or mid temperature is ``t`` [K] (secant on HEOS flashes)."""

    def t_ref(p):
        state.update(CP.PQ_INPUTS, p, 1.0)
        t_dew = state.T()
        state.update(CP.PQ_INPUTS, p, 0.0)
        t_bub = state.T()
        return {"dew": t_dew, "bubble": t_bub, "mid": 0.5 * (t_dew + t_bub)}[reference]

    state.update(CP.QT_INPUTS, 1.0, t)
    p0 = state.p()
    if reference == "dew":
        return p0
    p1 = 1.05 * p0
    f0, f1 = t_ref(p0) - t, t_ref(p1) - t
    for _ in range(30):
        p0, p1, f0 = p1, p1 - f1 * (p1 - p0) / (f1 - f0), f1
        f1 = t_ref(p1) - t
        if abs(f1) < 1e-9:
            break
    return p1


def _hand_cycle(fluid, t_evap, t_cond, superheat, subcooling, eta_s, reference="dew"):
    """The same cycle, written out with CoolProp HEOS flashes only."""
    st = _state(fluid)
    p_e = _pressure(st, t_evap, reference)
    p_c = _pressure(st, t_cond, reference)
    st.update(CP.PQ_INPUTS, p_e, 1.0)
    t_dew_e = st.T()
    st.specify_phase(CP.iphase_gas)
    st.update(CP.PT_INPUTS, p_e, t_dew_e + superheat)
    h1, s1 = st.hmass(), st.smass()
    st.update(CP.PSmass_INPUTS, p_c, s1)
    h2s = st.hmass()
    st.unspecify_phase()
    h2 = h1 + (h2s - h1) / eta_s
    st.update(CP.PQ_INPUTS, p_c, 0.0)
    t_bub_c = st.T()
    st.specify_phase(CP.iphase_liquid)
    st.update(CP.PT_INPUTS, p_c, t_bub_c - subcooling)
    h3 = st.hmass()
    st.unspecify_phase()
    st.update(CP.HmassP_INPUTS, h3, p_e)  # the evaporator inlet: the full (slow) HEOS flash
    t4 = st.T()
    q_evap = M_KG_S * (h1 - h3)
    power = M_KG_S * (h2 - h1)
    return {"q_evap": q_evap, "q_cond": M_KG_S * (h2 - h3), "power": power, "t4": t4}


@pytest.mark.parametrize(("fluid", "reference"), [("R454B", "dew"), ("R407C", "mid")])
def test_blend_fixed_cycle_equals_the_heos_hand_calculation(fluid, reference):
    args = (fluid, 275.15, 318.15, 5.0, 3.0, 0.7)
    result = solve(_fixed_cycle(*args, reference=reference))
    assert result.converged, result.report()
    ref = _hand_cycle(*args, reference=reference)
    s = result.summary
    assert s["cooling_capacity_w"] == pytest.approx(ref["q_evap"], rel=1e-4)
    assert s["heating_capacity_w"] == pytest.approx(ref["q_cond"], rel=1e-4)
    assert s["compressor_power_w"] == pytest.approx(ref["power"], rel=1e-4)
    assert s["cop_cooling"] == pytest.approx(ref["q_evap"] / ref["power"], rel=1e-4)
    evap = result.components["evap"]
    assert evap["inlet_temperature"] == pytest.approx(ref["t4"], abs=0.05)
    # the true inlet is colder than the dew point by the glide not yet boiled
    assert evap["inlet_temperature"] < evap["dew_temperature"] - 0.5
    assert evap["glide"] == pytest.approx(evap["dew_temperature"] - evap["bubble_temperature"])
    assert evap["superheat"] == pytest.approx(5.0, abs=1e-6)
    assert result.components["cond"]["subcooling"] == pytest.approx(3.0, abs=1e-6)
    # energy balance of the cycle
    assert s["heating_capacity_w"] == pytest.approx(
        s["cooling_capacity_w"] + s["compressor_power_w"], rel=1e-8
    )


@pytest.mark.parametrize("name", ["r454b_split_unit_v2", "r407c_heat_pump_v2"])
def test_blend_examples_solve_with_glide_reported(name):
    import CoolProp

    from workbench.scenario import load_scenario

    result = solve(load_scenario(f"examples/scenarios/{name}.json"))
    assert result.converged, result.report()
    s = result.summary
    assert abs(s["energy_balance_w"]) < 1e-6 * s["heating_capacity_w"]
    evap = result.components["evaporator"]
    cond = result.components["condenser"]
    for coil in (evap, cond):
        assert coil["glide"] > 0.5
        assert coil["secondary_heat_flow"] == pytest.approx(coil["capacity"], rel=1e-6)
    assert evap["inlet_temperature"] < evap["bubble_temperature"] + evap["glide"]
    assert result.coolprop_version == CoolProp.__version__
    assert result.to_dict()["coolprop_version"] == CoolProp.__version__


def _heos_profile(fluid, p, t_top, n=600):
    """Refrigerant T(h) at ``p`` from HEOS up to ``t_top``: (p, Q) flashes in the dome, (p, T) above."""
    import numpy as np

    st = _state(fluid)
    hs, ts = [], []
    for q in np.linspace(0.0, 1.0, n):
        st.update(CP.PQ_INPUTS, p, float(q))
        hs.append(st.hmass())
        ts.append(st.T())
    t_dew = ts[-1]
    st.specify_phase(CP.iphase_gas)
    for dt in np.linspace(0.0, t_top - t_dew, n)[1:]:
        st.update(CP.PT_INPUTS, p, t_dew + dt)
        hs.append(st.hmass())
        ts.append(st.T())
    st.unspecify_phase()
    return np.array(hs), np.array(ts)


def _segment_model_q(fluid, p, h_in, m, t_air_in, c_air, ua, segments=300):
    """Heat flow [W] of a counterflow evaporator from ``segments`` equal enthalpy steps."""
    import numpy as np
    from scipy.optimize import brentq

    hs, ts = _heos_profile(fluid, p, t_air_in)
    assert hs[0] <= h_in

    def t_ref(h):
        return np.interp(h, hs, ts)

    def ua_needed(q):
        h = np.linspace(h_in, h_in + q / m, segments + 1)
        t_r = t_ref(h)
        t_a = t_air_in - (h[-1] - h) * m / c_air  # air enters at the refrigerant outlet
        dt = t_a - t_r
        if np.any(dt <= 0):
            return np.inf
        q_k = m * np.diff(h)
        a, b = dt[:-1], dt[1:]
        lmtd = np.where(np.abs(a - b) > 1e-12, (a - b) / np.log(a / b), a)
        return float(np.sum(q_k / lmtd))

    q_max = c_air * (t_air_in - t_ref(h_in))
    hi = q_max * (1 - 1e-9)
    while not np.isfinite(ua_needed(hi)):
        hi *= 0.999
    return brentq(lambda q: ua_needed(q) - ua, 1e-6 * q_max, hi, xtol=1e-6 * q_max)


@pytest.mark.parametrize(
    ("t_dew", "h_in", "m", "t_air", "c_air", "ua"),
    [(275.15, 246e3, 0.03, 293.15, 1000.0, 300.0), (275.15, 246e3, 0.03, 285.15, 700.0, 600.0)],
)
def test_r407c_ua_evaporator_agrees_with_a_300_segment_heos_model(t_dew, h_in, m, t_air, c_air, ua):
    from workbench.components.exchangers.zones.heat_flow import coil_heat_flow
    from workbench.fluids import get_backend

    fluid = get_backend("R407C", "CoolProp")
    p = fluid.p_sat(t_dew)
    zones = coil_heat_flow(fluid, p, h_in, m, t_air, c_air, ua, False)
    assert zones.min_dt > 1.0  # not pinched: the heat flow depends on the model
    assert [z[0] for z in zones.zones] == ["two-phase", "superheated"]
    q_ref = _segment_model_q("R407C", p, h_in, m, t_air, c_air, ua)
    assert zones.q == pytest.approx(q_ref, rel=5e-3)


def test_plain_r407c_solves_as_the_zeotropic_mixture_with_its_glide():
    result = solve(_fixed_cycle("R407C", 275.15, 318.15, 5.0, 3.0, 0.7))
    assert result.converged, result.report()
    evap, cond = result.components["evap"], result.components["cond"]
    assert evap["glide"] > 5.0
    assert cond["glide"] > 4.0
    assert evap["dew_temperature"] == pytest.approx(275.15, abs=1e-6)
    # the same blend as "R407C.mix": the same composition, the same cycle
    again = solve(_fixed_cycle("R407C.mix", 275.15, 318.15, 5.0, 3.0, 0.7))
    assert again.summary["cop_cooling"] == pytest.approx(result.summary["cop_cooling"], rel=1e-12)


def test_plain_r410a_stays_coolprops_pseudo_pure_fluid():
    from CoolProp.CoolProp import PropsSI

    t_e, t_c, sh, sc, eta = 275.15, 318.15, 5.0, 3.0, 0.7
    result = solve(_fixed_cycle("R410A", t_e, t_c, sh, sc, eta))
    assert result.converged, result.report()
    # hand calculation on CoolProp's pseudo-pure R410A (one saturation temperature, no glide)
    p_e = PropsSI("P", "T", t_e, "Q", 1, "R410A")
    p_c = PropsSI("P", "T", t_c, "Q", 1, "R410A")
    h1 = PropsSI("H", "P", p_e, "T", t_e + sh, "R410A")
    s1 = PropsSI("S", "P", p_e, "T", t_e + sh, "R410A")
    h2 = h1 + (PropsSI("H", "P", p_c, "S", s1, "R410A") - h1) / eta
    h3 = PropsSI("H", "P", p_c, "T", t_c - sc, "R410A")
    s = result.summary
    assert s["cooling_capacity_w"] == pytest.approx(M_KG_S * (h1 - h3), rel=1e-5)
    assert s["compressor_power_w"] == pytest.approx(M_KG_S * (h2 - h1), rel=1e-5)
    evap = result.components["evap"]
    assert evap.get("glide", 0.0) == pytest.approx(0.0, abs=1e-9)
