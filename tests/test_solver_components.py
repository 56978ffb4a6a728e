"""Component models in full cycles: compressor flow models, orifice valve, internal HX."""

from __future__ import annotations

import pytest
from CoolProp.CoolProp import PropsSI
from solver_cases import textbook_r134a, ua_heat_pump

from workbench.components.machines.compressor import ahri540
from workbench.solver import solve

SUCTION_LINE_HX_EDGES = [
    {"from": "comp:outlet", "to": "cond:inlet"},
    {"from": "cond:outlet", "to": "ihx:hot_inlet"},
    {"from": "ihx:hot_outlet", "to": "valve:inlet"},
    {"from": "valve:outlet", "to": "evap:inlet"},
    {"from": "evap:outlet", "to": "ihx:cold_inlet"},
    {"from": "ihx:cold_outlet", "to": "comp:inlet"},
]
"""A suction-line heat exchanger between the condenser outlet and the compressor inlet."""


def _components(doc):
    return {c["name"]: c for c in doc["circuits"][0]["components"]}


def test_displacement_compressor_flow_is_volume_times_suction_density():
    result = solve(ua_heat_pump())
    assert result.converged, result.report()
    suction = result.edges.set_index("edge").loc["evap:outlet -> comp:inlet"]
    rho = PropsSI("D", "P", suction["p_bar"] * 1e5, "H", suction["h_kj_kg"] * 1e3, "R134a")
    expected = 3.0e-5 * 50.0 * 0.9 * rho
    assert result.components["comp"]["massFlowRate"] == pytest.approx(expected, rel=1e-6)


def test_compressor_calibration_factors_scale_flow_and_power():
    base = solve(textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0))
    doc = textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0)
    _components(doc)["comp"]["z_flow"] = 1.1
    _components(doc)["comp"]["z_power"] = 1.2
    scaled = solve(doc)
    assert scaled.converged
    assert scaled.components["comp"]["massFlowRate"] == pytest.approx(0.055, rel=1e-9)
    w_per_kg = base.summary["compressor_power_w"] / 0.05
    assert scaled.summary["compressor_power_w"] == pytest.approx(1.2 * w_per_kg * 0.055, rel=1e-6)


def test_ahri540_map_sets_flow_and_power_at_the_saturation_temperatures():
    doc = textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0)
    comp = _components(doc)["comp"]
    del comp["mass_flow_kg_s"]
    flow = [0.05, 1.5e-3, -2.0e-4, 1e-5, 0, 0, 0, 0, 0, 0]
    power = [1500.0, -10.0, 30.0, 0, 0.5, 0, 0, 0, 0, 0]
    comp["mass_flow_map_kg_s"] = flow
    comp["power_map_w"] = power
    result = solve(doc)
    assert result.converged, result.report()
    s_c = PropsSI("T", "P", 0.14e6, "Q", 1, "R134a") - 273.15
    d_c = PropsSI("T", "P", 0.8e6, "Q", 1, "R134a") - 273.15
    assert result.components["comp"]["massFlowRate"] == pytest.approx(
        ahri540(flow, s_c, d_c), rel=1e-7
    )
    assert result.summary["compressor_power_w"] == pytest.approx(ahri540(power, s_c, d_c), rel=1e-7)
    # a map polynomial against a hand evaluation
    assert ahri540(flow, 2.0, 3.0) == pytest.approx(0.05 + 1.5e-3 * 2 - 2e-4 * 3 + 1e-5 * 4)


def test_orifice_valve_sets_the_flow_when_the_compressor_follows():
    doc = ua_heat_pump()
    comps = _components(doc)
    for key in ("displacement_m3", "speed_hz", "volumetric_efficiency"):
        comps["comp"].pop(key)
    del comps["evap"]["superheat_k"]
    comps["evap"]["t_evap_k"] = 273.15  # fixed suction pressure; the orifice sets the flow
    comps["valve"]["flow_coefficient_m2"] = 2.0e-7
    result = solve(doc)
    assert result.converged, result.report()
    edges = result.edges.set_index("edge")
    inlet = edges.loc["cond:outlet -> valve:inlet"]
    outlet = edges.loc["valve:outlet -> evap:inlet"]
    rho = PropsSI("D", "P", inlet["p_bar"] * 1e5, "H", inlet["h_kj_kg"] * 1e3, "R134a")
    expected = 2.0e-7 * (2 * rho * (inlet["p_bar"] - outlet["p_bar"]) * 1e5) ** 0.5
    assert result.components["valve"]["massFlowRate"] == pytest.approx(expected, rel=1e-6)
    assert inlet["h_kj_kg"] == pytest.approx(outlet["h_kj_kg"], abs=1e-9)


def test_internal_heat_exchanger_moves_heat_from_liquid_to_suction():
    doc = textbook_r134a(eta_s=0.75, superheat_k=2.0, subcooling_k=2.0)
    circuit = doc["circuits"][0]
    circuit["components"].append({"name": "ihx", "type": "HeatExchanger", "effectiveness": 0.6})
    circuit["edges"] = SUCTION_LINE_HX_EDGES
    result = solve(doc)
    assert result.converged, result.report()
    e = result.edges.set_index("edge")
    hot_in, hot_out = e.loc["cond:outlet -> ihx:hot_inlet"], e.loc["ihx:hot_outlet -> valve:inlet"]
    cold_in, cold_out = (
        e.loc["evap:outlet -> ihx:cold_inlet"],
        e.loc["ihx:cold_outlet -> comp:inlet"],
    )
    q_hot = hot_in["m_kg_s"] * (hot_in["h_kj_kg"] - hot_out["h_kj_kg"])
    q_cold = cold_in["m_kg_s"] * (cold_out["h_kj_kg"] - cold_in["h_kj_kg"])
    assert q_hot > 0
    assert q_hot == pytest.approx(q_cold, rel=1e-9)
    # effectiveness against the limiting stream (the vapour, heated to the liquid temperature)
    p_cold = cold_in["p_bar"] * 1e5
    q_max = cold_in["m_kg_s"] * (
        PropsSI("H", "P", p_cold, "T", hot_in["t_c"] + 273.15, "R134a") / 1e3 - cold_in["h_kj_kg"]
    )
    assert q_hot == pytest.approx(0.6 * q_max, rel=1e-5)
    # a suction-line HX raises the cooling capacity of R-134a at the same flow
    plain = solve(textbook_r134a(eta_s=0.75, superheat_k=2.0, subcooling_k=2.0))
    assert result.summary["cooling_capacity_w"] > plain.summary["cooling_capacity_w"]
    assert abs(result.summary["energy_balance_w"]) < 1e-6 * result.summary["heating_capacity_w"]


def test_internal_heat_exchanger_ua_mode_converges_with_positive_heat():
    doc = textbook_r134a(eta_s=0.75, superheat_k=2.0, subcooling_k=2.0)
    circuit = doc["circuits"][0]
    circuit["components"].append({"name": "ihx", "type": "HeatExchanger", "ua": 20.0})
    circuit["edges"] = SUCTION_LINE_HX_EDGES
    result = solve(doc)
    assert result.converged, result.report()
    assert result.components["ihx"]["heatTransferRate"] > 0
    assert not result.problems
