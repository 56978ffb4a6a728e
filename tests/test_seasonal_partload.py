"""Part load: the compressor speed that meets a required capacity, clamped to its range."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import workbench
from workbench.errors import ScenarioError
from workbench.seasonal import part_load_sweep, solve_for_capacity

EXAMPLE = Path(__file__).parent.parent / "examples/scenarios/air_water_heat_pump_seasonal_v2.json"


def _doc_with(values):
    doc = json.loads(EXAMPLE.read_text())
    for path, value in values.items():
        comp, key = path.rsplit(".", 1)
        next(c for c in doc["circuits"][0]["components"] if c["name"] == comp)[key] = value
    return doc


def test_partload_heating_capacity_is_met_and_resolves():
    cond = {"evaporator.air_inlet_temp_c": 2.0}
    point = solve_for_capacity(EXAMPLE, 5.0, conditions=cond)
    assert point.converged
    assert point.limit is None
    assert point.capacity_w == pytest.approx(5000.0, rel=1e-8)
    assert 20.0 < point.control < 110.0
    result = workbench.solve(_doc_with({**cond, **point.values}))
    assert result.summary["heating_capacity_w"] == pytest.approx(5000.0, rel=1e-6)
    assert result.summary["cop_heating"] == pytest.approx(point.cop, rel=1e-6)


def test_partload_cooling_output_uses_the_cooling_cop():
    point = solve_for_capacity(EXAMPLE, 4.0, output="evaporator.capacity")
    assert point.converged
    assert point.capacity_w == pytest.approx(4000.0, rel=1e-8)
    result = workbench.solve(_doc_with(point.values))
    assert point.cop == pytest.approx(result.summary["cop_cooling"], rel=1e-6)


def test_partload_clamps_at_both_ends():
    high = solve_for_capacity(EXAMPLE, 50.0)
    assert high.limit == "max"
    assert high.control == 110.0
    assert high.capacity_w < 50e3
    low = solve_for_capacity(EXAMPLE, 0.5)
    assert low.limit == "min"
    assert low.control == 20.0
    assert low.capacity_w > 500.0


def test_partload_sweep_needs_less_speed_in_warmer_air():
    temps = [-10.0, -2.0, 6.0, 14.0]
    df = part_load_sweep(EXAMPLE, "evaporator.air_inlet_temp_c", temps, 5.0)
    assert df["converged"].all()
    np.testing.assert_allclose(df["capacity_kw"], 5.0, rtol=1e-8)
    speeds = df["compressor.speed_hz"].to_numpy()
    assert (np.diff(speeds) < 0).all()
    assert (np.diff(df["cop"].to_numpy()) > 0).all()


def test_partload_without_a_range_names_the_control():
    doc = json.loads(EXAMPLE.read_text())
    del doc["circuits"][0]["components"][0]["max_speed_hz"]
    with pytest.raises(ScenarioError, match=r"compressor\.speed_hz"):
        solve_for_capacity(doc, 5.0)
