"""Sweep paths and cases (workbench.sweep.paths, workbench.sweep.cases)."""

from __future__ import annotations

import itertools

import pytest
from control_cases import superheat_loop
from hypothesis import given
from hypothesis import strategies as st
from solver_cases import loop_edges, textbook_r134a

from workbench.errors import ScenarioError
from workbench.scenario import flatten, load_scenario
from workbench.sweep import build_cases, resolve_path, snake_order, split_chunks
from workbench.sweep.paths import case_document


def _dotted() -> dict:
    """A cycle whose component names prefix each other: 'c' and 'c.cond'."""
    doc = textbook_r134a(backend="Test")
    comps = doc["circuits"][0]["components"]
    comps[0]["name"], comps[1]["name"] = "c", "c.cond"
    doc["circuits"][0]["edges"] = loop_edges("c", "c.cond", "valve", "evap")
    return doc


def test_the_longest_component_name_wins():
    flat = flatten(load_scenario(_dotted()))
    spec = resolve_path(flat, "c.cond.subcooling_k")
    assert (spec.kind, spec.owner, spec.key) == ("component", "c.cond", "subcooling_k")
    spec = resolve_path(flat, "c.isentropic_efficiency")
    assert (spec.owner, spec.key) == ("c", "isentropic_efficiency")


def test_template_instance_components_and_legacy_factor_names():
    flat = flatten(load_scenario("examples/scenarios/split_units_v2.json"))
    spec = resolve_path(flat, "unit_b.evaporator.fan_speed")
    assert (spec.owner, spec.key) == ("unit_b.evaporator", "fan_speed")
    assert resolve_path(flat, "unit_a.valve.f_flow").key == "z_flow"


def test_instance_paths_as_the_builder_labels_them():
    flat = flatten(load_scenario("examples/scenarios/split_units_v2.json"))
    spec = resolve_path(flat, "unit_a.speed_hz")
    assert (spec.path, spec.owner, spec.key) == ("unit_a.speed_hz", "unit_a.compressor", "speed_hz")
    assert resolve_path(flat, "unit_b.fan_speed").owner == "unit_b.evaporator"
    doc = case_document(flat.to_dict(), [spec], (35.0,))
    comp = next(c for c in doc["circuits"][0]["components"] if c["name"] == "unit_a.compressor")
    assert comp["speed_hz"] == 35.0
    with pytest.raises(ScenarioError, match=r"unit_a.condenser.ua, unit_a.evaporator.ua"):
        resolve_path(flat, "unit_a.ua")  # two components of unit_a take 'ua'
    with pytest.raises(ScenarioError, match=r"components: unit_a\.compressor"):
        resolve_path(flat, "unit_a.outdoor_temp")


def test_control_and_solver_paths():
    flat = flatten(load_scenario(superheat_loop()))
    spec = resolve_path(flat, "controls.superheat.target")
    assert (spec.kind, spec.owner, spec.key) == ("control", "superheat", "target")
    spec = resolve_path(flat, "solver.max_iterations")
    assert (spec.kind, spec.key, spec.integer) == ("solver", "max_iterations", True)
    doc = case_document(flat.to_dict(), [spec], (7.0,))
    assert doc["solver"]["max_iterations"] == 7
    assert isinstance(doc["solver"]["max_iterations"], int)
    assert load_scenario(doc).solver.max_iterations == 7


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("evap.fanspeed", "Evaporator 'evap' has no parameter 'fanspeed'; parameters: t_evap_k"),
        ("evaporator.superheat_k", "components: comp, cond, valve, evap"),
        ("controls.sh.target", "no control loop matches; loops: superheat"),
        ("controls.superheat.measure", "controls.<id>.<field> takes one of target, gain"),
        ("solver.strategy", "solver field must be one of max_iterations, tolerance"),
        ("cond.secondary_fluid", "is a string, not a number"),
    ],
)
def test_bad_paths_name_the_path_and_what_exists(path, message):
    flat = flatten(load_scenario(superheat_loop()))
    with pytest.raises(ScenarioError) as info:
        resolve_path(flat, path)
    assert f"sweep[{path!r}]" in str(info.value)
    assert message in str(info.value)


def test_grid_cases_keep_natural_indices_and_snake():
    cases, n = build_cases({"a": [1, 2], "b": [10, 20, 30]})
    assert n == 6
    assert [c[0] for c in cases] == [0, 1, 2, 5, 4, 3]
    assert dict(cases)[4] == (2, 20)
    cases, n = build_cases({"a": [1, 2, 3], "b": [4, 5, 6]}, mode="list")
    assert cases == [(0, (1, 4)), (1, (2, 5)), (2, (3, 6))]
    with pytest.raises(ValueError, match="equal length"):
        build_cases({"a": [1, 2], "b": [1]}, mode="list")
    with pytest.raises(ValueError, match="no values"):
        build_cases({"a": []})
    with pytest.raises(ValueError, match="'grid' or 'list'"):
        build_cases({"a": [1]}, mode="zip")


@given(st.lists(st.integers(1, 4), min_size=1, max_size=4))
def test_snake_order_visits_every_cell_once_in_unit_steps(shape):
    order = snake_order(shape)
    assert sorted(order) == sorted(set(order))
    assert len(order) == int(__import__("math").prod(shape))
    for a, b in itertools.pairwise(order):
        assert sum(abs(x - y) for x, y in zip(a, b)) == 1


def test_split_chunks_are_contiguous_and_complete():
    items = list(range(10))
    parts = split_chunks(items, 3)
    assert [x for part in parts for x in part] == items
    assert sorted(len(p) for p in parts) == [3, 3, 4]
    assert split_chunks(items[:2], 5) == [[0], [1]]
