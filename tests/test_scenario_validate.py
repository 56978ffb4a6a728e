"""Semantic validation: one invalid example per rule, each error with its path and what is allowed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from scenario_docs import cascade, heat_pump, issues_of, split_units

from workbench.components.catalog.specs import COMPONENT_TYPES
from workbench.scenario import flatten, load_scenario

Doc = dict[str, Any]

SH_CONTROL = {
    "id": "superheat",
    "measure": {"component": "unit_a.evaporator", "output": "superheat"},
    "actuator": {"component": "unit_a.compressor", "factor": "z_flow", "min": 0.5, "max": 1.5},
    "target": 5.0,
}


def hp_comp(doc: Doc, k: int) -> Doc:
    return doc["circuits"][0]["components"][k]


def tpl(doc: Doc) -> Doc:
    return doc["subsystems"]["split_unit"]


def tpl_comp(doc: Doc, k: int) -> Doc:
    return tpl(doc)["components"][k]


def with_control(**changes: Any) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        control = {
            **SH_CONTROL,
            "measure": dict(SH_CONTROL["measure"]),
            "actuator": dict(SH_CONTROL["actuator"]),
        }
        for dotted, value in changes.items():
            target = control
            *head, last = dotted.split("__")
            for part in head:
                target = target[part]
            target[last] = value
        doc.setdefault("controls", []).append(control)

    return mutate


def _dup_control(doc: Doc) -> None:
    with_control()(doc)
    with_control()(doc)


def _second_circuit(doc: Doc) -> None:
    doc["circuits"].append({"id": 1, "components": [{"name": "valve2", "type": "ExpansionValve"}]})


def _global_duplicate(doc: Doc) -> None:
    doc["circuits"] = [
        {"id": 0, "components": [{"name": "unit_a.valve", "type": "ExpansionValve"}]}
    ]


def _two_circuits_same_id(doc: Doc) -> None:
    doc["circuits"].append({"id": 0, "components": [{"name": "other", "type": "ExpansionValve"}]})


def _cross_circuit_edge(doc: Doc) -> None:
    _second_circuit(doc)
    doc["circuits"][0]["edges"][1]["to"] = "valve2:inlet"


def _v1_with(key: str, value: Any) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        doc["schema_version"] = "1"
        doc[key] = value

    return mutate


# (id, base document, mutation, [(path, fragment), ...] the exact issues expected)
CASES: list[tuple[str, Callable[[], Doc], Callable[[Doc], None], list[tuple[str, str]]]] = [
    # versioning
    (
        "v1_controls",
        split_units,
        lambda d: (with_control()(d), d.update(schema_version="1")),
        [
            ("controls", '"schema_version": "2"'),
            ("subsystems", '"schema_version": "2"'),
            ("instances", '"schema_version": "2"'),
            ("connections", '"schema_version": "2"'),
        ],
    ),
    (
        "v1_connections_only",
        heat_pump,
        _v1_with("connections", [{"from": "valve:outlet", "to": "evaporator:inlet"}]),
        [
            ("connections", '"schema_version": "2"'),
            ("connections[0].from", "already joined by circuits[0].edges[2]"),
            ("connections[0].to", "already joined by circuits[0].edges[2]"),
        ],
    ),
    (
        "unknown_template_is_the_only_error",
        split_units,
        lambda d: d.update(instances=[{"name": "u", "of": "nope"}], connections=[]),
        [("instances[0].of", "templates in subsystems: split_unit")],
    ),
    ("empty_fluid", heat_pump, lambda d: d.update(fluid=" "), [("fluid", "must not be empty")]),
    ("no_components", heat_pump, lambda d: d.update(circuits=[]), [("circuits", "no components")]),
    # component types and parameters (catalog)
    (
        "unknown_type",
        heat_pump,
        lambda d: hp_comp(d, 2).update(type="Valve"),
        [("circuits[0].components[2].type", "allowed types: " + ", ".join(COMPONENT_TYPES))],
    ),
    (
        "unknown_type_suggestion",
        heat_pump,
        lambda d: hp_comp(d, 0).update(type="Compresor"),
        [("circuits[0].components[0].type", "did you mean 'Compressor'")],
    ),
    (
        "unknown_parameter",
        heat_pump,
        lambda d: hp_comp(d, 0).update(isentropic_eff=0.7),
        [("circuits[0].components[0].isentropic_eff", "did you mean 'isentropic_efficiency'")],
    ),
    (
        "contract_field_on_wrong_type",
        heat_pump,
        lambda d: hp_comp(d, 0).update(fan_speed=0.5),
        [
            (
                "circuits[0].components[0].fan_speed",
                # (the message suggests min_speed_hz between the two halves)
                "parameters of Compressor: isentropic_efficiency",
            )
        ],
    ),
    (
        "wrong_kind",
        heat_pump,
        lambda d: hp_comp(d, 3).update(fan_speed="fast"),
        [("circuits[0].components[3].fan_speed", 'expected a number in [0, 1], got "fast"')],
    ),
    (
        "bool_is_not_a_number",
        heat_pump,
        lambda d: hp_comp(d, 0).update(speed_hz=True),
        [("circuits[0].components[0].speed_hz", "expected a number > 0")],
    ),
    (
        "out_of_bounds",
        heat_pump,
        lambda d: hp_comp(d, 3).update(fan_speed=1.2),
        [("circuits[0].components[3].fan_speed", "out of range: expected a number in [0, 1]")],
    ),
    (
        "exclusive_bound",
        heat_pump,
        lambda d: hp_comp(d, 0).update(isentropic_efficiency=0),
        [("circuits[0].components[0].isentropic_efficiency", "in (0, 1]")],
    ),
    (
        "negative_subcooling",
        heat_pump,
        lambda d: hp_comp(d, 1).update(subcooling_k=-1),
        [("circuits[0].components[1].subcooling_k", ">= 0 [K]")],
    ),
    (
        "number_list_length",
        heat_pump,
        lambda d: (
            hp_comp(d, 0).pop("displacement_m3"),
            hp_comp(d, 0).update(mass_flow_map_kg_s=[0.01] * 9),
        ),
        [("circuits[0].components[0].mass_flow_map_kg_s", "list of 10 numbers")],
    ),
    (
        "number_list_kind",
        heat_pump,
        lambda d: (
            hp_comp(d, 0).pop("displacement_m3"),
            hp_comp(d, 0).update(mass_flow_map_kg_s=["a"] * 10),
        ),
        [("circuits[0].components[0].mass_flow_map_kg_s", "list of 10 numbers")],
    ),
    (
        "alternatives",
        heat_pump,
        lambda d: hp_comp(d, 3).update(ua=1200),
        [("circuits[0].components[3]", "ua and ua_nominal_kw_k")],
    ),
    (
        "alternatives_three",
        heat_pump,
        lambda d: hp_comp(d, 0).update(mass_flow_kg_s=0.05),
        [("circuits[0].components[0]", "mass_flow_kg_s and displacement_m3")],
    ),
    (
        "legacy_and_new_factor",
        heat_pump,
        lambda d: hp_comp(d, 2).update(f_flow=1.0, z_flow=1.1),
        [("circuits[0].components[2].z_flow", "legacy name")],
    ),
    (
        "factor_negative",
        heat_pump,
        lambda d: hp_comp(d, 2).update(f_flow=-1.0),
        [("circuits[0].components[2].f_flow", ">= 0")],
    ),
    (
        "param_ref_outside_template",
        heat_pump,
        lambda d: hp_comp(d, 0).update(speed_hz="$speed"),
        [("circuits[0].components[0].speed_hz", "only inside subsystems")],
    ),
    (
        "condenser_bank_kind",
        heat_pump,
        lambda d: hp_comp(d, 1).update(condenser_bank=4),
        [("circuits[0].components[1].condenser_bank", "expected a JSON object")],
    ),
    (
        "condenser_bank_fields",
        heat_pump,
        lambda d: hp_comp(d, 1).update(condenser_bank={"circuits": -1}),
        [
            ("circuits[0].components[1].condenser_bank.circuits", "greater than or equal to 0"),
            ("circuits[0].components[1].condenser_bank.coils_per_circuit", "required field"),
        ],
    ),
    (
        "component_name_colon",
        heat_pump,
        lambda d: hp_comp(d, 2).update(name="a:b"),
        [
            ("circuits[0].components[2].name", "must not contain ':'"),
            ("circuits[0].edges[1].to", "unknown component 'valve'"),
            ("circuits[0].edges[2].from", "unknown component 'valve'"),
        ],
    ),
    # names
    (
        "duplicate_in_circuit",
        heat_pump,
        lambda d: hp_comp(d, 2).update(name="condenser"),
        [
            ("circuits[0].components[2].name", "duplicate component name 'condenser' in circuit 0"),
            ("circuits[0].edges[1].to", "unknown component 'valve'"),
            ("circuits[0].edges[2].from", "unknown component 'valve'"),
        ],
    ),
    (
        "duplicate_across_circuits",
        cascade,
        lambda d: d["circuits"][1]["components"][2].update(name="lt_valve"),
        [
            (
                "circuits[1].components[2].name",
                "already used in circuit 0 at circuits[0].components[2]",
            ),
            ("circuits[1].edges[1].to", "unknown component 'ht_valve' in circuit 1"),
            ("circuits[1].edges[2].from", "unknown component 'ht_valve' in circuit 1"),
        ],
    ),
    (
        "duplicate_after_flattening",
        split_units,
        _global_duplicate,
        [
            (
                "instances[0] (unit_a) -> subsystems.split_unit.components[2].name",
                "names must be unique across all circuits",
            )
        ],
    ),
    (
        "duplicate_circuit_id",
        heat_pump,
        _two_circuits_same_id,
        [("circuits[1].id", "duplicate circuit id 0")],
    ),
    # edges
    (
        "endpoint_shape",
        heat_pump,
        lambda d: d["circuits"][0]["edges"][0].update({"from": "compressor-outlet"}),
        [("circuits[0].edges[0].from", "shape <component>:<port>")],
    ),
    (
        "edge_unknown_component",
        heat_pump,
        lambda d: d["circuits"][0]["edges"][0].update({"to": "condensor:inlet"}),
        [("circuits[0].edges[0].to", "did you mean 'condenser'")],
    ),
    (
        "edge_unknown_port",
        heat_pump,
        lambda d: d["circuits"][0]["edges"][0].update({"to": "condenser:in"}),
        [("circuits[0].edges[0].to", "ports of Condenser: inlet, outlet")],
    ),
    (
        "edge_between_circuits",
        heat_pump,
        _cross_circuit_edge,
        [("circuits[0].edges[1].to", "thermal_couplings")],
    ),
    (
        "edge_from_inlet",
        heat_pump,
        lambda d: d["circuits"][0]["edges"][0].update({"from": "compressor:inlet"}),
        [("circuits[0].edges[0].from", "outlet ports of 'compressor': outlet")],
    ),
    (
        "port_joined_twice",
        heat_pump,
        lambda d: d["circuits"][0]["edges"].append(
            {"from": "valve:outlet", "to": "evaporator:inlet"}
        ),
        [
            ("circuits[0].edges[4].from", "already joined by circuits[0].edges[2]"),
            ("circuits[0].edges[4].to", "already joined by circuits[0].edges[2]"),
        ],
    ),
    # templates and instances
    (
        "unknown_template",
        split_units,
        lambda d: d["instances"][1].update(of="split"),
        [
            ("instances[1].of", "did you mean 'split_unit'"),
            ("connections[1].from", "unknown component 'unit_b.evaporator'"),
        ],
    ),
    (
        "duplicate_instance",
        split_units,
        lambda d: d["instances"][1].update(name="unit_a"),
        [
            ("instances[1].name", "duplicate instance name 'unit_a'"),
            ("connections[1].from", "unknown component 'unit_b.evaporator'"),
            ("connections[1].to", "unknown instance 'unit_b'"),
        ],
    ),
    (
        "instance_name_dot",
        split_units,
        lambda d: d["instances"].append({"name": "a.b", "of": "split_unit", "circuit": 2}),
        [("instances[2].name", "without '.'")],
    ),
    (
        "template_port_missing_component",
        split_units,
        lambda d: tpl(d)["ports"].update(suction_in="compresor:inlet"),
        [("subsystems.split_unit.ports.suction_in", "has no component 'compresor'")],
    ),
    (
        "template_port_unknown_port",
        split_units,
        lambda d: tpl(d)["ports"].update(suction_in="compressor:suction"),
        [("subsystems.split_unit.ports.suction_in", "ports of Compressor: inlet, outlet")],
    ),
    (
        "template_edge_unknown_component",
        split_units,
        lambda d: tpl(d)["edges"][0].update({"to": "cond:inlet"}),
        [("subsystems.split_unit.edges[0].to", "has no component 'cond'")],
    ),
    (
        "template_duplicate_local_name",
        split_units,
        lambda d: tpl_comp(d, 2).update(name="condenser"),
        [
            (
                "subsystems.split_unit.components[2].name",
                "duplicate component name 'condenser' in template",
            ),
            ("subsystems.split_unit.edges[1].to", "has no component 'valve'"),
            ("subsystems.split_unit.edges[2].from", "has no component 'valve'"),
        ],
    ),
    (
        "template_unknown_parameter",
        split_units,
        lambda d: tpl_comp(d, 0).update(fan_speed="$fan_speed"),
        [("subsystems.split_unit.components[0].fan_speed", "not a parameter of Compressor")],
    ),
    (
        "undefined_param_ref",
        split_units,
        lambda d: tpl_comp(d, 1).update(subcooling_k="$subcooling"),
        [
            (
                "instances[0] (unit_a) -> subsystems.split_unit.components[1].subcooling_k",
                "defined neither in instances[0].params",
            ),
            (
                "instances[1] (unit_b) -> subsystems.split_unit.components[1].subcooling_k",
                "defined neither in instances[1].params",
            ),
        ],
    ),
    (
        "substituted_value_checked",
        split_units,
        lambda d: d["instances"][1]["params"].update(fan_speed=1.5),
        [
            (
                "instances[1] (unit_b) -> subsystems.split_unit.components[3].fan_speed",
                "value of $fan_speed from instances[1].params.fan_speed",
            )
        ],
    ),
    (
        "template_default_checked",
        split_units,
        lambda d: tpl(d)["params"].update(speed_hz="fast"),
        [
            (
                "instances[0] (unit_a) -> subsystems.split_unit.components[0].speed_hz",
                "from subsystems.split_unit.params.speed_hz",
            )
        ],
    ),
    (
        "instance_param_unknown",
        split_units,
        lambda d: d["instances"][1]["params"].update(fanspeed=0.5),
        [("instances[1].params.fanspeed", "did you mean 'fan_speed'")],
    ),
    # connections
    (
        "connection_between_circuits",
        split_units,
        lambda d: d["connections"][1].update({"to": "unit_a.suction_in"}),
        [
            (
                "connections[1]",
                "'unit_b.evaporator' is in circuit 1 and 'unit_a.compressor' in circuit 0",
            )
        ],
    ),
    (
        "connection_unknown_instance",
        split_units,
        lambda d: d["connections"][1].update({"to": "unit_c.suction_in"}),
        [("connections[1].to", "unknown instance 'unit_c'")],
    ),
    (
        "connection_unknown_external_port",
        split_units,
        lambda d: d["connections"][1].update({"to": "unit_b.suction"}),
        [("connections[1].to", "its ports: suction_out, suction_in")],
    ),
    (
        "connection_endpoint_shape",
        split_units,
        lambda d: d["connections"][1].update({"to": "unit_b"}),
        [("connections[1].to", "<instance>.<external_port> or <component>:<port>")],
    ),
    (
        "connection_unknown_component",
        split_units,
        lambda d: d["connections"][1].update({"from": "unit_b.evap:outlet"}),
        [("connections[1].from", "did you mean 'unit_b.evaporator'")],
    ),
    # controls
    (
        "control_unknown_component",
        split_units,
        with_control(measure__component="unit_a.evap"),
        [("controls[0].measure.component", "did you mean 'unit_a.evaporator'")],
    ),
    (
        "control_unknown_output",
        split_units,
        with_control(measure__output="subcooling"),
        [
            (
                "controls[0].measure.output",
                "control loop 'superheat': Evaporator 'unit_a.evaporator' has no output 'subcooling'; outputs of Evaporator: capacity",
            )
        ],
    ),
    (
        "control_unknown_factor",
        split_units,
        with_control(actuator__factor="z_ua"),
        [("controls[0].actuator.factor", "factors of Compressor: z_flow, z_etav, z_power")],
    ),
    (
        "control_unknown_legacy_factor",
        split_units,
        with_control(actuator__factor="f_dp"),
        [("controls[0].actuator.factor", "no calibration factor 'f_dp'")],
    ),
    (
        "control_unknown_actuator",
        split_units,
        with_control(actuator__component="valve"),
        [("controls[0].actuator.component", "actuates unknown component 'valve'")],
    ),
    (
        "control_min_max",
        split_units,
        with_control(actuator__min=2.0),
        [("controls[0].actuator", "min (2) must be less than max (1.5)")],
    ),
    (
        "control_initial_outside",
        split_units,
        with_control(actuator__initial=1.6),
        [("controls[0].actuator.initial", "outside [min, max] = [0.5, 1.5]")],
    ),
    (
        "control_duplicate_id",
        split_units,
        _dup_control,
        [("controls[1].id", "duplicate control id 'superheat'")],
    ),
    # thermal couplings
    (
        "coupling_unknown_circuit",
        cascade,
        lambda d: d["thermal_couplings"][0].update(cold_circuit=7),
        [
            (
                "thermal_couplings[0].cold_circuit",
                "circuit 7 does not exist; circuit ids (after flattening): 0, 1",
            )
        ],
    ),
    (
        "coupling_same_circuit",
        cascade,
        lambda d: d["thermal_couplings"][0].update(cold_circuit=0),
        [("thermal_couplings[0]", "both 0")],
    ),
]


@pytest.mark.parametrize(
    ("base", "mutate", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_validate_rule(base, mutate, expected) -> None:
    doc = base()
    load_scenario(doc)  # the base document is valid
    mutate(doc)
    issues = issues_of(doc)
    assert sorted(i.path for i in issues) == sorted(p for p, _ in expected), issues
    for path, fragment in expected:
        assert any(i.path == path and fragment in i.message for i in issues), (path, issues)


def test_validate_rule_messages_name_path_and_allowed_values() -> None:
    doc = heat_pump()
    hp_comp(doc, 3)["fan_speed"] = "fast"
    issues = issues_of(doc)
    text = str(issues[0])
    assert text.startswith("circuits[0].components[3].fan_speed: ")
    assert "[0, 1]" in text


def test_validate_reports_every_semantic_error_at_once() -> None:
    doc = split_units()
    tpl_comp(doc, 2)["type"] = "Valve"
    tpl_comp(doc, 0)["fan_speed"] = 0.5
    doc["instances"][1]["params"]["fan_speed"] = 2.0
    doc["connections"].append({"from": "unit_a.evaporator:outlet", "to": "unit_b.compressor:inlet"})
    with_control(measure__output="superheet")(doc)
    doc["thermal_couplings"] = [{"hot_circuit": 1, "cold_circuit": 1, "ua": 100}]
    paths = {i.path for i in issues_of(doc)}
    assert {
        "subsystems.split_unit.components[2].type",
        "subsystems.split_unit.components[0].fan_speed",
        "instances[1] (unit_b) -> subsystems.split_unit.components[3].fan_speed",
        "connections[2]",
        "controls[0].measure.output",
        "thermal_couplings[0]",
    } <= paths


def test_validate_legacy_factor_is_normalised() -> None:
    doc = split_units()
    with_control(actuator__factor="f_flow")(doc)
    tpl_comp(doc, 0)["f_etav"] = 1.05
    flat = flatten(load_scenario(doc))
    assert flat.controls[0].actuator.factor == "z_flow"
    assert flat.components["unit_a.compressor"].params["z_etav"] == 1.05
    assert "f_etav" not in flat.components["unit_a.compressor"].params


def test_validate_flatten_checks_a_scenario_built_in_python() -> None:
    from workbench.errors import ScenarioError
    from workbench.scenario import ScenarioConfig

    doc = heat_pump()
    hp_comp(doc, 3)["fan_speed"] = 3.0
    scenario = ScenarioConfig.model_validate(doc)  # structure only
    with pytest.raises(ScenarioError) as info:
        flatten(scenario)
    assert [i.path for i in info.value.issues] == ["circuits[0].components[3].fan_speed"]
