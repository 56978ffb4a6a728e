"""Input errors against the critical point: what a condenser cannot do is a GasCooler's job."""

from __future__ import annotations

import json

import pytest
from CoolProp.CoolProp import PropsSI

from workbench.cli.main import main
from workbench.errors import ScenarioError
from workbench.scenario import load_scenario

T_CRIT_CO2 = PropsSI("Tcrit", "CO2")
P_CRIT_CO2 = PropsSI("pcrit", "CO2")


def doc(
    cond=None, evap=None, *, fluid="R744", backend="CoolProp", cond_type="Condenser", state=None
):
    circuit = {
        "id": 0,
        "components": [
            {"name": "comp", "type": "Compressor", "mass_flow_kg_s": 0.1},
            {"name": "cond", "type": cond_type, **(cond or {"t_cond_k": 298.15})},
            {"name": "valve", "type": "ExpansionValve"},
            {"name": "evap", "type": "Evaporator", **(evap or {"t_evap_k": 268.15})},
        ],
        "edges": [
            {"from": "comp:outlet", "to": "cond:inlet"},
            {"from": "cond:outlet", "to": "valve:inlet"},
            {"from": "valve:outlet", "to": "evap:inlet"},
            {"from": "evap:outlet", "to": "comp:inlet"},
        ],
    }
    if state:
        circuit["initial_state"] = state
    out = {"schema_version": "1", "fluid": fluid, "circuits": [circuit]}
    if backend:
        out["fluid_backend"] = backend
    return out


def issues(document):
    with pytest.raises(ScenarioError) as err:
        load_scenario(document)
    return {i.path: i.message for i in err.value.issues}


def test_t_cond_above_the_critical_temperature_is_an_input_error_pointing_to_gas_cooler():
    found = issues(doc({"t_cond_k": T_CRIT_CO2 + 5.0}))
    message = found["circuits[0].components[1].t_cond_k"]
    assert "critical temperature of CO2" in message
    assert "GasCooler" in message
    assert f"{T_CRIT_CO2:.2f} K" in message


def test_t_cond_at_the_critical_temperature_with_the_test_backend_is_rejected_too():
    found = issues(doc({"t_cond_k": 305.0}, backend=None))
    assert "circuits[0].components[1].t_cond_k" in found


@pytest.mark.parametrize(
    "secondary",
    [{"air_inlet_temp_c": 35.0}, {"secondary_inlet_temp_k": 306.15, "secondary_fluid": "water"}],
    ids=["air-35C", "water-33C"],
)
def test_condenser_against_a_secondary_above_critical_is_an_input_error(secondary):
    cond = {"ua": 3000, "secondary_mass_flow_kg_s": 1.0, "subcooling_k": 2.0, **secondary}
    found = issues(doc(cond))
    (path,) = [p for p in found if p.startswith("circuits[0].components[1].")]
    assert path.endswith(next(iter(secondary)))
    assert "cannot condense" in found[path]
    assert "GasCooler" in found[path]


def test_condenser_given_a_supercritical_pressure_is_an_input_error():
    found = issues(doc({"t_cond_k": 298.15, "pressure_pa": 1.0e7}))
    message = found["circuits[0].components[1].pressure_pa"]
    assert "critical pressure of CO2" in message
    assert "GasCooler" in message


def test_evaporator_above_the_critical_temperature_is_an_input_error():
    found = issues(doc(evap={"t_evap_k": T_CRIT_CO2 + 1.0}))
    assert "critical temperature" in found["circuits[0].components[3].t_evap_k"]


def test_supercritical_suction_state_is_an_input_error():
    found = issues(doc(state={"pressure_bar": 80.0}))
    assert "critical pressure" in found["circuits[0].initial_state.pressure_bar"]


def test_gas_cooler_needs_coolprop_r744_correlation_and_a_warm_outlet():
    gc = {"pressure_control": "liao2000", "outlet_temp_k": 300.0, "secondary_inlet_temp_k": 303.15}
    found = issues(doc(gc, fluid="R134a", backend="CoolProp", cond_type="GasCooler"))
    assert "R744" in found["circuits[0].components[1].pressure_control"]
    assert "not above the secondary" in found["circuits[0].components[1].outlet_temp_k"]
    test_backend = {"pressure_pa": 1e7, "outlet_temp_k": 308.15}
    found = issues(doc(test_backend, backend=None, cond_type="GasCooler"))
    assert "Test backend is subcritical only" in found["circuits[0].components[1].pressure_pa"]
    assert "CoolProp" in found["circuits[0].components[1].pressure_pa"]
    # below the Test backend's range a gas cooler condenses, which the Test backend can do
    subcritical = {"pressure_pa": 5e6, "outlet_temp_k": 288.15}
    load_scenario(doc(subcritical, backend=None, cond_type="GasCooler"))


def test_valid_transcritical_and_near_critical_documents_pass():
    load_scenario(doc({"pressure_pa": 1e7, "outlet_temp_k": 308.15}, cond_type="GasCooler"))
    load_scenario(doc({"t_cond_k": T_CRIT_CO2 - 1.0}))
    load_scenario("examples/scenarios/r744_heat_pump_v2.json")


def test_cli_validate_exits_2_with_the_json_path(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc({"t_cond_k": 310.0})))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr()
    text = err.out + err.err
    assert "circuits[0].components[1].t_cond_k" in text
    assert "GasCooler" in text
