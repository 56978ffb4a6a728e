"""Humid air from psychrolib against CoolProp's HAPropsSI (the other library) and by hand."""

import pytest
from CoolProp.CoolProp import HAPropsSI

from workbench.correlations import humid_air as ha

P = 101325.0
STATES = [(253.15, 0.8), (280.0, 0.9), (300.0, 0.5), (308.15, 0.4), (323.15, 0.2)]


@pytest.mark.parametrize(("t", "rh"), STATES)
def test_humid_air_agrees_with_hapropssi(t: float, rh: float) -> None:
    w = ha.humidity_ratio(t, rh, P)
    # CoolProp applies the enhancement factor of real moist air (about 0.4 % more vapour)
    assert w == pytest.approx(HAPropsSI("W", "T", t, "P", P, "R", rh), rel=7e-3)
    assert ha.relative_humidity(t, w, P) == pytest.approx(rh, rel=1e-9)
    assert ha.enthalpy(t, w) == pytest.approx(HAPropsSI("H", "T", t, "P", P, "W", w), abs=40.0)
    assert ha.dew_point(t, w, P) == pytest.approx(HAPropsSI("Tdp", "T", t, "P", P, "W", w), abs=0.1)
    v = HAPropsSI("V", "T", t, "P", P, "W", w)
    assert ha.density(t, w, P) == pytest.approx((1 + w) / v, rel=2e-3)
    assert ha.viscosity(t) == pytest.approx(HAPropsSI("M", "T", t, "P", P, "W", w), rel=5e-3)
    assert ha.conductivity(t) == pytest.approx(HAPropsSI("K", "T", t, "P", P, "W", w), rel=2e-2)


@pytest.mark.parametrize("t", [268.15, 280.0, 290.0, 300.0, 308.15])
def test_humid_air_saturated_enthalpy_and_slope(t: float) -> None:
    hs = HAPropsSI("H", "T", t, "P", P, "R", 1.0)
    assert ha.saturated_enthalpy(t, P) == pytest.approx(hs, rel=5e-3, abs=60.0)
    slope = (
        HAPropsSI("H", "T", t + 0.01, "P", P, "R", 1.0)
        - HAPropsSI("H", "T", t - 0.01, "P", P, "R", 1.0)
    ) / 0.02
    assert ha.saturated_enthalpy_slope(t, P) == pytest.approx(slope, rel=6e-3)
    w_sat = ha.saturated_humidity_ratio(t, P)
    assert ha.enthalpy(t, w_sat) == pytest.approx(ha.saturated_enthalpy(t, P), rel=1e-9)


def test_humid_air_hand_values() -> None:
    # ASHRAE eq. 32 at 20 C, W = 0.01: 1006*20 + 0.01*(2501000 + 1860*20) = 20120 + 25382 = 45502 J/kg_da
    assert ha.enthalpy(293.15, 0.01) == pytest.approx(45502.0)
    assert ha.cp_moist(0.01) == pytest.approx(1024.6)
    # dh/dT at constant W equals cp_moist
    dh = ha.enthalpy(293.16, 0.01) - ha.enthalpy(293.14, 0.01)
    assert dh / 0.02 == pytest.approx(ha.cp_moist(0.01), rel=1e-6)
    # Sutherland at its reference temperature
    assert ha.viscosity(273.15) == pytest.approx(1.716e-5)
    assert ha.conductivity(273.15) == pytest.approx(0.0241)
    # psychrolib floors the humidity ratio at 1e-7 kg/kg_da (its MIN_HUM_RATIO)
    assert ha.humidity_ratio(300.0, 0.0) == pytest.approx(1e-7)


def test_humid_air_rejects_relative_humidity_above_one() -> None:
    with pytest.raises(ValueError, match=r"[Rr]elative humidity"):
        ha.humidity_ratio(300.0, 1.2)
