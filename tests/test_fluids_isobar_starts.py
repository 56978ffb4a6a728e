"""The CoolProp backend's Newton starts: single-phase states kept per isobar.

A cascade's two circuits (one backend when they share a fluid) and the profiles of its coils
alternate between several pressures; the last single-phase Newton state of each isobar and
side of the dome is the start of the next state there. Every value is checked against CoolProp itself (PropsSI, a fresh backend).
"""

from __future__ import annotations

import math

import pytest
from CoolProp.CoolProp import PropsSI

from workbench.fluids import get_backend
from workbench.fluids.coolprop.isobars import NEAR_ISOBARS

PURE = ["R134a", "R744", "R717", "R290"]


def _isobars(fluid: str) -> list[float]:
    b = get_backend(fluid, "CoolProp")
    return [f * b.p_crit for f in (0.15, 0.3, 0.45, 0.6)]


@pytest.mark.parametrize("fluid", PURE)
def test_states_on_alternating_isobars_equal_a_fresh_backends(fluid):
    shared = get_backend(fluid, "CoolProp")
    pressures = _isobars(fluid)
    asked = []
    for k in range(4):  # round robin over four isobars, both sides of the dome
        for p in pressures:
            h_v, h_l = shared.h_vap(p), shared.h_liq(p)
            for h in (h_v + 5e3 + 3e3 * k, h_l - 4e3 - 2e3 * k):
                asked.append((p, h, shared.T_ph(p, h), shared.rho_ph(p, h)))
    for p in pressures:  # every isobar has its own start kept on both sides
        assert shared._near_on(p, True) is not None
        assert shared._near_on(p, False) is not None
    for p, h, t, rho in asked:
        fresh = get_backend(fluid, "CoolProp")
        assert t == pytest.approx(fresh.T_ph(p, h), rel=1e-12)
        assert rho == pytest.approx(fresh.rho_ph(p, h), rel=1e-12)
        assert t == pytest.approx(PropsSI("T", "P", p, "H", h, fluid), rel=1e-9)


def test_the_oldest_isobar_goes_when_the_pool_is_full():
    b = get_backend("R134a", "CoolProp")
    pressures = [2e5 + 1e4 * k for k in range(NEAR_ISOBARS + 1)]
    for p in pressures:
        b.T_ph(p, b.h_vap(p) + 1e4)
    assert b._near_on(pressures[0], False) is None
    for p in pressures[1:]:
        near = b._near_on(p, False)
        assert near is not None
        assert near[0] == p
    b.T_ph(pressures[-1], b.h_vap(pressures[-1]) + 2e4)  # same isobar: replaced, none dropped
    assert b._near_on(pressures[1], False) is not None
    assert b._pool_vap is not None
    assert len(b._pool_vap) == NEAR_ISOBARS
    # the last state stands for pressures within rounding of its own
    assert b._near_on(pressures[-1] * (1.0 + 1e-12), False) is not None


@pytest.mark.parametrize("fluid", PURE)
def test_a_state_within_rounding_of_the_saturated_liquid_is_found_by_newton(fluid):
    # a profile's end at zero subcooling: h a bit or two below h_liq, after a liquid state on
    # the isobar; Newton lands within rounding of the saturated state and that passes its
    # side check (else a (p, h) flash, 0.1-0.4 ms, would follow)
    b = get_backend(fluid, "CoolProp")
    p = 0.3 * b.p_crit
    h_l = b.h_liq(p)
    b.T_ph(p, h_l - 1e4)
    liq = b._pq(p, 0.0, "h_liq")
    found = 0
    for ulps in range(1, 9):
        h = h_l
        for _ in range(ulps):
            h = math.nextafter(h, -math.inf)
        record = b._newton_ph(p, h, liq, True)
        found += record is not None
        if record is not None:
            assert record[0] == pytest.approx(b.T_bubble(p), rel=1e-12)
    assert found == 8


@pytest.mark.parametrize("fluid", PURE)
def test_the_slope_estimate_is_the_exact_slope_to_1e_6(fluid):
    b = get_backend(fluid, "CoolProp")
    states = []
    for p in _isobars(fluid):
        for h in (b.h_vap(p) + 7e3, b.h_vap(p) + 9e3, b.h_liq(p) - 6e3, b.h_liq(p) - 8e3):
            b.T_ph(p, h)
            states.append((p, h))
    flashes = b.stats.flashes
    estimates = [b.dT_dh_p_estimate(p, h) for p, h in states]
    assert b.stats.flashes == flashes  # kept from the states' own Newton iterations
    for (p, h), estimate in zip(states, estimates, strict=True):
        exact = get_backend(fluid, "CoolProp").dT_dh_p(p, h)
        assert estimate == pytest.approx(exact, rel=1e-6)
        assert b.dT_dh_p(p, h) == pytest.approx(exact, rel=1e-13)  # the exact call: exact
        assert b.dT_dh_p_estimate(p, h) == b.dT_dh_p(p, h)  # once known, the exact value


def test_the_slope_estimate_of_a_two_phase_state_is_exact():
    b = get_backend("R134a", "CoolProp")
    p = 3e5
    h = 0.5 * (b.h_liq(p) + b.h_vap(p))
    assert b.dT_dh_p_estimate(p, h) == b.dT_dh_p(p, h) == 0.0
