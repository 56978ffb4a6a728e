"""The notebook ``13_plate_design``: executed with papermill on a real kernel, its summary checked."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from notebook_checks import assert_charts_and_no_stray_outputs

from workbench.notebook_ui import ensure_kernel, run_notebook
from workbench.solver import solve

EXAMPLE = (
    Path(__file__).resolve().parents[1] / "examples/scenarios/brine_water_heat_pump_plate_v2.json"
)
CASCADE = Path(__file__).resolve().parents[1] / "examples/scenarios/cascade_plate_v2.json"


@pytest.mark.notebook
def test_13_plate_design(tmp_path: Path) -> None:
    artefacts = tmp_path / "13_plate_design"
    run_notebook(
        "13_plate_design",
        {"output_dir": str(artefacts), "condenser_plates": [26, 34, 44]},
        output=tmp_path / "13_plate_design.ipynb",
        kernel_name=ensure_kernel(),
    )
    executed = nbformat.read(str(tmp_path / "13_plate_design.ipynb"), as_version=4)
    errors = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]  # fmt: skip
    assert not errors
    assert_charts_and_no_stray_outputs(executed)
    summary = json.loads((artefacts / "summary.json").read_text())
    # the design point is the example solved here
    direct = solve(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    cond = summary["design"]["exchangers"]["condenser"]
    assert cond["capacity"] == pytest.approx(direct.components["condenser"]["capacity"], rel=1e-9)
    assert summary["design"]["charge_kg"] == pytest.approx(direct.charge["total_kg"], rel=1e-9)
    sweep = summary["sweep"]
    assert sweep["plates"] == [26, 34, 44]
    assert all(sweep["converged"])
    # more plates: lower condensing temperature, better COP, more charge, less water-side drop
    assert sweep["condensing [°C]"] == sorted(sweep["condensing [°C]"], reverse=True)
    assert sweep["COP heating"] == sorted(sweep["COP heating"])
    assert sweep["charge [g]"] == sorted(sweep["charge [g]"])
    assert sweep["dp water [kPa]"] == sorted(sweep["dp water [kPa]"], reverse=True)
    # the cascade whose coupling exchanger is built from plates, as solved here
    cascade = solve(json.loads(CASCADE.read_text(encoding="utf-8"))).couplings[0]
    assert summary["cascade"]["plates"] == 34
    for key in ("heat_from_hot_w", "ua", "hot_pressure_drop", "cold_pressure_drop"):
        assert summary["cascade"][key] == pytest.approx(cascade[key], rel=1e-9)
    assert (artefacts / "plates_sweep.png").stat().st_size > 10_000
    assert (artefacts / "plates_sweep.csv").exists()
