"""The notebooks: stored clean, executed with papermill on a real kernel, and their widgets.

Notebook runs write a ``summary.json`` next to their artefacts; the tests assert on those
values (and on the CSV, JSON and PNG files), checked against physics and the package.
"""

from __future__ import annotations

import json

import nbformat
import pandas as pd
import pytest
from CoolProp.CoolProp import PropsSI
from notebook_checks import assert_charts_and_no_stray_outputs

from workbench.cli.main import main
from workbench.notebook_ui import (
    ensure_kernel,
    list_notebooks,
    notebook_outputs,
    run_notebook,
)
from workbench.scenario import load_scenario
from workbench.solver import solve

pytest_plugins = ["notes_fixtures"]

NOTEBOOKS = [p.stem for p in list_notebooks()]


@pytest.fixture(scope="session")
def kernel() -> str:
    return ensure_kernel()


def _run(name: str, tmp_path, kernel: str, **parameters) -> dict:
    artefacts = tmp_path / name
    run_notebook(
        name,
        {"output_dir": str(artefacts), **parameters},
        output=tmp_path / f"{name}.ipynb",
        kernel_name=kernel,
    )
    executed = nbformat.read(str(tmp_path / f"{name}.ipynb"), as_version=4)
    errors = [
        o
        for c in executed.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    ]
    assert not errors
    assert_charts_and_no_stray_outputs(executed)
    return json.loads((artefacts / "summary.json").read_text())


# -- stored notebooks ------------------------------------------------------------------------
def test_the_notebooks_exist():
    assert NOTEBOOKS == [
        "01_scenario_builder",
        "02_parameter_sweep",
        "03_controls_and_couplings",
        "04_note_search",
        "05_run_log",
        "06_branching_and_exergy",
        "07_seasonal",
        "08_calibration",
        "09_refrigerant_blends",
        "10_charge",
        "11_coil_design",
        "12_declared_products",
        "13_plate_design",
    ]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_is_committed_without_outputs_and_has_a_parameters_cell(name):
    path = next(p for p in list_notebooks() if p.stem == name)
    assert notebook_outputs(path) == [], f"{path} has outputs; clear them before committing"
    nb = nbformat.read(str(path), as_version=4)
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1
    assert "output_dir" in tagged[0].source


def test_notebook_outputs_detects_a_stored_output(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    nb.cells[0].outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"})]
    nb.cells[0].execution_count = 1
    nbformat.write(nb, str(tmp_path / "dirty.ipynb"))
    assert notebook_outputs(tmp_path / "dirty.ipynb") == ["cell 0"]


# -- executed notebooks ----------------------------------------------------------------------
@pytest.mark.notebook
def test_01_scenario_builder(tmp_path, kernel):
    summary = _run(
        "01_scenario_builder",
        tmp_path,
        kernel,
        edits={"evaporator": {"air_inlet_temp_c": 2.0}},
    )
    assert summary["converged"]
    assert summary["issues"] == []
    (demo,) = summary["demo_issues"]
    assert demo.startswith("fluid: unknown fluid 'R41OA' for backend CoolProp; did you mean R410A")
    assert len(json.dumps(summary)) < 2000  # no list of every CoolProp fluid
    saved = load_scenario(summary["scenario_json"])
    evap = next(c for c in saved.circuits[0].components if c.name == "evaporator")
    assert evap.air_inlet_temp_c == 2.0
    # heating COP below the Carnot COP between the secondary inlets (30 C water, 2 C air)
    carnot = 303.15 / (303.15 - 275.15)
    assert 2.0 < summary["cop_heating"] < carnot
    assert summary["cop_heating"] == pytest.approx(summary["cop_cooling"] + 1.0, rel=1e-9)
    assert (tmp_path / "01_scenario_builder" / "ph.png").stat().st_size > 10_000


@pytest.mark.notebook
def test_02_parameter_sweep_writes_one_row_per_value(tmp_path, kernel):
    csv = tmp_path / "fan.csv"
    values = [0.4, 0.7, 1.0]
    summary = _run("02_parameter_sweep", tmp_path, kernel, values=values, output_csv=str(csv))
    df = pd.read_csv(csv)
    parameter = "unit_a.evaporator.fan_speed"
    assert len(df) == 3
    assert df[parameter].tolist() == values
    assert {"converged", "cop_cooling", "cooling_capacity_w", "compressor_power_w"} <= set(df)
    assert df["converged"].all()
    assert summary["converged"] == 3
    assert df["cooling_capacity_w"].is_monotonic_increasing  # more evaporator air
    assert ((df["cop_cooling"] > 1.0) & (df["cop_cooling"] < 10.0)).all()
    assert (tmp_path / "02_parameter_sweep" / "sweep.png").exists()


@pytest.mark.notebook
def test_03_controls_and_couplings(tmp_path, kernel):
    summary = _run("03_controls_and_couplings", tmp_path, kernel, targets=[4.0, 7.0])
    control = summary["control"]
    assert control["converged"]
    assert control["saturated"] is None
    assert control["measured"] == pytest.approx(control["target"], abs=1e-5)
    sweep = summary["target_sweep"]
    assert all(sweep["converged"])
    assert sweep["measured"] == pytest.approx([4.0, 7.0], abs=1e-5)
    assert sweep["actuator"][1] < sweep["actuator"][0]  # more superheat: a more closed valve
    cascade = summary["cascade"]
    assert cascade["converged"]
    assert cascade["circuits"] == [0, 1]
    assert abs(cascade["energy_balance_w"]) < 1e-6 * cascade["compressor_power_w"]
    assert cascade["coupling_heat_to_cold_w"] == pytest.approx(
        0.95 * cascade["coupling_heat_from_hot_w"], rel=1e-9
    )
    # a -20 C air evaporator rejecting to 35 C air in two stages: COP well under Carnot
    carnot = 253.15 / (308.15 - 253.15)
    assert 0.5 < cascade["cop_cooling"] < carnot
    assert PropsSI("Tcrit", "R134a") > 308.15  # subcritical rejection, as the example assumes


@pytest.mark.notebook
def test_06_branching_and_exergy(tmp_path, kernel):
    pressures = [2.4, 3.2, 3.8, 5.0]
    summary = _run("06_branching_and_exergy", tmp_path, kernel, flash_pressures_bar=pressures)
    flash = summary["flash"]
    assert flash["converged"]
    # the textbook numbers, and the notebook's own PropsSI hand calculation
    assert flash["vapour_fraction"] == pytest.approx(0.2049, abs=1e-4)
    assert flash["cop_cooling"] == pytest.approx(4.4753, abs=1e-4)
    assert flash["vapour_fraction"] == pytest.approx(flash["vapour_fraction_hand"], rel=2e-3)
    assert flash["cop_cooling"] == pytest.approx(flash["cop_hand"], rel=2e-3)
    assert abs(flash["energy_balance_w"]) < 1e-6 * flash["compressor_power_w"]
    assert len(flash["branches"]) == 3
    ex = flash["exergy"]
    assert ex["purpose"] == "cooling"
    assert 0.0 < ex["efficiency"] < 1.0
    assert abs(ex["balance_w"]) < 1e-6 * ex["fuel_w"]
    assert sum(ex["destruction"].values()) == pytest.approx(ex["destruction_w"])
    assert ex["destruction"]["valve_hi"] > 10 * abs(ex["destruction"]["comp_hi"])  # isentropic
    sweep = summary["flash_sweep"]
    assert all(sweep["converged"])
    assert sweep["pressures_bar"] == pressures
    assert sweep["cop_cooling"][1] == pytest.approx(flash["cop_cooling"], rel=1e-9)
    best = max(range(len(pressures)), key=lambda k: sweep["cop_cooling"][k])
    assert 0 < best < len(pressures) - 1  # a maximum between the ends
    assert sweep["vapour_fraction"] == sorted(sweep["vapour_fraction"], reverse=True)
    evaps = summary["evaporators"]
    assert evaps["converged"]
    capacities = evaps["capacity_w"]
    assert sum(capacities.values()) == pytest.approx(evaps["cooling_capacity_w"], rel=1e-12)
    assert capacities["evap_cellar"] != pytest.approx(capacities["evap_cabinet"], rel=0.05)
    flows = evaps["mass_flow_kg_s"]
    assert sum(flows.values()) == pytest.approx(evaps["compressor_mass_flow_kg_s"], rel=1e-10)
    assert evaps["saturation_k"]["evap_cellar"] == pytest.approx(275.15)
    assert evaps["saturation_k"]["evap_cabinet"] < 275.15 - 3.0
    assert abs(evaps["exergy"]["balance_w"]) < 1e-6 * evaps["exergy"]["fuel_w"]
    folder = tmp_path / "06_branching_and_exergy"
    for png in ("flash_ph.png", "flash_ts.png", "flash_exergy.png", "evaporators_ph.png"):
        assert (folder / png).stat().st_size > 10_000, png


@pytest.mark.notebook
def test_10_charge(tmp_path, kernel):
    charges = [0.2, 0.22, 0.24, 0.26]
    summary = _run("10_charge", tmp_path, kernel, charges_kg=charges)
    design, fixed, curve = summary["design"], summary["fixed"], summary["curve"]
    assert design["subcooling_k"] == pytest.approx(3.0, abs=1e-6)
    assert design["charge_kg"] == pytest.approx(sum(design["items"].values()), rel=1e-12)
    assert fixed["converged"]
    assert fixed["subcooling_k"] == pytest.approx(3.0, abs=0.02)
    assert fixed["cop_heating"] == pytest.approx(design["cop_heating"], rel=1e-4)
    assert curve["charge_kg"] == charges
    assert all(curve["converged"])
    assert curve["subcooling_k"] == sorted(curve["subcooling_k"])
    limits = summary["limits"]
    assert limits["m1_kg"] == pytest.approx(4 * 0.038)
    assert limits["m_max_kg"] == pytest.approx(2.5 * 0.038**1.25 * 1.8 * 15**0.5, rel=1e-12)
    lines = summary["lines"]
    assert 0.0 < lines["charge_kg"] < lines["unit_charge_kg"]
    sizing = lines["sizing"]
    proposed = [row for row in sizing["table"] if row["size"] == sizing["proposed"]]
    assert proposed
    assert proposed[0]["saturation_drop_k"] <= 1.0
    assert proposed[0]["meets_drop"]
    folder = tmp_path / "10_charge"
    for png in ("charge.png", "charge_curve.png", "split_charge.png"):
        assert (folder / png).stat().st_size > 10_000, png


@pytest.mark.notebook
def test_11_coil_design(tmp_path, kernel):
    summary = _run(
        "11_coil_design",
        tmp_path,
        kernel,
        banks=[1, 2, 3],
        fins_per_m=[400, 700],
        circuits=[1, 2, 4],
    )
    base = summary["base"]
    direct = solve(load_scenario("examples/scenarios/split_unit_fin_tube_v2.json"))
    assert base["capacity"] == pytest.approx(direct.components["evaporator"]["capacity"], rel=1e-6)
    assert base["condensate_kg_s"] > 0.0
    rows = pd.DataFrame(summary["rows_fins"])
    assert rows["converged"].all()
    assert len(rows) == 6
    for fins, part in rows.groupby("evaporator.geometry.fins_per_m"):
        part = part.sort_values("evaporator.geometry.banks")
        # more rows: more capacity, more air-side drop and more charge; the same compressor
        # then evaporates warmer, so the sensible heat ratio rises (less dehumidification)
        assert part["evaporator.capacity"].is_monotonic_increasing, fins
        assert part["evaporator.sensible_heat_ratio"].is_monotonic_increasing, fins
        assert part["evaporator.air_pressure_drop"].is_monotonic_increasing, fins
        assert part["charge_kg"].is_monotonic_increasing, fins
    circuits = pd.DataFrame(summary["circuits"]).sort_values("evaporator.geometry.circuits")
    assert circuits["converged"].all()
    # more circuits: lower mass flux, lower refrigerant pressure drop
    assert circuits["evaporator.refrigerant_pressure_drop"].is_monotonic_decreasing
    assert circuits["evaporator.refrigerant_heat_transfer_coefficient"].is_monotonic_decreasing
    folder = tmp_path / "11_coil_design"
    for png in ("rows_fins.png", "circuits.png"):
        assert (folder / png).stat().st_size > 10_000, png


@pytest.mark.notebook
def test_09_refrigerant_blends(tmp_path, kernel):
    summary = _run("09_refrigerant_blends", tmp_path, kernel)
    assert summary["fluids"] == ["R410A", "R454B", "R32"]
    assert all(summary["converged"].values())
    for fluid in summary["fluids"]:
        balance = summary["energy_balance_w"][fluid]
        assert abs(balance) < 1e-6 * summary["heating_capacity_w"][fluid]
        assert 2.0 < summary["cop_cooling"][fluid] < 10.0
    # only the zeotropic blend has a glide (R410A is pseudo-pure, R32 pure)
    assert summary["glide_evaporator_k"]["R454B"] > 0.5
    assert summary["glide_evaporator_k"]["R410A"] is None
    assert summary["custom_mole_fractions"] == pytest.approx(
        summary["predefined_mole_fractions"], abs=1e-7
    )
    folder = tmp_path / "09_refrigerant_blends"
    for png in ("ph_R454B.png", "ts_R454B.png", "ph_R410A.png"):
        assert (folder / png).stat().st_size > 10_000, png


@pytest.mark.notebook
@pytest.mark.db
def test_04_note_search(tmp_path, kernel, pg_admin_url):
    from notes_fixtures import make_database

    from workbench.notes import db

    name, url = make_database(pg_admin_url, "nb")
    try:
        summary = _run("04_note_search", tmp_path, kernel, database_url=url)
    finally:
        db.drop_database(pg_admin_url, name)
    assert summary["notes"] == 8
    assert summary["imported"] == 8
    assert summary["validate_ok"]
    assert summary["reindex_embedded"] == 0
    ice = summary["queries"]["why does the evaporator ice up"]
    assert ice["hybrid"][0] == "Evaporator frosting at low suction temperature"
    assert ice["semantic"][0] == "Evaporator frosting at low suction temperature"
    oil = summary["queries"]["oil trap in the suction riser"]
    assert oil["keyword"][0] == "Oil return in suction risers"
    assert all(len(hits) <= 3 for hits in ice.values())


@pytest.mark.notebook
@pytest.mark.db
def test_05_run_log(tmp_path, kernel, pg_admin_url):
    from notes_fixtures import make_database

    from workbench.notes import connect, db, get_run, list_runs

    name, url = make_database(pg_admin_url, "nb")
    try:
        summary = _run("05_run_log", tmp_path, kernel, database_url=url)
        again = _run("05_run_log", tmp_path / "again", kernel, database_url=url)
        with connect(url) as conn:
            runs = list_runs(conn, owner="run-log")
            cold = get_run(conn, again["stored"]["cold"]["id"], owner="run-log")
    finally:
        db.drop_database(pg_admin_url, name)
    stored = summary["stored"]
    assert set(stored) == {"cold", "mild"}
    # the query names -7 °C air: the cold variant is found first and reopened
    assert summary["found"] == "cold"
    assert summary["hits"][0] == stored["cold"]["title"]
    assert summary["reopened"] == stored["cold"]["id"]
    assert summary["converged"]
    assert summary["max_relative_difference"] <= 1e-9
    # colder evaporator air: less heat for the same compressor, a lower COP
    assert stored["cold"]["cop_heating"] < stored["mild"]["cop_heating"]
    assert stored["cold"]["heating_capacity_w"] < stored["mild"]["heating_capacity_w"]
    assert "COP" in stored["cold"]["title"]
    assert "kW heating" in stored["cold"]["title"]
    # the scenario reopened from the note is the cold variant, as saved by the notebook
    saved = load_scenario(summary["scenario_json"])
    evap = next(c for c in saved.circuits[0].components if c.name == "evaporator")
    assert evap.air_inlet_temp_c == -7.0
    # the reopened builder lists the other stored run as related, not the run itself
    assert stored["cold"]["title"] not in summary["related"]
    assert stored["mild"]["title"] in summary["related"]
    # a second run of the notebook replaces its notes (external ids) instead of adding copies
    assert len(runs) == 2
    assert cold.note.external_id == "05_run_log/cold"
    assert cold.scenario["circuits"][0]["components"][3]["air_inlet_temp_c"] == -7.0


# -- workbench run-notebook ------------------------------------------------------------------
@pytest.mark.notebook
def test_run_notebook_command(tmp_path, capsys):
    csv = tmp_path / "out.csv"
    code = main(
        [
            "run-notebook",
            "02",
            "-p",
            "values",
            "[0.6, 0.9]",
            "-p",
            "output_csv",
            str(csv),
            "--output-dir",
            str(tmp_path),
        ]
    )
    assert code == 0
    assert len(pd.read_csv(csv)) == 2
    assert (tmp_path / "02_parameter_sweep.ipynb").exists()
    assert json.loads((tmp_path / "02_parameter_sweep" / "summary.json").read_text())["rows"] == 2
    # a cell that raises: exit 1, the executed notebook is still written
    bad = main(
        [
            "run-notebook",
            "02_parameter_sweep",
            "-p",
            "parameter",
            "unit_a.evaporator.no_such_parameter",
            "--output-dir",
            str(tmp_path / "bad"),
        ]
    )
    assert bad == 1
    assert "no parameter 'no_such_parameter'" in capsys.readouterr().err
    assert (tmp_path / "bad" / "02_parameter_sweep.ipynb").exists()
    assert main(["run-notebook", "99_nothing"]) == 2


@pytest.mark.notebook
def test_08_calibration_fits_the_map_and_the_ua_values(tmp_path, kernel):
    summary = _run("08_calibration", tmp_path, kernel)
    # the catalogue: 53 points of a known map with 0.5 % noise, in F, kg/h and kW
    assert summary["map_points"] == 53
    assert summary["map_warnings"] == []
    for quantity in ("mass_flow_kg_s", "power_w", "capacity_w"):
        assert 0.3 < summary["map_errors"][quantity]["rms_relative_pct"] < 0.6
    assert len(summary["mass_flow_map_kg_s"]) == 10
    assert len(summary["envelope_warnings"]) == 1
    assert "(20, 45)" in summary["envelope_warnings"][0]
    # the rig points were solved with these values (0.3 % noise): each inside its interval
    truth = {
        "condenser.ua": 1500.0,
        "evaporator.ua_nominal_kw_k": 1.2,
        "compressor.isentropic_efficiency": 0.7,
    }
    assert summary["unidentifiable"] == {}
    assert summary["failed"] == []
    for path, value in truth.items():
        low, high = summary["intervals"][path]
        assert low < value < high
        assert summary["values"][path] == pytest.approx(value, rel=0.05)
    assert summary["points"] == 20
    assert (tmp_path / "08_calibration" / "parity.png").stat().st_size > 10_000
    calibrated = load_scenario(summary["scenario_json"])
    condenser = next(c for c in calibrated.circuits[0].components if c.name == "condenser")
    assert condenser.ua == pytest.approx(summary["values"]["condenser.ua"])
