"""What a run or sweep note says, without a database: title, figures, defaults, topology, changes.

Every figure a note states is checked against the result it came from (rounded the way the
note rounds it), and every "differs from the default" against the catalog and the template.
"""

from __future__ import annotations

import copy
import json
import re

import pandas as pd
import pytest

import workbench
from workbench.components.catalog.specs import get_spec
from workbench.errors import NoteStoreError, ScenarioError
from workbench.notes.runs import (
    document_changes,
    document_text,
    run_note,
    run_summary,
    scenario_document,
    sweep_note,
    sweep_summary,
)
from workbench.notes.runs.words import (
    celsius,
    circuit_chains,
    conditions,
    exact,
    fluid_words,
    kilowatts,
    number,
    purpose,
    type_words,
)
from workbench.scenario import as_flat, expand, parse_scenario

EXAMPLES = "examples/scenarios"


def _doc(name: str) -> dict:
    with open(f"{EXAMPLES}/{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def _split(**changes) -> dict:
    doc = _doc("split_units_v2")
    for key, value in changes.items():
        doc[key] = value
    return doc


# -- numbers and words ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2.9134, "2.91"),
        (3.40, "3.4"),
        (1234.6, "1235"),
        (12.345, "12.3"),
        (0.6339, "0.634"),
        (0.0, "0"),
        (-7.0, "-7"),
        (2.4e-9, "2.4e-09"),
        (None, "–"),
    ],
)
def test_number_writes_three_significant_digits(value, text):
    assert number(value) == text


def test_celsius_kilowatts_and_exact_values():
    assert celsius(266.15) == "-7 °C"
    assert celsius(265.95) == "-7.2 °C"
    assert celsius(273.14) == "0 °C"  # never "-0"
    assert kilowatts(3401.2) == "3.4 kW"
    assert exact(303.15) == "303.15"
    assert exact(3e-05) == "3e-05"
    assert exact(1.0) == "1"
    assert exact(50) == "50"


def test_fluid_words_and_type_words():
    assert fluid_words("R290") == ["R290", "propane"]
    assert fluid_words("R744") == ["R744", "carbondioxide", "CO2"]
    assert fluid_words("CO2") == ["CO2", "R744", "carbondioxide"]
    assert fluid_words("R134a") == ["R134a"]
    assert type_words("ExpansionValve") == "expansion valve"
    assert type_words("HeatExchanger") == "heat exchanger"


def test_purpose_from_metadata_then_name():
    assert purpose({"name": "Air-to-water heat pump"}) == "heating"
    assert purpose({"name": "Split air conditioner"}) == "cooling"
    assert purpose({"name": "Heat pump", "metadata": {"purpose": "cooling"}}) == "cooling"
    assert purpose({"name": "Cold store", "metadata": {"purpose": "heating"}}) == "heating"


# -- documents ----------------------------------------------------------------------------------
def test_scenario_document_from_every_form_and_refusals(tmp_path):
    doc = _doc("split_units_v2")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert scenario_document(doc) == doc
    assert scenario_document(doc) is not doc
    assert scenario_document(str(path)) == doc
    assert scenario_document(path) == doc
    assert scenario_document(json.dumps(doc)) == doc
    assert scenario_document(workbench.load_scenario(doc)) == doc  # the fields it set
    flat = scenario_document(as_flat(doc))
    assert "instances" not in flat
    assert len(flat["circuits"]) == 2
    bad = copy.deepcopy(doc)
    bad["instances"][0]["of"] = "nope"
    with pytest.raises(ScenarioError, match="nope"):
        scenario_document(bad)
    with pytest.raises(ScenarioError, match="expected a scenario document"):
        scenario_document(42)
    text = document_text(doc)
    assert json.loads(text) == doc
    assert list(json.loads(text)) == list(doc)


def test_document_changes_name_components_instances_and_templates():
    base = _doc("split_units_v2")
    doc = copy.deepcopy(base)
    doc["instances"][1]["params"]["speed_hz"] = 35
    doc["instances"][0]["params"] = {"fan_speed": 0.5}
    doc["subsystems"]["split_unit"]["components"][3]["superheat_k"] = 6
    doc["subsystems"]["split_unit"]["params"]["indoor_temp_c"] = 25.0
    doc["solver"] = {"strategy": "newton"}
    doc["subsystems"]["split_unit"]["params"]["speed_hz"] = 50.0  # 50 -> 50.0: no change
    assert document_changes(base, doc) == [
        ("subsystems.split_unit.params.indoor_temp_c", 27, 25.0),
        ("split_unit.evaporator.superheat_k", 5, 6),
        ("unit_a.fan_speed", None, 0.5),
        ("unit_b.speed_hz", 40, 35),
        ("solver.strategy", None, "newton"),
    ]
    hp = _doc("heat_pump_v1")
    edited = copy.deepcopy(hp)
    edited["circuits"][0]["components"][3]["air_inlet_temp_c"] = -7.0
    del edited["circuits"][0]["components"][0]["speed_hz"]
    assert document_changes(hp, edited) == [
        ("compressor.speed_hz", 50, None),
        ("evaporator.air_inlet_temp_c", 7, -7.0),
    ]
    assert document_changes(hp, hp) == []


# -- topology ---------------------------------------------------------------------------------
def test_circuit_chains_follow_the_flow_from_the_compressor():
    flat = as_flat(_doc("cascade_v2"))
    assert circuit_chains(flat, 0) == [
        (["lt_compressor", "lt_condenser", "lt_valve", "lt_evaporator"], "closed")
    ]
    split = as_flat(_doc("split_units_v2"))
    assert circuit_chains(split, 1) == [
        (
            ["unit_b.compressor", "unit_b.condenser", "unit_b.valve", "unit_b.evaporator"],
            "closed",
        )
    ]
    # an open circuit is reported as a chain that does not close
    doc = _doc("heat_pump_v1")
    doc["circuits"][0]["edges"].pop()  # evaporator -> compressor
    flat = expand(parse_scenario(doc)).flat  # built, not checked: an open circuit is refused
    assert circuit_chains(flat, 0) == [(["compressor", "condenser", "valve", "evaporator"], "open")]


def test_circuit_chains_of_branches_meet_at_junctions():
    flat = as_flat(_doc("two_evaporators_v2"))
    assert circuit_chains(flat, 0) == [
        (["compressor", "condenser", "splitter"], "junction"),
        (["splitter", "valve_cellar", "evap_cellar", "epr", "mixer"], "junction"),
        (["splitter", "valve_cabinet", "evap_cabinet", "mixer"], "junction"),
        (["mixer", "compressor"], "joins"),
    ]
    # every edge of the circuit is walked exactly once
    walked = sum(len(names) - 1 for names, _end in circuit_chains(flat, 0))
    assert walked == len(flat.circuit_edges(0))
    flash = as_flat(_doc("two_stage_flash_v2"))
    chains = circuit_chains(flash, 0)
    assert sum(len(n) - 1 for n, _e in chains) == len(flash.circuit_edges(0))
    assert (["flash", "valve_lo", "evaporator", "comp_lo"], "joins") in chains


def test_conditions_name_each_exchangers_secondary_inlet_or_fixed_state():
    assert conditions(as_flat(_doc("heat_pump_v1"))) == [
        "condenser water in at 30 °C",
        "evaporator air in at 7 °C",
    ]
    assert conditions(as_flat(_doc("r744_heat_pump_v2"))) == [
        "gas_cooler water in at 15 °C",
        "evaporator air in at 7 °C",
    ]
    assert conditions(as_flat(_doc("r744_transcritical_fixed_v1"))) == [
        "gas_cooler at 100 bar, outlet at 35 °C (fixed)",
        "evaporator evaporating at -5 °C (fixed)",
    ]


# -- run notes --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def split_run():
    doc = _doc("split_units_v2")
    return doc, workbench.solve(doc)


def test_run_summary_keeps_the_result_exactly(split_run):
    doc, result = split_run
    summary = run_summary(result, doc)
    assert summary["summary"] == result.summary
    assert summary["converged"] is True
    assert summary["stop_reason"] == "converged"
    assert summary["iterations"] == result.iterations
    assert summary["fluid"] == "R134a"
    assert summary["fluid_backend"] == "Test"
    assert summary["strategy"] == " -> ".join(result.strategy_log)
    assert "edges" not in summary
    assert "residual_history" not in summary
    evaps = [
        o["saturationTemperature"] for o in result.components.values() if o["type"] == "Evaporator"
    ]
    conds = [
        o["saturationTemperature"] for o in result.components.values() if o["type"] == "Condenser"
    ]
    assert summary["evaporating_c"] == pytest.approx(min(evaps) - 273.15, abs=1e-12)
    assert summary["condensing_c"] == pytest.approx(max(conds) - 273.15, abs=1e-12)
    assert json.loads(json.dumps(summary)) == summary  # JSON-ready


def test_run_title_names_the_scenario_fluid_and_headline_figures(split_run):
    doc, result = split_run
    text = run_note(doc, run_summary(result, doc))
    s = result.summary
    t_evap = min(
        o["saturationTemperature"] for o in result.components.values() if o["type"] == "Evaporator"
    )
    assert text.title == (
        f"Two split air conditioners from one template (R134a), {celsius(t_evap)} evaporating: "
        f"COP {s['cop_cooling']:.2f}, {s['cooling_capacity_w'] / 1e3:.1f} kW cooling"
    )
    # the content states them to three significant digits: both forms are searchable words
    assert f"COP {number(s['cop_cooling'])} cooling" in text.content
    # a heat pump leads with heating, and states the condensing temperature
    hp = _doc("heat_pump_v1")
    hp["fluid_backend"] = "Test"
    r = workbench.solve(hp)
    title = run_note(hp, run_summary(r, hp)).title
    assert title.startswith("Air-to-water heat pump, R134a, ")  # the name says the fluid
    assert (
        f"COP {r.summary['cop_heating']:.2f}, {r.summary['heating_capacity_w'] / 1e3:.1f} kW heating"
        in title
    )
    assert "condensing" in title


def test_run_content_states_fluid_topology_defaults_figures_and_convergence(split_run):
    doc, result = split_run
    content = run_note(doc, run_summary(result, doc)).content
    s = result.summary
    assert content.startswith(
        "Solved run of Two split air conditioners from one template, fluid R134a with Test "
        "properties: 2 circuits of compressor, condenser, expansion valve, evaporator. "
        "Conditions: unit_a.condenser air in at 35 °C, unit_a.evaporator air in at 27 °C, "
        "unit_b.condenser air in at 30 °C, unit_b.evaporator air in at 27 °C. Result: "
        f"{kilowatts(s['cooling_capacity_w'])} cooling and {kilowatts(s['heating_capacity_w'])} "
        f"heating for {kilowatts(s['compressor_power_w'])} compressor power, COP "
        f"{number(s['cop_cooling'])} cooling and {number(s['cop_heating'])} heating;"
    )
    # figures with units, as the title rounds them
    for label, key in (
        ("cooling capacity", "cooling_capacity_w"),
        ("compressor power", "compressor_power_w"),
    ):
        assert f"{label} {kilowatts(s[key])}" in content
    assert f"COP cooling {number(s['cop_cooling'])}" in content
    # topology in words
    assert "2 circuits" in content
    assert (
        "Circuit 1: unit_b.compressor (Compressor) -> unit_b.condenser (Condenser) -> "
        "unit_b.valve (ExpansionValve) -> unit_b.evaporator (Evaporator) -> back to "
        "unit_b.compressor." in content
    )
    assert (
        "Template split_unit (compressor, condenser, valve, evaporator) is instantiated as unit_a (circuit 0), unit_b (circuit 1)."
        in content
    )
    # catalog defaults: unit_b runs at 40 Hz against the catalog's 50; design values listed
    default_speed = get_spec("Compressor").param("speed_hz").default
    assert f"speed_hz 40 Hz (catalog default {exact(default_speed)} Hz)" in content
    assert "unit_b.evaporator (Evaporator): ua 450 W/K, air_inlet_temp_c 27 °C" in content
    assert "fan_speed 0.7 (catalog default 1)" in content
    # unit_a's compressor is at the catalog default speed: not listed as a change
    line = next(x for x in content.splitlines() if x.startswith("- unit_a.compressor"))
    assert "speed_hz" not in line
    assert "volumetric_efficiency" not in line
    # template defaults
    assert (
        "- unit_b (split_unit): speed_hz 40 Hz (template default 50 Hz), fan_speed 0.7 "
        "(template default 1), outdoor_temp_c 30 °C (template default 35 °C)." in content
    )
    assert (
        "Solver: strategy fallback, tolerance 1e-06, at most 100 iterations; solver defaults."
        in content
    )
    assert "Warnings: none." in content
    assert f"Convergence: converged after {result.iterations} iterations" in content
    assert f"largest scaled residual {result.residual_norm:.2g}" in content


def test_run_content_lists_changes_from_the_base_and_solver_overrides():
    base = _doc("heat_pump_v1")
    base["fluid_backend"] = "Test"
    doc = copy.deepcopy(base)
    doc["circuits"][0]["components"][3]["air_inlet_temp_c"] = -7.0
    doc["solver"]["max_iterations"] = 150
    r = workbench.solve(doc)
    content = run_note(doc, run_summary(r, doc), base=base, base_label="heat_pump_v1.json").content
    assert (
        "Changed from heat_pump_v1.json: evaporator.air_inlet_temp_c 7 -> -7; "
        "solver.max_iterations 100 -> 150." in content
    )
    assert "max_iterations 150 (default 100)" in content
    assert "air_inlet_temp_c -7 °C" in content


def test_run_note_of_a_solve_that_did_not_converge():
    doc = _doc("heat_pump_v1")
    doc["fluid_backend"] = "Test"
    doc["solver"] = {"strategy": "newton", "max_iterations": 2}
    r = workbench.solve(doc)
    assert not r.converged
    text = run_note(doc, run_summary(r, doc))
    assert text.title.endswith(f"NOT converged ({r.stop_reason})")
    assert "NOT converged (figures at the last iterate)" in text.content
    assert f"Hint: {r.hint}." in text.content
    assert f"stop reason {r.stop_reason}" in text.content
    assert r.worst_residuals[0][0] in text.content


def test_run_note_of_a_control_loop_and_a_coupling():
    ctrl = _doc("superheat_control_v2")
    ctrl["fluid_backend"] = "Test"
    r = workbench.solve(ctrl)
    content = run_note(ctrl, run_summary(r, ctrl)).content
    loop = ctrl["controls"][0]
    assert (
        f"Control loop {loop['id']} holds {loop['measure']['component']} superheat at "
        f"{exact(loop['target'])} K by moving {loop['actuator']['component']} z_flow" in content
    )
    assert f"control loop {loop['id']}: measured {number(r.controls[0]['measured'])}" in content
    cascade = _doc("cascade_v2")
    cascade["fluid_backend"] = "Test"
    r = workbench.solve(cascade)
    content = run_note(cascade, run_summary(r, cascade)).content
    c = r.couplings[0]
    assert "Thermal coupling from circuit 0 (hot) to circuit 1 (cold): UA 1200 W/K" in content
    assert f"{kilowatts(c['heat_from_hot_w'])} from the hot side" in content


# -- sweep notes ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sweep_frame():
    doc = _doc("split_units_v2")
    grid = {
        "unit_a.evaporator.fan_speed": [0.4, 0.7, 1.0],
        "unit_b.compressor.speed_hz": [30, 50, -5],
    }
    frame = workbench.sweep(doc, grid, processes=1, progress=False)
    return doc, grid, frame


def test_sweep_summary_ranges_best_worst_and_failures(sweep_frame):
    doc, grid, frame = sweep_frame
    summary = sweep_summary(frame, doc, grid=grid, mode="grid")
    ok = frame[frame["converged"]]
    assert summary["cases"] == 9
    assert summary["converged"] == len(ok) == 6
    assert summary["failed"] == 3
    assert len(summary["failures"]) == 3
    assert all(f["values"]["unit_b.compressor.speed_hz"] == -5 for f in summary["failures"])
    assert all(f["error"] for f in summary["failures"])
    assert summary["metric"] == "cop_cooling"
    best = ok.loc[ok["cop_cooling"].idxmax()]
    worst = ok.loc[ok["cop_cooling"].idxmin()]
    assert summary["best"]["cop_cooling"] == best["cop_cooling"]
    assert summary["best"]["unit_a.evaporator.fan_speed"] == best["unit_a.evaporator.fan_speed"]
    assert summary["worst"]["cop_cooling"] == worst["cop_cooling"]
    assert summary["ranges"]["cooling_capacity_w"] == [
        ok["cooling_capacity_w"].min(),
        ok["cooling_capacity_w"].max(),
    ]
    assert summary["varied"][1] == {
        "path": "unit_b.compressor.speed_hz",
        "unit": "1/s",
        "values": [30, 50, -5],
        "min": -5,
        "max": 50,
    }
    assert json.loads(json.dumps(summary)) == summary
    # without the grid: the swept columns of the frame, its mode inferred
    inferred = sweep_summary(frame, doc)
    assert [v["path"] for v in inferred["varied"]] == list(grid)
    assert inferred["mode"] == "grid"


def test_sweep_note_summarises_the_table_in_words(sweep_frame):
    doc, grid, frame = sweep_frame
    summary = sweep_summary(frame, doc, grid=grid, mode="grid")
    text = sweep_note(doc, summary)
    ok = frame[frame["converged"]]
    low, high = ok["cop_cooling"].min(), ok["cop_cooling"].max()
    assert text.title == (
        "Sweep of Two split air conditioners from one template (R134a): "
        "unit_a.evaporator.fan_speed 0.4 to 1 (3 values); unit_b.compressor.speed_hz -5 to 50 "
        f"(3 values): COP cooling {number(low)} to {number(high)}, 6 of 9 converged"
    )
    assert "9 cases (grid), 6 converged, 3 failed." in text.content
    assert "unit_b.compressor.speed_hz from -5 to 50 Hz (3 values: 30, 50, -5)" in text.content
    best = ok.loc[ok["cop_cooling"].idxmax()]
    assert (
        f"Best: COP cooling {number(high)} at unit_a.evaporator.fan_speed = "
        f"{number(best['unit_a.evaporator.fan_speed'])}, unit_b.compressor.speed_hz = "
        f"{number(best['unit_b.compressor.speed_hz'])}" in text.content
    )
    assert re.search(r"Failures: 3 cases did not converge: .*speed_hz = -5", text.content)


def test_sweep_summary_refuses_a_frame_that_is_not_a_sweep():
    with pytest.raises(NoteStoreError, match="not a sweep table"):
        sweep_summary(pd.DataFrame({"a": [1]}), _doc("split_units_v2"))
