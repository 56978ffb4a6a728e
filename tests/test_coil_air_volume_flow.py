"""``air_volume_flow_m3_s`` on a coil: the mass flow from the humid air's inlet density."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from CoolProp.HumidAirProp import HAPropsSI

from workbench.errors import ScenarioError
from workbench.solver import solve

EXAMPLE = Path(__file__).resolve().parents[1] / "examples/scenarios/r454b_split_unit_v2.json"


def _unit() -> dict:
    return json.loads(EXAMPLE.read_text())


def _moist_density(t_k: float, rh: float, p: float) -> float:
    """Moist air per volume [kg/m3] from CoolProp's HAPropsSI (independent of psychrolib)."""
    v_da = HAPropsSI("V", "T", t_k, "P", p, "R", rh)  # m3 per kg dry air
    w = HAPropsSI("W", "T", t_k, "P", p, "R", rh)
    return (1.0 + w) / v_da


@pytest.mark.parametrize("rh", [0.0, 0.5])
def test_volume_flow_solves_like_the_equal_mass_flow(rh: float) -> None:
    volume = 0.42
    by_volume = _unit()
    evap = by_volume["circuits"][0]["components"][3]
    del evap["secondary_mass_flow_kg_s"]
    evap["air_volume_flow_m3_s"] = volume
    evap["air_inlet_rh"] = rh
    by_mass = copy.deepcopy(_unit())
    m = volume * _moist_density(300.15, rh, 101325.0)
    by_mass["circuits"][0]["components"][3]["secondary_mass_flow_kg_s"] = m
    a, b = solve(by_volume), solve(by_mass)
    assert a.converged
    assert b.converged
    assert a.components["evaporator"]["capacity"] == pytest.approx(
        b.components["evaporator"]["capacity"], rel=2e-4
    )


def test_volume_and_mass_flow_together_are_refused() -> None:
    doc = _unit()
    doc["circuits"][0]["components"][3]["air_volume_flow_m3_s"] = 0.4
    with pytest.raises(ScenarioError, match="air_volume_flow_m3_s"):
        solve(doc)


def test_relative_humidity_above_one_names_the_path() -> None:
    doc = _unit()
    doc["circuits"][0]["components"][3]["air_inlet_rh"] = 1.2
    with pytest.raises(ScenarioError, match=r"components\[3\]\.air_inlet_rh"):
        solve(doc)
