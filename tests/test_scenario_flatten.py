"""Flattening the examples and hand-written cases: names, routing, substitution, round trip."""

from __future__ import annotations

import json

import pytest
from scenario_docs import cascade, heat_pump, split_units

from workbench.errors import ScenarioError
from workbench.scenario import FlatScenario, flatten, load_scenario


def _flat(doc) -> FlatScenario:
    return flatten(load_scenario(doc))


def test_flatten_split_units_names_and_order() -> None:
    flat = _flat(split_units())
    assert list(flat.components) == [
        f"{unit}.{local}"
        for unit in ("unit_a", "unit_b")
        for local in ("compressor", "condenser", "valve", "evaporator")
    ]
    assert flat.circuits == [0, 1]
    assert flat.initial_state == {0: None, 1: None}
    assert {c.circuit for c in flat.circuit_components(1)} == {1}
    comp = flat.components["unit_b.condenser"]
    assert comp.path == "instances[1] (unit_b) -> subsystems.split_unit.components[1]"
    assert comp.type == "Condenser"


def test_flatten_split_units_substitution_override_then_default() -> None:
    flat = _flat(split_units())
    a, b = flat.components, flat.components
    # unit_a takes every template default
    assert a["unit_a.compressor"].params["speed_hz"] == 50
    assert a["unit_a.evaporator"].params["fan_speed"] == 1.0
    assert a["unit_a.condenser"].params["air_inlet_temp_c"] == 35
    # unit_b overrides three of them and keeps the others
    assert b["unit_b.compressor"].params["speed_hz"] == 40
    assert b["unit_b.evaporator"].params["fan_speed"] == 0.7
    assert b["unit_b.condenser"].params["air_inlet_temp_c"] == 30
    defaults = split_units()["subsystems"]["split_unit"]["params"]
    assert b["unit_b.compressor"].params["displacement_m3"] == defaults["displacement_m3"]
    assert b["unit_b.condenser"].params["ua"] == defaults["condenser_ua"]
    # literal template values are copied as they are; no defaults are filled in
    assert b["unit_b.compressor"].params["isentropic_efficiency"] == 0.7
    assert "z_flow" not in b["unit_b.compressor"].params
    assert b["unit_b.valve"].params == {}


def test_flatten_split_units_edges_routed_into_instance_circuits() -> None:
    flat = _flat(split_units())
    assert len(flat.edges) == 8
    for cid, unit in ((0, "unit_a"), (1, "unit_b")):
        edges = flat.circuit_edges(cid)
        assert len(edges) == 4
        assert all(e.src.startswith(unit + ".") and e.dst.startswith(unit + ".") for e in edges)
        # the four edges close one loop: every component is left once and entered once
        assert sorted(e.src for e in edges) == sorted(e.dst for e in edges)
    closing = [e for e in flat.edges if e.path.startswith("connections")]
    assert [(e.source, e.target, e.circuit) for e in closing] == [
        ("unit_a.evaporator:outlet", "unit_a.compressor:inlet", 0),
        ("unit_b.evaporator:outlet", "unit_b.compressor:inlet", 1),
    ]
    internal = flat.circuit_edges(1)[0]
    assert internal.path == "instances[1] (unit_b) -> subsystems.split_unit.edges[0]"


def test_flatten_v1_heat_pump_keeps_every_parameter() -> None:
    doc = heat_pump()
    flat = _flat(doc)
    for comp_doc in doc["circuits"][0]["components"]:
        comp = flat.components[comp_doc["name"]]
        given = {k: v for k, v in comp_doc.items() if k not in ("name", "type")}
        assert comp.params == given
        assert comp.circuit == 0
    assert [e.path for e in flat.edges] == [f"circuits[0].edges[{i}]" for i in range(4)]
    assert flat.fluid == "R134a"
    assert flat.fluid_backend == "CoolProp"


def test_flatten_cascade_keeps_couplings_and_solver() -> None:
    doc = cascade()
    flat = _flat(doc)
    assert flat.circuits == [0, 1]
    (coupling,) = flat.thermal_couplings
    given = doc["thermal_couplings"][0]
    assert (coupling.hot_circuit, coupling.cold_circuit, coupling.ua, coupling.efficiency) == (
        0,
        1,
        given["ua"],
        given["efficiency"],
    )
    assert flat.solver.strategy == "fallback"
    assert flat.components["lt_condenser"].params == {"subcooling_k": 2}


@pytest.mark.parametrize("make", [heat_pump, split_units, cascade])
def test_flatten_to_dict_round_trips(make) -> None:
    flat = _flat(make())
    doc = flat.to_dict()
    json.dumps(doc)  # JSON-ready
    assert not {"subsystems", "instances", "connections"} & set(doc)
    again = _flat(json.loads(json.dumps(doc)))
    assert again.to_dict() == doc
    assert [(c.name, c.type, c.circuit, c.params) for c in again.components.values()] == [
        (c.name, c.type, c.circuit, c.params) for c in flat.components.values()
    ]
    assert [(e.source, e.target, e.circuit) for e in again.edges] == [
        (e.source, e.target, e.circuit) for e in flat.edges
    ]


def test_flatten_to_scenario_has_no_templates() -> None:
    doc = split_units()
    doc["controls"] = [
        {
            "id": "capacity",
            "measure": {"component": "unit_b.evaporator", "output": "capacity"},
            "actuator": {
                "component": "unit_b.compressor",
                "factor": "f_flow",
                "min": 0.2,
                "max": 1.2,
            },
            "target": 2000.0,
            "smooth_eps": 0.01,
        }
    ]
    flat = _flat(doc)
    sc = flat.to_scenario()
    assert sc.subsystems == {}
    assert sc.instances == []
    assert sc.connections == []
    assert sc.schema_version == "2"
    assert [c.id for c in sc.circuits] == [0, 1]
    assert sc.controls[0].actuator.factor == "z_flow"
    assert sc.controls[0].smooth_eps == 0.01
    evaporator = sc.circuits[1].components[3]
    assert evaporator.name == "unit_b.evaporator"
    assert evaporator.fan_speed == 0.7
    assert flatten(sc).to_dict() == flat.to_dict()


def test_flatten_instances_join_a_declared_circuit() -> None:
    doc = split_units()
    doc["instances"] = [doc["instances"][0]]
    doc["connections"] = []
    doc["circuits"] = [
        {
            "id": 0,
            "components": [
                {"name": "suction_hx", "type": "HeatExchanger", "effectiveness": 0.5},
            ],
            "edges": [
                {"from": "unit_a.evaporator:outlet", "to": "suction_hx:cold_inlet"},
                {"from": "suction_hx:cold_outlet", "to": "unit_a.compressor:inlet"},
            ],
            "initial_state": {"pressure_bar": 3.0},
        }
    ]
    # the suction HX's hot side is left open here: the expansion joins the circuits, and the
    # checks name the open ports
    from workbench.scenario import parse_scenario
    from workbench.scenario.expand import expand

    expansion = expand(parse_scenario(doc))
    assert expansion.issues == []
    flat = expansion.flat
    with pytest.raises(ScenarioError) as info:
        _flat(doc)
    assert [i.message.split(";")[0] for i in info.value.issues] == [
        "open circuit: port 'suction_hx:hot_inlet' is not connected",
        "open circuit: port 'suction_hx:hot_outlet' is not connected",
    ]
    assert flat.circuits == [0]
    assert next(iter(flat.components)) == "suction_hx"
    assert flat.initial_state[0].pressure_bar == 3.0
    assert {e.circuit for e in flat.edges} == {0}
    assert len(flat.edges) == 5
    assert flat.to_dict()["circuits"][0]["initial_state"] == {"pressure_bar": 3.0}


def test_flatten_copies_parameter_values() -> None:
    doc = split_units()
    doc["subsystems"]["split_unit"]["params"]["bank"] = {"circuits": 2, "coils_per_circuit": 3}
    doc["subsystems"]["split_unit"]["components"][1]["condenser_bank"] = "$bank"
    sc = load_scenario(doc)
    flat = flatten(sc)
    bank_a = flat.components["unit_a.condenser"].params["condenser_bank"]
    bank_b = flat.components["unit_b.condenser"].params["condenser_bank"]
    assert bank_a == {"circuits": 2, "coils_per_circuit": 3}
    bank_a["circuits"] = 9
    assert bank_b["circuits"] == 2
    assert sc.subsystems["split_unit"].params["bank"]["circuits"] == 2
