"""Typing into the builder key by key, without a browser.

A text box in the browser sends its whole text after every key (``continuous_update``); these
tests replay exactly that (``text.value = "4"``, then ``"45"``) for every kind of field of the
form, and check what a person relies on: the row and its widget stay where they were (nothing
is rebuilt, so the browser keeps the focus), every key arrives, and the document holds exactly
what was typed, with its keys in the file's order. ``tests/test_browser_notebooks.py`` types the
same way in JupyterLab.
"""

from __future__ import annotations

import json

import pytest

from workbench.notebook_ui import ScenarioBuilder
from workbench.notebook_ui.editing import EMPTY_NAME, EMPTY_REMOVABLE, FormEdits

COMP = ("circuits", 0, "components", 0)
COND = ("circuits", 0, "components", 1)
EVAP = ("circuits", 0, "components", 3)


def _doc(name: str) -> dict:
    with open(f"examples/scenarios/{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def _layout(builder: ScenarioBuilder) -> list[tuple[tuple, int]]:
    """Every row's path with the id of its widget, in the order the form shows them."""
    return [(path, id(row.widget)) for s in builder._sections for path, row in s.rows.items()]


def _row(builder: ScenarioBuilder, path: tuple):
    return next(s.rows[path] for s in builder._sections if path in s.rows)


def _retype(builder: ScenarioBuilder, path: tuple, text: str) -> list[str]:
    """Backspace until empty, then type ``text`` one key at a time; the texts the box sent."""
    row = _row(builder, path)
    layout = _layout(builder)
    children = [s.box.children for s in builder._sections]
    sent = []
    old = row.text.value
    for n in range(len(old) - 1, -1, -1):
        row.text.value = old[:n]
        sent.append(row.text.value)
        assert _layout(builder) == layout, f"rows moved after {row.text.value!r}"
    for n in range(1, len(text) + 1):
        row.text.value = text[:n]
        sent.append(row.text.value)
        assert _layout(builder) == layout, f"rows moved after {row.text.value!r}"
    assert [s.box.children for s in builder._sections] == children  # no view re-created
    assert row.text.value == text
    return sent


@pytest.mark.parametrize(
    ("path", "text", "value"),
    [
        ((*COMP, "speed_hz"), "45", 45),
        ((*COMP, "displacement_m3"), "3e-05", 3e-05),
        ((*COMP, "volumetric_efficiency"), "0.85", 0.85),
        ((*COMP, "isentropic_efficiency"), "0.72", 0.72),
        ((*COND, "ua"), "1800", 1800),
        ((*COND, "secondary_fluid"), "water", "water"),
        ((*COND, "secondary_inlet_temp_k"), "301.15", 301.15),
        ((*EVAP, "air_inlet_temp_c"), "-2.5", -2.5),
        ((*EVAP, "superheat_k"), "6", 6),
    ],
)
def test_typing_component_fields_keeps_rows_keys_and_every_key(path, text, value):
    builder = ScenarioBuilder.from_file("examples/scenarios/heat_pump_v1.json")
    original = json.dumps(builder.document)
    keys = list(builder.document["circuits"][0]["components"][path[3]])
    _retype(builder, path, "")
    assert builder.issues == [f"circuits[0].components[{path[3]}].{path[-1]}: {EMPTY_REMOVABLE}"]
    assert _row(builder, path).text.placeholder.startswith("type a value")
    _retype(builder, path, text)
    comp = builder.document["circuits"][0]["components"][path[3]]
    assert comp[path[-1]] == value
    assert type(comp[path[-1]]) is type(value)
    assert list(comp) == keys  # the file's key order
    assert builder.issues == []
    assert "valid scenario" in builder._status.value
    if json.loads(original)["circuits"][0]["components"][path[3]][path[-1]] == value:
        assert json.dumps(builder.document) == original


def test_typing_two_emptied_neighbours_back_keeps_the_file_order():
    builder = ScenarioBuilder.from_file("examples/scenarios/heat_pump_v1.json")
    keys = list(builder.document["circuits"][0]["components"][0])
    for key in ("speed_hz", "volumetric_efficiency", "displacement_m3"):
        _retype(builder, (*COMP, key), "")
    assert len(builder.issues) == 3  # one issue per emptied field, no follow-up errors
    for key, text in (
        ("displacement_m3", "4e-05"),
        ("speed_hz", "40"),
        ("volumetric_efficiency", "0.8"),
    ):
        _retype(builder, (*COMP, key), text)
    comp = builder.document["circuits"][0]["components"][0]
    assert list(comp) == keys
    assert (comp["displacement_m3"], comp["speed_hz"], comp["volumetric_efficiency"]) == (
        4e-05,
        40,
        0.8,
    )


def test_typing_template_parameter_instance_value_and_control_fields():
    builder = ScenarioBuilder(_doc("split_units_v2"))
    template = ("subsystems", "split_unit", "params")
    keys = list(builder.document["subsystems"]["split_unit"]["params"])
    _retype(builder, (*template, "outdoor_temp_c"), "")
    # unit_a relies on the default: an issue of its own, not "did you mean 'indoor_temp_c'?"
    assert builder.issues == [
        "subsystems.split_unit.params.outdoor_temp_c: empty: type a value (the default of "
        "$outdoor_temp_c for unit_a)"
    ]
    _retype(builder, (*template, "outdoor_temp_c"), "32")
    assert builder.document["subsystems"]["split_unit"]["params"]["outdoor_temp_c"] == 32
    assert list(builder.document["subsystems"]["split_unit"]["params"]) == keys
    assert builder.issues == []
    # an instance value: empty means the template default (no issue), typed back it is stored
    inst = ("instances", 1, "params", "speed_hz")
    _retype(builder, inst, "")
    assert "speed_hz" not in builder.document["instances"][1]["params"]
    assert builder.issues == []
    _retype(builder, inst, "42")
    assert list(builder.document["instances"][1]["params"]) == [
        "speed_hz",
        "fan_speed",
        "outdoor_temp_c",
    ]
    assert builder.document["instances"][1]["params"]["speed_hz"] == 42
    loop = ScenarioBuilder(_doc("superheat_control_v2"))
    keys = list(loop.document["controls"][0])
    _retype(loop, ("controls", 0, "target"), "")
    assert loop.issues == ["controls[0].target: empty: type a value"]
    _retype(loop, ("controls", 0, "target"), "6.5")
    _retype(loop, ("controls", 0, "gain"), "-0.8")
    assert (loop.document["controls"][0]["target"], loop.document["controls"][0]["gain"]) == (
        6.5,
        -0.8,
    )
    assert list(loop.document["controls"][0]) == keys
    assert loop.issues == []


def test_select_all_and_paste_replace_the_value_in_one_edit(tmp_path):
    builder = ScenarioBuilder.from_file("examples/scenarios/heat_pump_v1.json")
    layout = _layout(builder)
    row = _row(builder, (*EVAP, "air_inlet_temp_c"))
    row.text.value = "1"  # select-all, then a key: the selection is replaced by it
    row.text.value = "12"
    row.text.value = "12.5 "  # a pasted value with a trailing space
    assert _layout(builder) == layout
    assert builder.document["circuits"][0]["components"][3]["air_inlet_temp_c"] == 12.5
    saved = json.loads(builder.save(tmp_path / "s.json").read_text())
    assert saved == builder.document
    assert list(saved["circuits"][0]["components"][3]) == list(
        _doc("heat_pump_v1")["circuits"][0]["components"][3]
    )


def test_emptied_scenario_name_is_an_issue_and_keeps_its_place():
    builder = ScenarioBuilder.from_file("examples/scenarios/heat_pump_v1.json")
    keys = list(builder.document)
    builder._name.value = ""
    assert builder.issues == [f"name: {EMPTY_NAME}"]
    builder._name.value = " "  # a space is still no name, and the box keeps it
    assert builder._name.value == " "
    assert builder.issues == [f"name: {EMPTY_NAME}"]
    builder._name.value = "My heat pump"
    assert builder.issues == []
    assert list(builder.document) == keys
    assert builder.document["name"] == "My heat pump"


def test_remove_button_is_out_of_the_tab_order_and_removal_forgets_the_place():
    builder = ScenarioBuilder.from_file("examples/scenarios/heat_pump_v1.json")
    row = _row(builder, (*EVAP, "fan_speed"))
    remove = row.widget.children[-1]
    assert remove.tabbable is False
    remove.click()
    assert "fan_speed" not in builder.document["circuits"][0]["components"][3]
    assert all((*EVAP, "fan_speed") not in s.rows for s in builder._sections)
    builder.add_parameter("evaporator", "fan_speed")  # appended, as its new row is
    assert list(builder.document["circuits"][0]["components"][3])[-1] == "fan_speed"
    assert list(builder._sections[3].rows)[-1] == (*EVAP, "fan_speed")


def test_form_edits_restore_order_after_many_emptied_keys():
    doc = {"a": 1, "b": 2, "c": 3, "d": 4}
    edits = FormEdits()
    edits.empty(doc, ("b",), "x")
    edits.empty(doc, ("c",), "x")
    edits.empty(doc, ("a",), None)
    assert edits.checked_copy(doc) == {"d": 4, "b": 2, "c": 3}  # pending ones hold their last
    edits.set(doc, ("c",), 30)
    edits.set(doc, ("a",), 10)
    edits.set(doc, ("b",), 20)
    assert list(doc.items()) == [("a", 10), ("b", 20), ("c", 30), ("d", 4)]
    assert edits.pending == {}
