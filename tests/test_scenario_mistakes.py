"""Input mistakes are caught by the scenario checks (exit 2, JSON path, reason), not the solve."""

from __future__ import annotations

import json

import pytest

from workbench.cli.main import main
from workbench.errors import ScenarioError, SpecificationError
from workbench.scenario import flatten, load_scenario, parse_scenario
from workbench.scenario.limits import MAX_COMPONENTS, MAX_DOCUMENT_BYTES
from workbench.scenario.reference_cases import (
    split_unit_r410a,
    textbook_r134a,
    ua_heat_pump,
    water_heat_pump,
)

COND, VALVE, EVAP = 1, 2, 3


def _set(doc, index, **params):
    doc["circuits"][0]["components"][index].update(params)
    return doc


def _issues(doc) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(doc)
    # flatten of the parsed document raises the same issues
    with pytest.raises(ScenarioError) as again:
        flatten(parse_scenario(doc))
    assert [(i.path, i.message) for i in again.value.issues] == [
        (i.path, i.message) for i in info.value.issues
    ]
    return [(i.path, i.message) for i in info.value.issues]


def _example(name: str) -> dict:
    with open(f"examples/scenarios/{name}.json") as fh:
        return json.load(fh)


def _cli(doc, tmp_path, capsys) -> str:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(doc))
    assert main(["validate", str(path)]) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("doc", "path", "suggestion"),
    [
        (
            _set(water_heat_pump(), COND, secondary_inlet_temp_k=30),
            "circuits[0].components[1].secondary_inlet_temp_k",
            "303.15 K",
        ),
        (
            _set(water_heat_pump(), EVAP, secondary_inlet_temp_k=12.5),
            "circuits[0].components[3].secondary_inlet_temp_k",
            "285.65 K",
        ),
        (
            _set(textbook_r134a(), EVAP, t_evap_k=5),
            "circuits[0].components[3].t_evap_k",
            "278.15 K",
        ),
        (
            _set(textbook_r134a(), COND, t_cond_k=40),
            "circuits[0].components[1].t_cond_k",
            "313.15 K",
        ),
        (
            _set(split_unit_r410a(), COND, secondary_inlet_temp_k=35, air_inlet_temp_c=None),
            "circuits[0].components[1].secondary_inlet_temp_k",
            "308.15 K",
        ),
    ],
)
def test_kelvin_fields_with_celsius_values_name_the_path_and_the_kelvin_value(
    doc, path, suggestion, tmp_path, capsys
):
    comp = doc["circuits"][0]["components"][COND]
    if comp.get("air_inlet_temp_c", 0) is None:
        del comp["air_inlet_temp_c"]
    issues = _issues(doc)
    assert len(issues) == 1
    assert issues[0][0] == path
    assert f"looks like degrees Celsius; did you mean {suggestion}?" in issues[0][1]
    err = _cli(doc, tmp_path, capsys)
    assert f"{path}: " in err
    assert f"did you mean {suggestion}?" in err


def test_a_celsius_field_with_a_kelvin_value_says_so():
    ((path, message),) = _issues(_set(ua_heat_pump(), EVAP, air_inlet_temp_c=280.15))
    assert path == "circuits[0].components[3].air_inlet_temp_c"
    assert "280.15 C looks like kelvin; did you mean 7 C?" in message


@pytest.mark.parametrize(
    ("index", "params", "expected"),
    [
        (EVAP, {"secondary_inlet_temp_k": 270.0}, "below the range of liquid water"),
        (COND, {"secondary_inlet_temp_k": 380.0}, "above the range of liquid water"),
        (COND, {"secondary_fluid": "MEG30", "secondary_inlet_temp_k": 250.0}, "MEG30"),
    ],
)
def test_secondary_temperatures_outside_the_fluids_range_are_input_errors(
    index, params, expected, tmp_path, capsys
):
    doc = _set(water_heat_pump(), index, **params)
    path = f"circuits[0].components[{index}].secondary_inlet_temp_k"
    # (water at 380 K also sits above R134a's critical temperature: the critical-point rule
    # reports that on the same path)
    assert any(p == path and expected in message for p, message in _issues(doc))
    assert f"{path}: " in _cli(doc, tmp_path, capsys)


def test_air_at_minus_100_c_is_outside_the_air_model():
    ((path, message),) = _issues(_set(ua_heat_pump(), EVAP, air_inlet_temp_c=-100.0))
    assert path == "circuits[0].components[3].air_inlet_temp_c"
    assert "173.15 K (-100 C) is below the range of the air model: 223.15 K (-50 C)" in message


def test_an_explicit_secondary_cp_skips_the_fluid_range_but_not_the_celsius_rule():
    doc = _set(ua_heat_pump(), EVAP, air_inlet_temp_c=-100.0, secondary_cp_j_kgk=1006.0)
    load_scenario(doc)  # the fluid's properties are not used
    doc = _set(water_heat_pump(), COND, secondary_cp_j_kgk=4180.0, secondary_inlet_temp_k=30)
    ((_path, message),) = _issues(doc)
    assert "did you mean 303.15 K?" in message


@pytest.mark.parametrize(
    ("doc", "index", "param", "value", "expected"),
    [
        # at or above the critical point: the critical-point rule says why, once
        (textbook_r134a(), COND, "t_cond_k", 390.0, "at or above the critical temperature"),
        (textbook_r134a(), EVAP, "t_evap_k", 150.0, "below the range of R134a saturation"),
        (
            textbook_r134a(backend="Test"),
            COND,
            "t_cond_k",
            374.0,  # between the Test model's last saturation (T_c - 0.5 K) and T_c
            "above the highest saturation temperature of R134a in this backend",
        ),
    ],
)
def test_refrigerant_temperatures_outside_the_fluid_are_input_errors(
    doc, index, param, value, expected
):
    _set(doc, index, **{param: value})
    ((path, message),) = _issues(doc)
    assert path == f"circuits[0].components[{index}].{param}"
    assert expected in message


def test_initial_state_temperature_is_checked_against_the_fluid():
    doc = textbook_r134a()
    doc["circuits"][0]["initial_state"] = {"pressure_bar": 2.0, "temperature_k": 10.0}
    ((path, message),) = _issues(doc)
    assert path == "circuits[0].initial_state.temperature_k"
    assert "did you mean 283.15 K?" in message


def test_template_values_are_checked_after_substitution_with_their_origin():
    doc = _example("split_units_v2")
    doc["instances"][1]["params"]["outdoor_temp_c"] = -120
    issues = _issues(doc)
    assert len(issues) == 1
    path, message = issues[0]
    assert path.endswith("subsystems.split_unit.components[1].air_inlet_temp_c")
    assert "below the range of the air model" in message
    assert "$outdoor_temp_c from instances[1].params" in message


def test_unknown_fluid_says_did_you_mean_with_a_few_names(tmp_path, capsys):
    doc = ua_heat_pump()
    doc["fluid"] = "R999x"
    ((path, message),) = _issues(doc)
    assert path == "fluid"
    assert "did you mean" in message
    assert "R134a" in message
    assert message.count(",") < 12  # a few names, never CoolProp's ~120
    assert "fluid: unknown fluid 'R999x'" in _cli(doc, tmp_path, capsys)


@pytest.mark.parametrize(
    ("name", "close"), [("oil", None), ("watr", "water"), ("Glycole", "glycol")]
)
def test_unknown_secondary_fluid_is_an_input_error_with_a_few_names(name, close):
    ((path, message),) = _issues(_set(water_heat_pump(), COND, secondary_fluid=name))
    assert path == "circuits[0].components[1].secondary_fluid"
    assert f"unknown secondary fluid '{name}'" in message
    assert "valid names: air, water, glycol" in message
    if close:
        assert f"did you mean {close}?" in message


def test_an_open_circuit_names_each_open_port(tmp_path, capsys):
    doc = ua_heat_pump()
    doc["circuits"][0]["edges"].pop(1)  # cond:outlet -> valve:inlet
    issues = _issues(doc)
    assert issues == [
        (
            "circuits[0].components[1]",
            "open circuit: port 'cond:outlet' is not connected; every port takes one edge (add "
            'an edge with "from": "cond:outlet")',
        ),
        (
            "circuits[0].components[2]",
            "open circuit: port 'valve:inlet' is not connected; every port takes one edge (add "
            'an edge with "to": "valve:inlet")',
        ),
    ]
    assert "open circuit: port 'cond:outlet'" in _cli(doc, tmp_path, capsys)


def test_a_disconnected_component_is_reported_once():
    doc = ua_heat_pump()
    doc["circuits"][0]["components"].append({"name": "spare", "type": "ExpansionValve"})
    ((path, message),) = _issues(doc)
    assert path == "circuits[0].components[4]"
    assert message.startswith("ExpansionValve 'spare' is not connected: no edge joins any of")


def test_a_circuit_in_two_parts_is_reported():
    doc = ua_heat_pump()
    second = ua_heat_pump()["circuits"][0]
    for comp in second["components"]:
        comp["name"] += "_2"
    second["edges"] = [
        {"from": e["from"].replace(":", "_2:"), "to": e["to"].replace(":", "_2:")}
        for e in second["edges"]
    ]
    doc["circuits"][0]["components"] += second["components"]
    doc["circuits"][0]["edges"] += second["edges"]
    ((path, message),) = _issues(doc)
    assert path == "circuits[0]"
    assert "circuit 0 falls apart into 2 parts that no edge joins" in message
    assert "[comp, cond, valve, evap] and [comp_2, cond_2, valve_2, evap_2]" in message


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(tmp_path, capsys):
    path = tmp_path / "huge.json"
    with path.open("w") as fh:  # 1.1 million components
        fh.write('{"fluid": "R134a", "circuits": [{"components": [')
        item = '{"name": "v%d", "type": "ExpansionValve"}'
        fh.write(",".join(item % i for i in range(1_100_000)))
        fh.write("]}]}")
    assert path.stat().st_size > MAX_DOCUMENT_BYTES
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert "scenario documents are limited to 8.0 MiB" in str(info.value)
    assert main(["validate", str(path)]) == 2
    assert "MAX_DOCUMENT_BYTES" in capsys.readouterr().err


def test_too_many_components_are_refused_before_the_models_are_built():
    comps = [{"name": f"v{i}", "type": "ExpansionValve"} for i in range(MAX_COMPONENTS + 1)]
    with pytest.raises(ScenarioError) as info:
        load_scenario({"fluid": "R134a", "circuits": [{"components": comps}]})
    ((issue),) = info.value.issues
    assert issue.path == "circuits"
    assert f"{MAX_COMPONENTS + 1:,} components after flattening" in issue.message
    # templates count once per instance
    doc = _example("split_units_v2")
    doc["instances"] = [
        {"name": f"u{i}", "of": "split_unit", "circuit": i} for i in range(MAX_COMPONENTS // 4 + 1)
    ]
    with pytest.raises(ScenarioError, match="components after flattening"):
        load_scenario(doc)


def test_a_solve_names_the_component_and_parameter_of_a_property_failure():
    from workbench.solver import prepare, solve
    from workbench.solver.start.initial import initial_guess

    # a prepared system whose value was changed past the checks (programmatic use)
    system = prepare(water_heat_pump())
    cond = system.components["cond"]
    cond.params["secondary_inlet_temp_k"] = cond.given["secondary_inlet_temp_k"] = 270.0
    cond.configure()
    with pytest.raises(SpecificationError) as info:
        solve(None, system=system)
    message = str(info.value)
    assert message.startswith("Condenser 'cond' (circuits[0].components[1]): ")
    assert "secondary_inlet_temp_k = 270.0" in message
    assert "outside the valid range" in message
    # a saturation temperature no state has: the start names where it came from
    system = prepare(textbook_r134a())
    system.components["cond"].params["t_cond_k"] = 40.0
    system.components["cond"].given["t_cond_k"] = 40.0
    with pytest.raises(SpecificationError) as info:
        initial_guess(system)
    message = str(info.value)
    assert "t_cond_k = 40 of Condenser 'cond' (circuits[0].components[1])" in message
    assert "p_sat failed" in message


def test_a_property_failure_during_the_solve_names_the_block_and_parameter():
    from workbench.errors import FluidPropertyError
    from workbench.solver import StopReason, prepare, solve
    from workbench.solver.start.initial import initial_guess

    system = prepare(textbook_r134a())
    evap = system.components["evap"]
    evap.params["superheat_k"] = evap.given["superheat_k"] = 400.0  # beyond T_max of R134a
    result = solve(None, system=system)
    assert not result.converged
    assert result.stop_reason is StopReason.PROPERTY_FAILURE
    # the message says which block's equations asked for the state, then CoolProp's reason
    assert "property evaluation failed at the starting point (Compressor 'comp' (circuits[0]" in (
        result.message
    )
    assert "R134a (CoolProp HEOS)" in result.message
    # a state at an iterate: the block; an outlet spec's state: the spec and its value too
    x = initial_guess(system)
    x[evap.ports["outlet"].p] = -1.0  # Pa: no state
    with pytest.raises(FluidPropertyError) as info:
        system.residuals(x)
    assert str(info.value).startswith("Compressor 'comp' (circuits[0].components[0]): ")
    with pytest.raises(FluidPropertyError) as info:
        evap.outlet_target(-1.0, 400.0)
    assert str(info.value).startswith("superheat_k = 400 K: R134a (CoolProp HEOS): T_sat failed")
