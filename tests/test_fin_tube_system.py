"""Split units with fin-and-tube coils: convergence, balances, pressure drops, UA equivalence, fit."""

from __future__ import annotations

import copy

import pandas as pd
import pytest
from CoolProp.CoolProp import PropsSI
from fin_tube_cases import assert_air_balances, component, example_doc, with_params

from workbench import solve
from workbench.calibrate import calibrate


@pytest.fixture(scope="module")
def example():
    doc = example_doc()
    return doc, solve(doc)


def test_example_split_unit_converges_with_a_wet_evaporator_and_balances(example):
    doc, result = example
    assert result.converged, result.report()
    assert_air_balances(result, doc)
    ev, cd = result.components["evaporator"], result.components["condenser"]
    assert 3000.0 < ev["capacity"] < 4200.0  # about 3.5 kW at AHRI A
    assert 0.6 < ev["sensible_heat_ratio"] < 0.85
    assert ev["condensate_kg_s"] > 0.0
    assert 0.0 < ev["wet_fraction"] <= 1.0
    assert cd["condensate_kg_s"] == 0.0
    assert cd["latent_capacity"] == pytest.approx(0, abs=1e-6)
    for out in (ev, cd):
        assert out["air_pressure_drop"] > 0.0
        assert out["refrigerant_pressure_drop"] == pytest.approx(out["pressure_drop"])
        assert 0.5 < out["fin_efficiency"] < 1.0
        assert out["air_heat_transfer_coefficient"] > 20.0
        assert out["refrigerant_heat_transfer_coefficient"] > 200.0
    assert result.warnings == []
    s = result.summary
    assert s["fan_power_w"] == pytest.approx(115.0)
    assert s["cop_cooling_system"] == pytest.approx(
        s["cooling_capacity_w"] / (s["compressor_power_w"] + 115.0)
    )
    assert s["cop_cooling"] == pytest.approx(s["cooling_capacity_w"] / s["compressor_power_w"])


def test_superheat_and_subcooling_are_judged_at_the_outlet_pressure(example):
    _doc, result = example
    edges = result.edges.set_index("edge")
    ev_in = edges[edges.index.str.endswith("evaporator:inlet")].iloc[0]
    ev_out = edges[edges.index.str.startswith("evaporator:outlet")].iloc[0]
    p_in, p_out = ev_in["p_bar"] * 1e5, ev_out["p_bar"] * 1e5
    assert p_in - p_out == pytest.approx(result.components["evaporator"]["pressure_drop"], rel=1e-6)
    t_dew_out = PropsSI("T", "P", p_out, "Q", 1, "R32")
    assert PropsSI("T", "P", p_in, "Q", 1, "R32") > t_dew_out + 0.05  # the saturation falls
    assert ev_out["t_c"] + 273.15 - t_dew_out == pytest.approx(5.0, abs=1e-4)
    cd_out = edges[edges.index.str.startswith("condenser:outlet")].iloc[0]
    t_bub_out = PropsSI("T", "P", cd_out["p_bar"] * 1e5, "Q", 0, "R32")
    assert t_bub_out - (cd_out["t_c"] + 273.15) == pytest.approx(4.0, abs=1e-4)


def test_internal_volume_of_the_geometry_feeds_the_charge(example):
    _doc, result = example
    items = {item["name"]: item for item in result.charge["items"]}
    ev = items["evaporator"]
    assert ev["volume_m3"] == pytest.approx(result.components["evaporator"]["internal_volume"])
    assert ev["kg"] > 0.0
    assert {z["zone"] for z in ev["zones"]} == {"two-phase", "superheated"}


def test_dry_air_gives_no_condensate_and_humid_air_more_capacity():
    doc = example_doc()
    dry = solve(with_params(doc, "evaporator", air_inlet_rh=None))
    humid = solve(with_params(doc, "evaporator", air_inlet_rh=0.7))
    assert dry.converged
    assert humid.converged
    assert_air_balances(dry, with_params(doc, "evaporator", air_inlet_rh=None))
    assert_air_balances(humid, with_params(doc, "evaporator", air_inlet_rh=0.7))
    d, h = dry.components["evaporator"], humid.components["evaporator"]
    assert d["condensate_kg_s"] == 0.0
    assert d["sensible_heat_ratio"] == pytest.approx(1.0)
    assert h["capacity"] > d["capacity"]
    assert h["sensible_heat_ratio"] < 0.7


def test_geometric_coil_at_its_own_conductance_reproduces_the_ua_model():
    """The UA coil given the geometric coil's effective UA takes the same heat.

    Dry air, no refrigerant pressure drop, 1 K superheat: two-phase dominated, where the flow
    arrangement does not matter (C_r = 0). What is left is the superheated zone's arrangement
    (the UA model's counterflow zone against parallel air) and the UA zone model's uniform
    conductance: +0.33 % capacity, +0.11 K evaporating temperature.
    """
    doc = example_doc()
    doc = with_params(
        doc,
        "evaporator",
        air_inlet_rh=None,
        superheat_k=1.0,
        correlation_factors={"refrigerant_pressure_drop": 1e-9},
    )
    geometric = solve(doc)
    assert geometric.converged
    assert_air_balances(geometric, doc)
    ev = geometric.components["evaporator"]
    ua_doc = copy.deepcopy(doc)
    comp = component(ua_doc, "evaporator")
    for key in ("geometry", "correlation_factors", "air_volume_flow_m3_s", "air_inlet_rh"):
        comp.pop(key, None)
    comp["ua"] = ev["ua"]
    comp["secondary_mass_flow_kg_s"] = ev["air_mass_flow"]
    ua = solve(ua_doc)
    assert ua.converged
    q_geo, q_ua = ev["capacity"], ua.components["evaporator"]["capacity"]
    assert q_ua == pytest.approx(q_geo, rel=5e-3)
    assert ua.components["evaporator"]["saturationTemperature"] == pytest.approx(
        ev["saturationTemperature"], abs=0.15
    )


def test_calibrate_recovers_the_air_side_factor_of_the_evaporator():
    doc = example_doc()
    truth = 1.2
    measured_doc = with_params(doc, "evaporator", correlation_factors={"air_side": truth})
    rows = []
    for t_air in (24.0, 26.7, 29.0):
        point = with_params(measured_doc, "evaporator", air_inlet_temp_c=t_air)
        r = solve(point)
        assert r.converged
        assert_air_balances(r, point)
        rows.append(
            {
                "evaporator.air_inlet_temp_c": t_air,
                "evaporator.capacity": r.components["evaporator"]["capacity"],
            }
        )
    fit = calibrate(doc, pd.DataFrame(rows), ["evaporator.correlation_factors.air_side"])
    assert fit.success
    assert fit.values["evaporator.correlation_factors.air_side"] == pytest.approx(truth, rel=1e-3)
    comp = component(fit.scenario, "evaporator")
    assert comp["correlation_factors"]["air_side"] == pytest.approx(truth, rel=1e-3)


def test_herringbone_fins_solve_without_warning_close_to_wavy(example):
    # Wang, Hwang & Lin (2002) on D_h = 4 A_c L / A_o: j within 20 % of the wavy fit's
    # (tests/test_correlations_herringbone.py), so the capacity stays within a few per cent
    doc, wavy = example
    geometry = {**component(doc, "evaporator")["geometry"], "fin_type": "herringbone"}
    herringbone = with_params(doc, "evaporator", geometry=geometry)
    result = solve(herringbone)
    assert result.converged
    assert_air_balances(result, herringbone)
    assert result.warnings == []
    q_hb = result.components["evaporator"]["capacity"]
    q_wavy = wavy.components["evaporator"]["capacity"]
    assert q_hb == pytest.approx(q_wavy, rel=0.05)


def test_a_coil_below_freezing_warns_of_frost():
    doc = with_params(example_doc(), "evaporator", air_inlet_temp_c=2.0, air_inlet_rh=0.8)
    result = solve(doc)
    assert result.converged
    assert_air_balances(result, doc)
    ev = result.components["evaporator"]
    assert ev["min_surface_temperature"] < 273.15
    frost = [w for w in result.warnings if "frost" in w]
    assert len(frost) == 1
    assert frost[0].startswith("Evaporator 'evaporator'")


def test_a_zeotropic_blend_follows_its_glide_along_the_coils():
    doc = example_doc()
    doc["fluid"] = "R454B"
    result = solve(doc)
    assert result.converged, result.report()
    assert_air_balances(result, doc)
    ev = result.components["evaporator"]
    assert ev["glide"] > 1.0
    edges = result.edges.set_index("edge")
    t_in = edges[edges.index.str.endswith("evaporator:inlet")].iloc[0]["t_c"]
    t_out_dew = ev["dew_temperature"] - 273.15
    assert t_in < t_out_dew - 0.5  # the refrigerant warms along the two-phase path


def test_a_fixed_charge_sets_the_subcooling_of_the_geometric_unit():
    doc = example_doc()
    design = solve(doc)
    charge = design.summary["charge_kg"]
    fixed = copy.deepcopy(doc)
    fixed["circuits"][0]["charge_kg"] = charge
    component(fixed, "condenser").pop("subcooling_k")
    back = solve(fixed)
    assert back.converged, back.report()
    assert back.components["condenser"]["subcooling"] == pytest.approx(4.0, abs=1e-4)
    fixed["circuits"][0]["charge_kg"] = charge + 0.05
    more = solve(fixed)
    assert more.converged, more.report()
    assert_air_balances(more, fixed)
    assert more.components["condenser"]["subcooling"] > 5.0
    assert more.summary["charge_kg"] == pytest.approx(charge + 0.05, abs=1e-6)


def test_fan_power_from_the_air_side_pressure_drop_and_the_fan_efficiency():
    """Without fan_power_w, fan_efficiency makes the fan power V (dp_coil + dp_ext) / eta."""
    from workbench.correlations import humid_air

    doc = example_doc()
    for comp in doc["circuits"][0]["components"]:
        if comp["name"] in ("evaporator", "condenser"):
            comp.pop("fan_power_w")
            comp["fan_efficiency"] = 0.3
            comp["fan_external_pressure_pa"] = 20.0
    result = solve(doc)
    assert result.converged
    total = 0.0
    for name in ("evaporator", "condenser"):
        spec = next(c for c in doc["circuits"][0]["components"] if c["name"] == name)
        out = result.components[name]
        t_in = spec["air_inlet_temp_c"] + 273.15
        w_in = humid_air.humidity_ratio(t_in, spec.get("air_inlet_rh", 0.0))
        volume = out["air_mass_flow"] / humid_air.density(t_in, w_in)
        assert volume == pytest.approx(spec["air_volume_flow_m3_s"], rel=1e-9)
        expected = volume * (out["air_pressure_drop"] + 20.0) / 0.3
        assert out["fan_power"] == pytest.approx(expected, rel=1e-9)
        total += expected
    assert result.summary["fan_power_w"] == pytest.approx(total, rel=1e-9)
    power = result.summary["compressor_power_w"] + total
    assert result.summary["cop_cooling_system"] == pytest.approx(
        result.summary["cooling_capacity_w"] / power, rel=1e-12
    )
