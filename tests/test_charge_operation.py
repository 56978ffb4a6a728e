import json
import subprocess
import sys

import pandas as pd
import pytest
from charge_cases import accumulator_doc, charge_doc, receiver_doc
from CoolProp.CoolProp import PropsSI

import workbench
from workbench.errors import ScenarioError
from workbench.sweep.paths import resolve_path


@pytest.fixture(scope="module")
def reference():
    r = workbench.solve(charge_doc(subcooling_k=3.0))
    assert r.converged
    return r


def test_fixed_charge_gives_the_subcooling_back(reference):
    charge = reference.summary["charge_kg"]
    r = workbench.solve(charge_doc(charge_kg=charge))
    assert r.converged
    assert r.components["condenser"]["subcooling"] == pytest.approx(3.0, abs=0.02)
    assert r.summary["cop_heating"] == pytest.approx(reference.summary["cop_heating"], rel=1e-4)
    assert r.summary["charge_kg"] == pytest.approx(charge, abs=1e-6)
    assert "circuit[0].charge" in r.eq_names
    assert "condenser.subcooling" not in r.eq_names


def test_fixed_charge_keeps_mass_and_energy_balance(reference):
    r = workbench.solve(charge_doc(charge_kg=reference.summary["charge_kg"] + 0.02))
    assert r.converged
    assert abs(r.summary["energy_balance_w"]) < 1e-3
    flows = {s.label: s.m_kg_s for s in r.edge_states}
    assert max(flows.values()) - min(flows.values()) < 1e-12


def test_more_charge_more_subcooling(reference):
    c = reference.summary["charge_kg"]
    frame = workbench.sweep(
        charge_doc(charge_kg=c),
        {"circuits[0].charge_kg": [c - 0.02, c - 0.01, c, c + 0.01, c + 0.02]},
        outputs=["condenser.subcooling"],
    )
    assert frame["converged"].all()
    assert frame["charge_kg"].to_numpy() == pytest.approx(frame["circuits[0].charge_kg"], abs=1e-6)
    sub = frame["condenser.subcooling"].to_numpy()
    assert (sub[1:] > sub[:-1]).all()
    assert sub[2] == pytest.approx(3.0, abs=0.02)


def test_undercharged_circuit_flashes_before_the_valve_and_says_so(reference):
    r = workbench.solve(charge_doc(charge_kg=reference.summary["charge_kg"] - 0.04))
    assert r.converged
    assert r.components["condenser"]["subcooling"] < 0
    assert any("undercharged" in w for w in r.warnings)


def test_charge_and_subcooling_together_name_both_paths():
    doc = charge_doc(charge_kg=0.25, subcooling_k=3.0)
    with pytest.raises(ScenarioError) as info:
        workbench.load_scenario(doc)
    text = str(info.value)
    assert "circuits[0].charge_kg" in text
    assert "circuits[0].components[1].subcooling_k" in text


def test_charge_and_subcooling_together_exit_2(tmp_path):
    path = tmp_path / "both.json"
    path.write_text(json.dumps(charge_doc(charge_kg=0.25, subcooling_k=3.0)))
    proc = subprocess.run(
        [sys.executable, "-m", "workbench.cli.main", "solve", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "circuits[0].charge_kg" in proc.stderr + proc.stdout
    assert "circuits[0].components[1].subcooling_k" in proc.stderr + proc.stdout


def test_fixed_charge_without_volumes_is_refused():
    doc = charge_doc(volumes=False)
    doc["circuits"][0]["charge_kg"] = 0.3
    with pytest.raises(ScenarioError, match=r"circuits\[0\]\.charge_kg: a fixed charge needs"):
        workbench.load_scenario(doc)


def test_sweep_path_addresses_the_circuit_charge():
    flat = workbench.load_scenario(charge_doc(charge_kg=0.25))
    spec = resolve_path(workbench.flatten(flat), "circuits[0].charge_kg")
    assert spec.kind == "circuit"
    with pytest.raises(ScenarioError, match="1 circuit"):
        resolve_path(workbench.flatten(flat), "circuits[3].charge_kg")


def test_cli_json_has_charge_and_safety(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "workbench.cli.main",
            "solve",
            "examples/scenarios/r290_heat_pump_charge_v2.json",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["summary"]["charge_kg"] == pytest.approx(0.25, abs=1e-6)
    assert doc["charge"]["total_kg"] == pytest.approx(0.25, abs=1e-6)
    kinds = {i["name"]: i for i in doc["charge"]["items"]}
    assert [z["zone"] for z in kinds["condenser"]["zones"]] == [
        "superheated",
        "two-phase",
        "subcooled",
    ]
    assert doc["safety"]["complies"] is True


@pytest.fixture(scope="module")
def receiver_reference():
    r = workbench.solve(receiver_doc(level=0.5))
    assert r.converged
    return r


def test_receiver_holds_level_times_liquid_plus_vapour(receiver_reference):
    r = receiver_reference
    p = r.components["receiver"]["pressure"]
    rho_l, rho_g = PropsSI("D", "P", p, "Q", 0, "R290"), PropsSI("D", "P", p, "Q", 1, "R290")
    item = next(i for i in r.charge["items"] if i["name"] == "receiver")
    assert item["kg"] == pytest.approx(1e-3 * (0.5 * rho_l + 0.5 * rho_g), rel=1e-9)
    assert r.components["condenser"]["subcooling"] == pytest.approx(0.0, abs=1e-6)


def test_fixed_charge_with_a_receiver_sets_its_level(receiver_reference):
    r0 = receiver_reference
    p = r0.components["receiver"]["pressure"]
    rho_l, rho_g = PropsSI("D", "P", p, "Q", 0, "R290"), PropsSI("D", "P", p, "Q", 1, "R290")
    r = workbench.solve(receiver_doc(charge_kg=r0.summary["charge_kg"] + 0.1))
    assert r.converged
    # the extra charge only fills the receiver: the cycle is the same, the level rises
    assert r.components["receiver"]["liquid_level"] == pytest.approx(
        0.5 + 0.1 / (1e-3 * (rho_l - rho_g)), abs=1e-5
    )
    assert r.summary["cop_heating"] == pytest.approx(r0.summary["cop_heating"], rel=1e-6)
    assert r.charge["fixed"][0]["sets"] == "receiver.level"


def test_overfilled_receiver_is_a_problem(receiver_reference):
    r = workbench.solve(receiver_doc(charge_kg=receiver_reference.summary["charge_kg"] + 0.5))
    assert not r.converged
    assert any("flooded" in p for p in r.problems)


def test_accumulator_passes_saturated_vapour_and_its_level_takes_the_charge():
    r0 = workbench.solve(accumulator_doc())
    assert r0.converged
    assert r0.components["evaporator"]["superheat"] == pytest.approx(0.0, abs=1e-6)
    suction = next(s for s in r0.edge_states if s.src == "accumulator")
    assert suction.h_j_kg == pytest.approx(PropsSI("H", "P", suction.p_pa, "Q", 1, "R290"))
    p = r0.components["accumulator"]["pressure"]
    rho_l, rho_g = PropsSI("D", "P", p, "Q", 0, "R290"), PropsSI("D", "P", p, "Q", 1, "R290")
    r = workbench.solve(accumulator_doc(charge_kg=r0.summary["charge_kg"] - 0.02))
    assert r.converged
    assert r.charge["fixed"][0]["sets"] == "accumulator.level"
    assert r.components["accumulator"]["liquid_level"] == pytest.approx(
        0.5 - 0.02 / (5e-4 * (rho_l - rho_g)), abs=1e-5
    )


def test_cli_sweep_over_the_charge(tmp_path):
    out = tmp_path / "curve.csv"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "workbench.cli.main",
            "sweep",
            "examples/scenarios/r290_heat_pump_charge_v2.json",
            "--set",
            "circuits[0].charge_kg=0.22:0.26:3",
            "-o",
            str(out),
            "--processes",
            "1",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    frame = pd.read_csv(out)
    assert list(frame["circuits[0].charge_kg"]) == pytest.approx([0.22, 0.24, 0.26])
    assert frame["charge_kg"].to_numpy() == pytest.approx([0.22, 0.24, 0.26], abs=1e-6)
    assert frame["cop_heating"].notna().all()
