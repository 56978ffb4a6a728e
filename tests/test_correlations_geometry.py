"""The fin-and-tube geometry against a hand calculation."""

import math

import pytest

from workbench.correlations.fin_tube_geometry import FinTubeGeometry


def _coil(**over: object) -> FinTubeGeometry:
    keys: dict[str, object] = dict(
        tubes_per_bank=2,
        banks=2,
        circuits=1,
        tube_length_m=0.5,
        tube_outer_diameter_m=0.010,
        tube_inner_diameter_m=0.009,
        transverse_pitch_m=0.025,
        longitudinal_pitch_m=0.020,
        fins_per_m=500.0,
        fin_thickness_m=0.0001,
    )
    keys.update(over)
    return FinTubeGeometry(**keys)  # type: ignore[arg-type]


def test_geometry_plain_against_hand_calculation() -> None:
    g = _coil()
    # by hand: Dc = 10 + 2*0.1 = 10.2 mm; H = 2*25 = 50 mm; depth = 2*20 = 40 mm; 250 fins
    assert g.collar_diameter_m == pytest.approx(0.0102)
    assert g.fin_pitch_m == pytest.approx(0.002)
    assert g.frontal_area_m2 == pytest.approx(0.05 * 0.5)
    # A_c = (50 - 2*10.2 mm)(500 - 250*0.1 mm) = 29.6 mm * 475 mm
    assert g.min_flow_area_m2 == pytest.approx(0.0296 * 0.475)
    assert g.sigma == pytest.approx((1 - 0.0102 / 0.025) * (1 - 0.0001 / 0.002))
    # A_f = 2*250*(0.05*0.04 - 4*pi*0.0102^2/4) = 0.8365745 m^2
    assert g.fin_area_m2 == pytest.approx(0.8365745, rel=1e-6)
    # A_tube = 4*pi*0.0102*0.475 = 0.0608841 m^2
    assert g.tube_outer_area_m2 == pytest.approx(0.0608841, rel=1e-6)
    assert g.air_area_m2 == pytest.approx(0.8974586, rel=1e-6)
    # D_h = 4*0.01406*0.04/0.8974586 = 2.5066 mm
    assert g.hydraulic_diameter_m == pytest.approx(2.5066e-3, rel=1e-4)
    assert g.internal_volume_m3 == pytest.approx(4 * math.pi * 0.009**2 / 4 * 0.5)
    assert g.inner_area_m2 == pytest.approx(4 * math.pi * 0.009 * 0.5)
    assert g.area_enhancement == 1.0


def test_geometry_wavy_enhances_fin_area_only() -> None:
    flat = _coil()
    wavy = _coil(fin_type="wavy", wave_depth_m=0.0015, wave_half_length_m=0.002)
    # sec(theta) = sqrt(2^2 + 1.5^2)/2 = 1.25
    assert wavy.area_enhancement == pytest.approx(1.25)
    sheet = 2 * 250 * 0.05 * 0.04
    assert wavy.fin_area_m2 - flat.fin_area_m2 == pytest.approx(sheet * 0.25)
    assert wavy.min_flow_area_m2 == flat.min_flow_area_m2


@pytest.mark.parametrize(
    ("over", "key"),
    [
        ({"tube_inner_diameter_m": 0.011}, "tube_inner_diameter_m"),
        ({"transverse_pitch_m": 0.010}, "transverse_pitch_m"),
        ({"fins_per_m": 20000.0}, "fin_thickness_m"),
        ({"fin_type": "slit"}, "fin_type"),
        ({"fin_type": "louvered"}, "louver_pitch_m"),
        ({"fin_type": "herringbone", "wave_depth_m": 0.001}, "wave_half_length_m"),
        ({"banks": 0}, "banks"),
        ({"circuits": 5}, "circuits"),
    ],
)
def test_geometry_rejects_bad_keys_naming_them(over: dict[str, object], key: str) -> None:
    with pytest.raises(ValueError, match=f"^{key}:"):
        _coil(**over)


def test_geometry_reynolds_on_collar() -> None:
    g = _coil()
    G = 1.0 / g.min_flow_area_m2
    assert g.reynolds_collar(1.0, 1.8e-5) == pytest.approx(G * 0.0102 / 1.8e-5)
