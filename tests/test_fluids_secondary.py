"""Secondary fluids: cp against CoolProp, h consistent with cp, names and ranges."""

from __future__ import annotations

import CoolProp.CoolProp as CP
import numpy as np
import pytest

from workbench.errors import FluidPropertyError, UnknownFluidError
from workbench.fluids import get_secondary


@pytest.mark.parametrize(
    ("name", "coolprop", "temps"),
    [
        ("air", "Air", [233.15, 273.15, 293.15, 313.15, 353.15, 413.15]),
        ("water", "Water", [274.15, 283.15, 303.15, 323.15, 343.15, 363.15]),
    ],
)
def test_secondary_cp_matches_coolprop(name, coolprop, temps):
    fluid = get_secondary(name)
    for t in temps:
        assert fluid.cp(t) == pytest.approx(
            CP.PropsSI("C", "T", t, "P", 101325.0, coolprop), rel=2e-3
        )


def test_secondary_water_enthalpy_difference_matches_coolprop():
    water = get_secondary("water")
    ref = CP.PropsSI("H", "T", 353.15, "P", 101325.0, "Water") - CP.PropsSI(
        "H", "T", 283.15, "P", 101325.0, "Water"
    )
    assert water.h(353.15) - water.h(283.15) == pytest.approx(ref, rel=2e-3)


def test_secondary_meg30_against_handbook_value():
    # 30 % (mass) ethylene glycol at 20 degC: cp about 3.7 kJ/kg/K, freezing near -15 degC
    meg = get_secondary("MEG30")
    assert meg.cp(293.15) == pytest.approx(3720.0, rel=0.02)
    assert 255.0 < meg.T_min < 262.0
    assert get_secondary("glycol") is meg
    assert get_secondary("INCOMP::MEG-30%") is meg
    assert get_secondary("MPG40").cp(293.15) < get_secondary("MPG20").cp(293.15)


@pytest.mark.parametrize("name", ["air", "water", "MEG30", "MPG25"])
def test_secondary_h_is_integral_of_cp(name):
    fluid = get_secondary(name)
    t = np.linspace(max(fluid.T_min, 260.0) + 0.01, min(fluid.T_max, 360.0), 7)
    dt = 1e-3
    np.testing.assert_allclose(
        (fluid.h(t + dt) - fluid.h(t - dt)) / (2 * dt), fluid.cp(t), rtol=1e-8
    )
    assert fluid.h(273.15) == 0.0
    for temp in t:
        assert fluid.T_h(fluid.h(float(temp))) == pytest.approx(temp, abs=1e-8)
    assert isinstance(fluid.cp(300.0), float)


def test_secondary_errors():
    with pytest.raises(UnknownFluidError, match="valid names: air, water, glycol"):
        get_secondary("brine")
    with pytest.raises(UnknownFluidError, match=r"10\.\.60"):
        get_secondary("MEG80")
    with pytest.raises(
        FluidPropertyError, match=r"secondary fluid water: cp failed for T=263.15 K: outside"
    ):
        get_secondary("water").cp(263.15)
