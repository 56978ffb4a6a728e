"""Bad branching circuits: every problem names its JSON path, the junction and the port."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from scenario_docs import issues_of

from workbench.components.catalog.specs import get_spec, port_role
from workbench.components.models import COMPONENT_CLASSES
from workbench.errors import SpecificationError
from workbench.scenario import load_scenario
from workbench.scenario.reference_cases import two_stage_flash_r134a
from workbench.solver import solve

EXAMPLE = Path("examples/scenarios/two_evaporators_v2.json")


def two_evaporators() -> dict:
    return json.loads(EXAMPLE.read_text())


def _components(doc: dict) -> dict:
    return {c["name"]: c for c in doc["circuits"][0]["components"]}


def _edge(doc: dict, source: str) -> dict:
    return next(e for e in doc["circuits"][0]["edges"] if e["from"] == source)


def test_the_base_documents_are_valid():
    load_scenario(two_evaporators())
    load_scenario(two_stage_flash_r134a())


def test_catalog_ports_roles_and_numbered_ports():
    mixer, splitter, flash = get_spec("Mixer"), get_spec("Splitter"), get_spec("FlashTank")
    assert mixer is not None
    assert splitter is not None
    assert flash is not None
    assert mixer.junction
    assert splitter.junction
    assert flash.junction
    assert mixer.has_port("inlet_7")
    assert not mixer.has_port("inlet_0")
    assert not mixer.has_port("inlet_01")
    assert not mixer.has_port("outlet_2")
    assert splitter.has_port("outlet_3")
    assert not splitter.has_port("inlet_2")
    assert not flash.has_port("vapour_outlet_2")
    assert port_role("vapour_outlet") == "outlet"
    assert port_role("inlet_3") == "inlet"
    assert port_role("hot_inlet") == "inlet"
    assert port_role("power") is None
    # the model classes carry the catalog's streams (the scenario checks read the catalog)
    for name, cls in COMPONENT_CLASSES.items():
        spec = get_spec(name)
        assert spec is not None, name
        assert tuple(cls.streams) == spec.streams, name


def test_unconnected_splitter_outlet_is_named_with_path_and_port():
    doc = two_evaporators()
    circuit = doc["circuits"][0]
    circuit["edges"] = [e for e in circuit["edges"] if e["from"] != "splitter:outlet_2"]
    issues = issues_of(doc)
    splitter = next(i for i in issues if "Splitter 'splitter'" in i.message)
    assert splitter.path == "circuits[0].components[2]"
    assert "port 'outlet_2' is not connected" in splitter.message
    # the orphaned branch behind it is named at its component, with the open port
    dangling = next(i for i in issues if "valve_cabinet" in i.message)
    assert dangling.path == "circuits[0].components[6]"
    assert "port 'inlet' is not connected" in dangling.message
    assert "branch into 'mixer:inlet_2' dangles" in dangling.message


def test_branch_that_ends_nowhere_is_named_with_its_junction():
    doc = two_evaporators()
    circuit = doc["circuits"][0]
    circuit["edges"] = [e for e in circuit["edges"] if e["from"] != "evap_cabinet:outlet"]
    issues = issues_of(doc)
    dangling = next(i for i in issues if "dangles" in i.message)
    assert dangling.path == "circuits[0].components[7]"
    assert "the branch from 'splitter:outlet_2' dangles" in dangling.message
    assert "Evaporator 'evap_cabinet', whose port 'outlet' is not connected" in dangling.message
    mixer = next(i for i in issues if "Mixer 'mixer'" in i.message)
    assert "port 'inlet_2' is not connected" in mixer.message


def test_numbered_ports_without_gaps():
    doc = two_evaporators()
    _edge(doc, "evap_cabinet:outlet")["to"] = "mixer:inlet_4"
    doc["circuits"][0]["components"].append({"name": "valve_x", "type": "ExpansionValve"})
    _edge(doc, "epr:outlet")["to"] = "valve_x:inlet"
    doc["circuits"][0]["edges"].append({"from": "valve_x:outlet", "to": "mixer:inlet_1"})
    doc["circuits"][0]["edges"].append({"from": "splitter:outlet_3", "to": "mixer:inlet_2"})
    messages = [i.message for i in issues_of(doc)]
    assert any("port 'inlet_3' is not connected but 'inlet_4' is" in m for m in messages)
    assert all("inlet_4" not in m or "without gaps" in m for m in messages)


def test_unknown_junction_port_lists_the_numbered_form():
    doc = two_evaporators()
    _edge(doc, "evap_cabinet:outlet")["to"] = "mixer:inlet_b"
    issue = next(i for i in issues_of(doc) if i.path == "circuits[0].edges[9].to")
    assert "Mixer 'mixer' has no port 'inlet_b'" in issue.message
    assert "inlet_3 ... (any inlet_<n>" in issue.message


def test_outlet_as_target_is_reported_for_a_numbered_port():
    doc = two_evaporators()
    _edge(doc, "splitter:outlet_1")["from"] = "mixer:inlet_1"
    issue = next(i for i in issues_of(doc) if i.path.endswith(".from"))
    assert "'mixer:inlet_1' cannot be the source of an edge" in issue.message
    assert "outlet ports of 'mixer': outlet" in issue.message


def test_flows_that_cannot_balance_name_the_branch_and_junctions():
    # a second loop (c2 -> cd2 -> sp2 -> v2 -> e2 -> c2) bleeds through sp2:outlet_2 into the
    # flash cycle's mixer, and nothing flows back: its mass would pile up in the flash cycle
    doc = two_stage_flash_r134a()
    circuit = doc["circuits"][0]
    circuit["components"] += [
        {"name": "c2", "type": "Compressor", "mass_flow_kg_s": 0.05},
        {"name": "cd2", "type": "Condenser", "t_cond_k": 310.0},
        {"name": "sp2", "type": "Splitter", "fraction_1": 0.5},
        {"name": "v2", "type": "ExpansionValve"},
        {"name": "e2", "type": "Evaporator", "t_evap_k": 260.0},
        {"name": "v3", "type": "ExpansionValve"},
    ]
    circuit["edges"] += [
        {"from": "c2:outlet", "to": "cd2:inlet"},
        {"from": "cd2:outlet", "to": "sp2:inlet"},
        {"from": "sp2:outlet_1", "to": "v2:inlet"},
        {"from": "v2:outlet", "to": "e2:inlet"},
        {"from": "e2:outlet", "to": "c2:inlet"},
        {"from": "sp2:outlet_2", "to": "v3:inlet"},
        {"from": "v3:outlet", "to": "mixer:inlet_3"},
    ]
    issues = issues_of(doc)
    (issue,) = issues
    assert "the branch from 'sp2:outlet_2' to 'mixer:inlet_3'" in issue.message
    assert "no branch leads from 'mixer' back to 'sp2'" in issue.message
    assert issue.path == "circuits[0].edges[14]"  # sp2:outlet_2 -> v3:inlet


def test_fractions_must_fit_the_outlets():
    doc = two_evaporators()
    _components(doc)["splitter"]["fractions"] = [0.5, 0.5]
    issue = next(i for i in issues_of(doc) if i.path.endswith(".fractions"))
    assert issue.path == "circuits[0].components[2].fractions"
    assert "has 2 outlets, so fractions takes 1 to 1 shares" in issue.message
    _components(doc)["splitter"]["fractions"] = [1.2]
    issue = next(i for i in issues_of(doc) if i.path.endswith(".fractions"))
    assert "must lie in (0, 1)" in issue.message


def test_fraction_1_and_fractions_are_alternatives():
    doc = two_evaporators()
    _components(doc)["splitter"].update({"fraction_1": 0.5, "fractions": [0.5]})
    assert any("at most one" in i.message or "fraction" in i.message for i in issues_of(doc))


# -- degrees of freedom ------------------------------------------------------------------------
def _spec_error(doc: dict) -> str:
    with pytest.raises(SpecificationError) as info:
        solve(doc)
    return str(info.value)


def test_missing_branch_flow_names_the_branch_and_the_specs_to_add():
    doc = two_evaporators()
    for c in _components(doc).values():
        c.pop("superheat_k", None)
    # both evaporators without superheat: the regulated one keeps its t_evap_k
    msg = _spec_error(copy.deepcopy(doc))
    assert "circuit 0 is under-specified" in msg
    assert "Evaporator 'evap_cabinet' on branch 'circuit 0 branch from splitter:outlet_2'" in msg
    assert "(splitter:outlet_2 -> valve_cabinet -> evap_cabinet -> mixer:inlet_2)" in msg
    assert "add superheat_k" in msg


def test_regulator_without_its_pressure_is_named():
    doc = two_evaporators()
    del _components(doc)["evap_cellar"]["t_evap_k"]
    msg = _spec_error(doc)
    assert "ExpansionValve 'epr' after Evaporator 'evap_cellar'" in msg
    assert "give 'evap_cellar' the t_evap_k it holds" in msg


def test_two_flow_setters_on_one_branch_are_named():
    doc = two_evaporators()
    _components(doc)["valve_cabinet"]["flow_coefficient_m2"] = 2.0e-7
    msg = _spec_error(doc)
    assert "over-specified" in msg
    assert "branch 'circuit 0 branch from splitter:outlet_2'" in msg
    assert "ExpansionValve 'valve_cabinet' (flow_coefficient_m2)" in msg
    assert "Evaporator 'evap_cabinet' (superheat_k)" in msg


def test_split_set_twice_is_named_at_the_splitter():
    doc = two_evaporators()
    _components(doc)["splitter"]["fraction_1"] = 0.5
    msg = _spec_error(doc)
    assert "Splitter 'splitter': its shares and the flow setters of every outlet branch" in msg


def test_flash_tank_pressure_free_or_fixed_twice():
    free = two_stage_flash_r134a(flash_pressure_pa=None)
    msg = _spec_error(free)
    assert "FlashTank 'flash': nothing sets its pressure; add pressure_pa" in msg
    both = two_stage_flash_r134a()
    _components(both)["comp_lo"]["mass_flow_kg_s"] = 0.2
    msg = _spec_error(both)
    assert "over-specified" in msg
    assert "FlashTank 'flash': pressure_pa and the flow models of 'comp_hi' and 'comp_lo'" in msg


def test_flash_cycle_without_any_flow_names_the_branches():
    doc = two_stage_flash_r134a()
    del _components(doc)["comp_hi"]["mass_flow_kg_s"]
    msg = _spec_error(doc)
    assert "are not all set (1 missing)" in msg
    assert "a flow model on Compressor 'comp_hi'" in msg
    assert "a flow model on Compressor 'comp_lo'" in msg


def test_superheated_flash_inlet_is_physically_impossible():
    doc = two_stage_flash_r134a()
    # the flash tank above the condenser pressure: the throttled liquid would be subcooled
    _components(doc)["flash"]["pressure_pa"] = 0.9e6
    result = solve(doc)
    assert not result.converged
    assert any("FlashTank 'flash'" in p and "two-phase inlet" in p for p in result.problems)
