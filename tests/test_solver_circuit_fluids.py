"""One fluid per circuit: cascades of two fluids joined by a thermal coupling."""

from __future__ import annotations

import copy
import json

import pytest
from CoolProp.CoolProp import PropsSI

from workbench.errors import ScenarioError
from workbench.scenario import load_scenario
from workbench.solver import solve

FLUIDS = {"r744_r290_cascade_v2": ("CO2", "R290"), "r744_r717_cascade_v2": ("CO2", "Ammonia")}


def _doc(name):
    with open(f"examples/scenarios/{name}.json", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.parametrize("name", sorted(FLUIDS))
def test_cascade_each_circuit_states_in_its_own_fluid(name):
    result = solve(load_scenario(_doc(name)))
    assert result.converged, result.report()
    for state in result.edge_states:
        fluid = FLUIDS[name][state.circuit]
        t_ref = PropsSI("T", "P", state.p_pa, "H", state.h_j_kg, fluid)
        assert state.t_k == pytest.approx(t_ref, abs=1e-6), (state.label, fluid)
    comps = result.components
    # the coupling: the high stage's evaporator takes what the low stage's condenser gives,
    # times the coupling's efficiency
    assert comps["ht_evaporator"]["capacity"] == pytest.approx(
        0.95 * comps["lt_condenser"]["capacity"], rel=1e-6
    )
    s = result.summary
    assert abs(s["energy_balance_w"]) < 1e-6 * s["heating_capacity_w"]
    # the low stage evaporates CO2 at its own pressure level (above 10 bar at -30 C)
    low = [st for st in result.edge_states if st.circuit == 0]
    assert min(st.p_pa for st in low) > 10e5


def test_circuit_fluid_needs_schema_version_2():
    doc = _doc("r744_r290_cascade_v2")
    doc["schema_version"] = "1"
    doc.pop("thermal_couplings")
    with pytest.raises(ScenarioError) as info:
        load_scenario(doc)
    assert "circuits[0].fluid" in str(info.value)
    assert "schema version 2" in str(info.value)


def test_circuit_fluid_unknown_names_the_json_path():
    doc = copy.deepcopy(_doc("r744_r290_cascade_v2"))
    doc["circuits"][1]["fluid"] = "R32/R1234yf 50/40"
    with pytest.raises(ScenarioError) as info:
        load_scenario(doc)
    assert "circuits[1].fluid" in str(info.value)
    assert "sum to 90" in str(info.value)


def test_circuit_fluid_round_trips_through_the_flat_document():
    from workbench.scenario import as_flat

    flat = as_flat(load_scenario(_doc("r744_r290_cascade_v2")))
    assert flat.fluid_of(0) == ("R744", "CoolProp")
    assert flat.fluid_of(1) == ("R290", "CoolProp")
    again = as_flat(load_scenario(flat.to_dict()))
    assert again.circuit_fluids == flat.circuit_fluids


def test_circuit_fluid_ranges_are_checked_in_that_circuits_fluid():
    doc = copy.deepcopy(_doc("r744_r290_cascade_v2"))
    evap = doc["circuits"][0]["components"][3]
    evap["t_evap_k"] = 210.0  # below CO2's triple point (216.6 K), fine for R290
    with pytest.raises(ScenarioError) as info:
        load_scenario(doc)
    text = str(info.value)
    assert "circuits[0].components[3].t_evap_k" in text
    assert "CO2" in text
