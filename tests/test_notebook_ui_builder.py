"""The scenario builder without a browser: what its click handlers and fields do, step by step.

Each test follows a step a person takes in JupyterLab (edit a field, click Solve, Add, Save) by
calling the widget's own handlers (``button.click()``, ``text.value = ...``) and inspects what
the form then shows.
"""

from __future__ import annotations

import io
import json
import os
import stat

import numpy as np
import pytest

from workbench.errors import ScenarioError
from workbench.notebook_ui import ScenarioBuilder
from workbench.notebook_ui.document import CONTROL_OUTPUT_UNITS
from workbench.scenario import load_scenario

HP = "examples/scenarios/heat_pump_v1.json"
EVAP = ("circuits", 0, "components", 3)


def _doc(name: str) -> dict:
    with open(f"examples/scenarios/{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def _row(builder: ScenarioBuilder, path: tuple):
    for section in builder._sections:
        if path in section.rows:
            return section.rows[path]
    raise AssertionError(
        f"no field {path}; fields: {[p for s in builder._sections for p in s.rows]}"
    )


def _buttons(widget, found=None):
    import ipywidgets as w

    found = {} if found is None else found
    if isinstance(widget, w.Button):
        found[widget.description] = widget
    for child in getattr(widget, "children", ()):
        _buttons(child, found)
    return found


def _ink(png: bytes) -> float:
    """Share of pixels that are not white."""
    from matplotlib.image import imread

    img = imread(io.BytesIO(png), format="png")[..., :3]
    return float(np.mean(np.any(img < 0.9, axis=-1)))


def test_builder_units_from_the_catalog_beside_each_field():
    builder = ScenarioBuilder.from_file(HP)
    assert "°C" in _row(builder, (*EVAP, "air_inlet_temp_c")).unit.value
    assert "kW/K" in _row(builder, (*EVAP, "ua_nominal_kw_k")).unit.value
    assert "kg/s" in _row(builder, (*EVAP, "secondary_mass_flow_kg_s")).unit.value
    assert "–" in _row(builder, (*EVAP, "fan_speed")).unit.value  # dimensionless
    assert ">Hz<" in _row(builder, ("circuits", 0, "components", 0, "speed_hz")).unit.value
    # one unit family to read: the condenser's W/K and K fields also show kW/K and °C
    cond = ("circuits", 0, "components", 1)
    ua = _row(builder, (*cond, "ua"))
    assert ">W/K<" in ua.unit.value
    assert "= 0.5 kW/K" in ua.unit.value
    assert "= 30 °C" in _row(builder, (*cond, "secondary_inlet_temp_k")).unit.value
    assert "wb-family" not in _row(builder, (*cond, "subcooling_k")).unit.value  # a difference
    ua.text.value = "1800"  # the family value follows the typed one
    assert "= 1.8 kW/K" in ua.unit.value
    assert builder.document["circuits"][0]["components"][1]["ua"] == 1800
    assert set(CONTROL_OUTPUT_UNITS) == set(
        __import__("workbench.components.catalog.specs", fromlist=["x"]).CONTROL_OUTPUTS
    )


def test_builder_form_shows_the_document_after_edits_from_code():
    builder = ScenarioBuilder.from_file(HP)
    assert _row(builder, (*EVAP, "air_inlet_temp_c")).text.value == "7"
    builder.set_parameter("evaporator", "air_inlet_temp_c", 5.0)
    assert _row(builder, (*EVAP, "air_inlet_temp_c")).text.value == "5.0"
    builder.set_fluid(fluid="R32")
    assert builder._fluid.value == "R32"


def test_builder_solve_twice_draws_a_chart_each_time_and_no_pyplot_figure(capsys):
    import matplotlib.pyplot as plt

    builder = ScenarioBuilder.from_file(HP)
    figures = plt.get_fignums()
    solve = _buttons(builder.widget)["Solve"]
    solve.click()
    first = builder._chart.value
    assert builder.result.converged
    assert _ink(first) > 0.03
    assert builder._chart.layout.display is None
    _row(builder, ("circuits", 0, "components", 0, "speed_hz")).text.value = "35"
    assert builder.document["circuits"][0]["components"][0]["speed_hz"] == 35
    solve.click()
    second = builder._chart.value
    assert _ink(second) > 0.03
    assert second != first
    assert builder.result.summary["compressor_power_w"] > 0
    assert plt.get_fignums() == figures  # nothing for the inline backend to show elsewhere
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == ""


def test_builder_switches_between_p_h_and_t_s_diagrams_of_the_same_result():
    builder = ScenarioBuilder.from_file(HP)
    toggle = builder._diagram
    toggle.value = "T-s"  # nothing solved yet: nothing drawn
    assert builder._chart.value == b""
    toggle.value = "P-h"
    _buttons(builder.widget)["Solve"].click()
    ph = builder._chart.value
    result = builder.result
    toggle.value = "T-s"
    ts = builder._chart.value
    assert builder.diagram == "T-s"
    assert builder.result is result  # the same result, redrawn, not re-solved
    assert _ink(ts) > 0.03
    assert ts != ph
    builder.diagram = "P-h"
    assert builder._chart.value == ph  # the same picture as before
    with pytest.raises(ValueError, match="unknown diagram 'h-s'"):
        builder.diagram = "h-s"
    # a refused solve clears the chart; switching then draws nothing stale
    _row(builder, ("circuits", 0, "components", 0, "speed_hz")).text.value = "-5"
    _buttons(builder.widget)["Solve"].click()
    builder.diagram = "T-s"
    assert builder._chart.value == b""
    assert builder._chart.layout.display == "none"


def test_builder_shows_solving_then_the_result():
    builder = ScenarioBuilder.from_file(HP)
    seen: list[str] = []
    builder._results.observe(lambda ch: seen.append(ch["new"]), names="value")
    states: list[bool] = []
    builder._solve_button.observe(lambda ch: states.append(ch["new"]), names="disabled")
    builder._solve_button.click()
    assert "solving" in seen[0]
    assert "converged" in seen[-1]
    assert "COP heating" in seen[-1]
    assert states == [True, False]  # the button is off while solving


def test_builder_cleared_field_is_an_issue_and_solve_leaves_nothing_stale():
    builder = ScenarioBuilder.from_file(HP)
    builder._solve_button.click()
    assert builder._chart.value
    assert builder._tables.value
    _row(builder, (*EVAP, "air_inlet_temp_c")).text.value = ""
    assert builder.issues == [
        "circuits[0].components[3].air_inlet_temp_c: empty: type a value, or remove the "
        "parameter with its ✕ button"
    ]
    assert "1 issue" in builder._status.value
    assert "valid scenario" not in builder._status.value
    builder._solve_button.click()
    assert builder.result is None
    assert builder._chart.layout.display == "none"
    assert builder._chart.value == b""
    assert builder._tables.value == ""
    assert "not solved" in builder._results.value
    # removing the parameter instead: the model needs it, validation says so before Solve
    _row(builder, (*EVAP, "air_inlet_temp_c")).text.value = "5"
    assert builder.issues == []
    builder.remove_parameter("evaporator", "air_inlet_temp_c")
    assert any("air_inlet_temp_c or secondary_inlet_temp_k" in i for i in builder.issues)


def test_builder_refused_solve_of_an_invalid_value_clears_the_last_result():
    builder = ScenarioBuilder.from_file(HP)
    builder.solve()
    _row(builder, (*EVAP, "ua_nominal_kw_k")).text.value = "-1"
    assert builder.issues[0].startswith("circuits[0].components[3].ua_nominal_kw_k")
    with pytest.raises(ScenarioError):
        builder.solve()
    assert builder.result is None
    assert builder._chart.value == b""
    assert builder._tables.value == ""


def test_builder_marks_a_result_older_than_the_form():
    builder = ScenarioBuilder.from_file(HP)
    builder.solve()
    assert "changed since" not in builder._results.value
    builder.set_parameter("evaporator", "fan_speed", 0.8)
    assert "changed since" in builder._results.value
    builder.set_parameter("evaporator", "fan_speed", 1.0)  # back to the solved document
    assert "changed since" not in builder._results.value


def test_builder_saves_readable_files_atomically(tmp_path):
    old = os.umask(0o022)
    try:
        builder = ScenarioBuilder.from_file(HP)
        builder._save_path.value = str(tmp_path / "s.json")
        _buttons(builder.widget)["Save JSON"].click()
        saved = tmp_path / "s.json"
        assert stat.S_IMODE(saved.stat().st_mode) == 0o644
        assert "saved to" in builder._save_note.value
        assert load_scenario(saved).name == builder.document["name"]
        saved.chmod(0o664)
        builder.save(saved)  # replacing keeps the file's mode
        assert stat.S_IMODE(saved.stat().st_mode) == 0o664
        assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temporary left
        builder.set_parameter("evaporator", "fan_speed", 3.0)
        _buttons(builder.widget)["Save JSON"].click()
        assert "not saved" in builder._save_note.value
        assert json.loads(saved.read_text())["circuits"][0]["components"][3]["fan_speed"] == 1.0
    finally:
        os.umask(old)


def test_builder_add_parameter_uses_the_default_or_asks_for_a_value_and_only_once():
    builder = ScenarioBuilder.from_file(HP)
    assert "t_evap_k" in builder.addable_parameters("evaporator")
    issues = builder.add_parameter("evaporator", "t_evap_k")  # no catalog default
    assert "t_evap_k" not in builder.document["circuits"][0]["components"][3]  # no 0.0
    assert issues[0].startswith("circuits[0].components[3].t_evap_k: empty")
    assert _row(builder, (*EVAP, "t_evap_k")).text.value == ""
    assert "t_evap_k" not in builder.addable_parameters("evaporator")
    with pytest.raises(ValueError, match="sets 't_evap_k' already"):
        builder.add_parameter("evaporator", "t_evap_k")
    _row(builder, (*EVAP, "t_evap_k")).text.value = "270"
    assert builder.document["circuits"][0]["components"][3]["t_evap_k"] == 270
    builder.remove_parameter("evaporator", "t_evap_k")
    assert "t_evap_k" in builder.addable_parameters("evaporator")
    builder.add_parameter("evaporator", "z_ua")  # a factor: default 1
    assert builder.document["circuits"][0]["components"][3]["z_ua"] == 1.0
    section = next(s for s in builder._sections if s.title.startswith("evaporator"))
    pick = section.box.children[-1].children[0]
    assert "z_ua" not in pick.options
    assert "t_evap_k" in pick.options


def test_builder_add_button_adds_the_picked_parameter():
    builder = ScenarioBuilder.from_file(HP)
    section = next(s for s in builder._sections if s.title.startswith("evaporator"))
    pick, add = section.box.children[-1].children
    pick.value = "air_side_ua_fraction"
    add.click()
    assert builder.document["circuits"][0]["components"][3]["air_side_ua_fraction"] == 0.7
    assert _row(builder, (*EVAP, "air_side_ua_fraction")).text.value == "0.7"


def test_builder_unknown_fluid_names_the_closest_ones_not_all():
    builder = ScenarioBuilder.from_file(HP)
    issues = builder.set_fluid(fluid="R41OA")
    assert len(issues) == 1
    assert issues[0].startswith("fluid: unknown fluid 'R41OA'")
    assert "did you mean R410A" in issues[0]
    assert len(builder._status.value) < 600
    assert builder.set_fluid(fluid="R410A") == []


def test_builder_edits_template_instances_and_their_parameters():
    builder = ScenarioBuilder(_doc("split_units_v2"))
    titles = [s.title for s in builder._sections]
    assert "instance unit_b (of split_unit, circuit 1)" in titles
    assert "template split_unit: $parameters" in titles
    speed_b = _row(builder, ("instances", 1, "params", "speed_hz"))
    assert speed_b.text.value == "40"
    assert speed_b.text.placeholder == "template: 50"
    speed_a = _row(builder, ("instances", 0, "params", "speed_hz"))
    assert speed_a.text.value == ""
    assert "Hz" in speed_a.unit.value
    base = builder.solve(show=False).summary["compressor_power_w"]
    speed_a.text.value = "35"  # unit_a: slower compressor
    assert builder.document["instances"][0]["params"]["speed_hz"] == 35
    slower = builder.solve(show=False).summary["compressor_power_w"]
    assert slower < base
    speed_a.text.value = ""  # back to the template default
    assert "speed_hz" not in builder.document["instances"][0]["params"]
    assert builder.issues == []
    builder.set_template_param("split_unit", "speed_hz", 45)
    assert _row(builder, ("subsystems", "split_unit", "params", "speed_hz")).text.value == "45"
    assert builder.set_parameter("unit_b", "fan_speed", 0.5) == []  # an instance by name
    assert builder.document["instances"][1]["params"]["fan_speed"] == 0.5
    builder.set_parameter("split_unit.evaporator", "superheat_k", 6)
    assert builder.document["subsystems"]["split_unit"]["components"][3]["superheat_k"] == 6
    with pytest.raises(KeyError, match=r"instances \(their \$parameters\): unit_a, unit_b"):
        builder.set_parameter("unit_a.evaporator", "superheat_k", 6)


def test_builder_shows_warnings_pinch_and_saturated_loops():
    wet = _doc("superheat_control_v2")
    wet["controls"] = []
    wet["circuits"][0]["components"][2]["flow_coefficient_m2"] = 6e-7
    builder = ScenarioBuilder(wet)
    builder.solve()
    assert "suction is two-phase" in builder._results.value
    assert "pinch" in builder._results.value
    assert "evap" in builder._results.value
    tight = _doc("superheat_control_v2")
    tight["controls"][0]["actuator"].update(min=0.2, max=1.2, initial=1.0)
    builder = ScenarioBuilder(tight)
    result = builder.solve()
    assert result.controls[0]["saturated"] == "high"
    assert "control loop superheat is saturated at its max" in builder._results.value
    target = _row(builder, ("controls", 0, "target"))
    assert target.text.value == "5.0"
    assert target.unit.value.endswith(">K</span>")


def test_builder_validates_typed_values_with_their_json_path(tmp_path):
    builder = ScenarioBuilder.from_file("examples/scenarios/split_units_v2.json")
    assert builder.issues == []
    _row(
        builder, ("subsystems", "split_unit", "components", 0, "volumetric_efficiency")
    ).text.value = "-1"
    assert builder.issues[0].startswith("subsystems.split_unit.components[0].volumetric_efficiency")
    assert "issue" in builder._status.value
    with pytest.raises(ScenarioError):
        builder.save(tmp_path / "bad.json")
    assert not (tmp_path / "bad.json").exists()


def test_builder_edits_solves_and_saves_a_loadable_scenario(tmp_path):
    builder = ScenarioBuilder.from_file(HP)
    assert builder.set_parameter("evaporator", "fan_speed", 1.4) == [
        "circuits[0].components[3].fan_speed: 1.4 is out of range: expected a number in [0, 1]"
    ]
    assert builder.set_parameter("evaporator", "fan_speed", 0.8) == []
    with pytest.raises(KeyError, match="no component 'evap'"):
        builder.set_parameter("evap", "fan_speed", 0.8)
    result = builder.solve(show=False)
    assert result.converged
    saved = load_scenario(builder.save(tmp_path / "s.json"))
    evap = next(c for c in saved.circuits[0].components if c.name == "evaporator")
    assert evap.fan_speed == 0.8


def test_builder_emptied_then_retyped_field_keeps_its_place():
    builder = ScenarioBuilder.from_file(HP)
    keys = list(builder.document["circuits"][0]["components"][3])
    field = _row(builder, (*EVAP, "ua_nominal_kw_k"))
    field.text.value = ""
    field.text.value = "1.3"
    assert list(builder.document["circuits"][0]["components"][3]) == keys
    assert next(iter(builder._sections[3].rows)) == (*EVAP, "ua_nominal_kw_k")


def test_issues_say_the_units_the_form_shows():
    builder = ScenarioBuilder.from_file("examples/scenarios/air_water_heat_pump_seasonal_v2.json")
    (issue,) = builder.set_parameter("compressor", "speed_hz", -5.0)
    assert issue.endswith("expected a number > 0 [Hz]")
    builder = ScenarioBuilder.from_file("examples/scenarios/r290_heat_pump_charge_v2.json")
    (issue,) = builder.set_parameter("condenser", "internal_volume_m3", -1.0)
    assert issue.endswith("expected a number > 0 [m³]")


def test_a_failed_save_leaves_no_stale_saved_to_note(tmp_path):
    builder = ScenarioBuilder.from_file(HP)
    builder.save(tmp_path / "s.json")  # from code: the note says so too
    assert "saved to" in builder._save_note.value
    with pytest.raises(FileExistsError):
        builder.save(tmp_path / "s.json" / "x.json")  # under a file: cannot be written
    assert "saved to" not in builder._save_note.value
    assert "not saved" in builder._save_note.value
    builder.set_parameter("evaporator", "fan_speed", 3.0)  # out of range: an issue
    with pytest.raises(ScenarioError):
        builder.save(tmp_path / "t.json")
    assert "not saved: the scenario has 1 issue" in builder._save_note.value
    assert not (tmp_path / "t.json").exists()
