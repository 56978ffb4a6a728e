"""Blends in transcritical cycles: exact HEOS above the dome, checked by hand with CoolProp.

Above a blend's cricondenbar every state is single-phase; the blend backend finds it on the
HEOS mixture (:mod:`workbench.fluids.blend.supercritical`). The hand calculations here use CoolProp's
own (unimposed, slow) HEOS mixture flashes, which choose the stable phase themselves.
"""

from __future__ import annotations

import CoolProp.CoolProp as CP
import pytest

from workbench.errors import FluidPropertyError, ScenarioError
from workbench.fluids import get_backend
from workbench.fluids.blend.spec import parse_blend
from workbench.scenario import load_scenario
from workbench.scenario.reference_cases import loop_edges
from workbench.solver import solve

M_KG_S = 0.04


def _heos(fluid: str):
    spec = parse_blend(fluid)
    state = CP.AbstractState("HEOS", spec.coolprop_fluids)
    state.set_mole_fractions(list(spec.mole_fractions))
    return state


def _transcritical(fluid: str, p_high: float, t_out: float, t_evap: float, sh: float, eta: float):
    return {
        "schema_version": "2",
        "fluid": fluid,
        "fluid_backend": "CoolProp",
        "circuits": [
            {
                "components": [
                    {
                        "name": "comp",
                        "type": "Compressor",
                        "mass_flow_kg_s": M_KG_S,
                        "isentropic_efficiency": eta,
                    },
                    {
                        "name": "gc",
                        "type": "GasCooler",
                        "pressure_pa": p_high,
                        "outlet_temp_k": t_out,
                    },
                    {"name": "valve", "type": "ExpansionValve"},
                    {"name": "evap", "type": "Evaporator", "t_evap_k": t_evap, "superheat_k": sh},
                ],
                "edges": loop_edges("comp", "gc", "valve", "evap"),
            }
        ],
    }


@pytest.mark.parametrize(
    ("fluid", "p_high", "t_out"),
    [("R455A", 62e5, 312.15), ("R454C", 55e5, 303.15), ("R32/R1234yf 40/60", 52e5, 315.15)],
)
def test_a_blend_gas_cooler_cycle_equals_heos_by_hand(fluid, p_high, t_out):
    t_evap, sh, eta = 266.15, 6.0, 0.68
    result = solve(_transcritical(fluid, p_high, t_out, t_evap, sh, eta))
    assert result.converged, result.report()
    comp = result.components["comp"]
    p_low = comp["suction_pressure"]
    st = _heos(fluid)
    # suction: the solver's own low pressure (its dew point is the tables'), HEOS gas there
    st.update(CP.PQ_INPUTS, p_low, 1.0)
    assert st.T() == pytest.approx(t_evap, abs=0.02)  # the tables' dew line vs HEOS
    st.specify_phase(CP.iphase_gas)
    st.update(CP.PT_INPUTS, p_low, t_evap + sh)
    st.unspecify_phase()
    h1, s1 = st.hmass(), st.smass()
    st.update(CP.PSmass_INPUTS, p_high, s1)  # CoolProp's full mixture flash above the dome
    h2 = h1 + (st.hmass() - h1) / eta
    st.update(CP.PT_INPUTS, p_high, t_out)
    h3 = st.hmass()
    st.update(CP.HmassP_INPUTS, h2, p_high)
    t2 = st.T()
    s = result.summary
    assert s["compressor_power_w"] == pytest.approx(M_KG_S * (h2 - h1), rel=1e-9)
    assert s["heating_capacity_w"] == pytest.approx(M_KG_S * (h2 - h3), rel=1e-9)
    assert s["cooling_capacity_w"] == pytest.approx(M_KG_S * (h1 - h3), rel=1e-9)
    assert comp["temperature"] == pytest.approx(t2, abs=1e-7)
    assert result.components["gc"]["inlet_temperature"] == pytest.approx(t2, abs=1e-7)
    edges = result.edges
    high = edges[edges["p_bar"] > p_high / 1e5 - 1e-9]
    assert set(high["phase"]) == {"supercritical"}
    assert abs(s["energy_balance_w"]) < 1e-6 * s["heating_capacity_w"]


def test_blend_states_above_the_cricondenbar_match_heos_flashes():
    fluid = get_backend("R455A", "CoolProp")
    st = _heos("R455A")
    assert fluid.p_single > fluid.p_crit  # the cricondenbar is above the critical pressure
    for p in (1.01 * fluid.p_single, 60e5, 120e5):
        for t in (230.0, 300.0, 355.0, 362.0, 420.0):
            h = fluid.h_pT(p, t)
            st.update(CP.PT_INPUTS, p, t)
            assert h == pytest.approx(st.hmass(), rel=1e-10, abs=1e-6)
            assert fluid.T_ph(p, h) == pytest.approx(t, abs=1e-8)
            assert fluid.rho_ph(p, h) == pytest.approx(st.rhomass(), rel=1e-9)
            assert fluid.h_ps(p, st.smass()) == pytest.approx(h, rel=1e-10, abs=1e-6)


def test_between_the_tables_top_and_the_cricondenbar_a_state_is_refused_with_why():
    fluid = get_backend("R454B", "CoolProp")
    p = 0.5 * (fluid.p_max + fluid.p_single)
    with pytest.raises(FluidPropertyError) as info:
        fluid.T_ph(p, 4.0e5)
    message = str(info.value)
    assert "cricondenbar" in message
    assert f"{fluid.p_max / 1e5:.4g} bar" in message
    assert "not tabulated" in message


def test_a_blend_gas_cooler_below_the_cricondenbar_is_refused_at_validate():
    fluid = get_backend("R454B", "CoolProp")
    p = 0.5 * (fluid.p_max + fluid.p_crit)
    with pytest.raises(ScenarioError) as info:
        load_scenario(_transcritical("R454B", p, 310.0, 268.15, 5.0, 0.7))
    found = {i.path: i.message for i in info.value.issues}
    message = found["circuits[0].components[1].pressure_pa"]
    assert "cricondenbar" in message
    assert "43.1 bar (0.81 of its critical pressure 53.0 bar" in message
    # from the cricondenbar up it is accepted
    load_scenario(_transcritical("R454B", fluid.p_single * 1.001, 310.0, 268.15, 5.0, 0.7))
