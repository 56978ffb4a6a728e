"""A product as a model: predict at declared conditions, fit to a declaration, fit many.

The products are constructed: a "true" unit is the example scenario with hidden parameter
values, its declaration is its EN 14825 rating (35 degC), the fit starts from the example's
values and must recover the hidden ones and predict the 55 degC declaration.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pandas as pd
import pytest

from workbench.cli.main import main
from workbench.errors import ScenarioError
from workbench.seasonal import fit_declared, predict_declared, rate
from workbench.seasonal.product_table import fit_declared_table
from workbench.seasonal.products import SPEED_SHAPE

EXAMPLE = (
    Path(__file__).resolve().parents[1]
    / "examples"
    / "scenarios"
    / "air_water_heat_pump_seasonal_v2.json"
)
BASE = json.loads(EXAMPLE.read_text())
COLUMNS = ["t_c", "supply_c", "capacity_kw", "cop"]


def _truth(displacement=4.2e-5, eta=0.62, c2=-0.3):
    doc = copy.deepcopy(BASE)
    comp = doc["circuits"][0]["components"][0]
    comp["displacement_m3"], comp["isentropic_efficiency"] = displacement, eta
    comp["isentropic_speed_curve"] = [1.0 - 0.7 - c2, 0.7, c2]  # the base's when c2 = -0.3
    return doc


@pytest.fixture(scope="module")
def declarations():
    truth = _truth(c2=-0.2)
    return rate(truth).test_points, rate(truth, application="medium").test_points


def test_products_predict_reproduces_the_rating_test_points(declarations):
    low, _ = declarations
    pred = predict_declared(_truth(c2=-0.2), low[COLUMNS[:3]])
    assert list(pred.columns) == [*COLUMNS, "speed_hz", "converged", "limit"]
    assert pred["converged"].all()
    # the rating solved each point for its load; asked for the capacity it reported, the
    # prediction finds the same speed and COP
    assert pred["cop"].to_numpy() == pytest.approx(low["cop"].to_numpy(), rel=1e-6)
    assert pred["capacity_kw"].to_numpy() == pytest.approx(low["capacity_kw"].to_numpy(), rel=1e-8)
    assert pred["speed_hz"].to_numpy() == pytest.approx(low["speed_hz"].to_numpy(), rel=1e-5)
    # beyond the unit's reach the capacity falls short and the limit says so
    big = predict_declared(_truth(c2=-0.2), [{"t_c": -10.0, "supply_c": 35.0, "capacity_kw": 30.0}])
    assert big.loc[0, "limit"] == "max"
    assert big.loc[0, "capacity_kw"] < 30.0


def test_products_fit_recovers_hidden_size_efficiency_and_speed_shape_and_predicts_55c(
    declarations,
):
    low, med = declarations
    free = ["compressor.displacement_m3", "compressor.isentropic_efficiency", SPEED_SHAPE]
    fit = fit_declared(BASE, low[COLUMNS], free)
    assert fit.success
    assert fit.start == {free[0]: 3.6e-5, free[1]: 0.68, free[2]: -0.3}
    assert fit.values[free[0]] == pytest.approx(4.2e-5, rel=1e-3)
    assert fit.values[free[1]] == pytest.approx(0.62, rel=1e-3)
    assert fit.values[free[2]] == pytest.approx(-0.2, abs=1e-3)
    curve = fit.scenario["circuits"][0]["components"][0]["isentropic_speed_curve"]
    assert sum(curve) == pytest.approx(1.0, rel=1e-12)  # 1 at the rated speed
    for path in free:
        low_i, high_i = fit.intervals[path]
        assert low_i <= fit.values[path] <= high_i
    assert set(fit.residuals["quantity"]) == {"cop", "capacity_kw"}
    assert fit.residuals["weighted"].abs().max() < 1e-2
    pred = predict_declared(fit.scenario, med[COLUMNS[:3]])
    assert pred["cop"].to_numpy() == pytest.approx(med["cop"].to_numpy(), rel=1e-4)


def test_products_bad_points_name_the_point():
    with pytest.raises(ScenarioError, match=r"points\[1\]\.cop"):
        fit_declared(BASE, [{"t_c": 2, "supply_c": 30, "capacity_kw": 5, "cop": 4},
                            {"t_c": 7, "supply_c": 27, "capacity_kw": 3, "cop": -1}])  # fmt: skip
    with pytest.raises(ScenarioError, match=r"points\.supply_c"):
        predict_declared(BASE, [{"t_c": 2, "capacity_kw": 5}])


def _points_csv(tmp_path, low):
    table = low[COLUMNS].iloc[1:3].assign(product="Made-up 1")
    bad = table.assign(product="Made-up 2", cop=table["cop"] * 0 + 50.0)  # a COP no cycle gives
    path = tmp_path / "points.csv"
    pd.concat([table, bad])[["product", *COLUMNS]].to_csv(path, index=False)
    return path


def test_products_fit_table_and_cli(tmp_path, capsys):
    low = rate(_truth(displacement=3.6e-5, eta=0.62)).test_points  # only the efficiency hidden
    path = _points_csv(tmp_path, low)
    free = ["compressor.isentropic_efficiency"]
    fitted = fit_declared_table(path, EXAMPLE, free=free)
    assert list(fitted["product"]) == ["Made-up 1", "Made-up 2"]
    assert fitted.loc[0, free[0]] == pytest.approx(0.62, rel=1e-4)
    assert fitted.loc[0, "cop_rms_pct"] < 1e-3
    assert fitted.loc[1, "cop_rms_pct"] > 10  # the impossible COP is not met
    distributed = pytest.importorskip("distributed", reason="the dask extra")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None
    ) as cluster:
        out = tmp_path / "fitted.csv"
        code = main(["seasonal", "fit", "--declared", str(path), "--scenario", str(EXAMPLE),
                     "--free", free[0], "-o", str(out), "--scheduler", cluster.scheduler_address])  # fmt: skip
    assert code == 0  # both fits converge (Made-up 2 at a bound, its COP not met: cop_rms_pct)
    written = pd.read_csv(out)
    assert list(written["product"]) == ["Made-up 1", "Made-up 2"]
    assert written[free[0]].to_numpy() == pytest.approx(fitted[free[0]].to_numpy(), rel=1e-6)


def test_products_cli_fit_bad_input_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("product,t_c,supply_c,capacity_kw\nX,2,30,5\n")
    assert main(["seasonal", "fit", "--declared", str(bad), "--scenario", str(EXAMPLE)]) == 2
    assert "column 'cop' is missing" in capsys.readouterr().err
    bad.write_text("product,t_c,supply_c,capacity_kw,cop\nX,2,30,five,4\n")
    assert main(["seasonal", "fit", "--declared", str(bad), "--scenario", str(EXAMPLE)]) == 2
    assert "row 1 (X), column 'capacity_kw'" in capsys.readouterr().err
    assert main(["seasonal", "fit", "--declared", str(bad)]) == 2
    assert "fit needs --scenario" in capsys.readouterr().err
