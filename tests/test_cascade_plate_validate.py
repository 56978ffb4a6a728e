"""A thermal coupling's brazed plate geometry: bad input is exit 2 naming the JSON path."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.cli.main import EXIT_BAD_INPUT, EXIT_OK, main
from workbench.errors import ScenarioError, SpecificationError
from workbench.scenario import load_scenario
from workbench.solver import prepare

EXAMPLE = (
    Path(__file__).resolve().parent.parent / "examples" / "scenarios" / "cascade_plate_v2.json"
)


def _doc() -> dict:
    return json.loads(EXAMPLE.read_text())


def _validate(tmp_path: Path, doc: dict, capsys) -> tuple[int, str]:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc))
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    return code, out + err


def test_cascade_plate_example_validates(tmp_path, capsys):
    code, text = _validate(tmp_path, _doc(), capsys)
    assert code == EXIT_OK, text


@pytest.mark.parametrize(
    ("key", "value", "path", "words"),
    [
        ("plates", 2, "thermal_couplings[0].geometry.plates", "integer >= 3"),
        ("chevron_angle_deg", 95, "thermal_couplings[0].geometry.chevron_angle_deg", "(0, 90)"),
        ("port_diameter_m", 0.5, "thermal_couplings[0].geometry.port_diameter_m", "smaller"),
        ("kind", "fin_tube", "thermal_couplings[0].geometry.kind", "brazed_plate"),
        ("fins_per_m", 500, "thermal_couplings[0].geometry.fins_per_m", "unknown key"),
    ],
)
def test_cascade_plate_bad_geometry_is_exit_2_at_its_path(
    tmp_path, capsys, key, value, path, words
):
    doc = _doc()
    doc["thermal_couplings"][0]["geometry"][key] = value
    code, text = _validate(tmp_path, doc, capsys)
    assert code == EXIT_BAD_INPUT
    assert path in text
    assert words in text


def test_cascade_plate_missing_key_is_named(tmp_path, capsys):
    doc = _doc()
    del doc["thermal_couplings"][0]["geometry"]["channel_gap_m"]
    code, text = _validate(tmp_path, doc, capsys)
    assert code == EXIT_BAD_INPUT
    assert "thermal_couplings[0].geometry.channel_gap_m" in text
    assert "is required" in text


@pytest.mark.parametrize("both", [True, False])
def test_a_coupling_takes_exactly_one_of_ua_or_geometry(tmp_path, capsys, both):
    doc = _doc()
    if both:
        doc["thermal_couplings"][0]["ua"] = 1200
        words = "both given"
    else:
        del doc["thermal_couplings"][0]["geometry"]
        words = "neither given"
    code, text = _validate(tmp_path, doc, capsys)
    assert code == EXIT_BAD_INPUT
    assert "thermal_couplings[0]" in text
    assert "exactly one of ua" in text
    assert words in text
    with pytest.raises(ScenarioError):
        load_scenario(doc)


def test_cascade_plate_bad_geometry_exit_2_in_a_subprocess(tmp_path):
    doc = _doc()
    doc["thermal_couplings"][0]["geometry"]["plates"] = 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    run = subprocess.run(
        [sys.executable, "-m", "workbench.cli.main", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "thermal_couplings[0].geometry.plates" in run.stderr


def test_a_coupled_coil_with_its_own_volume_or_drop_is_refused():
    for key, value in (("internal_volume_m3", 0.001), ("dp_pa", 5000.0)):
        doc = copy.deepcopy(_doc())
        cond = next(c for c in doc["circuits"][0]["components"] if c["name"] == "lt_condenser")
        cond[key] = value
        with pytest.raises(SpecificationError, match=f"lt_condenser.*{key}|{key}.*lt_condenser"):
            prepare(doc)


def test_a_run_note_names_the_plates_of_the_cascade_exchanger():
    from workbench.notes.runs.words import topology_sentences
    from workbench.scenario import as_flat

    doc = _doc()
    words = " ".join(topology_sentences(doc, as_flat(doc)))
    assert (
        "Thermal coupling from circuit 0 (hot) to circuit 1 (cold): brazed_plate exchanger of "
        "34 plates, efficiency 0.95." in words
    )
