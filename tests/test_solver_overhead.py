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

from workbench.components.profile import PROFILE_SEGMENTS, _grid, _profile, _refine_minimum
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


def _example(name):
    with open(f"examples/scenarios/{name}.json") as fh:
        return json.load(fh)


@pytest.mark.parametrize("name", ["superheat_control_v2", "r744_heat_pump_v2"])
def test_control_sensitivities_from_the_final_jacobian_match_a_fresh_one(name, monkeypatch):
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
    assert not calls  # no full Jacobian evaluated
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
