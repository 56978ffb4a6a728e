"""The one 1-D root in s every exchanger solves: exactness, the pinch, the guard, the fallback."""

from __future__ import annotations

import math

import pytest
from scipy.optimize import brentq

from workbench.components.exchangers.gas_cooler import model as gas_cooler_model
from workbench.components.exchangers.zones import coupled_profile, heat_flow, root
from workbench.components.exchangers.zones.root import (
    RESIDUAL_TOLERANCE,
    bracketed_root,
    newton_in_s,
    root_in_s,
)

Q_MAX = 1000.0


def _s(q: float) -> float:
    return -math.log1p(-q / Q_MAX)


def _linear_in_s(s_root: float, calls: list[float]) -> root.Residual:
    """``r = s - s_root``: one two-phase zone against a secondary is exactly this shape."""

    def r(q: float) -> tuple[float, float | None]:
        calls.append(q)
        return _s(q) - s_root, 1.0 / (Q_MAX - q)

    return r


@pytest.mark.parametrize("s_root", [0.05, 1.0, 6.0])
@pytest.mark.parametrize("start", [None, 10.0, 990.0])
def test_newton_in_s_is_exact_after_one_step_where_the_residual_is_linear_in_s(s_root, start):
    calls: list[float] = []
    q = newton_in_s(_linear_in_s(s_root, calls), Q_MAX, start)
    assert q is not None
    assert q == pytest.approx(-Q_MAX * math.expm1(-s_root), rel=1e-12)
    assert len(calls) <= 3  # the step to the root, then the step of zero that confirms it


def test_a_secant_root_without_the_derivative_is_the_same_root():
    def r(q: float) -> tuple[float, float | None]:
        return math.tanh(3.0 * (_s(q) - 1.7)) + 0.1 * (_s(q) - 1.7), None

    q = newton_in_s(r, Q_MAX, 300.0)
    expected = brentq(lambda q: r(q)[0], 1e-9, Q_MAX * (1 - 1e-12), xtol=1e-13)
    assert q == pytest.approx(expected, rel=1e-11)


def test_a_root_beyond_the_resolution_of_q_stops_at_the_cap_at_once():
    # the conductance needed is reached only 1 - exp(-60) of the way: Q_max to rounding; the
    # root must not creep towards it by halving
    calls: list[float] = []
    tol = 1e-8
    q = newton_in_s(_linear_in_s(60.0, calls), Q_MAX, 100.0, tol=tol)
    assert q is not None
    assert 0.0 < Q_MAX - q <= tol * Q_MAX
    assert len(calls) <= 4


def test_the_edge_of_an_internal_pinch_is_no_root_and_the_bracketed_search_finds_it():
    # the conductance jumps to infinity at s = 2 without reaching UA: Newton gives None, the
    # bracketed search settles on the edge
    def r(q: float) -> tuple[float, float | None]:
        s = _s(q)
        return (math.inf, None) if s >= 2.0 else (-0.5 + 0.01 * s, 0.01 / (Q_MAX - q))

    assert newton_in_s(r, Q_MAX, 100.0) is None
    edge = bracketed_root(r, Q_MAX, 100.0)
    assert _s(edge) == pytest.approx(2.0, abs=1e-9)


def test_the_guard_keeps_every_trial_inside_the_interval():
    # a residual whose Newton step from the start would jump far below zero
    seen: list[float] = []

    def r(q: float) -> tuple[float, float | None]:
        seen.append(q)
        return math.expm1(5.0 * (_s(q) - 0.01)), None

    q = newton_in_s(r, Q_MAX, 900.0)
    assert q is not None
    assert abs(r(q)[0]) <= RESIDUAL_TOLERANCE
    assert all(0.0 <= t < Q_MAX for t in seen)


def test_root_in_s_states_the_same_root_with_a_required_conductance():
    ua = 250.0

    def required(q: float) -> float:
        return 100.0 * _s(q) + 20.0 * _s(q) ** 2

    q = root_in_s(required, Q_MAX, ua, None, lambda q: (100.0 + 40.0 * _s(q)) / (Q_MAX - q))
    s_root = (-100.0 + math.sqrt(100.0**2 + 4 * 20.0 * ua)) / (2 * 20.0)
    assert q == pytest.approx(-Q_MAX * math.expm1(-s_root), rel=1e-12)


def test_every_exchanger_solves_the_one_root():
    # the coil's zone model, the cascade's coupled profile and the gas cooler's profile
    assert heat_flow.newton_in_s is root.newton_in_s
    assert coupled_profile.newton_in_s is root.newton_in_s
    assert gas_cooler_model.root_in_s is root.root_in_s
