"""UA-mode coils: energy balance on both sides, zone conductances, no temperature crossing."""

from __future__ import annotations

import math

import pytest
from CoolProp.CoolProp import PropsSI
from solver_cases import ua_heat_pump

from workbench.components.exchangers.zones.heat_flow import counterflow_ntu
from workbench.solver import solve
from workbench.solver.solve import prepare


def _epsilon_ntu_ua(
    q: float, t_hot_in: float, t_hot_out: float, t_cold_in: float, t_cold_out: float
) -> float:
    """Conductance of a counterflow zone from the epsilon-NTU relations (independent of LMTD)."""
    c_hot = q / (t_hot_in - t_hot_out) if t_hot_in - t_hot_out > 1e-9 else math.inf
    c_cold = q / (t_cold_out - t_cold_in) if t_cold_out - t_cold_in > 1e-9 else math.inf
    c_min, c_max = min(c_hot, c_cold), max(c_hot, c_cold)
    eps = q / (c_min * (t_hot_in - t_cold_in))
    return counterflow_ntu(eps, c_min / c_max if math.isfinite(c_max) else 0.0) * c_min


def _coil_zone_check(
    result, name: str, secondary_cp: float, m_sec: float, t_sec_in: float, hot: bool
):
    """Rebuild the coil's zones from the solved edge states with PropsSI and check UA and pinch."""
    edges = result.edges.set_index("edge")
    inlet = edges[edges.index.str.endswith(f"{name}:inlet")].iloc[0]
    outlet = edges[edges.index.str.startswith(f"{name}:outlet")].iloc[0]
    p = inlet["p_bar"] * 1e5
    m = inlet["m_kg_s"]
    h_in, h_out = inlet["h_kj_kg"] * 1e3, outlet["h_kj_kg"] * 1e3
    h_l, h_v = PropsSI("H", "P", p, "Q", 0, "R134a"), PropsSI("H", "P", p, "Q", 1, "R134a")
    lo, hi = sorted((h_in, h_out))
    points = [h_in, *sorted([h for h in (h_l, h_v) if lo < h < hi], reverse=hot), h_out]
    t_ref = [PropsSI("T", "P", p, "H", h, "R134a") for h in points]
    c_sec = m_sec * secondary_cp
    t_sec = [t_sec_in + m * (h - h_out) / c_sec for h in points]
    ua = 0.0
    for k in range(len(points) - 1):
        q = m * abs(points[k] - points[k + 1])
        if hot:
            ua += _epsilon_ntu_ua(q, t_ref[k], t_ref[k + 1], t_sec[k + 1], t_sec[k])
        else:
            ua += _epsilon_ntu_ua(q, t_sec[k + 1], t_sec[k], t_ref[k], t_ref[k + 1])
    dts = [(tr - ts) if hot else (ts - tr) for tr, ts in zip(t_ref, t_sec)]
    return ua, min(dts), m * abs(h_in - h_out), t_sec[0]


def test_ua_heat_pump_closes_energy_balance_of_each_coil_on_both_sides():
    result = solve(ua_heat_pump())
    assert result.converged, result.report()
    comps = result.components
    for name in ("cond", "evap"):
        out = comps[name]
        assert out["secondary_heat_flow"] == pytest.approx(out["capacity"], rel=1e-6)
        assert out["min_temperature_difference"] > 0.0
    s = result.summary
    assert abs(s["energy_balance_w"]) < 1e-6 * s["heating_capacity_w"]
    assert s["heating_capacity_w"] == pytest.approx(
        s["cooling_capacity_w"] + s["compressor_power_w"], rel=1e-6
    )


def test_ua_heat_pump_zone_conductances_add_up_to_the_given_ua():
    result = solve(ua_heat_pump())
    assert result.converged, result.report()
    cp_water = PropsSI("C", "T", 303.15, "P", 101325, "Water")
    ua, min_dt, _q_ref, t_sec_out = _coil_zone_check(
        result, "cond", cp_water, 0.25, 303.15, hot=True
    )
    assert ua == pytest.approx(1500.0, rel=2e-3)  # water cp source differs slightly
    assert min_dt > 0.0
    assert result.components["cond"]["secondary_outlet_temperature"] == pytest.approx(
        t_sec_out, abs=0.05
    )
    cp_air = result.components["evap"]["secondary_heat_flow"] / (
        0.8 * (280.15 - result.components["evap"]["secondary_outlet_temperature"])
    )
    ua, min_dt, _q, _t = _coil_zone_check(result, "evap", cp_air, 0.8, 280.15, hot=False)
    # UA 1.2 kW/K scaled by fan speed 1 (no change)
    assert ua == pytest.approx(1200.0, rel=1e-4)
    assert min_dt > 0.0


def test_ua_heat_pump_states_are_physical():
    result = solve(ua_heat_pump())
    comps = result.components
    assert comps["evap"]["superheat"] == pytest.approx(5.0, abs=1e-6)
    assert comps["cond"]["subcooling"] == pytest.approx(3.0, abs=1e-6)
    # refrigerant saturation between the secondary temperatures: evaporating below 7 C air,
    # condensing above 30 C water
    assert comps["evap"]["saturationTemperature"] < 280.15
    assert comps["cond"]["saturationTemperature"] > 303.15
    assert not result.problems


def test_lower_fan_speed_lowers_evaporator_ua_and_capacity():
    full = solve(ua_heat_pump())
    slow = solve(ua_heat_pump(**{"evap.fan_speed": 0.5}))
    assert slow.converged, slow.report()
    f_air, n = 0.7, 0.8
    expected_ua = 1200.0 / (f_air / 0.5**n + 1 - f_air)
    assert slow.components["evap"]["ua"] == pytest.approx(expected_ua, rel=1e-12)
    assert slow.summary["cooling_capacity_w"] < full.summary["cooling_capacity_w"]
    assert (
        slow.components["evap"]["saturationTemperature"]
        < full.components["evap"]["saturationTemperature"]
    )


def test_condenser_bank_divides_flow_and_multiplies_ua():
    single = solve(ua_heat_pump(**{"cond.ua": 1500.0, "cond.secondary_mass_flow_kg_s": 0.25}))
    bank = solve(
        ua_heat_pump(
            **{
                "cond.ua": 250.0,
                "cond.secondary_mass_flow_kg_s": 0.25 / 6,
                "cond.condenser_bank": {"circuits": 2, "coils_per_circuit": 3},
            }
        )
    )
    assert bank.converged, bank.report()
    # six coils of UA 250 W/K and 1/6 of the water each behave like one coil of 1500 W/K
    assert bank.summary["heating_capacity_w"] == pytest.approx(
        single.summary["heating_capacity_w"], rel=1e-7
    )
    out = bank.components["cond"]
    assert out["coils"] == 6
    assert out["capacity_per_coil"] == pytest.approx(out["capacity"] / 6, rel=1e-12)
    assert out["mass_flow_per_coil"] == pytest.approx(out["massFlowRate"] / 6, rel=1e-12)


def test_pressure_drop_scales_with_flow_squared_and_z_dp():
    base = {"evap.dp_pa": 20000.0, "evap.dp_nominal_mass_flow_kg_s": 0.02}
    r1 = solve(ua_heat_pump(**base))
    r2 = solve(ua_heat_pump(**base, **{"evap.z_dp": 2.0}))
    for r, z in ((r1, 1.0), (r2, 2.0)):
        assert r.converged, r.report()
        m = r.components["evap"]["massFlowRate"]
        assert r.components["evap"]["pressure_drop"] == pytest.approx(
            z * 20000.0 * (m / 0.02) ** 2, rel=1e-6
        )


@pytest.mark.parametrize("backend", ["Test", "CoolProp"])
def test_ua_heat_pump_solves_on_both_backends_with_consistent_results(backend):
    result = solve(ua_heat_pump(backend=backend))
    assert result.converged, result.report()
    assert 3.0 < result.summary["cop_heating"] < 9.0


def test_prepare_reports_unknowns_and_equations_by_name():
    system = prepare(ua_heat_pump())
    assert system.n_vars == system.n_eqs == 9
    assert "cond.heat_transfer" in system.eq_names
    assert "evap.superheat" in system.eq_names
    assert any(v.startswith("m[") for v in system.var_names)
