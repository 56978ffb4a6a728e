"""Every derivative the Newton Jacobian uses, against central finite differences, both backends."""

from __future__ import annotations

import pytest

from workbench.fluids import get_backend
from workbench.units import celsius_to_kelvin

CASES = [
    ("Test", "R134a"),
    ("Test", "R410A"),
    ("Test", "CO2"),
    ("Test", "Water"),
    ("CoolProp", "R134a"),
    ("CoolProp", "R410A"),
    ("CoolProp", "CO2"),
    ("CoolProp", "Water"),
]
PHASES = ["liquid", "two-phase", "vapour"]


def _point(b, phase):
    """A state (p, h) well inside the requested phase at 10 degC (CO2: -10 degC) saturation."""
    t_sat = celsius_to_kelvin(-10.0 if b.name == "CO2" else 10.0)
    p = b.p_sat(t_sat)
    h_l, h_v = b.h_liq(p), b.h_vap(p)
    if phase == "liquid":
        return p, b.h_pT(p, t_sat - 8.0)
    if phase == "two-phase":
        return p, h_l + 0.4 * (h_v - h_l)
    return p, h_v + 0.15 * (h_v - h_l)


def _central(f, x, dx):
    return (f(x + dx) - f(x - dx)) / (2.0 * dx)


def _rel_close(a, b, rel, abs_):
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_)


# Steps: CoolProp's flashes are converged to about 1e-9 relative, so enthalpy steps of
# 1 J/kg are noise-dominated; 50 J/kg stays far inside each phase of the test points.
DH = 50.0
# CoolProp's analytic two-phase and saturation derivatives of pseudo-pure blends (R410A)
# differ from its own flashes by about 1e-4 relative (a Clapeyron shortcut); allow that.
BLEND_REL = 5e-4


@pytest.mark.parametrize(("backend", "fluid"), CASES)
@pytest.mark.parametrize("phase", PHASES)
def test_fluids_dT_dh_p_matches_finite_difference(backend, fluid, phase):
    b = get_backend(fluid, backend)
    p, h = _point(b, phase)
    fd = _central(lambda x: b.T_ph(p, x), h, DH)
    value = b.dT_dh_p(p, h)
    assert _rel_close(value, fd, 1e-4, 1e-12), (value, fd)
    if phase != "two-phase":
        assert value > 0.0


@pytest.mark.parametrize(("backend", "fluid"), CASES)
@pytest.mark.parametrize("phase", PHASES)
def test_fluids_drho_dh_p_matches_finite_difference(backend, fluid, phase):
    b = get_backend(fluid, backend)
    p, h = _point(b, phase)
    fd = _central(lambda x: b.rho_ph(p, x), h, DH)
    assert _rel_close(b.drho_dh_p(p, h), fd, 1e-4, 1e-12), (b.drho_dh_p(p, h), fd)


@pytest.mark.parametrize(("backend", "fluid"), CASES)
@pytest.mark.parametrize("phase", PHASES)
def test_fluids_drho_dp_h_matches_finite_difference(backend, fluid, phase):
    b = get_backend(fluid, backend)
    p, h = _point(b, phase)
    # liquid densities barely move with p: a larger step keeps CoolProp's flash noise out
    dp = 1e-2 * p if phase == "liquid" else 1e-5 * p
    fd = _central(lambda x: b.rho_ph(x, h), p, dp)
    value = b.drho_dp_h(p, h)
    rel = 1e-3 if phase == "liquid" else 1e-4
    if backend == "CoolProp" and fluid == "R410A":
        rel = max(rel, BLEND_REL)
    assert _rel_close(value, fd, rel, 1e-14), (value, fd)
    if phase != "liquid":
        assert value > 0.0


@pytest.mark.parametrize(("backend", "fluid"), CASES)
@pytest.mark.parametrize(
    ("derivative", "function"),
    [("dhliq_dp", "h_liq"), ("dhvap_dp", "h_vap"), ("dTsat_dp", "T_sat")],
)
def test_fluids_saturation_derivatives_match_finite_difference(
    backend, fluid, derivative, function
):
    b = get_backend(fluid, backend)
    p, _ = _point(b, "two-phase")
    fd = _central(getattr(b, function), p, 1e-5 * p)
    value = getattr(b, derivative)(p)
    assert _rel_close(value, fd, 1e-5, 1e-12), (value, fd)


def test_fluids_test_backend_liquid_is_incompressible():
    b = get_backend("R134a")
    p, h = _point(b, "liquid")
    assert b.drho_dp_h(p, h) == 0.0
    assert b.drho_dh_p(p, h) == 0.0


@pytest.mark.parametrize(("backend", "fluid"), CASES)
@pytest.mark.parametrize("phase", PHASES)
def test_fluids_dT_dp_h_matches_finite_difference(backend, fluid, phase):
    b = get_backend(fluid, backend)
    p, h = _point(b, phase)
    # the liquid's T moves by only ~1e-8 K/Pa: a wider step keeps the flash noise out
    fd = _central(lambda x: b.T_ph(x, h), p, (1e-2 if phase == "liquid" else 1e-4) * p)
    value = b.dT_dp_h(p, h)
    rel = BLEND_REL if backend == "CoolProp" and fluid == "R410A" and phase == "two-phase" else 1e-4
    rel = 1e-3 if phase == "liquid" else rel
    assert _rel_close(value, fd, rel, 1e-14), (value, fd)


@pytest.mark.parametrize(("backend", "fluid"), CASES)
def test_fluids_dTbubble_dp_matches_finite_difference(backend, fluid):
    b = get_backend(fluid, backend)
    p = _point(b, "liquid")[0]
    fd = _central(b.T_bubble, p, 1e-4 * p)
    assert _rel_close(b.dTbubble_dp(p), fd, 1e-4, 1e-14), (b.dTbubble_dp(p), fd)
