"""Wang, Hwang & Lin (2002) herringbone j and f: branch continuity, the wavy fit, a peer's value.

The coefficients match ACHP's ``HerringboneFins`` (tests/test_correlations_wang.py); what these
tests pin is the hydraulic diameter the fit takes. With ``D_h = 4 A_c L / A_o`` (the coil's
``hydraulic_diameter_m``) the two Reynolds branches of j meet at ``Re_Dc = 1000`` and j agrees
with the wavy-fin fit of the same laboratory (Wang, Jang & Chiou 1999); with the volumetric
``herringbone_hydraulic_diameter`` that ACHP feeds it they differ 10-17 times
(docs/correlations.md).
"""

import math

import pytest

from workbench.correlations import air_side as air
from workbench.correlations import wang_wavy as ww
from workbench.correlations.fin_tube_geometry import FinTubeGeometry


def _coil(**over: object) -> FinTubeGeometry:
    """The example evaporator (examples/scenarios/split_unit_fin_tube_v2.json), herringbone."""
    keys: dict[str, object] = dict(
        tubes_per_bank=12,
        banks=2,
        circuits=2,
        tube_length_m=0.7,
        tube_outer_diameter_m=0.00952,
        tube_inner_diameter_m=0.0088,
        transverse_pitch_m=0.0254,
        longitudinal_pitch_m=0.022,
        fins_per_m=550.0,
        fin_thickness_m=0.00012,
        fin_type="herringbone",
        wave_depth_m=0.0015,
        wave_half_length_m=0.0055,
    )
    keys.update(over)
    return FinTubeGeometry(**keys)  # type: ignore[arg-type]


def _args(g: FinTubeGeometry, re_dc: float, dh: float) -> dict[str, float]:
    return {
        "re_dc": re_dc,
        "banks": g.banks,
        "fin_spacing_m": g.fin_spacing_m,
        "collar_diameter_m": g.collar_diameter_m,
        "hydraulic_diameter_m": dh,
        "transverse_pitch_m": g.transverse_pitch_m,
        "longitudinal_pitch_m": g.longitudinal_pitch_m,
        "wave_tan": g.wave_tan,
    }


def _branches(g: FinTubeGeometry, dh: float) -> tuple[float, float, float, float]:
    below, above = _args(g, 999.999, dh), _args(g, 1000.0, dh)
    return (
        ww.j_herringbone_wang_2002(**below),  # type: ignore[arg-type]
        ww.j_herringbone_wang_2002(**above),  # type: ignore[arg-type]
        ww.f_herringbone_wang_2002(**below),  # type: ignore[arg-type]
        ww.f_herringbone_wang_2002(**above),  # type: ignore[arg-type]
    )


def _volumetric_dh(g: FinTubeGeometry) -> float:
    return ww.herringbone_hydraulic_diameter(
        g.fin_spacing_m,
        g.collar_diameter_m,
        g.transverse_pitch_m,
        g.longitudinal_pitch_m,
        g.wave_tan,
    )


@pytest.mark.parametrize("banks", [1, 2, 3, 4])
def test_herringbone_branches_meet_at_1000_with_4_ac_l_over_ao(banks: int) -> None:
    # measured: j below/above 1.11, 1.10, 1.03, 0.92; f above/below 0.80, 0.87, 0.91, 0.93
    g = _coil(banks=banks)
    j_lo, j_hi, f_lo, f_hi = _branches(g, g.hydraulic_diameter_m)
    assert j_lo / j_hi == pytest.approx(1.0, abs=0.15)
    assert f_hi / f_lo == pytest.approx(1.0, abs=0.25)


@pytest.mark.parametrize("banks", [1, 2, 3, 4])
def test_herringbone_volumetric_dh_tears_the_branches_apart(banks: int) -> None:
    # the D_h ACHP uses: j below/above 17.4, 13.2, 11.2, 9.8 on the same coil
    g = _coil(banks=banks)
    assert _volumetric_dh(g) / g.hydraulic_diameter_m == pytest.approx(1.41, abs=0.02)
    j_lo, j_hi, _, _ = _branches(g, _volumetric_dh(g))
    assert j_lo / j_hi > 8.0


def test_herringbone_branches_meet_over_the_range() -> None:
    # collar 8.58 and 10.38 mm, P_l 19.05 and 25.4 mm, F_p 1.21-3.66 mm, 1-6 rows, 14.5-18.5 deg:
    # 128 coils, j below/above at Re_Dc 1000 within a factor 1.36 rms, 2.8 at the worst corner
    # (D_c 10.38 mm, P_l 25.4 mm, F_p 1.21 mm, 6 rows, 18.5 deg: the high branch above)
    logs = []
    for od in (8.34e-3, 10.14e-3):
        for pl in (19.05e-3, 25.4e-3):
            for fp in (1.21e-3, 1.8e-3, 2.5e-3, 3.66e-3):
                for banks in (1, 2, 4, 6):
                    for deg in (14.5, 18.5):
                        g = _coil(
                            tube_outer_diameter_m=od,
                            tube_inner_diameter_m=od - 0.6e-3,
                            longitudinal_pitch_m=pl,
                            fins_per_m=1.0 / fp,
                            banks=banks,
                            wave_depth_m=0.0055 * math.tan(math.radians(deg)),
                        )
                        j_lo, j_hi, _, _ = _branches(g, g.hydraulic_diameter_m)
                        logs.append(math.log(j_lo / j_hi))
    rms = math.sqrt(sum(x * x for x in logs) / len(logs))
    assert math.exp(rms) < 1.5
    assert math.exp(max(abs(x) for x in logs)) < 3.0


@pytest.mark.parametrize("banks", [1, 2, 3, 4])
@pytest.mark.parametrize("re_dc", [1000.0, 2000.0, 3000.0])
def test_herringbone_j_of_the_order_of_the_wavy_fit(banks: int, re_dc: float) -> None:
    # the two fits share laboratory and kind of sample: measured ratio 0.80-0.96, j 0.011-0.022
    g = _coil(banks=banks)
    j = ww.j_herringbone_wang_2002(**_args(g, re_dc, g.hydraulic_diameter_m))  # type: ignore[arg-type]
    jw = ww.j_wavy_wang_1999(
        re_dc,
        banks,
        g.fin_pitch_m,
        g.collar_diameter_m,
        g.hydraulic_diameter_m,
        g.transverse_pitch_m,
        g.longitudinal_pitch_m,
        g.wave_tan,
    )
    assert 0.7 < j / jw < 1.3
    assert 0.008 < j < 0.03


def test_herringbone_matches_the_heattransfer_notebook() -> None:
    # wlsie/HeatTransfer (commit b02065d), WavyFin_Airside_example.ipynb: Wang, Hwang & Lin
    # (2002) on its own D_h = 4 A_c L / A_o = 1.47483 mm, D_o 9.525 mm, F_p 1.22 mm, fin 0.152
    # mm, P_l 19.05 mm, P_t 25.4 mm, p_d 1.23 mm, x_f 7 mm, 4 rows, face velocity 0.2 m/s,
    # sigma 0.547131, rho 1.109356 kg/m3, mu 1.894603e-5 Pa s, cp 1028.162, Pr 0.713192:
    # HTC = 13.068488 W/(m2 K) (Re_Dc 210, the low branch)
    rho, mu, cp, pr = (
        1.109356342851275,
        1.8946030732764537e-05,
        1028.1616087016457,
        0.7131921984075685,
    )
    mass_flux = rho * 0.2 / 0.5471311475409837
    dc = 9.525e-3 + 2 * 0.152e-3
    j = ww.j_herringbone_wang_2002(
        mass_flux * dc / mu,
        4,
        1.22e-3 - 0.152e-3,
        dc,
        0.0014748316469216675,
        25.4e-3,
        19.05e-3,
        1.23 / 7,
    )
    h = air.heat_transfer_coefficient(j, mass_flux, cp, pr)
    assert h == pytest.approx(13.068488034996921, rel=1e-9)


def test_herringbone_registry_passes_the_coil_hydraulic_diameter() -> None:
    g = _coil()
    j, f = air.fin_tube_j_f(g, 1500.0)
    args = _args(g, 1500.0, g.hydraulic_diameter_m)
    assert j == ww.j_herringbone_wang_2002(**args)  # type: ignore[arg-type]
    assert f == ww.f_herringbone_wang_2002(**args)  # type: ignore[arg-type]
