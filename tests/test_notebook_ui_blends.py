"""The builder's blends without a browser: the fluid list, the composition editor, the stored document.

Keys are replayed as the browser sends them (the whole text after every key), as in
``tests/test_notebook_ui_typing.py``: the editor's rows must stay the same widgets while a
person types, and the document must hold exactly the composition typed.
"""

from __future__ import annotations

import json

import pytest

from workbench.errors import ScenarioError
from workbench.fluids.blend.spec import blend_catalog, parse_blend
from workbench.notebook_ui import ScenarioBuilder
from workbench.notebook_ui.blend_editor import compose_rows, fluid_options, tables_note
from workbench.notebook_ui.results_view import result_html


def _doc(name: str) -> dict:
    with open(f"examples/scenarios/{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def _type(box, text: str) -> None:
    """Backspace until empty, then type ``text`` one key at a time."""
    old = box.value
    for n in range(len(old) - 1, -1, -1):
        box.value = old[:n]
    for n in range(1, len(text) + 1):
        box.value = text[:n]


def test_fluid_choice_lists_pure_fluids_and_blends():
    options = fluid_options("CoolProp")
    assert {"R134a", "R290"} <= set(options)
    blends = [name for name, _mass in blend_catalog()]
    assert {"R454B", "R407C", "R452B", "R513A", "R410A.mix"} <= set(options)
    assert set(blends) <= set(options)
    assert len(options) == len(set(options))  # R407C once (pure list and blends name it)
    assert options.index("R454B") > options.index("Xenon")  # pure fluids first
    assert "R454B" in fluid_options("Test")  # listed, and picking one switches the backend


def test_picking_a_blend_on_the_test_backend_switches_to_coolprop():
    doc = _doc("heat_pump_v1")
    doc["fluid_backend"] = "Test"  # R134a on the analytic backend
    builder = ScenarioBuilder(doc)
    assert builder.issues == []
    builder._fluid.value = "R454B"  # what picking it from the list sends
    assert builder.document["fluid"] == "R454B"
    assert builder.document["fluid_backend"] == "CoolProp"
    assert builder._backend.value == "CoolProp"
    assert "fluid_backend set to CoolProp" in builder._fluid_note.value
    assert builder.issues == []
    assert builder._composition.rows() == [("R32", "68.9"), ("R1234yf", "31.1")]
    # the backend chosen explicitly is kept: a blend on Test is then an issue
    issues = builder.set_fluid("R454B", backend="Test")
    assert any(i.startswith("fluid") and "CoolProp" in i for i in issues), issues
    builder._backend.value = "CoolProp"
    assert builder.issues == []


def test_a_blend_typed_for_a_circuit_on_the_test_backend_is_an_issue_at_its_path():
    builder = ScenarioBuilder(_doc("r744_r290_cascade_v2"))
    assert builder.issues == []
    path = ("circuits", 1, "fluid")
    row = next(s.rows[path] for s in builder._sections if path in s.rows)
    _type(row.text, "R454B")
    assert builder.document["circuits"][1]["fluid"] == "R454B"
    assert builder.issues == []  # the cascade is on CoolProp
    backend = next(
        s.rows[("circuits", 1, "fluid_backend")]
        for s in builder._sections
        if ("circuits", 1, "fluid_backend") in s.rows
    )
    _type(backend.text, "Test")
    assert any(i.startswith("circuits[1].fluid") and "CoolProp" in i for i in builder.issues)
    _type(backend.text, "")  # emptied: the scenario's backend applies again
    assert "fluid_backend" not in builder.document["circuits"][1]
    assert builder.issues == []


def test_composition_editor_rows_stay_while_a_person_types():
    builder = ScenarioBuilder(_doc("r454b_split_unit_v2"))
    editor = builder._composition
    widgets = [id(r.widget) for r in editor._rows]
    second = editor._rows[1]
    _type(second.percent, "")
    assert [id(r.widget) for r in editor._rows] == widgets
    assert builder.issues == ["fluid: composition row 2 mass %: empty: type a value"]
    assert builder.document["fluid"] == "R454B"  # keeps its last value meanwhile
    _type(editor._rows[0].percent, "70")
    _type(second.percent, "30")
    assert [id(r.widget) for r in editor._rows] == widgets  # nothing re-created
    assert builder.issues == []
    assert builder.document["fluid"] == "R32/R1234yf 70/30"
    assert second.percent.value == "30"  # never echoed over what was typed
    spec = parse_blend(builder.document["fluid"])
    assert spec.mass_fractions == pytest.approx((0.7, 0.3))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("R32", "60"), ("R1234yf", "30")], "sum to 90, not 100"),
        ([("R32", "68.9"), ("R1234zz", "31.1")], "unknown component 'R1234zz'"),
        ([("R32", "68.9"), ("", "31.1")], "row 2 component: empty"),
        ([("R32", "6x"), ("R1234yf", "31.1")], "row 1 mass %: '6x' is not a number"),
        ([("R32", "100")], "at least two components"),
    ],
)
def test_composition_editor_refuses_with_an_issue_at_the_fluid(rows, message):
    builder = ScenarioBuilder(_doc("r454b_split_unit_v2"))
    issues = builder.set_composition([r[0] for r in rows], [r[1] for r in rows])
    assert len(issues) == 1
    assert issues[0].startswith("fluid: composition")
    assert message in issues[0]
    assert builder.document["fluid"] == "R454B"
    with pytest.raises(ScenarioError, match="fluid: composition"):
        builder.solve(show=False)
    assert compose_rows(rows)[0] is None


def test_composition_editor_adds_and_removes_components():
    builder = ScenarioBuilder(_doc("r454b_split_unit_v2"))
    editor = builder._composition
    editor.add_row()
    assert builder.issues == ["fluid: composition row 3 component: empty: type a component"]
    editor._remove(editor._rows[2])
    assert builder.issues == []
    assert builder.document["fluid"] == "R32/R1234yf 68.9/31.1"


def test_saturation_reference_selector_and_the_stored_document(tmp_path):
    builder = ScenarioBuilder(_doc("r454b_split_unit_v2"))
    assert builder._reference.value == "dew"
    builder._reference.value = "mid"
    assert builder.document["saturation_reference"] == "mid"
    builder.set_composition(["R32", "R1234yf"], [68.9, 31.1])
    path = builder.save(tmp_path / "blend.json")
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["fluid"] == "R32/R1234yf 68.9/31.1"
    assert stored["fluid_backend"] == "CoolProp"
    assert stored["saturation_reference"] == "mid"
    # the rest of the document is the example's, keys in the file's order
    original = _doc("r454b_split_unit_v2")
    assert list(stored) == list(original) + [k for k in stored if k not in original]
    assert stored["circuits"] == original["circuits"]


def test_results_show_coil_temperatures_and_the_coolprop_version():
    builder = ScenarioBuilder(_doc("r454b_split_unit_v2"))
    result = builder.solve(show=False)
    assert result.converged
    html = result_html(result)
    assert f"CoolProp version</td><td style='text-align:right'>{result.coolprop_version}" in html
    assert "wb-coil-temperatures" in html
    evap = next(
        o for o in result.components.values() if o.get("glide") and o.get("superheat") is not None
    )
    assert f"{evap['dew_temperature'] - 273.15:.2f}" in html
    assert f"{evap['inlet_temperature'] - 273.15:.2f}" in html
    assert f"{evap['glide']:.2f}" in html
    assert evap["glide"] > 0.5  # R454B: about 1 K


def test_status_says_tables_are_built_for_a_new_composition(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path))  # an empty table cache
    import workbench.fluids as fluids

    monkeypatch.setattr(fluids, "_TABLES", {})  # this process has built none either
    seen = []
    counted = []
    original = fluids.load_blend_tables
    builders = []

    def spy(spec, progress=True):
        seen.append(builders[0]._status.value if builders else "")

        def report(done, total):
            counted.append(builders[0]._status.value)
            progress(done, total)

        return original(spec, progress=report if callable(progress) else progress)

    monkeypatch.setattr(fluids, "load_blend_tables", spy)
    doc = _doc("heat_pump_v1")
    doc["fluid_backend"] = "Test"
    builder = ScenarioBuilder(doc)
    builders.append(builder)
    capfd.readouterr()
    builder._fluid.value = "R454B"  # picked: the check builds the tables
    assert builder.building_note is not None
    assert "first use of R454B: building its property tables" in builder.building_note
    # while the tables were built, the status line said so and counted the pressure nodes
    assert any("checking: first use of R454B" in text for text in seen)
    assert len(counted) > 10
    assert "building the property tables of R454B: 1/" in counted[1]
    assert "valid scenario" in builder._status.value  # and the note goes once they are built
    # nothing on standard error (JupyterLab logs it as a warning from a widget callback)
    assert capfd.readouterr().err == ""
    assert tables_note(["R454B"]) is None  # now on disk: the next solve builds nothing
    assert tables_note(["R134a"]) is None


def test_table_build_reports_to_a_callable_and_nothing_to_stderr(tmp_path, capfd):
    from workbench.fluids.blend.spec import blend_spec
    from workbench.fluids.blend.table_build import load_or_build

    calls = []
    tables = load_or_build(
        blend_spec("R454B"), tmp_path, progress=lambda d, t: calls.append((d, t))
    )
    assert capfd.readouterr().err == ""
    assert calls[0] == (1, calls[0][1])
    assert [d for d, _ in calls] == list(range(1, len(calls) + 1))
    assert tables.sat.shape[-1] == len(calls)  # one report per pressure node kept
    calls.clear()
    load_or_build(blend_spec("R454B"), tmp_path, progress=lambda d, t: calls.append((d, t)))
    assert calls == []  # read from the cache: nothing built, nothing reported


def test_cascade_chart_in_the_builder_has_one_panel_per_fluid():
    import io

    from matplotlib.image import imread

    builder = ScenarioBuilder(_doc("r744_r290_cascade_v2"))
    assert [s.title for s in builder._sections][:2] == ["circuit 0: fluid", "circuit 1: fluid"]
    assert builder._sections[0].rows[("circuits", 0, "fluid")].text.value == "R744"
    builder.solve(show=True)
    image = imread(io.BytesIO(builder._chart.value), format="png")
    height, width = image.shape[:2]
    assert width > 1.8 * height  # two panels: R744 and R290, each on its own dome


def test_a_refused_fluid_is_explained_beside_the_fluid_box():
    builder = ScenarioBuilder(_doc("heat_pump_v1"))
    builder._fluid.value = "R454"  # typed into the box: a blend number without its letter
    note = builder._fluid_note.value
    assert "fluid refused" in note
    assert "did you mean R454A, R454B, R454C?" in note
    assert "CO2" not in note
    # the form names its own list, not a Python call, in the note and in the status line
    assert "fluid box&#x27;s list" in note
    assert not [i for i in builder.issues if "available_fluids" in i]
    builder._fluid.value = "R454B"
    assert builder.issues == []
    assert builder._fluid_note.value == ""  # fixed: the note goes (the backend was CoolProp)


def test_a_custom_r32_r125_blend_is_accepted_and_solves():
    builder = ScenarioBuilder(_doc("heat_pump_v1"))
    builder.set_composition(["R32", "R125"], [50.0, 50.0])
    assert builder.issues == []
    assert builder.document["fluid"] == "R32/R125 50/50"
    result = builder.solve()
    assert result.converged
