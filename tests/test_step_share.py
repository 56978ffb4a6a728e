"""A Newton step keeps a share of each exchanger's driving difference (components.step_share)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import numpy as np
import pytest

from workbench.components.exchangers.coils.component import Coil
from workbench.components.exchangers.zones.step_share import GAP_KEPT, kept_fraction
from workbench.errors import FluidPropertyError
from workbench.solver import solve
from workbench.solver.newton import _jacobian, _solve_linear, limit_step, safe_residuals
from workbench.solver.start.warm_start import start

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "scenarios"
newton_module = importlib.import_module("workbench.solver.newton")
solve_module = importlib.import_module("workbench.solver.solve")


def test_a_closing_difference_is_cut_to_the_kept_share():
    # a difference of 8 K that the step takes to -8 K (linear in the fraction)
    alpha = kept_fraction(lambda t: 8.0 - 16.0 * t, 1.0)
    assert 8.0 - 16.0 * alpha == pytest.approx(GAP_KEPT * 8.0)
    # the other bounds' fraction is scaled the same way
    assert kept_fraction(lambda t: 8.0 - 16.0 * t, 0.5) == pytest.approx(0.5 * (1 - GAP_KEPT))


@pytest.mark.parametrize(
    "gap",
    [
        lambda t: 8.0 + 2.0 * t,  # the step widens it
        lambda t: 8.0 - 1.0 * t,  # keeps more than the share
        lambda t: -1.0 - t,  # already reversed: nothing to keep
    ],
)
def test_a_step_that_keeps_the_share_is_not_shortened(gap):
    assert kept_fraction(gap, 0.7) == 0.7


def test_a_missing_saturation_temperature_leaves_the_step_to_its_trial():
    def gap(t):
        if t > 0.0:
            raise FluidPropertyError("above the critical point")
        return 5.0

    assert kept_fraction(gap, 0.9) == 0.9


def _doc(name):
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def test_an_evaporator_keeps_a_share_of_its_difference_to_the_air():
    # r744_heat_pump_v2's cold start: Newton's first step takes the evaporator from -1 C to
    # 8.5 C, above its air, where its heat flow reverses and the trial fails
    doc = _doc("r744_heat_pump_v2")
    system = solve_module.prepare(doc)
    x = start(system, None, 1e-6).x
    f = safe_residuals(system, x)
    dx = _solve_linear(system, _jacobian(system, x, f), f)
    evaporator = system.components["evaporator"]
    assert isinstance(evaporator, Coil)
    p = evaporator.ports["outlet"].p

    def gap(point):
        return evaporator.t_sec_in - evaporator.reference_temperature(point[p])

    assert gap(x) > 0.0
    assert gap(x + dx) < GAP_KEPT * gap(x)
    alpha = limit_step(system, x, dx)
    assert gap(x + alpha * dx) == pytest.approx(GAP_KEPT * gap(x), rel=0.1)


def test_the_coil_bound_saves_failed_trials_and_keeps_the_solution(monkeypatch):
    doc = _doc("r744_heat_pump_v2")
    bounded_system = solve_module.prepare(doc)
    bounded = solve(doc, system=bounded_system)
    monkeypatch.setattr(Coil, "step_fraction", lambda self, xs, ds, alpha: alpha)
    unbounded_system = solve_module.prepare(doc)
    unbounded = solve(doc, system=unbounded_system)
    assert bounded.converged
    assert unbounded.converged
    np.testing.assert_allclose(bounded.x, unbounded.x, rtol=1e-8)
    # measured: 10 residual evaluations without the bound (four rejected trials), 8 with it
    assert bounded_system.evaluations < unbounded_system.evaluations
