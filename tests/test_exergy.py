"""Exergy analysis of solved results: balances, second law, textbook limits, plot."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from CoolProp.CoolProp import PropsSI
from matplotlib.figure import Figure

from workbench.errors import WorkbenchError
from workbench.plotting import plot_exergy
from workbench.scenario import load_scenario
from workbench.scenario.reference_cases import textbook_r134a, ua_heat_pump
from workbench.solver import solve
from workbench.solver.exergy import ExergyAnalysis

EXAMPLES = "examples/scenarios"

CASES = {
    "two_stage_flash": (f"{EXAMPLES}/two_stage_flash_v2.json", 298.15),
    "two_evaporators": (f"{EXAMPLES}/two_evaporators_v2.json", 303.15),
    "heat_pump": (f"{EXAMPLES}/heat_pump_v1.json", 280.15),
    "cascade": (f"{EXAMPLES}/cascade_v2.json", 293.15),
    "split_units": (f"{EXAMPLES}/split_units_v2.json", 308.15),
}


@pytest.fixture(scope="module")
def analyses() -> dict[str, tuple]:
    out = {}
    for name, (path, t0) in CASES.items():
        result = solve(load_scenario(path))
        assert result.converged, result.report()
        out[name] = (result, result.exergy(ambient_k=t0))
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_exergy_balance_closes_and_destruction_is_never_negative(analyses, name):
    result, ex = analyses[name]
    assert isinstance(ex, ExergyAnalysis)
    assert ex.fuel_w > 0
    assert ex.product_w > 0
    # fuel = product + destruction + loss, to the solver's tolerance
    assert abs(ex.balance_w) < 1e-6 * ex.fuel_w
    assert ex.fuel_w == pytest.approx(ex.product_w + ex.destruction_w + ex.loss_w, rel=1e-9)
    assert 0.0 < ex.efficiency < 1.0
    assert ex.power_w == pytest.approx(result.summary["compressor_power_w"], rel=1e-12)
    for comp in ex.components:
        # second law: no component destroys negative exergy (beyond round-off)
        assert comp.destruction_w > -1e-6 * ex.fuel_w, comp.name
        # Gouy-Stodola equals the direct balance: in - out + power + heat exergy
        direct = comp.exergy_in_w - comp.exergy_out_w + comp.power_w + comp.heat_exergy_w
        assert comp.destruction_w == pytest.approx(direct, abs=1e-6 * ex.fuel_w), comp.name
    assert sum(c.destruction_w for c in ex.components) == pytest.approx(ex.destruction_w)
    shares = [c.destruction_share for c in ex.components]
    assert sum(shares) == pytest.approx(1.0)


def test_every_component_has_a_row_and_the_table_is_a_dataframe(analyses):
    result, ex = analyses["two_stage_flash"]
    table = ex.table
    assert isinstance(table, pd.DataFrame)
    assert list(table.index) == list(result.components)
    assert {
        "type",
        "power_w",
        "heat_w",
        "heat_exergy_w",
        "exergy_in_w",
        "exergy_out_w",
        "entropy_generation_w_k",
        "destruction_w",
        "destruction_ratio",
        "destruction_share",
    } <= set(table.columns)
    # isentropic compressors and an adiabatic flash tank destroy nothing; the throttles do
    assert abs(table.loc["comp_lo", "destruction_w"]) < 1e-3
    assert abs(table.loc["flash", "destruction_w"]) < 1e-6
    assert table.loc["valve_hi", "destruction_w"] > 100.0
    json.dumps(ex.to_dict())  # JSON-ready
    assert len(ex.streams) == len(result.edge_states)


def test_refrigerator_purpose_product_and_loss(analyses):
    _result, ex = analyses["two_stage_flash"]
    assert ex.purpose == "cooling"
    roles = {h.component: h for h in ex.heat}
    evap, cond = roles["evaporator"], roles["condenser"]
    assert evap.role == "product"
    assert cond.role == "loss"
    assert evap.body == cond.body == "secondary stream"
    # the cooled air: exergy gain = -Q (1 - T0 / T_m), T_m its log-mean temperature
    t_in, t_out = 263.15, _result.components["evaporator"]["secondary_outlet_temperature"]
    t_m = (t_in - t_out) / math.log(t_in / t_out)
    assert evap.temperature_k == pytest.approx(t_m, rel=1e-9)
    q = _result.summary["cooling_capacity_w"]
    assert evap.exergy_w == pytest.approx(q * (298.15 / t_m - 1.0), rel=1e-9)
    assert ex.product_w == pytest.approx(evap.exergy_w)


def test_heat_pump_purpose_is_heating_with_the_source_at_ambient(analyses):
    result, ex = analyses["heat_pump"]
    assert ex.purpose == "heating"
    roles = {h.component: h for h in ex.heat}
    assert roles["condenser"].role == "product"
    assert roles["evaporator"].role == "loss"  # the air leaves colder than the ambient
    assert ex.product_w == pytest.approx(roles["condenser"].exergy_w)
    # below the Carnot COP of the water's mean temperature against the ambient
    t_m = roles["condenser"].temperature_k
    cop = result.summary["cop_heating"]
    assert ex.efficiency == pytest.approx(cop * (1.0 - 280.15 / t_m), rel=1e-9)


def test_cascade_coupling_is_one_row_with_its_loss(analyses):
    result, ex = analyses["cascade"]
    rows = [c for c in ex.components if c.type == "ThermalCoupling"]
    assert len(rows) == len(result.couplings) == 1
    coupling = result.couplings[0]
    assert rows[0].name == f"{coupling['hot_component']} + {coupling['cold_component']}"
    assert rows[0].destruction_w > 0
    assert rows[0].name.split(" + ")[0] not in ex.table.index.drop(rows[0].name)


def test_ideal_cycle_with_reservoirs_meets_the_carnot_limit_less_the_throttle():
    # textbook cycle, isentropic, saturated; reservoirs at the two saturation temperatures:
    # the only destruction left is the throttle's (and the desuperheating in the condenser)
    doc = textbook_r134a()
    result = solve(doc)
    t_evap = PropsSI("T", "P", 0.14e6, "Q", 1, "R134a")
    t_cond = PropsSI("T", "P", 0.8e6, "Q", 0, "R134a")
    t0 = 300.0
    ex = result.exergy(
        ambient_k=t0, purpose="cooling", reservoirs_k={"evap": t_evap, "cond": t_cond}
    )
    q_l = result.summary["cooling_capacity_w"]
    assert ex.product_w == pytest.approx(q_l * (t0 / t_evap - 1.0), rel=1e-9)
    # hand calculation of the throttle: T0 m (s_out - s_in)
    h3 = PropsSI("H", "P", 0.8e6, "Q", 0, "R134a")
    s3 = PropsSI("S", "P", 0.8e6, "Q", 0, "R134a")
    s4 = PropsSI("S", "P", 0.14e6, "H", h3, "R134a")
    valve = ex.table.loc["valve"]
    assert valve["destruction_w"] == pytest.approx(t0 * 0.05 * (s4 - s3), rel=1e-6)
    assert abs(ex.table.loc["evap", "destruction_w"]) < 1e-6 * ex.fuel_w  # isothermal
    assert abs(ex.balance_w) < 1e-6 * ex.fuel_w


def test_coils_without_a_secondary_use_their_limiting_refrigerant_temperature():
    result = solve(textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0))
    ex = result.exergy(ambient_k=298.15)
    bodies = {h.component: h for h in ex.heat}
    assert bodies["evap"].body == bodies["cond"].body == "refrigerant"
    edges = {st.label: st for st in result.edge_states}
    assert bodies["evap"].temperature_k == pytest.approx(edges["evap:outlet -> comp:inlet"].t_k)
    assert bodies["cond"].temperature_k == pytest.approx(edges["cond:outlet -> valve:inlet"].t_k)
    assert all(c.destruction_w > -1e-6 for c in ex.components)
    assert abs(ex.balance_w) < 1e-6 * ex.fuel_w


def test_dead_state_shifts_flow_exergies_but_not_destruction():
    result = solve(ua_heat_pump())
    a = result.exergy(ambient_k=280.15)
    b = result.exergy(ambient_k=280.15, ambient_pa=2.0e5)
    assert not np.allclose(a.streams["e_j_kg"], b.streams["e_j_kg"])
    assert a.table["destruction_w"].to_numpy() == pytest.approx(
        b.table["destruction_w"].to_numpy(), rel=1e-12
    )


def test_bad_arguments_are_clear_errors():
    result = solve(textbook_r134a())
    with pytest.raises(WorkbenchError, match="ambient_k"):
        result.exergy(ambient_k=-3.0)
    with pytest.raises(WorkbenchError, match="purpose"):
        result.exergy(ambient_k=300.0, purpose="drying")
    with pytest.raises(WorkbenchError, match=r"reservoirs_k names no component.*nope"):
        result.exergy(ambient_k=300.0, reservoirs_k={"nope": 270.0})


def test_exergy_waterfall_ends_at_the_product(analyses):
    _result, ex = analyses["two_evaporators"]
    fig, ax = plot_exergy(ex, min_share=0.0)
    assert isinstance(fig, Figure)
    bars = {p.get_gid(): p for p in ax.patches if p.get_gid()}
    assert bars["exergy-fuel"].get_height() == pytest.approx(ex.fuel_w / 1e3)
    assert bars["exergy-product"].get_height() == pytest.approx(ex.product_w / 1e3)
    for comp in ex.components:
        bar = bars[f"exergy-destruction-{comp.name}"]
        assert -bar.get_height() == pytest.approx(comp.destruction_w / 1e3)
    # the last falling bar ends where the product's top is
    falling = [p for gid, p in bars.items() if gid not in ("exergy-fuel", "exergy-product")]
    last = max(falling, key=lambda p: p.get_x())
    assert last.get_y() + last.get_height() == pytest.approx(ex.product_w / 1e3, rel=1e-9)
    assert "exergy-loss-condenser" in bars
    pooled = plot_exergy(ex)[1]
    assert any(p.get_gid() == "exergy-destruction-other" for p in pooled.patches)
