"""The fixed costs of a solve: the fine-profile minimum and the control sensitivities.

The fine profile's minimum is refined from the grid's own bracket (a handful of evaluations,
checked against a brute-force search on a dense grid), and the loop sensitivities come from
the Jacobian Newton evaluated last (checked against a Jacobian evaluated afresh at the
solution, the previous method, and without evaluating a full Jacobian).
"""

from __future__ import annotations

import importlib
import json
import math

import numpy as np
import pytest

from workbench.components.exchangers.zones.profile import (
    PROFILE_SEGMENTS,
    _profile,
    secondary_profile,
)
from workbench.components.exchangers.zones.profile_grid import _grid, _refine_minimum, sample
from workbench.fluids import get_backend
from workbench.solver import prepare, solve

solve_module = importlib.import_module("workbench.solver.solve")


def _counted(fn):
    calls = []

    def wrapped(x):
        calls.append(x)
        return fn(x)

    return wrapped, calls


def _dense_minimum(fn, n=200_001):
    xs = np.linspace(0.0, 1.0, n)
    values = np.array([fn(float(x)) for x in xs])
    return float(xs[np.argmin(values)]), float(np.min(values))


@pytest.mark.parametrize("centre", [0.31337, 0.5, 0.90001])
def test_the_bracketed_refinement_finds_a_smooth_minimum_in_few_evaluations(centre):
    def f(x):
        return 3.0 + 40.0 * (x - centre) ** 2 + 5.0 * (x - centre) ** 3 + math.sin(7.0 * x) * 1e-3

    xs = _grid(PROFILE_SEGMENTS, [])
    k = min(range(len(xs)), key=lambda i: f(xs[i]))
    g, calls = _counted(f)
    bracket = tuple((xs[i], f(xs[i])) for i in (k - 1, k, k + 1))
    x_min, f_min = _refine_minimum(g, bracket, 1e-6 * (xs[k + 1] - xs[k - 1]))
    x_ref, f_ref = _dense_minimum(f)
    assert x_min == pytest.approx(x_ref, abs=1e-5)
    assert f_min <= f_ref + 1e-12
    assert len(calls) <= 8  # a bounded Brent search from scratch took about 30


def test_a_minimum_at_an_end_costs_one_probe_and_a_dip_inside_the_end_segment_is_found():
    def rising(x):
        return (1.0 + x + 0.2 * x * x, 300.0, 299.0, 1e6)

    g, calls = _counted(rising)
    xs = _grid(PROFILE_SEGMENTS, [])
    check = _profile(g, xs, 1000.0)
    assert check.min_dt == 1.0
    assert check.fraction == 0.0
    assert len(calls) == len(xs) + 1

    # a minimum inside the last segment (the difference turns down just before the end)
    centre = 1.0 - 0.3 / PROFILE_SEGMENTS

    def dipping(x):
        return (2.0 + 5e3 * (x - centre) ** 2, 300.0, 298.0, 1e6)

    check = _profile(dipping, xs, 1000.0)
    assert check.fraction == pytest.approx(centre, abs=1e-6)
    assert check.min_dt == pytest.approx(2.0, abs=1e-9)


def test_the_sampled_grid_is_full_where_the_profile_bends_and_coarse_where_it_is_straight():
    def straight(x):
        return (2.0 + 3.0 * x, 300.0, 298.0, 1e6)

    xs, values = sample(straight, 64, [])
    assert len(xs) == 17  # every fourth point of the 64-segment grid, no midpoint needed
    assert [v[0] for v in values] == [straight(x)[0] for x in xs]

    def bent(x):  # curved only in its first quarter
        return (2.0 + 3.0 * x + (5.0 * (0.25 - x) ** 2 if x < 0.25 else 0.0), 300.0, 298.0, 1e6)

    xs, _values = sample(bent, 64, [])
    assert set(xs) <= set(_grid(64, []))
    assert all(k / 64 in xs for k in range(17))  # full resolution where it bends
    # the segment after the bend gets its midpoint (its left neighbour is curved), the rest
    # of the straight part is the coarse grid
    assert 18 / 64 in xs
    assert 22 / 64 not in xs
    assert len(xs) == 17 + 1 + 12
    assert 0.4 in sample(bent, 64, [0.4])[0]  # a saturation point stays a grid point


def test_a_straight_piece_between_two_kinks_is_not_taken_for_a_bend():
    # two-phase against a secondary stream: straight between the saturation points, with the
    # slope jumping at each; second differences across a kink would see a false bend there
    def kinked(x):
        dt = 2.0 + 3.0 * x
        if x < 0.3:
            dt += 20.0 * (0.3 - x) ** 2  # desuperheating: curved
        if x > 0.8:
            dt += 10.0 * (x - 0.8)  # subcooled: straight, another slope
        return (dt, 300.0, 298.0, 1e6)

    cuts = [0.3, 0.8]
    xs, _values = sample(kinked, 64, cuts)
    inside = [x for x in xs if 0.3 + 1 / 16 < x < 0.8 - 1 / 16]
    assert all(round(64 * x) % 4 == 0 or x in cuts for x in inside)  # coarse only there
    assert len([x for x in xs if x < 0.3]) > 0.3 * 64 * 0.9  # full resolution in the bend


def test_a_sampled_condenser_profile_matches_the_full_grid():
    # R134a condenser against water: a desuperheating zone, the dome and a subcooled end
    fluid = get_backend("R134a")
    p = 10e5
    h_in, h_out = fluid.h_pT(p, 330.0), fluid.h_pT(p, 305.0)
    args = (fluid, (p, h_in), (p - 2e4, h_out), 0.05, 298.15, 700.0, True)
    counted = []
    original = fluid.T_ph

    def counting(*a):
        counted.append(a)
        return original(*a)

    fluid.T_ph = counting  # type: ignore[method-assign]
    sampled = secondary_profile(*args)
    n_sampled = len(counted)
    counted.clear()
    full = secondary_profile(*args, segments=64)  # the same call: the sampled grid again
    assert full.min_dt == sampled.min_dt
    profile_module = importlib.import_module("workbench.components.exchangers.zones.profile")
    monkey_full = profile_module.sample
    try:
        profile_module.sample = lambda f, n, cuts: (_grid(n, cuts), [f(x) for x in _grid(n, cuts)])
        counted.clear()
        reference = secondary_profile(*args)
        n_full = len(counted)
    finally:
        profile_module.sample = monkey_full
        del fluid.T_ph
    assert n_sampled < 0.85 * n_full
    assert sampled.min_dt == pytest.approx(reference.min_dt, abs=1e-6)
    assert sampled.ua_required == pytest.approx(reference.ua_required, rel=1e-3)


def _example(name):
    with open(f"examples/scenarios/{name}.json") as fh:
        return json.load(fh)


@pytest.mark.parametrize(
    ("name", "final_is_near"), [("superheat_control_v2", False), ("r744_heat_pump_v2", True)]
)
def test_control_sensitivities_from_the_final_jacobian_match_a_fresh_one(
    name, final_is_near, monkeypatch
):
    doc = _example(name)
    system = prepare(doc)
    result = solve(doc, system=system)
    assert result.converged
    assert system.jacobian_point is not None  # Newton's last Jacobian, near the solution
    calls = []
    fresh_jacobian = system.jacobian

    def counting(*args, **kwargs):
        calls.append(1)
        return fresh_jacobian(*args, **kwargs)

    monkeypatch.setattr(system, "jacobian", counting)
    from_final = solve_module._control_sensitivities(system, result.x)
    _jac, point = system.jacobian_point
    near = np.max(np.abs(result.x - point) / system.var_scale) <= solve_module.FINAL_JACOBIAN_STEP
    assert bool(near) is final_is_near
    assert bool(calls) is not near  # the final Jacobian serves exactly when it is near
    calls.clear()
    system.jacobian_point = None  # the previous method: a Jacobian afresh at the solution
    fresh = solve_module._control_sensitivities(system, result.x)
    assert calls
    assert from_final.keys() == fresh.keys()
    for key, value in fresh.items():
        assert value is not None
        assert from_final[key] == pytest.approx(value, rel=1e-5)
    assert result.controls[0]["sensitivity"] == pytest.approx(
        fresh[result.controls[0]["id"]], rel=1e-5
    )


def test_a_minimum_at_a_saturation_kink_costs_two_probes_and_a_dip_beside_it_is_found():
    # the profile's slope jumps at a saturation point (a grid point): a parabola through a
    # kink converges no faster than golden sections, so the kink is treated as two ends
    kink = 0.4

    def kinked(x):
        return (1.0 + (3.0 * (kink - x) if x < kink else 0.5 * (x - kink)), 300.0, 299.0, 1e6)

    g, calls = _counted(kinked)
    xs = _grid(PROFILE_SEGMENTS, [kink])
    check = _profile(g, xs, 1000.0, kinks=[kink])
    assert check.fraction == kink
    assert check.min_dt == 1.0
    assert len(calls) == len(xs) + 2
    # without the kink named, the refinement spends many evaluations to find the same point
    g2, calls2 = _counted(kinked)
    again = _profile(g2, xs, 1000.0)
    assert again.min_dt == pytest.approx(1.0, abs=1e-6)
    assert len(calls2) > len(xs) + 10

    # the kink is the grid's minimum but the difference falls just right of it and rises again
    # inside the segment (1 - d + b d^2, its bottom at d = 1 / 2b): the probe finds the dip
    right = min(x for x in xs if x > kink)
    b = 2.0 / (right - kink)

    def dipping(x):
        d = x - kink
        return (1.0 + (3.0 * -d if d < 0 else -d + b * d * d), 300.0, 299.0, 1e6)

    assert min(dipping(x)[0] for x in xs) == 1.0  # at the kink on the grid
    check = _profile(dipping, xs, 1000.0, kinks=[kink])
    assert check.fraction == pytest.approx(kink + 0.5 / b, abs=1e-6)
    assert check.min_dt == pytest.approx(1.0 - 0.25 / b, abs=1e-9)
