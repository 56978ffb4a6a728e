"""Specification errors, non-convergence as a result, and physically impossible specs."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from solver_cases import loop_edges, textbook_r134a, ua_heat_pump

from workbench.errors import ScenarioError, SpecificationError
from workbench.solver import StopReason, solve
from workbench.solver.diagnostics import hint_for

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "scenarios"


def _components(doc):
    return {c["name"]: c for c in doc["circuits"][0]["components"]}


def test_under_specified_condenser_names_the_missing_spec():
    doc = ua_heat_pump()
    del _components(doc)["cond"]["subcooling_k"]
    with pytest.raises(SpecificationError) as info:
        solve(doc)
    msg = str(info.value)
    assert "circuit 0 is under-specified" in msg
    assert "Condenser 'cond': add subcooling_k or t_cond_k" in msg


def test_over_specified_flow_names_both_flow_setters():
    doc = ua_heat_pump()
    _components(doc)["valve"]["flow_coefficient_m2"] = 1.0e-6
    with pytest.raises(SpecificationError) as info:
        solve(doc)
    msg = str(info.value)
    assert "over-specified" in msg
    assert "Evaporator 'evap': superheat_k" in msg
    assert "'comp'" in msg
    assert "'valve'" in msg


def test_ua_coil_with_both_saturation_and_outlet_spec_is_over_specified():
    doc = ua_heat_pump()
    _components(doc)["cond"]["t_cond_k"] = 310.0
    with pytest.raises(SpecificationError, match="remove one of them"):
        solve(doc)


def test_open_circuit_names_the_unconnected_port():
    doc = textbook_r134a()
    doc["circuits"][0]["edges"].pop()  # evap:outlet -> comp:inlet
    # caught by the scenario checks before anything is built
    with pytest.raises(ScenarioError) as info:
        solve(doc)
    msg = str(info.value)
    assert "circuits[0].components[3]: open circuit: port 'evap:outlet' is not connected" in msg
    assert "circuits[0].components[0]: open circuit: port 'comp:inlet' is not connected" in msg
    # and by the solver's topology for a flat scenario that skipped them
    from workbench.fluids import get_backend
    from workbench.scenario import load_scenario
    from workbench.scenario.expand import expand
    from workbench.solver import assemble

    flat = expand(load_scenario(textbook_r134a())).flat
    flat.edges.pop()
    with pytest.raises(SpecificationError) as info:
        assemble(flat, get_backend("R134a", "CoolProp"))
    msg = str(info.value)
    assert "Evaporator 'evap'" in msg
    assert "port 'outlet' is not connected" in msg
    assert "Compressor 'comp'" in msg
    assert "port 'inlet' is not connected" in msg


def test_edge_running_backwards_is_reported_with_its_path():
    doc = textbook_r134a()
    doc["circuits"][0]["edges"][3] = {"from": "comp:inlet", "to": "evap:outlet"}
    with pytest.raises(ScenarioError) as info:
        solve(doc)
    assert "circuits[0].edges[3].from" in str(info.value)
    assert "cannot be the source of an edge" in str(info.value)


def test_non_convergence_is_a_result_with_named_residuals_and_a_hint():
    doc = ua_heat_pump()
    doc["solver"] = {"strategy": "newton", "max_iterations": 2}
    result = solve(doc)
    assert result.converged is False
    assert result.iterations == 2
    assert result.residual_norm > 1e-6
    assert len(result.residual_history) == 3
    names = [n for n, _ in result.worst_residuals]
    assert all("." in n for n in names)
    assert names[0].split(".")[0] in {"comp", "cond", "valve", "evap"}
    assert result.hint
    assert "max_iterations (2) reached" in result.message
    assert result.stop_reason is StopReason.MAX_ITERATIONS
    assert result.to_dict()["converged"] is False
    assert result.to_dict()["stop_reason"] == "max_iterations"


def test_hint_never_suggests_the_strategy_already_running():
    worst = [("valve.isenthalpic", 3.0)]
    assert "strategy 'fallback'" in hint_for(worst, StopReason.MAX_ITERATIONS, "newton")
    assert "fallback" not in hint_for(worst, StopReason.MAX_ITERATIONS, "fallback")
    assert "timeout_ms" in hint_for(worst, StopReason.TIMEOUT, "fallback")
    assert "property call failed" in hint_for(worst, StopReason.PROPERTY_FAILURE, "fallback")


def test_a_solve_stopped_while_still_converging_says_so_and_how_to_finish():
    doc = json.loads((EXAMPLES / "two_evaporators_v2.json").read_text())
    doc["solver"] = {"strategy": "picard", "max_iterations": 120}
    stopped = solve(doc)
    assert stopped.stop_reason is StopReason.MAX_ITERATIONS
    history = stopped.residual_history
    assert history[-21] / history[-1] >= 10.0  # Picard converges linearly here
    assert "still converging" in stopped.hint
    assert "max_iterations (e.g. 240)" in stopped.hint
    assert "'newton'" in stopped.hint
    # the hint is right: with the budget it names, the same Picard solve converges
    doc["solver"]["max_iterations"] = 240
    finished = solve(doc)
    assert finished.converged, finished.report()


def test_a_stalled_solve_gets_the_hint_of_its_worst_equation():
    worst = [("evap.heat_transfer", 1e-2)]
    flat = [1.0, 0.5, 0.4, 0.45] + [0.4] * 30
    hint = hint_for(worst, StopReason.MAX_ITERATIONS, "picard", history=flat, max_iterations=33)
    assert "still converging" not in hint
    assert "evap.heat_transfer does not close" in hint


def test_fallback_shares_one_iteration_budget_and_says_what_it_ran():
    # from 12 bar suction at 300 K Newton alone stops (its steps fail on property calls);
    # the fallback needs every phase to converge (from 10 bar at 280 K, the case until
    # 2026-11-26, Newton now converges by itself: the exchangers' step bound)
    doc = ua_heat_pump()
    doc["circuits"][0]["initial_state"] = {"pressure_bar": 12.0, "temperature_k": 300.0}
    newton_only = copy.deepcopy(doc)
    newton_only["solver"] = {"strategy": "newton", "max_iterations": 100}
    assert not solve(newton_only).converged
    doc["solver"] = {"strategy": "fallback", "max_iterations": 100}
    full = solve(copy.deepcopy(doc))
    assert full.converged, full.report()
    assert full.strategy_log == ["newton", "picard", "newton"]
    assert full.iterations <= 100
    doc["solver"]["max_iterations"] = 20
    short = solve(copy.deepcopy(doc))
    assert not short.converged
    assert short.stop_reason is StopReason.MAX_ITERATIONS
    assert short.iterations == 20 == len(short.residual_history) - 1
    assert short.message == "max_iterations (20) reached (newton -> picard)"
    assert "fallback" not in short.hint  # already on the fallback


def test_fallback_recovers_where_a_short_newton_does_not():
    doc = ua_heat_pump()
    doc["circuits"][0]["initial_state"] = {"pressure_bar": 1.5, "temperature_k": 320.0}
    doc["solver"] = {"strategy": "fallback", "max_iterations": 60}
    result = solve(doc)
    assert result.converged, result.report()
    reference = solve(ua_heat_pump())
    assert result.summary["cooling_capacity_w"] == pytest.approx(
        reference.summary["cooling_capacity_w"], rel=1e-6
    )


@pytest.mark.parametrize("backend", ["CoolProp", "Test"])
def test_picard_converges_to_the_newton_solution_from_a_distant_start(backend):
    doc = textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0, backend=backend)
    doc["circuits"][0]["initial_state"] = {"pressure_bar": 3.0, "temperature_k": 300.0}
    doc["solver"] = {"strategy": "picard", "max_iterations": 100}
    result = solve(doc)
    assert result.converged, result.report()
    assert result.strategy_log == ["picard"]
    reference = solve(
        textbook_r134a(eta_s=0.75, superheat_k=5.0, subcooling_k=3.0, backend=backend)
    )
    assert result.summary["cooling_capacity_w"] == pytest.approx(
        reference.summary["cooling_capacity_w"], rel=1e-7
    )


def test_timeout_stops_the_solve_and_says_so():
    doc = ua_heat_pump()
    doc["circuits"][0]["initial_state"] = {"pressure_bar": 1.5, "temperature_k": 320.0}
    doc["solver"] = {"strategy": "newton", "timeout_ms": 1, "max_iterations": 500}
    result = solve(doc)
    assert result.converged is False
    assert "timeout_ms" in result.message
    assert result.stop_reason is StopReason.TIMEOUT
    assert "timeout_ms" in result.hint


def test_evaporating_above_the_air_temperature_is_not_reported_as_converged():
    doc = textbook_r134a()
    evap = _components(doc)["evap"]
    evap["t_evap_k"] = 290.0
    evap["air_inlet_temp_c"] = 7.0
    result = solve(doc)
    assert result.converged is False
    assert any("heat cannot flow that way" in p for p in result.problems)
    assert "physically impossible" in result.message
    assert result.stop_reason is StopReason.PHYSICALLY_IMPOSSIBLE


def test_condensing_below_the_water_temperature_is_not_reported_as_converged():
    doc = textbook_r134a()
    cond = _components(doc)["cond"]
    cond["t_cond_k"] = 300.0
    cond["secondary_inlet_temp_k"] = 310.0
    result = solve(doc)
    assert result.converged is False
    assert any("Condenser 'cond'" in p for p in result.problems)


def test_two_circuits_are_solved_together_and_counted_separately():
    one = textbook_r134a()
    two = copy.deepcopy(one)
    second = copy.deepcopy(one["circuits"][0])
    second["id"] = 1
    for c in second["components"]:
        c["name"] = "b_" + c["name"]
    second["edges"] = loop_edges("b_comp", "b_cond", "b_valve", "b_evap")
    _ = two["circuits"].append(second)
    result = solve(two)
    assert result.converged, result.report()
    assert result.summary["cooling_capacity_w"] == pytest.approx(
        2 * solve(one).summary["cooling_capacity_w"], rel=1e-9
    )
    assert set(result.edges["circuit"]) == {0, 1}


def test_verbose_logs_every_iteration(caplog):
    doc = ua_heat_pump()
    doc["solver"] = {"verbose": True}
    with caplog.at_level("DEBUG", logger="workbench.solver"):
        result = solve(doc)
    lines = [r.getMessage() for r in caplog.records if "newton iteration" in r.getMessage()]
    assert result.converged
    assert len(lines) == result.iterations + 1
