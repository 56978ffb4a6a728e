"""GasCooler and transcritical R744 cycles against independent references.

Fixed mode against CoolProp hand calculations (COP to 2e-3), UA mode against a fine PropsSI
discretisation of the gas cooler with hundreds of segments (1 % in capacity, 0.3 K in outlet
temperature), the energy balance of every solved case, the Liao (2000) pressure against a
brute-force COP optimum, and the ways of setting the high-side pressure.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from CoolProp.CoolProp import PropsSI
from gas_cooler_reference import (
    fine_gas_cooler,
    fine_min_dt,
    fixed_cycle,
    liao_optimal_pressure_bar,
    optimal_pressure_bar,
)

from workbench.components.exchangers.gas_cooler.component import (
    gas_cooler_heat_flow,
    liao_optimal_pressure,
)
from workbench.errors import SpecificationError
from workbench.fluids import get_backend, get_secondary
from workbench.scenario import load_scenario
from workbench.solver import solve

EDGES = [
    {"from": "comp:outlet", "to": "gc:inlet"},
    {"from": "gc:outlet", "to": "valve:inlet"},
    {"from": "valve:outlet", "to": "evap:inlet"},
    {"from": "evap:outlet", "to": "comp:inlet"},
]


def cycle(gc, *, comp=None, valve=None, evap=None, controls=None):
    """A transcritical R744 circuit: compressor, gas cooler, valve, evaporator (CoolProp)."""
    doc = {
        "schema_version": "2",
        "name": "r744 test",
        "fluid": "R744",
        "fluid_backend": "CoolProp",
        "circuits": [
            {
                "id": 0,
                "components": [
                    {
                        "name": "comp",
                        "type": "Compressor",
                        "isentropic_efficiency": 0.7,
                        **(comp or {"mass_flow_kg_s": 0.1}),
                    },
                    {"name": "gc", "type": "GasCooler", **gc},
                    {"name": "valve", "type": "ExpansionValve", **(valve or {})},
                    {
                        "name": "evap",
                        "type": "Evaporator",
                        **(evap or {"t_evap_k": 268.15, "superheat_k": 5.0}),
                    },
                ],
                "edges": EDGES,
            }
        ],
    }
    if controls:
        doc["controls"] = controls
    return doc


def assert_energy_balance(result, gas_cooler="gc"):
    """Heat in + power = heat out, around the cycle and across the gas cooler's two streams."""
    s = result.summary
    assert abs(s["energy_balance_w"]) < 1e-3 * max(1.0, s["compressor_power_w"])
    assert s["heating_capacity_w"] == pytest.approx(
        s["cooling_capacity_w"] + s["compressor_power_w"], rel=1e-9
    )
    gc = result.components[gas_cooler]
    if gc.get("secondary_heat_flow") is not None:
        assert gc["secondary_heat_flow"] == pytest.approx(gc["capacity"], rel=1e-9)


def edge(result, src):
    return next(e for e in result.edge_states if e.src == src)


# -- fixed mode against hand calculations -------------------------------------------------------

FIXED_CASES = [
    # p [bar], gas-cooler outlet [C], evaporating [C], superheat [K], eta_s, m [kg/s]
    (100.0, 35.0, -5.0, 5.0, 0.7, 0.1),
    (90.0, 32.0, 0.0, 10.0, 0.65, 0.05),
    (120.0, 40.0, -10.0, 3.0, 0.75, 0.2),
    (80.0, 31.0, 5.0, 5.0, 0.7, 0.1),
    (140.0, 50.0, -20.0, 8.0, 0.6, 0.08),
]


def test_fixed_mode_reference_of_the_issue_is_the_hand_calculation():
    ref = fixed_cycle(100e5, 308.15, 268.15, 5.0, 0.7, 0.1)
    assert ref["cop_cooling"] == pytest.approx(2.0308, abs=5e-5)  # and TESPy 0.11 agrees


@pytest.mark.parametrize("case", FIXED_CASES, ids=lambda c: f"{c[0]:g}bar-{c[1]:g}C")
def test_fixed_mode_cycle_matches_coolprop_hand_calculation(case):
    p_bar, t_out, t_e, sh, eta, m = case
    gc = {"pressure_pa": p_bar * 1e5, "outlet_temp_k": t_out + 273.15}
    result = solve(
        cycle(
            gc,
            comp={"mass_flow_kg_s": m, "isentropic_efficiency": eta},
            evap={"t_evap_k": t_e + 273.15, "superheat_k": sh},
        )
    )
    assert result.converged, result.report()
    ref = fixed_cycle(p_bar * 1e5, t_out + 273.15, t_e + 273.15, sh, eta, m)
    s = result.summary
    assert s["cop_cooling"] == pytest.approx(ref["cop_cooling"], rel=2e-3)
    assert s["cooling_capacity_w"] == pytest.approx(ref["q_evap"], rel=2e-3)
    assert s["heating_capacity_w"] == pytest.approx(ref["q_gc"], rel=2e-3)
    assert s["compressor_power_w"] == pytest.approx(ref["power"], rel=2e-3)
    out = result.components["gc"]
    assert out["pressure"] == pytest.approx(p_bar * 1e5)
    assert out["temperature"] == pytest.approx(t_out + 273.15, abs=1e-6)
    assert out["reduced_pressure"] == pytest.approx(p_bar * 1e5 / PropsSI("pcrit", "CO2"))
    assert edge(result, "comp").phase == "supercritical"
    assert_energy_balance(result)


def test_fixed_mode_example_scenario_is_the_reference_case():
    result = solve(load_scenario("examples/scenarios/r744_transcritical_fixed_v1.json"))
    assert result.converged, result.report()
    ref = fixed_cycle(100e5, 308.15, 268.15, 5.0, 0.7, 0.1)
    assert result.summary["cop_cooling"] == pytest.approx(ref["cop_cooling"], rel=2e-3)
    assert_energy_balance(result, "gas_cooler")


# -- UA mode against a fine discretisation ------------------------------------------------------

UA_CASES = [
    # name, gas cooler parameters, compressor, evaporator
    (
        "water-hot-tap",
        {
            "pressure_pa": 95e5,
            "ua": 1500,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 283.15,
            "secondary_mass_flow_kg_s": 0.05,
        },
        {"mass_flow_kg_s": 0.06},
        {"t_evap_k": 268.15, "superheat_k": 5.0},
    ),
    (
        "water-near-pseudo-critical",
        {
            "pressure_pa": 80e5,
            "ua": 600,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 298.15,
            "secondary_mass_flow_kg_s": 0.3,
        },
        {"mass_flow_kg_s": 0.05},
        {"t_evap_k": 273.15, "superheat_k": 5.0},
    ),
    (
        "air-35C",
        {
            "pressure_pa": 100e5,
            "ua": 800,
            "air_inlet_temp_c": 35.0,
            "secondary_mass_flow_kg_s": 1.2,
            "fan_speed": 0.8,
        },
        {"mass_flow_kg_s": 0.05},
        {"t_evap_k": 268.15, "superheat_k": 5.0},
    ),
    (
        "large-ua-pinch-at-the-outlet",
        {
            "pressure_pa": 90e5,
            "ua": 20000,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 293.15,
            "secondary_mass_flow_kg_s": 0.08,
        },
        {"mass_flow_kg_s": 0.05},
        {"t_evap_k": 268.15, "superheat_k": 5.0},
    ),
    (
        "large-ua-pinch-inside",
        {
            "pressure_pa": 90e5,
            "ua": 100000,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 293.15,
            "secondary_mass_flow_kg_s": 0.05,
        },
        {"mass_flow_kg_s": 0.05},
        {"t_evap_k": 268.15, "superheat_k": 5.0},
    ),
    (
        "ua-evaporator-displacement",
        {
            "pressure_pa": 110e5,
            "ua": 400,
            "secondary_fluid": "water",
            "secondary_inlet_temp_k": 288.15,
            "secondary_mass_flow_kg_s": 0.03,
        },
        {"displacement_m3": 4e-6},
        {"ua": 1000, "air_inlet_temp_c": 7.0, "secondary_mass_flow_kg_s": 0.6, "superheat_k": 3.0},
    ),
]


def _secondary_of(gc):
    """The reference's secondary stream: water by PropsSI, air as a constant capacity rate."""
    if gc.get("secondary_fluid") == "water":
        return gc["secondary_inlet_temp_k"], ("water", gc["secondary_mass_flow_kg_s"])
    t_in = gc["air_inlet_temp_c"] + 273.15
    c_sec = (
        gc["secondary_mass_flow_kg_s"] * gc.get("fan_speed", 1.0) * get_secondary("air").cp(t_in)
    )
    return t_in, ("cp", c_sec)


def _ua_of(gc):
    fan = gc.get("fan_speed", 1.0)
    return gc["ua"] / (0.7 / fan**0.8 + 0.3)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "gc", "comp", "evap"), UA_CASES, ids=[c[0] for c in UA_CASES])
def test_ua_gas_cooler_matches_a_fine_propssi_discretisation(name, gc, comp, evap):
    result = solve(cycle(gc, comp=comp, evap=evap))
    assert result.converged, result.report()
    inlet = edge(result, "comp")
    t_sec_in, secondary = _secondary_of(gc)
    q_ref, t_out_ref, min_dt_ref = fine_gas_cooler(
        inlet.p_pa, inlet.h_j_kg, inlet.m_kg_s, t_sec_in, secondary, _ua_of(gc), n=600
    )
    out = result.components["gc"]
    assert out["capacity"] == pytest.approx(q_ref, rel=0.01), name
    assert out["temperature"] == pytest.approx(t_out_ref, abs=0.3), name
    assert out["min_temperature_difference"] == pytest.approx(min_dt_ref, abs=0.3), name
    assert out["min_temperature_difference"] >= 0.0
    assert out["profile_min_temperature_difference"] > -1e-3  # a pinch, never a crossing
    assert not any("cross" in p for p in result.problems)
    assert_energy_balance(result)


@pytest.mark.parametrize("segments", [20, 40, 80])
def test_ua_model_converges_with_segments_against_constant_cp_reference(segments):
    """The model alone (no cycle) against 1000 PropsSI segments, same constant-cp secondary."""
    backend = get_backend("CO2", "CoolProp")
    p, m, t_sec, c_sec, ua = 90e5, 0.05, 293.15, 0.1 * 4186.0, 2000.0
    h_in = PropsSI("H", "P", p, "T", 383.15, "CO2")
    q_ref, t_ref, _ = fine_gas_cooler(p, h_in, m, t_sec, ("cp", c_sec), ua, n=1000)
    got = gas_cooler_heat_flow(backend, p, 0.0, h_in, m, t_sec, c_sec, ua, segments=segments)
    t_out = PropsSI("T", "P", p, "H", got.h_out, "CO2")
    assert got.q == pytest.approx(q_ref, rel=2e-3 if segments == 20 else 1e-3)
    assert t_out == pytest.approx(t_ref, abs=0.05)
    assert got.t_secondary_out == pytest.approx(t_sec + got.q / c_sec)


def test_cp_varies_by_an_order_of_magnitude_along_the_solved_profile():
    """The case the discretisation exists for: cp of CO2 along a 90 bar gas cooler."""
    result = solve(cycle(UA_CASES[0][1] | {"pressure_pa": 90e5}, comp=UA_CASES[0][2]))
    assert result.converged, result.report()
    t_in, t_out = edge(result, "comp").t_k, edge(result, "gc").t_k
    cps = [PropsSI("C", "P", 90e5, "T", t, "CO2") for t in np.linspace(t_out, t_in, 200)]
    assert max(cps) / min(cps) > 5.0
    assert result.components["gc"]["profile_segments"] >= 40


def test_ua_gas_cooler_with_a_pressure_drop_keeps_the_profile_consistent():
    gc = UA_CASES[0][1] | {"dp_pa": 2e5, "dp_nominal_mass_flow_kg_s": 0.06}
    result = solve(cycle(gc, comp={"mass_flow_kg_s": 0.06}))
    assert result.converged, result.report()
    out = result.components["gc"]
    assert out["pressure_drop"] == pytest.approx(2e5, rel=1e-6)
    inlet, outlet = edge(result, "comp"), edge(result, "gc")
    c_sec = 0.05 * get_secondary("water").cp(283.15)
    ref = fine_min_dt(
        inlet.p_pa, inlet.h_j_kg, outlet.p_pa, outlet.h_j_kg, 0.06, 283.15, c_sec, True
    )
    assert out["profile_min_temperature_difference"] == pytest.approx(ref, abs=0.02)
    assert out["min_temperature_difference"] == pytest.approx(ref, abs=0.1)
    assert_energy_balance(result)


def test_subcritical_gas_cooler_condenses_and_matches_the_reference():
    gc = {
        "pressure_pa": 60e5,
        "ua": 2000,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": 283.15,
        "secondary_mass_flow_kg_s": 0.3,
    }
    result = solve(
        cycle(gc, comp={"mass_flow_kg_s": 0.05}, evap={"t_evap_k": 258.15, "superheat_k": 5.0})
    )
    assert result.converged, result.report()
    inlet = edge(result, "comp")
    q_ref, t_ref, _ = fine_gas_cooler(
        inlet.p_pa, inlet.h_j_kg, inlet.m_kg_s, 283.15, ("water", 0.3), 2000.0, n=600
    )
    out = result.components["gc"]
    assert out["capacity"] == pytest.approx(q_ref, rel=0.01)
    assert out["temperature"] == pytest.approx(t_ref, abs=0.3)
    assert edge(result, "gc").phase == "liquid"  # condensed below the critical pressure
    assert_energy_balance(result)


# -- the high-side pressure ---------------------------------------------------------------------


@pytest.mark.parametrize(("t_out_c", "t_e_c"), [(35.0, -5.0), (32.0, -10.0), (40.0, 0.0)])
def test_liao_correlation_sits_at_the_brute_force_cop_optimum(t_out_c, t_e_c):
    p_opt, cop_opt = optimal_pressure_bar(t_out_c, t_e_c)
    p_liao = liao_optimal_pressure(t_out_c, t_e_c) / 1e5
    assert p_liao == pytest.approx(liao_optimal_pressure_bar(t_out_c, t_e_c), rel=1e-12)
    assert abs(p_liao - p_opt) < 1.5  # bar
    cop = fixed_cycle(p_liao * 1e5, t_out_c + 273.15, t_e_c + 273.15, 0.0, 0.7, 1.0)["cop_cooling"]
    assert cop == pytest.approx(cop_opt, rel=1e-3)


@pytest.mark.parametrize("mode", ["fixed", "ua"])
def test_pressure_control_liao2000_sets_the_optimal_pressure(mode):
    if mode == "fixed":
        gc = {"outlet_temp_k": 308.15, "pressure_control": "liao2000"}
    else:
        gc = {
            "pressure_control": "liao2000",
            "ua": 3000,
            "air_inlet_temp_c": 30.0,
            "secondary_mass_flow_kg_s": 1.0,
        }
    result = solve(cycle(gc))
    assert result.converged, result.report()
    out = result.components["gc"]
    t_out_c = edge(result, "gc").t_k - 273.15
    suction = edge(result, "evap")
    t_e_c = PropsSI("T", "P", suction.p_pa, "Q", 1, "CO2") - 273.15
    assert out["pressure"] / 1e5 == pytest.approx(
        liao_optimal_pressure_bar(t_out_c, t_e_c), rel=1e-7
    )
    assert out["optimal_pressure"] == pytest.approx(out["pressure"], rel=1e-7)
    if mode == "fixed":
        ref = fixed_cycle(out["pressure"], 308.15, 268.15, 5.0, 0.7, 0.1)
        assert result.summary["cop_cooling"] == pytest.approx(ref["cop_cooling"], rel=2e-3)
    assert not result.warnings  # inside the correlation's fitted range
    assert_energy_balance(result)


def test_pressure_correlation_outside_its_range_warns():
    gc = {"outlet_temp_k": 318.15, "pressure_control": "liao2000"}
    result = solve(cycle(gc, evap={"t_evap_k": 243.15, "superheat_k": 5.0}))
    assert result.converged, result.report()
    assert any("extrapolated" in w and "Liao" in w for w in result.warnings)


def test_a_control_loop_on_the_orifice_valve_holds_the_gas_cooler_pressure():
    gc = {
        "ua": 1500,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": 288.15,
        "secondary_mass_flow_kg_s": 0.05,
    }
    loop = {
        "id": "hp",
        "measure": {"component": "gc", "output": "pressure"},
        "actuator": {"component": "valve", "factor": "z_flow", "min": 0.05, "max": 20.0},
        "target": 95e5,
        "gain": -1e-5,
    }
    result = solve(
        cycle(
            gc,
            comp={"displacement_m3": 5e-6},
            valve={"flow_coefficient_m2": 2e-7},
            evap={
                "ua": 1500,
                "air_inlet_temp_c": 7.0,
                "secondary_mass_flow_kg_s": 0.8,
                "superheat_k": 0.0,
            },
            controls=[loop],
        )
    )
    assert result.converged, result.report()
    assert result.components["gc"]["pressure"] == pytest.approx(95e5, rel=1e-6)
    (entry,) = result.controls
    assert entry["saturated"] is None
    assert entry["sensitivity"] < 0.0
    assert_energy_balance(result)


def test_outlet_temperature_spec_sets_the_pressure_in_ua_mode():
    gc = {
        "outlet_temp_k": 298.15,
        "ua": 2000,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": 288.15,
        "secondary_mass_flow_kg_s": 0.05,
    }
    result = solve(cycle(gc, comp={"mass_flow_kg_s": 0.04}))
    assert result.converged, result.report()
    inlet = edge(result, "comp")
    _q, t_ref, _ = fine_gas_cooler(
        inlet.p_pa, inlet.h_j_kg, 0.04, 288.15, ("water", 0.05), 2000.0, n=600
    )
    assert t_ref == pytest.approx(298.15, abs=0.3)
    assert result.components["gc"]["pressure"] > PropsSI("pcrit", "CO2")
    assert_energy_balance(result)


def test_the_example_heat_pump_solves_and_matches_the_reference():
    result = solve(load_scenario("examples/scenarios/r744_heat_pump_v2.json"))
    assert result.converged, result.report()
    text = Path("examples/scenarios/r744_heat_pump_v2.json").read_text(encoding="utf-8")
    gc = json.loads(text)["circuits"][0]["components"][1]
    out = result.components["gas_cooler"]
    assert out["pressure"] == pytest.approx(90e5, rel=1e-6)
    assert out["secondary_outlet_temperature"] > 273.15 + 55.0  # hot water
    inlet = next(e for e in result.edge_states if e.src == "compressor")
    q_ref, t_ref, _ = fine_gas_cooler(
        inlet.p_pa,
        inlet.h_j_kg,
        inlet.m_kg_s,
        gc["secondary_inlet_temp_k"],
        ("water", gc["secondary_mass_flow_kg_s"]),
        gc["ua"],
    )
    assert out["capacity"] == pytest.approx(q_ref, rel=0.01)
    assert out["temperature"] == pytest.approx(t_ref, abs=0.3)
    assert_energy_balance(result, "gas_cooler")


# -- specification errors -----------------------------------------------------------------------


def test_free_pressure_without_anything_to_set_it_is_a_specification_error():
    gc = {
        "ua": 1500,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": 288.15,
        "secondary_mass_flow_kg_s": 0.05,
    }
    with pytest.raises(SpecificationError) as err:
        solve(cycle(gc))
    text = str(err.value)
    assert "GasCooler 'gc'" in text
    assert "pressure_pa" in text
    assert "liao2000" in text


def test_ua_mode_with_pressure_and_outlet_temperature_is_over_specified():
    gc = {
        "pressure_pa": 95e5,
        "outlet_temp_k": 300.0,
        "ua": 1500,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": 288.15,
        "secondary_mass_flow_kg_s": 0.05,
    }
    with pytest.raises(SpecificationError, match="outlet_temp_k and a pressure spec"):
        solve(cycle(gc))


def test_fixed_mode_needs_an_outlet_temperature():
    with pytest.raises(SpecificationError, match="fixed mode needs outlet_temp_k"):
        solve(cycle({"pressure_pa": 95e5}))


def test_fixed_mode_with_a_secondary_reports_heat_flowing_uphill():
    gc = {
        "pressure_pa": 100e5,
        "outlet_temp_k": 308.15,
        "secondary_fluid": "water",
        "secondary_inlet_temp_k": 303.15,
        "secondary_mass_flow_kg_s": 0.1,
    }
    result = solve(cycle(gc))
    assert not result.converged
    assert any("cross" in p for p in result.problems), result.report()
