"""Line heat gain: series resistances by hand, the default outer coefficient, the energy balance."""

from __future__ import annotations

import math

import pytest
from CoolProp.CoolProp import PropsSI
from ht.conv_free_immersed import Nu_horizontal_cylinder_Churchill_Chu
from scipy.integrate import solve_ivp

from workbench.correlations.line_heat_gain import (
    OUTER_COEFFICIENT_W_M2_K,
    line_heat_gain,
    line_heat_gain_per_length,
    line_outlet_temperature,
    line_thermal_resistance,
)

D_O = 22.23e-3  # 7/8 in
D_I = D_O - 2 * 1.143e-3  # 0.045 in wall


def test_line_resistances_hand_calculation() -> None:
    r = line_thermal_resistance(D_I, D_O, 13e-3, 0.035, 9.0, inner_coefficient_w_m2_k=2000.0)
    d_ins = D_O + 26e-3
    assert r.inner == pytest.approx(1 / (2000 * math.pi * D_I))
    assert r.wall == pytest.approx(math.log(D_O / D_I) / (2 * math.pi * 340.0))
    assert r.insulation == pytest.approx(math.log(d_ins / D_O) / (2 * math.pi * 0.035))
    assert r.outer == pytest.approx(1 / (9.0 * math.pi * d_ins))
    # suction line at 5 C in a 30 C room, 12 m
    q_per_m = line_heat_gain_per_length(278.15, 303.15, r)
    assert q_per_m == pytest.approx(25.0 / (r.inner + r.wall + r.insulation + r.outer))
    assert line_heat_gain(278.15, 303.15, r, 12.0) == pytest.approx(12 * q_per_m)
    assert 3.0 < q_per_m < 10.0  # W/m: an insulated suction line
    # the insulation holds most of the resistance, the inside film under 1 %
    assert 0.75 < r.insulation / r.total < 0.9
    assert r.inner / r.total < 0.01


def test_line_discharge_line_loses_heat_and_bare_line_loses_more() -> None:
    insulated = line_thermal_resistance(D_I, D_O, 13e-3)
    bare = line_thermal_resistance(D_I, D_O)
    assert bare.insulation == 0.0
    assert line_heat_gain_per_length(343.15, 298.15, insulated) < 0.0
    assert line_heat_gain_per_length(343.15, 298.15, bare) < line_heat_gain_per_length(
        343.15, 298.15, insulated
    )


def test_line_default_outer_coefficient_is_convection_plus_radiation() -> None:
    # natural convection (Churchill-Chu, ht) + grey radiation on the 48 mm insulation, 5 K
    d, t_amb, t_surf = D_O + 26e-3, 303.15, 298.15
    t_film = 0.5 * (t_amb + t_surf)
    nu = PropsSI("V", "T", t_film, "P", 101325, "Air") / PropsSI(
        "D", "T", t_film, "P", 101325, "Air"
    )
    pr = PropsSI("Prandtl", "T", t_film, "P", 101325, "Air")
    k = PropsSI("L", "T", t_film, "P", 101325, "Air")
    gr = 9.80665 * (t_amb - t_surf) / t_film * d**3 / nu**2
    h_conv = Nu_horizontal_cylinder_Churchill_Chu(pr, gr) * k / d
    h_rad = 0.9 * 5.670374e-8 * (t_amb**2 + t_surf**2) * (t_amb + t_surf)
    assert 2.5 < h_conv < 5.5
    assert h_conv + h_rad == pytest.approx(OUTER_COEFFICIENT_W_M2_K, rel=0.15)


def test_line_outlet_temperature_energy_balance() -> None:
    r = line_thermal_resistance(D_I, D_O, 9e-3)
    m, cp, t_in, t_amb, length = 0.02, 1900.0, 283.15, 308.15, 20.0
    t_out = line_outlet_temperature(t_in, t_amb, r, length, m, cp)
    sol = solve_ivp(
        lambda _z, t: [(t_amb - t[0]) / (r.total * m * cp)],
        (0.0, length),
        [t_in],
        rtol=1e-10,
        atol=1e-10,
    )
    assert t_out == pytest.approx(sol.y[0, -1], abs=1e-7)
    # short line: the exponential falls back to q' L / (m cp)
    t_short = line_outlet_temperature(t_in, t_amb, r, 0.01, m, cp)
    assert (t_short - t_in) * m * cp == pytest.approx(
        line_heat_gain(t_in, t_amb, r, 0.01), rel=1e-4
    )
    assert t_in < t_out < t_amb


def test_line_resistance_rejects_bad_diameters() -> None:
    with pytest.raises(ValueError, match="outer_diameter_m"):
        line_thermal_resistance(0.02, 0.019)
    with pytest.raises(ValueError, match="insulation_thickness_m"):
        line_thermal_resistance(0.02, 0.022, -1e-3)
