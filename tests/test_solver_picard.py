"""Picard (Gauss-Seidel) on UA-mode cycles: the matching it sweeps with, and where it lands."""

from __future__ import annotations

import copy

import pytest

from workbench.scenario.reference_cases import split_unit_r410a, ua_heat_pump, water_heat_pump
from workbench.solver import StopReason, prepare, solve
from workbench.solver.picard import match_equations

CASES = {
    "ua_heat_pump": ua_heat_pump,
    "split_unit_r410a": split_unit_r410a,
    "split_unit_r410a_loop": lambda: split_unit_r410a(superheat_loop=True),
    "water_heat_pump": water_heat_pump,
}


def test_each_ua_coil_heat_balance_moves_its_pressure_and_the_spec_its_outlet():
    system = prepare(ua_heat_pump())
    x = solve(None, system=system).x
    match = match_equations(system, x)
    pairs = {system.eq_names[i]: system.var_names[j] for i, j in enumerate(match)}
    assert pairs["cond.heat_transfer"] == "p[comp:outlet -> cond:inlet]"
    assert pairs["cond.subcooling"] == "h[cond:outlet -> valve:inlet]"
    assert pairs["evap.heat_transfer"].startswith("p[")
    assert pairs["evap.superheat"] == "h[evap:outlet -> comp:inlet]"
    assert pairs["comp.energy"] == "h[comp:outlet -> cond:inlet]"
    assert sorted(match) == list(range(system.n_vars))  # a perfect matching


@pytest.mark.parametrize("name", list(CASES))
def test_picard_alone_converges_on_ua_cycles_to_the_newton_solution(name):
    doc = CASES[name]()
    newton = solve(copy.deepcopy(doc) | {"solver": {"strategy": "newton"}})
    picard = solve(copy.deepcopy(doc) | {"solver": {"strategy": "picard", "max_iterations": 100}})
    assert newton.converged, newton.report()
    assert picard.converged, picard.report()
    assert picard.stop_reason is StopReason.CONVERGED
    assert picard.strategy_log == ["picard"]
    for key in ("heating_capacity_w", "cooling_capacity_w", "compressor_power_w"):
        assert picard.summary[key] == pytest.approx(newton.summary[key], rel=1e-6)
    assert abs(picard.summary["energy_balance_w"]) < 1e-6 * picard.summary["heating_capacity_w"]


def test_picard_stopped_short_says_why_and_what_to_try():
    doc = split_unit_r410a() | {"solver": {"strategy": "picard", "max_iterations": 3}}
    result = solve(doc)
    assert not result.converged
    assert result.stop_reason is StopReason.MAX_ITERATIONS
    assert result.message == "max_iterations (3) reached"
    assert "solver.strategy 'fallback'" in result.hint
