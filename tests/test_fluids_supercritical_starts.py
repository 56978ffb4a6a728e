"""Cubic starts of the supercritical Newton iterations (coolprop_super, coolprop_super_isobars).

A (p, T) or (p, h) state next to two remembered states on its isobar starts from the cubic
through both (their values and slopes along the isobar) instead of the first-order move from
the nearest remembered state: the states must be the same as from the first-order start, and
as CoolProp's own states, to the Newton tolerance.
"""

from __future__ import annotations

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.fluids import get_backend
from workbench.fluids.coolprop.supercritical_isobars import ISOBARS_KEPT, IsobarAnchors, hermite


def test_hermite_is_exact_for_a_cubic():
    def f(x):
        return 2.0 * x**3 - x**2 + 3.0 * x - 1.0

    def df(x):
        return 6.0 * x**2 - 2.0 * x + 3.0

    x0, x1 = 0.3, 0.7
    for x in (-0.5, 0.5, 0.9, 1.4):  # inside and outside (extrapolation)
        value = hermite(x, x0, x1, f(x0), f(x1), df(x0), df(x1))
        assert value == pytest.approx(f(x), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("p", [8.0e6, 9.0e6, 12.0e6])
def test_states_from_cubic_starts_are_those_from_linear_starts(monkeypatch, p):
    temperatures = [float(t) for t in np.linspace(290.0, 400.0, 60)]
    enthalpies = [float(h) for h in np.linspace(260e3, 520e3, 50)]
    cubic = get_backend("R744", "CoolProp")
    h_cubic = [cubic.h_pT(p, t) for t in temperatures]
    t_cubic = [cubic.T_ph(p, h) for h in enthalpies]
    # no isobar index: the nearest remembered state by a scan, moved to first order
    monkeypatch.setattr(IsobarAnchors, "around", lambda *args: None)
    linear = get_backend("R744", "CoolProp")
    h_linear = [linear.h_pT(p, t) for t in temperatures]
    t_linear = [linear.T_ph(p, h) for h in enthalpies]
    np.testing.assert_allclose(h_cubic, h_linear, rtol=1e-13)
    np.testing.assert_allclose(t_cubic, t_linear, rtol=1e-13)
    raw = CP.AbstractState("HEOS", "CO2")
    for t, h in zip(temperatures, h_cubic, strict=True):
        raw.update(CP.PT_INPUTS, p, t)
        assert h == pytest.approx(raw.hmass(), rel=2e-8)  # CoolProp's flash misses by 5e-9
    for h, t in zip(enthalpies, t_cubic, strict=True):
        # the equation of state at the returned (rho, T) gives back the inputs (CoolProp's
        # own (p, h) flash stops 1e-9 short of them near the pseudo-critical temperature)
        raw.update(CP.DmassT_INPUTS, cubic.state_ph(p, h).rho, t)
        assert raw.p() == pytest.approx(p, rel=1e-12)
        assert raw.hmass() == pytest.approx(h, rel=1e-12)


def test_the_isobar_index_finds_the_neighbours():
    index = IsobarAnchors()
    states = [(9e6, h, 300.0 + h / 1e4, 500.0 - h / 1e3, 1e-4, -1e-3) for h in (4e5, 4.2e5, 4.4e5)]
    for state in reversed(states):
        index.add(state)
    near, other = index.around(9e6, 4.05e5, False, 0.05)
    assert (near, other) == (states[0], states[1])  # between two: both sides
    near, other = index.around(9e6, 4.5e5, False, 0.05)
    assert (near, other) == (states[2], states[1])  # beyond the last: the next one inwards
    near, other = index.around(9e6, 4.41e5 / 1e4 + 300.0, True, 0.05)  # by temperature
    assert near == states[2]
    assert index.around(9e6, 6e5, False, 0.05) is None  # out of reach
    assert index.around(9.1e6, 4.05e5, False, 0.05) is None  # another isobar
    for k in range(ISOBARS_KEPT):  # the oldest isobar goes
        index.add((1e7 + k, 4e5, 300.0, 500.0, 1e-4, -1e-3))
    assert index.around(9e6, 4.05e5, False, 0.05) is None
