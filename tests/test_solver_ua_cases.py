"""The UA cases of the speed work against independent references (PropsSI and epsilon-NTU).

Every solved case is rebuilt from its edge states with CoolProp's ``PropsSI`` (not the
workbench backend): each coil's zones get their conductance from the epsilon-NTU relations
(not LMTD), and must add up to the coil's UA; the compressor's outlet from PropsSI's
isentropic enthalpy and its flow from the displacement and PropsSI's suction density; the
superheat from PropsSI's dew point. Tolerances are 1e-6 relative (the solver's tolerance is
1e-4 J/kg on the enthalpies), so a faster solve that changed a result would fail here.
"""

from __future__ import annotations

import math

import pytest
from CoolProp.CoolProp import PropsSI

from workbench.components.exchangers.zones.heat_flow import counterflow_ntu
from workbench.scenario.reference_cases import split_unit_r410a, ua_heat_pump, water_heat_pump
from workbench.solver import solve

CASES = {
    "ua_heat_pump": ua_heat_pump,
    "split_unit_r410a": split_unit_r410a,
    "split_unit_r410a_loop": lambda: split_unit_r410a(superheat_loop=True),
    "water_heat_pump": water_heat_pump,
}


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    doc = CASES[request.param]()
    result = solve(doc)
    assert result.converged, result.report()
    params = {c["name"]: c for c in doc["circuits"][0]["components"]}
    return doc["fluid"], params, result


def _edge(result, start: str):
    edges = result.edges.set_index("edge")
    row = edges[edges.index.str.startswith(start)].iloc[0]
    return row["p_bar"] * 1e5, row["h_kj_kg"] * 1e3, row["m_kg_s"]


def _eps_ntu_ua(q: float, t_hot_in: float, t_hot_out: float, t_cold_in: float, t_cold_out: float):
    c_hot = q / (t_hot_in - t_hot_out) if t_hot_in - t_hot_out > 1e-9 else math.inf
    c_cold = q / (t_cold_out - t_cold_in) if t_cold_out - t_cold_in > 1e-9 else math.inf
    c_min, c_max = min(c_hot, c_cold), max(c_hot, c_cold)
    eps = q / (c_min * (t_hot_in - t_cold_in))
    return counterflow_ntu(eps, c_min / c_max if math.isfinite(c_max) else 0.0) * c_min


@pytest.mark.parametrize("coil", ["cond", "evap"])
def test_zone_conductances_rebuilt_with_propssi_add_up_to_the_ua(case, coil):
    fluid, _params, result = case
    out = result.components[coil]
    hot = coil == "cond"
    p, h_in, m = _edge(result, f"{'comp' if hot else 'valve'}:outlet")
    _p_out, h_out, _ = _edge(result, f"{coil}:outlet")
    t_sec_in = out["secondary_inlet_temperature"]
    c_sec = out["secondary_heat_flow"] / abs(out["secondary_outlet_temperature"] - t_sec_in)
    h_l, h_v = PropsSI("H", "P", p, "Q", 0, fluid), PropsSI("H", "P", p, "Q", 1, fluid)
    lo, hi = sorted((h_in, h_out))
    points = [h_in, *sorted([h for h in (h_l, h_v) if lo < h < hi], reverse=hot), h_out]
    temps = [PropsSI("T", "P", p, "H", h, fluid) for h in points]
    t_sec = [t_sec_in + (1 if hot else -1) * m * abs(h - h_out) / c_sec for h in points]
    ua = 0.0
    for k in range(len(points) - 1):
        q = m * abs(points[k] - points[k + 1])
        if hot:
            ua += _eps_ntu_ua(q, temps[k], temps[k + 1], t_sec[k + 1], t_sec[k])
        else:
            ua += _eps_ntu_ua(q, t_sec[k + 1], t_sec[k], temps[k], temps[k + 1])
    assert ua == pytest.approx(out["ua"], rel=1e-6)
    assert out["capacity"] == pytest.approx(m * abs(h_in - h_out), rel=1e-9)
    assert out["secondary_heat_flow"] == pytest.approx(out["capacity"], rel=1e-6)
    dts = [(t - s) if hot else (s - t) for t, s in zip(temps, t_sec)]
    assert min(dts) > 0.0  # no temperature crossing
    assert out["min_temperature_difference"] == pytest.approx(min(dts), abs=1e-5)


def test_compressor_and_superheat_against_propssi(case):
    fluid, params, result = case
    p_in, h_in, m = _edge(result, "evap:outlet")
    p_out, h_out, _ = _edge(result, "comp:outlet")
    comp = params["comp"]
    s_in = PropsSI("S", "P", p_in, "H", h_in, fluid)
    h2s = PropsSI("H", "P", p_out, "S", s_in, fluid)
    assert h_out == pytest.approx(h_in + (h2s - h_in) / comp["isentropic_efficiency"], rel=1e-7)
    if "displacement_m3" in comp:
        rho = PropsSI("D", "P", p_in, "H", h_in, fluid)
        flow = comp["displacement_m3"] * comp["speed_hz"] * comp["volumetric_efficiency"] * rho
        assert m == pytest.approx(flow, rel=1e-7)
    else:
        assert m == pytest.approx(comp["mass_flow_kg_s"], rel=1e-12)
    t_out = PropsSI("T", "P", p_in, "H", h_in, fluid)
    superheat = t_out - PropsSI("T", "P", p_in, "Q", 1, fluid)
    assert superheat == pytest.approx(5.0, abs=1e-5)  # the spec, or the loop's target
    assert result.components["evap"]["superheat"] == pytest.approx(superheat, abs=1e-5)
    s = result.summary
    assert abs(s["energy_balance_w"]) < 1e-6 * s["heating_capacity_w"]
    assert s["heating_capacity_w"] == pytest.approx(
        s["cooling_capacity_w"] + s["compressor_power_w"], rel=1e-6
    )
