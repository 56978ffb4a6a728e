"""The notebooks in a real browser: JupyterLab + headless Chromium driven by Playwright.

Each test opens a notebook as a person does, runs it with **Run > Run All Cells**, checks that no
cell raised and no widget failed (in the cells and in JupyterLab's log console), then clicks
and types in the widgets. The builder and notes-panel screenshots of docs/notebooks.md come
from here: ``WORKBENCH_SCREENSHOT_DIR=docs/images pytest tests/test_browser_notebooks.py``.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import psycopg
import pytest
from browser_lab import CHROMIUM, CHROMIUM_ARGS, FormTyping, JupyterLab, LabPage, ink
from playwright.sync_api import expect, sync_playwright

from workbench.notebook_ui import list_notebooks
from workbench.scenario import load_scenario

pytest_plugins = ["notes_fixtures"]
pytestmark = [pytest.mark.browser, pytest.mark.notebook, pytest.mark.db]

NEW_CHART = """(prev) => {
  const img = document.querySelector('.wb-builder .wb-chart');
  return img && img.src && img.src !== prev && img.complete && img.naturalWidth > 0
    && getComputedStyle(img).display !== 'none';
}"""


@pytest.fixture(scope="module")
def notes_url(pg_admin_url):
    from notes_fixtures import make_database

    from workbench.notes import db

    name, url = make_database(pg_admin_url, "browser")
    yield url
    db.drop_database(pg_admin_url, name)


@pytest.fixture(scope="module")
def lab(tmp_path_factory, notes_url):
    lab = JupyterLab(
        tmp_path_factory.mktemp("lab"), list_notebooks(), env={"DATABASE_URL": notes_url}
    )
    lab.start()
    yield lab
    lab.stop()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test.sh does)")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def notebook(lab, browser):
    pages = []

    def open_notebook(name: str) -> LabPage:
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        pages.append(page)
        return LabPage(page, lab, name)

    yield open_notebook
    for page in pages:
        page.close()
    lab.shutdown_kernels()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("WORKBENCH_SCREENSHOT_DIR")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _screenshot(page, element, path: Path) -> None:
    """A picture of a whole widget: the window grows so that it fits without scrolling."""
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 2800})
    page.wait_for_timeout(300)
    element.scroll_into_view_if_needed()
    element.screenshot(path=str(path))
    page.set_viewport_size(size)


def _solve_and_wait(nb: LabPage) -> bytes:
    chart = nb.page.locator(".wb-builder .wb-chart")
    before = chart.get_attribute("src")
    nb.page.locator(".wb-builder .wb-solve").click()
    nb.page.wait_for_function(NEW_CHART, arg=before, timeout=60_000)
    nb.wait_idle()
    return chart.screenshot()


def test_browser_scenario_builder(notebook, lab, shots):
    nb = notebook("01_scenario_builder.ipynb")
    nb.run_all()
    assert nb.cell_errors() == []
    page, form = nb.page, nb.page.locator(".wb-builder")
    assert ink(form.locator(".wb-chart").screenshot()) > 0.03  # solved by the notebook
    # the form shows the document it solves: the parameters cell set 5.0
    page.get_by_text("evaporator (Evaporator)").click()
    assert form.locator(".wb-field-air_inlet_temp_c input").input_value() == "5.0"
    assert "°C" in form.locator(".wb-field-air_inlet_temp_c + .wb-unit").inner_text()
    # edit the compressor speed, Solve twice: a chart each time
    page.get_by_text("compressor (Compressor)").click()
    form.locator(".wb-field-speed_hz input").fill("35")
    first = _solve_and_wait(nb)
    second = _solve_and_wait(nb)
    assert ink(first) > 0.03
    assert ink(second) > 0.03
    assert "converged" in form.locator(".wb-results").inner_text()
    # the T-s button redraws the same result as a temperature-entropy diagram
    chart = form.locator(".wb-chart")
    before = chart.get_attribute("src")
    form.locator(".wb-diagram button", has_text="T-s").click()
    page.wait_for_function(NEW_CHART, arg=before, timeout=30_000)
    nb.wait_idle()
    assert ink(chart.screenshot()) > 0.03
    form.locator(".wb-diagram button", has_text="P-h").click()
    page.wait_for_function(NEW_CHART, arg=chart.get_attribute("src"), timeout=30_000)
    # an invalid value: listed with its path, Solve refused, nothing stale on screen
    page.get_by_text("evaporator (Evaporator)").click()  # one section open at a time
    form.locator(".wb-field-ua_nominal_kw_k input").fill("-1")
    status = form.locator(".wb-status")
    expect(status).to_contain_text("circuits[0].components[3].ua_nominal_kw_k")
    expect(status).to_contain_text("1 issue")
    form.locator(".wb-solve").click()
    expect(form.locator(".wb-results")).to_contain_text("not solved")
    assert form.locator(".wb-chart").is_hidden()
    assert form.locator(".wb-tables").inner_text().strip() == ""
    # an emptied field is an issue, not a silent removal
    form.locator(".wb-field-ua_nominal_kw_k input").fill("")
    expect(status).to_contain_text("empty: type a value")
    form.locator(".wb-field-ua_nominal_kw_k input").fill("0.4")
    expect(status).to_contain_text("valid scenario")
    # Save
    target = lab.root / "saved" / "my_scenario.json"  # the kernel runs in lab.root
    form.locator(".wb-save-path input").fill("saved/my_scenario.json")
    form.locator(".wb-save").click()
    expect(form.locator(".wb-save-note")).to_contain_text("saved to", timeout=30_000)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    saved = load_scenario(target)
    assert saved.circuits[0].components[0].speed_hz == 35
    # the picture for the docs: a solved form with the evaporator's fields and units
    final = _solve_and_wait(nb)
    assert ink(final) > 0.03
    _screenshot(page, form, shots / "builder.png")
    assert ink((shots / "builder.png").read_bytes()) > 0.05
    assert nb.log_entries() == []


def _example(name: str) -> dict:
    with open(f"examples/scenarios/{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def _same_json(saved: dict, expected: dict) -> None:
    """Equal values and the same key order everywhere (as the two files would read)."""
    assert saved == expected
    assert json.dumps(saved) == json.dumps(expected)


def test_browser_builder_keeps_every_keystroke(notebook, lab):
    """Type into every kind of field as a person does; Save JSON holds exactly what was typed."""
    nb = notebook("01_scenario_builder.ipynb")
    nb.run_all()
    assert nb.cell_errors() == []
    form = nb.page.locator(".wb-builder")
    typing = FormTyping(nb, form)
    expected = _example("heat_pump_v1")
    comps = expected["circuits"][0]["components"]
    comps[3]["air_inlet_temp_c"] = 5.0  # the notebook's edits parameter
    # component fields: numbers, a text field, slowly with a pause, fast, select-all, paste
    compressor = typing.section("compressor (Compressor)")
    typing.retype(compressor, "speed_hz", "45")
    typing.retype(compressor, "displacement_m3", "3.5e-05", pause_ms=0, delay_ms=0)
    typing.retype(compressor, "volumetric_efficiency", "0.85", delay_ms=250)
    typing.select_all_and_type(compressor, "isentropic_efficiency", "0.72")
    comps[0].update(speed_hz=45, displacement_m3=3.5e-05, volumetric_efficiency=0.85)
    comps[0]["isentropic_efficiency"] = 0.72
    condenser = typing.section("condenser (Condenser)")
    typing.paste(condenser, "ua", "1600")
    typing.retype(condenser, "secondary_fluid", "Water")
    typing.retype(condenser, "secondary_inlet_temp_k", "301.15", pause_ms=1500)
    comps[1].update(ua=1600, secondary_fluid="Water", secondary_inlet_temp_k=301.15)
    evaporator = typing.section("evaporator (Evaporator)")
    typing.retype(evaporator, "air_inlet_temp_c", "-2.5", pause_ms=0)
    typing.retype(evaporator, "superheat_k", "6")
    comps[3].update(air_inlet_temp_c=-2.5, superheat_k=6)
    nb.wait_idle()
    expect(form.locator(".wb-status")).to_have_text("valid scenario")
    _same_json(typing.save("typed/heat_pump.json"), expected)
    # a template's $parameter and an instance's values (another example, opened in the form)
    form.locator(".wb-open-pick input").fill("split_units_v2.json")
    form.locator(".wb-open").click()
    expect(form.locator(".wb-open-note")).to_contain_text("opened split_units_v2.json")
    expected = _example("split_units_v2")
    params = typing.section("template split_unit: $parameters")
    typing.retype(params, "outdoor_temp_c", "")  # emptied and left: its own issue
    expect(form.locator(".wb-status")).to_contain_text(
        "subsystems.split_unit.params.outdoor_temp_c: empty: type a value"
    )
    assert "did you mean" not in form.locator(".wb-status").inner_text()
    typing.retype(params, "outdoor_temp_c", "33")
    typing.retype(params, "speed_hz", "48", pause_ms=0, delay_ms=0)
    expected["subsystems"]["split_unit"]["params"].update(outdoor_temp_c=33, speed_hz=48)
    unit_b = typing.section("instance unit_b")
    typing.retype(unit_b, "fan_speed", "0.65")
    typing.select_all_and_type(unit_b, "speed_hz", "38")
    expected["instances"][1]["params"].update(fan_speed=0.65, speed_hz=38)
    unit_a = typing.section("instance unit_a")
    typing.paste(unit_a, "indoor_temp_c", "26")
    expected["instances"][0]["params"] = {"indoor_temp_c": 26}
    nb.wait_idle()
    expect(form.locator(".wb-status")).to_have_text("valid scenario")
    _same_json(typing.save("typed/split_units.json"), expected)
    # control-loop fields
    form.locator(".wb-open-pick input").fill("superheat_control_v2.json")
    form.locator(".wb-open").click()
    expect(form.locator(".wb-open-note")).to_contain_text("opened superheat_control_v2.json")
    expected = _example("superheat_control_v2")
    loop = typing.section("control superheat")
    typing.retype(loop, "target", "6.5")
    typing.retype(loop, "gain", "-0.8", pause_ms=0, delay_ms=0)
    typing.paste(loop, "band", "0.9")
    expected["controls"][0].update(target=6.5, gain=-0.8, band=0.9)
    nb.wait_idle()
    _same_json(typing.save("typed/superheat_control.json"), expected)
    assert nb.log_entries() == []


def test_browser_builder_blend_composition(notebook, lab):
    """Choose R454B, edit its composition as a person types, solve; the stored document."""
    nb = notebook("01_scenario_builder.ipynb")
    nb.run_all()
    assert nb.cell_errors() == []
    form = nb.page.locator(".wb-builder")
    typing = FormTyping(nb, form)
    fluid = form.locator(".wb-fluid input")
    typing.retype_input(fluid, "fluid", "R454B")
    nb.wait_idle()
    percent = form.locator(".wb-blend-percent input")
    expect(percent).to_have_count(2)
    expect(form.locator(".wb-blend-component input").nth(1)).to_have_value("R1234yf")
    expect(percent.nth(0)).to_have_value("68.9")
    expect(form.locator(".wb-status")).to_have_text("valid scenario")
    typing.retype_input(percent.nth(0), "row 1 mass %", "72.5")
    nb.wait_idle()
    expect(form.locator(".wb-status")).to_contain_text("sum to 103.6, not 100")
    typing.retype_input(percent.nth(1), "row 2 mass %", "27.5", pause_ms=1500)
    nb.wait_idle()
    expect(form.locator(".wb-status")).to_have_text("valid scenario", timeout=60_000)
    expect(fluid).to_have_value("R32/R1234yf 72.5/27.5")
    _solve_and_wait(nb)
    results = form.locator(".wb-results")
    expect(results).to_contain_text("converged")
    expect(results).to_contain_text("CoolProp version")
    expect(form.locator(".wb-coil-temperatures")).to_contain_text("glide")
    expected = _example("heat_pump_v1")
    expected["circuits"][0]["components"][3]["air_inlet_temp_c"] = 5.0  # the notebook's edits
    expected["fluid"] = "R32/R1234yf 72.5/27.5"
    expected["fluid_backend"] = "CoolProp"
    _same_json(typing.save("typed/blend.json"), expected)
    assert nb.log_entries() == []


@pytest.mark.parametrize(
    "name",
    [
        "02_parameter_sweep",
        "03_controls_and_couplings",
        "06_branching_and_exergy",
        "13_plate_design",
    ],
)
def test_browser_run_all(notebook, name):
    nb = notebook(f"{name}.ipynb")
    nb.run_all()
    assert nb.cell_errors() == []
    images = nb.page.locator(".jp-OutputArea-output img")
    assert images.count() >= 1
    for i in range(images.count()):
        assert ink(images.nth(i).screenshot()) > 0.03
    assert nb.log_entries() == []


def test_browser_note_search(notebook, notes_url, shots):
    nb = notebook("04_note_search.ipynb")
    nb.run_all()
    assert nb.cell_errors() == []
    page, panel = nb.page, nb.page.locator(".wb-notes")
    # after Run All the query box shows the query of the results on screen, and whose notes
    expect(panel.locator(".wb-notes-query input")).to_have_value("oil trap in the suction riser")
    expect(panel.locator(".wb-notes-owner input")).to_have_value("notebook")
    # search after Run All (the last cell no longer kills the panel)
    panel.locator(".wb-notes-query input").fill("frost on the coil")
    panel.locator("button", has_text="Search").click()
    expect(panel.locator(".wb-notes-status")).to_contain_text("frost on the coil", timeout=30_000)
    hybrid = panel.locator(".wb-notes-hybrid").inner_text()
    assert "Evaporator frosting at low suction temperature" in hybrid.splitlines()[1]
    assert "BM25" in panel.locator(".wb-notes-keyword").inner_text()
    assert "cosine" in panel.locator(".wb-notes-semantic").inner_text()
    _screenshot(page, panel, shots / "notes_panel.png")
    assert ink((shots / "notes_panel.png").read_bytes()) > 0.03
    # an empty import path is refused, nothing imported twice
    panel.locator(".wb-notes-path input").fill("")
    panel.locator("button", has_text="Import").click()
    expect(panel.locator(".wb-notes-status")).to_contain_text("no import path")
    from workbench.notes import count_notes

    with psycopg.connect(notes_url, autocommit=True) as conn:
        assert count_notes(conn, owner="notebook") == 8
    assert nb.log_entries() == []


def test_browser_run_log(notebook, lab, notes_url, shots):
    nb = notebook("05_run_log.ipynb")
    nb.run_all()
    assert nb.cell_errors() == []
    page = nb.page
    builders = page.locator(".wb-builder")
    assert builders.count() == 2  # the last variant, and the run reopened from its note
    reopened = builders.nth(1)
    expect(reopened.locator(".wb-run-status")).to_contain_text("opened from note")
    # related notes under the results: the other stored variant
    related = reopened.locator(".wb-related")
    expect(related).to_contain_text("Related notes")
    expect(related).to_contain_text("-1.7 °C evaporating")
    # Store run in the browser: a third note of the owner, named in the status line; once
    store = reopened.locator(".wb-store-run")
    store.click()
    expect(reopened.locator(".wb-run-status")).to_contain_text("stored as note", timeout=60_000)
    expect(store).to_have_text("Stored")
    expect(store).to_be_disabled()
    from workbench.notes import count_notes

    with psycopg.connect(notes_url, autocommit=True) as conn:
        assert count_notes(conn, owner="run-log") == 3
    # 05's form keeps every keystroke too; an edited form offers to solve before storing
    typing = FormTyping(nb, reopened)
    evaporator = typing.section("evaporator (Evaporator)")
    typing.retype(evaporator, "air_inlet_temp_c", "-5")
    typing.retype(evaporator, "superheat_k", "4.5", pause_ms=0, delay_ms=0)
    compressor = typing.section("compressor (Compressor)")
    typing.select_all_and_type(compressor, "speed_hz", "48")
    typing.paste(compressor, "volumetric_efficiency", "0.88")
    nb.wait_idle()
    expect(store).to_have_text("Solve and store")
    expected = json.loads((lab.root / "output/notebooks/05_run_log/scenario.json").read_text())
    comps = expected["circuits"][0]["components"]
    comps[3].update(air_inlet_temp_c=-5, superheat_k=4.5)
    comps[0].update(speed_hz=48, volumetric_efficiency=0.88)
    _same_json(typing.save("typed/run_log.json"), expected)
    store.click()  # solves the form as it is, then stores that run
    expect(reopened.locator(".wb-run-status")).to_contain_text("stored as note", timeout=90_000)
    expect(store).to_have_text("Stored")
    with psycopg.connect(notes_url, autocommit=True) as conn:
        assert count_notes(conn, owner="run-log") == 4
    _screenshot(page, reopened, shots / "run_log.png")
    assert ink((shots / "run_log.png").read_bytes()) > 0.03
    # Reopen a related run (the mild variant) in the same form, without code
    pick = reopened.locator(".wb-reopen-pick select")
    expect(pick.locator("option")).to_have_count(2)  # the run just stored, the related one
    pick.select_option(index=1)
    reopened.locator(".wb-reopen").click()
    expect(reopened.locator(".wb-run-status")).to_contain_text("opened from note", timeout=30_000)
    expect(reopened.locator(".wb-run-status")).to_contain_text("-1.7 °C evaporating")
    evaporator = typing.section("evaporator (Evaporator)")
    expect(evaporator.locator(".wb-field-air_inlet_temp_c input")).to_have_value("7.0")
    assert nb.log_entries() == []


def _charts_and_tables(nb: LabPage, units: list[str], raw: list[str]) -> None:
    """Every chart cell shows a non-blank picture; the tables read in units, nothing empty."""
    cells = nb.chart_cells()
    assert cells
    for cell in cells:
        images = cell.locator(".jp-OutputArea-output img")
        assert images.count() >= 1, cell.locator(".cm-content").inner_text()[:80]
        for i in range(images.count()):
            expect(images.nth(i)).to_be_visible()
            assert ink(images.nth(i).screenshot()) > 0.03
    headers = nb.table_headers()
    for header in units:
        assert header in headers, (header, headers)
    for name in raw:  # the data's SI names stay behind the display
        assert name not in headers, (name, headers)
    cells_text = nb.page.locator(".jp-OutputArea-output table td").all_inner_texts()
    assert not [t for t in cells_text if t.strip() in ("nan", "NaN", "None")]
    assert "<Figure size" not in nb.page.locator(".jp-Notebook").inner_text()


def test_browser_seasonal(notebook, shots):
    nb = notebook("07_seasonal.ipynb")
    nb.run_all(timeout_s=400.0)
    assert nb.cell_errors() == []
    _charts_and_tables(
        nb,
        ["outdoor [°C]", "heating load [kW]", "compressor speed [Hz]", "status"],
        ["t_c", "speed_hz", "load_kw", "limit", "hint"],
    )
    table = nb.code_cell("seasonal_points_table(rating)").locator("table")
    # the colder climate, typed into the parameters cell: G is beyond the operation limit
    nb.retype_in_cell("# Parameters", "average", "colder")
    nb.run_all(timeout_s=400.0)
    assert nb.cell_errors() == []
    g_row = table.locator("tr", has=nb.page.locator("th", has_text=re.compile(r"^G$")))
    expect(g_row).to_contain_text("beyond the operation limit (-10 °C): back-up heat")
    _screenshot(nb.page, table, shots / "seasonal_points.png")
    _charts_and_tables(nb, ["outdoor [°C]"], ["t_c"])
    bins = nb.code_cell("plot_bins(rating)").locator(".jp-OutputArea-output img")
    _screenshot(nb.page, bins, shots / "seasonal_bins.png")
    # a climate that does not exist: one line naming the climates, no traceback
    nb.retype_in_cell("# Parameters", "colder", "cold")
    nb.run_all()
    (error,) = nb.model_errors()  # the exception itself, with its full message
    assert error.startswith("ScenarioError: ")
    assert "'cold' is not one of average, warmer, colder" in error
    # what the person sees under the cell is one line
    failed = nb.code_cell("seasonal_points_table(rating)").locator(".jp-OutputArea-output")
    assert failed.all_inner_texts() == [
        "ScenarioError: climate: 'cold' is not one of average, warmer, colder"
    ]
    assert nb.log_entries() == []


def test_browser_calibration(notebook, shots):
    nb = notebook("08_calibration.ipynb")
    nb.run_all(timeout_s=400.0)
    assert nb.cell_errors() == []
    _charts_and_tables(
        nb,
        ["RMS error [%]", "mass flow [kg/h]", "heating capacity [kW]", "fitted", "unit"],
        ["rms_relative_pct", "summary.heating_capacity_w", "std_error", "reason"],
    )
    parity = nb.code_cell("plot_parity(").locator(".jp-OutputArea-output img")
    _screenshot(nb.page, parity, shots / "calibration_parity.png")
    # no stray return value (a bare byte count) under the parity cell
    outputs = nb.code_cell("plot_parity(").locator(".jp-OutputArea-output")
    assert not [t for t in outputs.all_inner_texts() if t.strip().isdigit()]
    # a tighter sigma on the discharge temperature, typed as a person does: fitted again
    nb.retype_in_cell("# Parameters", "0.1", "0.2")  # the sigma of the discharge temperature
    nb.run_all(timeout_s=400.0)
    assert nb.cell_errors() == []
    _charts_and_tables(nb, ["fitted", "95 % low"], ["std_error"])
    # a misspelt free parameter: the notebook says which one was meant, in one line
    nb.retype_in_cell("# Parameters", "condenser.ua", "condensor.ua")  # in the free list
    nb.run_all()
    (error,) = nb.model_errors()
    assert "did you mean condenser.ua" in error
    failed = nb.code_cell("result = calibrate(").locator(".jp-OutputArea-output")
    (shown,) = failed.all_inner_texts()
    assert shown.startswith("ScenarioError: free['condensor.ua']: no such parameter; did you mean")
    assert "Traceback" not in shown
    assert nb.log_entries() == []


def test_browser_refrigerant_blends(notebook, shots):
    nb = notebook("09_refrigerant_blends.ipynb")
    nb.run_all(timeout_s=400.0)
    assert nb.cell_errors() == []
    _charts_and_tables(
        nb,
        ["evaporating pressure [bar]", "discharge temperature [°C]", "refrigerant outlet [°C]"],
        ["p_evap_bar", "temperature", "inlet_temperature"],
    )
    charts = nb.code_cell("plot_ts(").locator(".jp-OutputArea-output img")
    assert charts.count() == 4  # P-h of each fluid, T-s of R454B
    _screenshot(nb.page, charts.last, shots / "blend_ts.png")
    # a custom composition of the R32/R125 pair (refused before CoolProp was asked to flash it)
    nb.retype_in_cell("# Parameters", "R32/R1234yf 68.9/31.1", "R32/R125 50/50")
    nb.run_all(timeout_s=400.0)
    assert nb.cell_errors() == []
    fractions = nb.code_cell("parse_blend(custom_blend)").locator("table")
    expect(fractions).to_contain_text("R125")
    assert nb.log_entries() == []


def test_browser_charge(notebook, shots):
    nb = notebook("10_charge.ipynb")
    nb.run_all()
    assert nb.cell_errors() == []
    _charts_and_tables(
        nb,
        ["volume [cm3]", "charge [g]", "share [%]", "allowed charge [g]"],
        ["volume_m3", "kg", "charge_kg", "m1_kg"],
    )
    inventory = nb.code_cell("inventory_table(").locator("table")
    _screenshot(nb.page, inventory, shots / "charge_inventory.png")
    # a smaller room, typed as a person does: the charge no longer complies
    nb.retype_in_cell("# Parameters", "15.0", "8.0")
    nb.run_all()
    assert nb.cell_errors() == []
    limits = nb.code_cell("limits_table(limits)")
    expect(limits.locator("table")).to_contain_text("no")
    expect(limits).to_contain_text("does NOT comply")
    _charts_and_tables(nb, ["allowed charge [g]"], ["allowed_kg"])
    assert nb.log_entries() == []
