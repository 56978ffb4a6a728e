"""Transport properties (workbench.fluids.transport) against CoolProp read independently."""

from __future__ import annotations

import math

import CoolProp.CoolProp as CP
import pytest

from workbench.errors import FluidPropertyError
from workbench.fluids import get_backend
from workbench.fluids.transport import transport_for


@pytest.mark.parametrize("fluid", ["R32", "R290", "R134a"])
def test_pure_saturation_matches_coolprop(fluid: str) -> None:
    p = 8.0e5
    sat = transport_for(get_backend(fluid, "CoolProp")).saturation(p)
    for q, phase in ((0, sat.liquid), (1, sat.vapour)):
        for prop, value in (("V", phase.mu), ("L", phase.k), ("D", phase.rho), ("T", phase.t)):
            ref = CP.PropsSI(prop, "P", p, "Q", q, fluid)
            assert value == pytest.approx(ref, rel=1e-6), (fluid, q, prop)
    assert sat.sigma == pytest.approx(CP.PropsSI("I", "P", p, "Q", 0, fluid), rel=1e-6)
    h_fg = CP.PropsSI("H", "P", p, "Q", 1, fluid) - CP.PropsSI("H", "P", p, "Q", 0, fluid)
    assert sat.h_fg == pytest.approx(h_fg, rel=1e-6)


def test_pure_single_phase_matches_coolprop() -> None:
    p, t = 20.0e5, 340.0
    rec = transport_for(get_backend("R32", "CoolProp")).single_phase(p, t)
    assert rec.mu == pytest.approx(CP.PropsSI("V", "P", p, "T", t, "R32"), rel=1e-6)
    assert rec.k == pytest.approx(CP.PropsSI("L", "P", p, "T", t, "R32"), rel=1e-6)
    assert rec.cp == pytest.approx(CP.PropsSI("C", "P", p, "T", t, "R32"), rel=1e-4)
    assert rec.prandtl == pytest.approx(rec.cp * rec.mu / rec.k)


def test_blend_liquid_viscosity_between_its_components() -> None:
    """R454B (R32/R1234yf): the mixing rule stays between the components at the same T."""
    backend = get_backend("R454B", "CoolProp")
    sat = transport_for(backend).saturation(10.0e5)
    t = sat.liquid.t
    mus = [CP.PropsSI("V", "T", t, "Q", 0, c) for c in ("R32", "R1234yf")]
    assert min(mus) < sat.liquid.mu < max(mus)
    ks = [CP.PropsSI("L", "T", t, "Q", 0, c) for c in ("R32", "R1234yf")]
    assert min(ks) < sat.liquid.k < max(ks)
    assert sat.vapour.t > sat.liquid.t  # the glide
    assert 0.0 < sat.sigma < 0.02
    assert math.isfinite(transport_for(backend).single_phase(10.0e5, 330.0).mu)


def test_analytic_backend_refuses_with_the_fluid_named() -> None:
    with pytest.raises(FluidPropertyError, match=r"R134a.*CoolProp backend"):
        transport_for(get_backend("R134a", "Test"))


def test_one_transport_per_backend() -> None:
    backend = get_backend("R290", "CoolProp")
    assert transport_for(backend) is transport_for(backend)
