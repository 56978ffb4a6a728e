"""Heat exchangers stay honest near the critical point: no converged result hides a crossing.

Every solved exchanger is rebuilt here from its solved states with PropsSI on 400 enthalpy
segments (independent of ``workbench.components.exchangers.zones.profile``); whenever that profile crosses, the
result must not be a plain "converged": it is not converged with the crossing as its reason, or
it carries a warning naming the crossing.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI
from gas_cooler_reference import fine_min_dt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.components.base import PortVars
from workbench.components.exchangers.ihx.component import HeatExchanger
from workbench.components.exchangers.zones.profile import (
    PINCHED_K,
    ProfileCheck,
    accuracy_warning,
    two_stream_profile,
)
from workbench.fluids import get_backend
from workbench.solver import solve
from workbench.solver.iteration import StopReason

CROSSING_K = 0.01
"""An independent profile below ``-CROSSING_K`` crosses (above it: a pinch within noise)."""


def circuit(fluid, cond, evap, m=0.1, backend="CoolProp", max_iterations=60):
    return {
        "schema_version": "1",
        "name": "near critical",
        "fluid": fluid,
        "fluid_backend": backend,
        "circuits": [
            {
                "id": 0,
                "components": [
                    {
                        "name": "comp",
                        "type": "Compressor",
                        "mass_flow_kg_s": m,
                        "isentropic_efficiency": 0.7,
                    },
                    {"name": "cond", "type": "Condenser", **cond},
                    {"name": "valve", "type": "ExpansionValve"},
                    {"name": "evap", "type": "Evaporator", **evap},
                ],
                "edges": [
                    {"from": "comp:outlet", "to": "cond:inlet"},
                    {"from": "cond:outlet", "to": "valve:inlet"},
                    {"from": "valve:outlet", "to": "evap:inlet"},
                    {"from": "evap:outlet", "to": "comp:inlet"},
                ],
            }
        ],
        "solver": {"max_iterations": max_iterations},
    }


def independent_min_dt(result, name, fluid):
    """The solved coil's smallest temperature difference on a 400-segment PropsSI profile."""
    out = result.components[name]
    inlet = next(e for e in result.edge_states if e.dst == name)
    outlet = next(e for e in result.edge_states if e.src == name)
    t_in, t_out = out["secondary_inlet_temperature"], out["secondary_outlet_temperature"]
    if out["capacity"] <= 0.0 or abs(t_out - t_in) < 1e-12:
        return None
    c_sec = out["capacity"] / abs(t_out - t_in)
    hot = out["type"] in ("Condenser", "GasCooler")
    return fine_min_dt(
        inlet.p_pa,
        inlet.h_j_kg,
        outlet.p_pa,
        outlet.h_j_kg,
        inlet.m_kg_s,
        t_in,
        c_sec,
        hot,
        fluid=fluid,
    )


def assert_honest(result, fluid, names=("cond", "evap")):
    """The invariant, as a list of violations (empty when it holds).

    A converged result whose exchanger crosses on the independent profile carries a warning
    naming the crossing (a result that did not converge claims nothing).
    """
    if not result.converged:
        return []
    crossed = []
    for name in names:
        out = result.components.get(name, {})
        if out.get("secondary_outlet_temperature") is None:
            continue
        dt = independent_min_dt(result, name, fluid)
        if dt is not None and dt < -CROSSING_K:
            crossed.append((name, dt))
    for name, dt in crossed:
        named = [w for w in result.warnings if f"'{name}'" in w and "cross" in w]
        assert named, f"{name} crosses by {-dt:.3f} K but the result says: {result.report()}"
    return crossed


# -- the case of the issue ----------------------------------------------------------------------

WATER_30C = {
    "ua": 5000,
    "secondary_fluid": "water",
    "secondary_inlet_temp_k": 303.15,
    "secondary_mass_flow_kg_s": 0.5,
    "subcooling_k": 0.0,
}


def test_near_critical_water_condenser_no_longer_hides_its_crossing():
    """R744, UA condenser against water at 30 C.

    The zone model converged at 73.74 bar with 0.23 K to spare while the refrigerant crossed the
    water by 0.84 K.
    """
    result = solve(circuit("R744", WATER_30C, {"t_evap_k": 268.15, "superheat_k": 5.0}))
    out = result.components["cond"]
    assert out["pressure"] / 1e5 == pytest.approx(73.74, abs=0.01)
    assert out["min_temperature_difference"] == pytest.approx(0.23, abs=0.01)  # the zone model
    ref = independent_min_dt(result, "cond", "CO2")
    assert ref == pytest.approx(-0.84, abs=0.01)
    assert out["profile_min_temperature_difference"] == pytest.approx(ref, abs=0.005)
    assert not result.converged
    assert result.stop_reason is StopReason.PHYSICALLY_IMPOSSIBLE
    (problem,) = result.problems
    assert "Condenser 'cond'" in problem
    assert "cross" in problem
    assert "0.84 K" in problem
    assert "GasCooler" in problem
    assert "GasCooler" in result.hint
    doc = result.to_dict()
    assert doc["converged"] is False
    assert doc["stop_reason"] == "physically_impossible"
    assert_honest(result, "CO2")


def test_the_same_duty_on_a_gas_cooler_converges_without_crossing():
    """What the hint suggests: the refrigerant rejecting heat above the critical pressure."""
    gc = {k: v for k, v in WATER_30C.items() if k != "subcooling_k"}
    doc = circuit("R744", {}, {"t_evap_k": 268.15, "superheat_k": 5.0})
    doc["circuits"][0]["components"][1] = {
        "name": "cond",
        "type": "GasCooler",
        **gc,
        "pressure_pa": 85e5,
    }
    result = solve(doc)
    assert result.converged, result.report()
    assert result.components["cond"]["profile_min_temperature_difference"] > 0.0
    assert independent_min_dt(result, "cond", "CO2") > -CROSSING_K


def test_condenser_above_the_critical_pressure_warns_with_the_reason():
    """A condenser driven to the critical pressure fails with a reason naming GasCooler."""
    cond = dict(WATER_30C, subcooling_k=3.0)
    result = solve(circuit("R744", cond, {"t_evap_k": 268.15, "superheat_k": 5.0}))
    assert not result.converged
    assert any(
        "GasCooler" in w and "Condenser 'cond'" in w for w in result.warnings + result.problems
    )


# -- sweeps near the critical point -------------------------------------------------------------

NEAR_CRITICAL = [
    # fluid, condenser, evaporator, compressor flow
    ("R744", WATER_30C, {"t_evap_k": 268.15, "superheat_k": 5.0}, 0.1),
    ("R744", WATER_30C, {"t_evap_k": 268.15, "superheat_k": 5.0}, 0.05),
    (
        "R744",
        dict(WATER_30C, secondary_inlet_temp_k=300.15, ua=3000),
        {"t_evap_k": 268.15, "superheat_k": 5.0},
        0.1,
    ),
    (
        "R744",
        dict(WATER_30C, secondary_inlet_temp_k=298.15, ua=20000, secondary_mass_flow_kg_s=0.2),
        {"t_evap_k": 263.15, "superheat_k": 5.0},
        0.08,
    ),
    # desuperheating at high reduced pressure: R134a condensing near 95 C (p/p_c about 0.8)
    (
        "R134a",
        {
            "ua": 8000,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 358.15,
            "secondary_mass_flow_kg_s": 0.3,
            "subcooling_k": 1.0,
        },
        {"t_evap_k": 303.15, "superheat_k": 5.0},
        0.1,
    ),
    # an evaporator near the critical point: R744 evaporating around 25 C against water at 30 C
    (
        "R744",
        {"t_cond_k": 303.65, "subcooling_k": 0.0},
        {
            "ua": 3000,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 303.15,
            "secondary_mass_flow_kg_s": 0.3,
            "superheat_k": 3.0,
        },
        0.05,
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", NEAR_CRITICAL, ids=lambda c: json.dumps(c)[:40])
def test_near_critical_cases_never_converge_over_a_crossing(case):
    fluid, cond, evap, m = case
    result = solve(circuit(fluid, cond, evap, m=m))
    assert_honest(result, "CO2" if fluid == "R744" else fluid)


def test_the_sweep_contains_flagged_and_clean_cases():
    """The invariant is not vacuous: the cases above include both outcomes."""
    outcomes = set()
    for fluid, cond, evap, m in NEAR_CRITICAL[:3] + NEAR_CRITICAL[5:]:
        result = solve(circuit(fluid, cond, evap, m=m))
        outcomes.add(result.converged)
        if not result.converged and result.stop_reason is StopReason.PHYSICALLY_IMPOSSIBLE:
            outcomes.add("crossing")
    assert {True, False, "crossing"} <= outcomes


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    t_water_c=st.floats(22.0, 30.9),
    ua=st.sampled_from([1500.0, 3000.0, 5000.0, 10000.0]),
    m_water=st.floats(0.1, 1.0),
    m=st.floats(0.03, 0.15),
    subcooling=st.sampled_from([0.0, 0.5, 2.0]),
)
def test_hypothesis_near_critical_co2_condensers_are_honest(t_water_c, ua, m_water, m, subcooling):
    cond = {
        "ua": ua,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": t_water_c + 273.15,
        "secondary_mass_flow_kg_s": m_water,
        "subcooling_k": subcooling,
    }
    result = solve(
        circuit("R744", cond, {"t_evap_k": 268.15, "superheat_k": 5.0}, m=m, max_iterations=40)
    )
    assert_honest(result, "CO2")


# -- the internal heat exchanger ----------------------------------------------------------------


def _hx_crossing_states():
    """A hot CO2 stream through its pseudo-critical region against a vapour stream.

    CO2 at 80 bar from 50 to 30 C, the vapour heated from 27 to 48 C: the ends are 2 K and 3 K
    apart, the middle crosses.
    """
    hot_in = (80e5, PropsSI("H", "P", 80e5, "T", 323.15, "CO2"))
    hot_out = (80e5, PropsSI("H", "P", 80e5, "T", 303.15, "CO2"))
    q_per_kg = hot_in[1] - hot_out[1]
    cold_in = (30e5, PropsSI("H", "P", 30e5, "T", 300.15, "CO2"))
    cold_out_h = PropsSI("H", "P", 30e5, "T", 321.15, "CO2")
    m_cold = q_per_kg / (cold_out_h - cold_in[1])  # with m_hot = 1 kg/s
    return hot_in, hot_out, cold_in, (30e5, cold_out_h), m_cold, q_per_kg


def test_two_stream_profile_finds_a_crossing_between_safe_ends():
    hot_in, hot_out, cold_in, cold_out, _m_cold, q = _hx_crossing_states()
    check = two_stream_profile(
        get_backend("CO2", "CoolProp"), (hot_in, hot_out), (cold_in, cold_out), q
    )
    xs = np.linspace(0.0, 1.0, 2001)
    t_hot = PropsSI("T", "P", 80e5, "H", hot_in[1] + xs * (hot_out[1] - hot_in[1]), "CO2")
    t_cold = PropsSI("T", "P", 30e5, "H", cold_out[1] + xs * (cold_in[1] - cold_out[1]), "CO2")
    ref = float(np.min(t_hot - t_cold))
    assert t_hot[0] - t_cold[0] == pytest.approx(2.0, abs=1e-6)
    assert ref < -1.0
    assert check.crosses
    assert check.min_dt == pytest.approx(ref, abs=0.01)


def test_internal_heat_exchanger_check_reports_the_crossing():
    hot_in, hot_out, cold_in, cold_out, m_cold, _q = _hx_crossing_states()
    hx = HeatExchanger("ihx", {"effectiveness": 0.9}, get_backend("CO2", "CoolProp"))
    hx.bind(
        {
            "hot_inlet": PortVars(0, 1, 2),
            "hot_outlet": PortVars(0, 3, 4),
            "cold_inlet": PortVars(5, 6, 7),
            "cold_outlet": PortVars(5, 8, 9),
        }
    )
    x = np.array([1.0, *hot_in, *hot_out, m_cold, *cold_in, *cold_out])
    (problem,) = hx.check(x)
    assert "HeatExchanger 'ihx'" in problem
    assert "cross" in problem
    assert hx.outputs(x)["profile_min_temperature_difference"] < -1.0


def test_accuracy_warning_spares_a_pinched_exchanger_but_not_a_wide_one():
    def check(min_dt):
        return ProfileCheck(min_dt, 1.0, 278.15, 278.15 - min_dt, 3e5, 900.0, 64, 2000.0)

    # the same needed conductance (0.75 x the model's): a warning while the pinch is open ...
    wide = accuracy_warning("Evaporator 'evap'", check(1.0), 1200.0)
    assert wide is not None
    assert "0.75 x the conductance 1200 W/K" in wide
    # ... none once the exchanger is pinched: its heat flow is the pinch limit
    assert accuracy_warning("Evaporator 'evap'", check(0.5 * PINCHED_K), 1200.0) is None
