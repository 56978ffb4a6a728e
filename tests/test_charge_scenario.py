import json

import pytest
from charge_cases import EXAMPLE, charge_doc
from CoolProp.CoolProp import PropsSI
from scipy.integrate import quad
from solver_cases import textbook_r134a

import workbench
from workbench.scenario import flatten, load_scenario


def test_flat_document_keeps_the_charge_fields():
    flat = flatten(load_scenario(EXAMPLE))
    doc = flat.to_dict()
    assert doc["circuits"][0]["charge_kg"] == 0.25
    assert doc["charge"]["void_fraction"] == "zivi"
    assert doc["safety"]["room_area_m2"] == 15
    assert [e.get("volume_m3") for e in doc["circuits"][0]["edges"]] == [1e-4, 1e-4, 5e-5, 3e-4]
    again = flatten(load_scenario(doc))
    assert again.to_dict() == doc
    assert again.to_scenario().circuits[0].charge_kg == 0.25


def test_template_edges_and_connections_carry_their_volume():
    doc = {
        "schema_version": "2",
        "fluid": "R134a",
        "subsystems": {
            "unit": {
                "components": [
                    {"name": "comp", "type": "Compressor", "mass_flow_kg_s": 0.05},
                    {"name": "cond", "type": "Condenser", "t_cond_k": 313.15},
                    {"name": "valve", "type": "ExpansionValve"},
                    {"name": "evap", "type": "Evaporator", "t_evap_k": 263.15},
                ],
                "edges": [
                    {"from": "comp:outlet", "to": "cond:inlet", "volume_m3": 2e-5},
                    {"from": "cond:outlet", "to": "valve:inlet"},
                    {"from": "valve:outlet", "to": "evap:inlet"},
                ],
                "ports": {"suction": "comp:inlet", "evap_out": "evap:outlet"},
            }
        },
        "instances": [{"name": "a", "of": "unit"}],
        "connections": [{"from": "a.evap_out", "to": "a.suction", "volume_m3": 3e-4}],
    }
    flat = flatten(load_scenario(doc))
    volumes = {e.source: e.volume_m3 for e in flat.edges}
    assert volumes["a.comp:outlet"] == 2e-5
    assert volumes["a.evap:outlet"] == 3e-4
    assert volumes["a.cond:outlet"] is None


def test_schema_lists_the_new_fields():
    schema = json.dumps(load_scenario(EXAMPLE).model_json_schema())
    for word in ("charge_kg", "volume_m3", "void_fraction", "room_area_m2", "release_height"):
        assert word in schema


def test_bad_charge_fields_are_named():
    doc = charge_doc(charge_kg=0.25)
    doc["charge"] = {"void_fraction": "premolli"}
    doc["safety"]["release_height"] = "roof"
    doc["circuits"][0]["edges"][0]["volume_m3"] = -1
    with pytest.raises(workbench.errors.ScenarioError) as info:
        load_scenario(doc)
    text = str(info.value)
    assert "charge.void_fraction" in text
    assert "safety.release_height" in text
    assert "circuits[0].edges[0].volume_m3" in text


def test_safety_for_a_fluid_without_data_is_named():
    doc = textbook_r134a(eta_s=0.75, superheat_k=2.0, subcooling_k=2.0, backend="Test")
    doc["fluid"] = "R245fa"
    doc["fluid_backend"] = "CoolProp"
    doc["safety"] = {"room_area_m2": 10}
    with pytest.raises(workbench.errors.ScenarioError, match="no safety data"):
        load_scenario(doc)


def test_internal_hx_sides_hold_their_volumes():
    doc = textbook_r134a(eta_s=0.75, superheat_k=2.0, subcooling_k=2.0, backend="CoolProp")
    circuit = doc["circuits"][0]
    circuit["components"].append(
        {
            "name": "ihx",
            "type": "HeatExchanger",
            "effectiveness": 0.6,
            "hot_internal_volume_m3": 1e-4,
            "cold_internal_volume_m3": 2e-4,
        }
    )
    circuit["edges"] = [
        {"from": "comp:outlet", "to": "cond:inlet"},
        {"from": "cond:outlet", "to": "ihx:hot_inlet"},
        {"from": "ihx:hot_outlet", "to": "valve:inlet"},
        {"from": "valve:outlet", "to": "evap:inlet"},
        {"from": "evap:outlet", "to": "ihx:cold_inlet"},
        {"from": "ihx:cold_outlet", "to": "comp:inlet"},
    ]
    r = workbench.solve(doc)
    assert r.converged
    (item,) = r.charge["items"]
    assert item["volume_m3"] == pytest.approx(3e-4)
    zones = {z["zone"]: z for z in item["zones"]}
    assert set(zones) == {"hot.subcooled", "cold.superheated"}
    hot_in = next(s for s in r.edge_states if s.dst == "ihx" and s.dst_port == "hot_inlet")
    hot_out = next(s for s in r.edge_states if s.src == "ihx" and s.src_port == "hot_outlet")
    p, fluid = hot_in.p_pa, "R134a"
    mean = quad(lambda h: PropsSI("D", "P", p, "H", h, fluid), hot_out.h_j_kg, hot_in.h_j_kg)[0]
    mean /= hot_in.h_j_kg - hot_out.h_j_kg
    assert zones["hot.subcooled"]["density_kg_m3"] == pytest.approx(mean, rel=1e-6)
    assert zones["hot.subcooled"]["kg"] == pytest.approx(1e-4 * mean, rel=1e-6)


def test_gas_cooler_holds_a_supercritical_zone():
    doc = json.loads((EXAMPLE.parent / "r744_heat_pump_v2.json").read_text())
    gas_cooler = next(c for c in doc["circuits"][0]["components"] if c["type"] == "GasCooler")
    gas_cooler["internal_volume_m3"] = 5e-4
    r = workbench.solve(doc)
    assert r.converged
    item = next(i for i in r.charge["items"] if i["type"] == "GasCooler")
    assert [z["zone"] for z in item["zones"]] == ["supercritical"]
    inlet = next(s for s in r.edge_states if s.dst == item["name"])
    outlet = next(s for s in r.edge_states if s.src == item["name"])
    p = inlet.p_pa
    mean = quad(lambda h: PropsSI("D", "P", p, "H", h, "CO2"), outlet.h_j_kg, inlet.h_j_kg)[0]
    mean /= inlet.h_j_kg - outlet.h_j_kg
    # 4-point Gauss-Legendre over a path that crosses the pseudo-critical line
    assert item["kg"] == pytest.approx(5e-4 * mean, rel=1e-3)
