"""Plate single phase: Martin and Muley-Manglik through ht/fluids against the equations by hand."""

from __future__ import annotations

import math

import pytest
from CoolProp.CoolProp import PropsSI

from workbench.correlations.plate_geometry import PlateGeometry
from workbench.correlations.plate_single_phase import (
    plate_channel_mass_flux,
    plate_channel_pressure_drop,
    plate_friction_factor,
    plate_nusselt,
    plate_port_pressure_drop,
    plate_reynolds,
    plate_single_phase_range_warnings,
)


def _martin_vdi_by_hand(re: float, beta_deg: float) -> float:
    beta = math.radians(beta_deg)
    if re < 2000:
        f0, f1 = 64 / re, 597 / re + 3.85
    else:
        f0, f1 = (1.8 * math.log10(re) - 1.5) ** -2, 39 * re**-0.289
    inv = math.cos(beta) / math.sqrt(
        0.18 * math.tan(beta) + 0.36 * math.sin(beta) + f0 / math.cos(beta)
    )
    inv += (1 - math.cos(beta)) / math.sqrt(3.8 * f1)
    return inv**-2


@pytest.mark.parametrize(("re", "beta"), [(500.0, 30.0), (5000.0, 60.0), (20000.0, 45.0)])
def test_plate_martin_vdi_against_equation(re: float, beta: float) -> None:
    f = _martin_vdi_by_hand(re, beta)
    assert plate_friction_factor(re, beta, 1.2) == pytest.approx(f, rel=1e-12)
    nu = 0.122 * 4.0 ** (1 / 3) * (f * re**2 * math.sin(2 * math.radians(beta))) ** 0.374
    assert plate_nusselt(re, 4.0, beta, 1.2) == pytest.approx(nu, rel=1e-12)
    # wall-viscosity correction with the power 1/6
    assert plate_nusselt(re, 4.0, beta, 1.2, viscosity_ratio=1.5) == pytest.approx(
        nu * 1.5 ** (1 / 6), rel=1e-12
    )


def test_plate_martin_1999_published_example() -> None:
    # ht's documented value of Nu_plate_Martin(Re=2000, Pr=0.7, chevron_angle=45)
    assert plate_nusselt(2000.0, 0.7, 45.0, 1.2, method="martin_1999") == pytest.approx(
        30.427601053757, rel=1e-10
    )


def test_plate_muley_manglik_against_equation() -> None:
    re, pr, beta, phi = 3000.0, 5.0, 45.0, 1.18
    nu = (
        (0.2668 - 0.006967 * beta + 7.244e-5 * beta**2)
        * (20.7803 - 50.9372 * phi + 41.1585 * phi**2 - 10.1507 * phi**3)
        * re ** (0.728 + 0.0543 * math.sin(math.pi * beta / 45 + 3.7))
        * pr ** (1 / 3)
    )
    assert plate_nusselt(re, pr, beta, phi, method="muley_manglik", viscosity_ratio=2.0) == (
        pytest.approx(nu * 2.0**0.14, rel=1e-12)
    )
    fanning = (
        (2.917 - 0.1277 * beta + 2.016e-3 * beta**2)
        * (5.474 - 19.02 * phi + 18.93 * phi**2 - 5.341 * phi**3)
        * re ** -(0.2 + 0.0577 * math.sin(math.pi * beta / 45 + 2.1))
    )
    assert plate_friction_factor(re, beta, phi, method="muley_manglik") == pytest.approx(
        4 * fanning, rel=1e-12
    )


def test_plate_unknown_method() -> None:
    with pytest.raises(ValueError, match="martin_vdi"):
        plate_nusselt(1000.0, 3.0, 45.0, 1.2, method="kumar")


def test_plate_water_side_pressure_drop_hand_calculation() -> None:
    geo = PlateGeometry(
        plates=30, plate_length_m=0.278, plate_width_m=0.112, chevron_angle_deg=60.0,
        corrugation_pitch_m=7e-3, channel_gap_m=2e-3, plate_thickness_m=0.3e-3,
        port_diameter_m=0.024,
    )  # fmt: skip
    m_dot = 0.5  # kg/s of water at 30 C, 2 bar
    rho = PropsSI("D", "T", 303.15, "P", 2e5, "Water")
    mu = PropsSI("V", "T", 303.15, "P", 2e5, "Water")
    g = plate_channel_mass_flux(m_dot, geo.channels_secondary, geo.channel_flow_area_m2)
    assert g == pytest.approx(0.5 / (15 * 2e-3 * 0.112))
    re = plate_reynolds(g, geo.hydraulic_diameter_m, mu)
    f = plate_friction_factor(re, 60.0, geo.enlargement_factor)
    dp_ch = plate_channel_pressure_drop(f, g, rho, geo.plate_length_m, geo.hydraulic_diameter_m)
    velocity = g / rho
    assert dp_ch == pytest.approx(f * 0.278 / geo.hydraulic_diameter_m * rho * velocity**2 / 2)
    dp_port = plate_port_pressure_drop(m_dot, rho, geo.port_diameter_m)
    v_port = m_dot / rho / (math.pi / 4 * 0.024**2)
    assert dp_port == pytest.approx(1.4 * rho * v_port**2 / 2)
    # a plausible water side: 1.5-60 kPa for ~10 kW of water at 0.5 kg/s in this size
    assert 1.5e3 < dp_ch + dp_port < 6e4
    # friction grows less than quadratically with the flow in the turbulent range
    f2 = plate_friction_factor(2 * re, 60.0, geo.enlargement_factor)
    ratio = plate_channel_pressure_drop(f2, 2 * g, rho, 0.278, geo.hydraulic_diameter_m) / dp_ch
    assert 3.0 < ratio < 4.0


def test_plate_range_warnings_name_quantity() -> None:
    assert plate_single_phase_range_warnings(3000.0, 45.0, 1.2) == []
    out = plate_single_phase_range_warnings(150.0, 45.0, 1.2)
    assert out == ["Martin: Reynolds number 150 outside [200, 10000]"]
    out = plate_single_phase_range_warnings(500.0, 65.0, 1.6, method="muley_manglik")
    assert len(out) == 3
    assert "chevron angle [deg] 65 outside [30, 60]" in out[1]
