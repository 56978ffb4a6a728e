"""Supercritical CO2 states by Newton's method from remembered states (coolprop_super).

Each state is checked against an independent computation: a fresh backend (whose first state
on an isobar is CoolProp's own flash, polished), a round trip through the other input pair,
and the equation of state itself (a (rho, T) update of CoolProp at the returned state).
"""

from __future__ import annotations

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.fluids import get_backend

ISOBARS = [7.5e6, 8.0e6, 9.0e6, 12.0e6]


def _fresh():
    return get_backend("R744", "CoolProp")  # a new backend: nothing remembered


@pytest.mark.parametrize("p", ISOBARS)
def test_h_pT_along_an_isobar_is_the_equation_of_state(p):
    b = _fresh()
    raw = CP.AbstractState("HEOS", "CO2")
    temperatures = np.linspace(290.0, 420.0, 90)  # across the pseudo-critical temperature
    for t in temperatures:
        h = b.h_pT(p, float(t))
        # CoolProp's (p, T) flash misses its pressure by up to 5e-9 near the pseudo-critical
        # temperature; the Newton state is exact: (p, h) back to T to 1e-12
        raw.update(CP.PT_INPUTS, p, float(t))
        assert h == pytest.approx(raw.hmass(), rel=2e-8)
        assert b.T_ph(p, h) == pytest.approx(float(t), rel=1e-12)
    # all but the first were found by Newton from the previous node
    assert b.stats.flashes >= len(temperatures)


def test_T_ph_at_a_new_pressure_matches_a_fresh_flash():
    b = _fresh()
    for h in np.linspace(250e3, 500e3, 30):
        b.T_ph(9e6, float(h))  # remembered states on the 90 bar isobar
    for p, h in [(9.05e6, 300e3), (8.95e6, 420e3), (9e6 + 1e-3, 333e3), (9.08e6, 480e3)]:
        newton = b.state_ph(p, h)
        flashed = _fresh().state_ph(p, h)
        assert pytest.approx(flashed.T, rel=1e-12) == newton.T
        assert newton.rho == pytest.approx(flashed.rho, rel=1e-11)
        assert newton.s == pytest.approx(flashed.s, rel=1e-11)
        assert newton.phase == flashed.phase == "supercritical"


def test_h_ps_above_the_critical_pressure_round_trips():
    b = _fresh()
    raw = CP.AbstractState("HEOS", "CO2")
    for p in (9e6, 9.01e6, 9.1e6, 1e7):
        for s in (1550.0, 1650.0, 1800.0):
            h = b.h_ps(p, s)
            raw.update(CP.PSmass_INPUTS, p, s)
            assert h == pytest.approx(raw.hmass(), rel=1e-8)
            assert b.s_ph(p, h) == pytest.approx(s, rel=1e-12)


def test_a_supercritical_liquid_state_stays_on_the_liquid_side():
    b = _fresh()
    t_crit = b.T_crit
    for t in np.linspace(t_crit - 20.0, t_crit + 20.0, 41):
        h = b.h_pT(7.5e6, float(t))
        state = b.state_ph(7.5e6, h)
        assert pytest.approx(float(t), rel=1e-12) == state.T
        if t < t_crit:
            raw = CP.AbstractState("HEOS", "CO2")
            raw.update(CP.PT_INPUTS, 7.5e6, float(t))
            assert state.rho == pytest.approx(raw.rhomass(), rel=1e-7)
