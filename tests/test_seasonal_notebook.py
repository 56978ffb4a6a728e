"""Notebook 07: the seasonal rating executed with papermill on a real kernel."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from notebook_checks import assert_charts_and_no_stray_outputs

from workbench.notebook_ui import ensure_kernel, run_notebook
from workbench.seasonal import rate


@pytest.mark.notebook
def test_07_seasonal_rates_the_example_and_names_the_limiting_point(tmp_path):
    artefacts = tmp_path / "07"
    run_notebook(
        "07_seasonal",
        {"output_dir": str(artefacts), "climate": "colder", "application": "medium"},
        output=tmp_path / "07.ipynb",
        kernel_name=ensure_kernel(),
    )
    executed = nbformat.read(str(tmp_path / "07.ipynb"), as_version=4)
    errors = [
        o
        for c in executed.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    ]
    assert not errors
    assert_charts_and_no_stray_outputs(executed)
    # G (-15 degC) is below the unit's operation limit (-10 degC): back-up heat, no unit figures
    cell = next(c for c in executed.cells if "seasonal_points_table(rating)" in c.source)
    table = cell.outputs[-1].data["text/html"]
    g_row = re.search(r"<th[^>]*>G</th>(.*?)</tr>", table, re.S).group(1)
    assert "beyond the operation limit (-10 °C): back-up heat" in g_row
    assert "outdoor [°C]" in table
    assert "speed_hz" not in table
    assert "nan" not in table.lower()
    summary = json.loads((artefacts / "summary.json").read_text())
    assert summary["climate"] == "colder"
    assert summary["application"] == "medium"
    assert summary["complete"] is True
    # the notebook's figures are the package's (the notebook holds no model logic)
    direct = rate(
        Path(__file__).parent.parent / "examples/scenarios/air_water_heat_pump_seasonal_v2.json",
        climate="colder",
        application="medium",
    )
    assert summary["scop"] == pytest.approx(direct.scop, rel=1e-9)
    assert summary["limiting_point"] == summary["sensitivity"][0]["name"]
    assert (artefacts / "bins.png").stat().st_size > 10_000
    assert [tp["supply_c"] for tp in summary["test_points"] if tp["name"].startswith("G")] == [49.0]


@pytest.mark.notebook
def test_07_seasonal_unknown_climate_is_one_line_naming_the_climates(tmp_path):
    from papermill.exceptions import PapermillExecutionError

    with pytest.raises(PapermillExecutionError):
        run_notebook(
            "07_seasonal",
            {"output_dir": str(tmp_path / "07"), "climate": "cold"},
            output=tmp_path / "07.ipynb",
            kernel_name=ensure_kernel(),
        )
    executed = nbformat.read(str(tmp_path / "07.ipynb"), as_version=4)
    (error,) = [
        o
        for c in executed.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    ]
    assert error.traceback == [
        "ScenarioError: climate: 'cold' is not one of average, warmer, colder"
    ]


@pytest.mark.notebook
def test_12_declared_products_rates_fits_and_predicts_55c(tmp_path):
    from workbench.seasonal.declared_table import rate_declared_table

    root = Path(__file__).parent.parent
    artefacts = tmp_path / "12"
    run_notebook(
        "12_declared_products",
        {"output_dir": str(artefacts), "product": "Aurora AW-8 (made up)"},
        output=tmp_path / "12.ipynb",
        kernel_name=ensure_kernel(),
    )
    executed = nbformat.read(str(tmp_path / "12.ipynb"), as_version=4)
    errors = [
        o
        for c in executed.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    ]
    assert not errors
    summary = json.loads((artefacts / "summary.json").read_text())
    # the rating is the package's (the notebook holds no model logic)
    direct = rate_declared_table(root / "examples/declared/heat_pumps.csv").iloc[0]
    assert summary["scop"] == pytest.approx(direct["scop"], rel=1e-12)
    assert summary["convention"] == "without_off_mode"
    assert summary["fit_success"] is True
    assert len(summary["cop_55_model"]) == 5
    # the made-up product's 55 degC declaration, predicted from its 35 degC one
    assert summary["median_abs_cop_error_55_pct"] < 5.0
    assert (artefacts / "parity.png").stat().st_size > 10_000
