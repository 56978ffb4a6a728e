"""Saturated PI control loops solved with the plant (issue 5)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from control_cases import capacity_loop, superheat_loop
from CoolProp.CoolProp import PropsSI

from workbench.cli.main import main
from workbench.errors import ScenarioError
from workbench.solver import solve
from workbench.solver.controls import saturate


def test_superheat_held_at_5_k_by_the_valve():
    result = solve(superheat_loop(target=5.0))
    assert result.converged, result.report()
    loop = result.controls[0]
    assert loop["measured"] == pytest.approx(5.0, abs=1e-6)
    assert abs(loop["error"]) < 1e-6
    assert 0.2 < loop["actuator"] < 5.0
    assert loop["saturated"] is None
    assert result.components["evap"]["superheat"] == pytest.approx(5.0, abs=1e-6)
    # the plant sensitivity has the sign of the (negative) gain: more valve flow, less superheat
    assert loop["sensitivity"] < 0


def test_capacity_held_by_the_compressor_flow_factor():
    result = solve(capacity_loop(target=3000.0))
    assert result.converged, result.report()
    loop = result.controls[0]
    assert result.summary["cooling_capacity_w"] == pytest.approx(3000.0, abs=1e-3)
    base = solve(capacity_loop(target=3000.0))
    assert loop["actuator"] == pytest.approx(base.controls[0]["actuator"])
    # the compressor's flow is its displacement model times the loop's z_flow
    suction = result.edges.set_index("edge").loc["evap:outlet -> comp:inlet"]
    from CoolProp.CoolProp import PropsSI

    rho = PropsSI("D", "P", suction["p_bar"] * 1e5, "H", suction["h_kj_kg"] * 1e3, "R134a")
    assert result.components["comp"]["massFlowRate"] == pytest.approx(
        loop["actuator"] * 3.0e-5 * 50 * 0.9 * rho, rel=1e-6
    )


@pytest.mark.parametrize(("target", "side", "bound"), [(6000.0, "high", 1.5), (300.0, "low", 0.3)])
def test_unreachable_capacity_saturates_on_a_bound_and_says_so(target, side, bound):
    result = solve(capacity_loop(target=target))
    assert result.converged, result.report()
    loop = result.controls[0]
    assert loop["saturated"] == side
    assert loop["actuator"] == pytest.approx(bound, abs=1e-12)
    # anti-windup: the remaining error pushes further out, never back inside
    assert np.sign(1e-4 * loop["error"]) == (1 if side == "high" else -1)
    assert abs(loop["error"]) > 1.0


def test_wrong_sign_gain_is_reported_naming_the_loop():
    result = solve(superheat_loop(target=5.0, gain=+1.0))
    assert result.converged is False
    assert any("controls.superheat" in p and "wrong sign" in p for p in result.problems)
    assert "opposite sign" in result.hint


@pytest.mark.parametrize("target", [3.0, 5.0, 10.0])
def test_hard_and_smooth_saturation_agree_away_from_the_bounds(target):
    hard = solve(superheat_loop(target=target))
    smooth = solve(superheat_loop(target=target, smooth_eps=1e-4))
    assert hard.converged
    assert smooth.converged
    assert smooth.controls[0]["actuator"] == pytest.approx(hard.controls[0]["actuator"], rel=1e-6)
    assert smooth.summary["cooling_capacity_w"] == pytest.approx(
        hard.summary["cooling_capacity_w"], rel=1e-6
    )


def test_smooth_saturation_is_continuous_and_close_to_the_clamp():
    u = np.linspace(-1.0, 3.0, 2001)
    a = np.array([saturate(v, 0.0, 2.0, 1e-3) for v in u])
    hard = np.clip(u, 0.0, 2.0)
    assert np.max(np.abs(a - hard)) <= 0.5e-3 + 1e-12
    assert np.all(np.diff(a) > 0)  # strictly monotonic: Newton always sees a slope


@pytest.mark.parametrize("smooth_eps", [1e-3, None])
def test_target_sweep_across_the_upper_bound_converges_at_every_point(smooth_eps):
    targets = np.linspace(3500.0, 5000.0, 7)
    actuators, measured = [], []
    previous = None
    for target in targets:
        doc = capacity_loop(target=float(target), smooth_eps=smooth_eps)
        result = solve(doc, initial=previous)
        assert result.converged, (target, result.report())
        actuators.append(result.controls[0]["actuator"])
        measured.append(result.controls[0]["measured"])
        previous = result
    # no chattering: the actuator rises monotonically to the bound and stays there
    assert np.all(np.diff(actuators) >= -1e-9)
    assert actuators[-1] == pytest.approx(1.5, abs=1e-3)
    # below the bound the target is met, beyond it the capacity is the bound's
    assert measured[0] == pytest.approx(3500.0, rel=1e-4)
    assert measured[-1] == pytest.approx(measured[-2], rel=1e-3)


def test_measure_that_the_component_does_not_have_is_a_validation_error_naming_the_loop():
    doc = capacity_loop()
    doc["controls"][0]["measure"] = {"component": "cond", "output": "superheat"}
    with pytest.raises(ScenarioError) as info:
        solve(doc)
    text = str(info.value)
    assert "controls[0]" in text
    assert "superheat" in text


def test_legacy_factor_name_is_accepted():
    doc = capacity_loop(target=3000.0)
    doc["controls"][0]["actuator"]["factor"] = "f_flow"
    result = solve(doc)
    assert result.converged
    assert result.controls[0]["factor"] == "z_flow"


def test_solve_json_lists_the_controls(tmp_path, capsys):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(superheat_loop(target=6.0)))
    assert main(["solve", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    loop = doc["controls"][0]
    assert {"id", "target", "measured", "error", "actuator", "saturated"} <= set(loop)
    assert loop["id"] == "superheat"
    assert loop["saturated"] is None
    assert abs(loop["measured"] - 6.0) < 1e-6


def _example_superheat_loop() -> dict:
    path = Path(__file__).resolve().parent.parent / "examples/scenarios/superheat_control_v2.json"
    return json.loads(path.read_text())


@pytest.mark.parametrize("smooth_eps", [None, 0.001])
def test_superheat_target_of_exactly_zero_converges(smooth_eps):
    doc = _example_superheat_loop()
    doc["controls"][0]["target"] = 0.0
    doc["controls"][0]["smooth_eps"] = smooth_eps
    result = solve(doc)
    assert result.converged, result.report()
    loop = result.controls[0]
    # the smooth clamp sits eps^2 / (4 (u - lo)) inside its bounds: a tiny, known offset
    assert abs(loop["error"]) < 1e-7
    assert result.components["evap"]["superheat"] == pytest.approx(loop["measured"], abs=1e-12)
    # the outlet is at the dew point: quality 1 within the offset
    out = result.edges.set_index("edge").loc["evap:outlet -> comp:inlet"]
    h_dew = PropsSI("H", "P", out["p_bar"] * 1e5, "Q", 1, "R134a")
    assert out["h_kj_kg"] * 1e3 == pytest.approx(h_dew, abs=1e-3)


def test_wet_outlet_superheat_is_one_definition_for_results_and_the_loop():
    # the valve cannot close below z_flow = 4: too much flow, the evaporator outlet is wet
    doc = superheat_loop(target=5.0, lo=4.0, hi=6.0)
    doc["controls"][0]["actuator"]["initial"] = 5.0
    result = solve(doc)
    assert result.converged, result.report()
    loop = result.controls[0]
    assert loop["saturated"] == "low"
    superheat = result.components["evap"]["superheat"]
    assert superheat == loop["measured"] < 0
    # independent: the vapour line continued into the dome, (h - h_dew) * dT/dh = 1/cp of the
    # vapour 1 J/kg beyond the dew point
    out = result.edges.set_index("edge").loc["evap:outlet -> comp:inlet"]
    p, h = out["p_bar"] * 1e5, out["h_kj_kg"] * 1e3
    h_dew = PropsSI("H", "P", p, "Q", 1, "R134a")
    slope = 1.0 / PropsSI("C", "P", p, "H", h_dew + 1.0, "R134a")
    assert superheat == pytest.approx((h - h_dew) * slope, rel=1e-9)
    # a smooth function of the state: the loop's sensitivity is the plant's response (more
    # valve flow, a wetter outlet), measured with two open-loop solves
    opened = []
    for z in (4.0, 4.001):
        plant = superheat_loop(target=5.0, lo=4.0, hi=6.0)
        del plant["controls"]
        plant["circuits"][0]["components"][2]["z_flow"] = z
        opened.append(solve(plant).components["evap"]["superheat"])
    assert loop["sensitivity"] == pytest.approx((opened[1] - opened[0]) / 0.001, rel=0.02)
    assert any("two-phase" in w for w in result.warnings)
