"""Air-side h and core pressure drop by hand; the fin-type registry against the direct calls."""

import pytest

from workbench.correlations import air_side as air
from workbench.correlations import wang_plain_louvered as wpl
from workbench.correlations import wang_wavy as ww
from workbench.correlations.fin_tube_geometry import FinTubeGeometry


def _coil(**over: object) -> FinTubeGeometry:
    keys: dict[str, object] = dict(
        tubes_per_bank=20,
        banks=2,
        circuits=4,
        tube_length_m=0.8,
        tube_outer_diameter_m=0.00952,
        tube_inner_diameter_m=0.0088,
        transverse_pitch_m=0.0254,
        longitudinal_pitch_m=0.022,
        fins_per_m=550.0,
        fin_thickness_m=0.00011,
    )
    keys.update(over)
    return FinTubeGeometry(**keys)  # type: ignore[arg-type]


def test_air_side_h_by_hand() -> None:
    # j 0.01, G 4 kg/(m2 s), cp 1006, Pr 0.71: 0.71^(2/3) = 0.79587, h = 40.24/0.79587 = 50.561 W/(m2 K)
    assert air.heat_transfer_coefficient(0.01, 4.0, 1006.0, 0.71) == pytest.approx(50.561, rel=1e-4)


def test_air_side_core_pressure_drop_by_hand_and_limits() -> None:
    # constant density: only the friction term, G^2/(2 rho) f A/Ac = 16/2.4 * 0.03 * 20 = 4 Pa
    assert air.core_pressure_drop(0.03, 4.0, 20.0, 0.55, 1.2, 1.2) == pytest.approx(4.0)
    # no friction and constant density: nothing
    assert air.core_pressure_drop(0.0, 4.0, 20.0, 0.55, 1.2, 1.2) == pytest.approx(0.0)
    # heated air (rho falls) accelerates: the drop rises by G^2/(2 rho1)(1 + sigma^2)(r - 1)
    heated = air.core_pressure_drop(0.0, 4.0, 20.0, 0.55, 1.2, 1.1)
    assert heated == pytest.approx(16 / 2.4 * (1 + 0.55**2) * (1.2 / 1.1 - 1))
    # entrance (Kc) and exit (Ke) losses both add: G^2/(2 rho)(Kc + Ke) = 16/2.4 * 0.6 = 4 Pa
    assert air.core_pressure_drop(0.0, 4.0, 20.0, 0.55, 1.2, 1.2, kc=0.3, ke=0.3) == pytest.approx(
        4.0
    )


def test_air_side_registry_calls_the_papers() -> None:
    g = _coil()
    j, f = air.fin_tube_j_f(g, 2000.0)
    common = dict(
        re_dc=2000.0,
        banks=2,
        fin_pitch_m=g.fin_pitch_m,
        collar_diameter_m=g.collar_diameter_m,
        transverse_pitch_m=0.0254,
        longitudinal_pitch_m=0.022,
    )
    assert j == wpl.j_plain_wang_2000(hydraulic_diameter_m=g.hydraulic_diameter_m, **common)  # type: ignore[arg-type]
    assert f == wpl.f_plain_wang_2000(**common)  # type: ignore[arg-type]

    lv = _coil(fin_type="louvered", louver_pitch_m=0.0024, louver_height_m=0.001)
    j, f = air.fin_tube_j_f(lv, 2000.0)
    ratio = lv.air_area_m2 / lv.bare_tube_area_m2
    args = dict(common, fin_pitch_m=lv.fin_pitch_m, collar_diameter_m=lv.collar_diameter_m)
    extra = dict(
        hydraulic_diameter_m=lv.hydraulic_diameter_m, louver_pitch_m=0.0024, louver_height_m=0.001
    )
    assert j == wpl.j_louvered_wang_1999(**args, **extra)  # type: ignore[arg-type]
    assert f == wpl.f_louvered_wang_1999(**args, **extra, area_ratio=ratio)  # type: ignore[arg-type]

    hb = _coil(fin_type="herringbone", wave_depth_m=0.0014, wave_half_length_m=0.00476)
    j, _ = air.fin_tube_j_f(hb, 2000.0)
    dh = hb.hydraulic_diameter_m  # 4 A_c L / A_o (tests/test_correlations_herringbone.py)
    assert j == ww.j_herringbone_wang_2002(
        2000.0, 2, hb.fin_spacing_m, hb.collar_diameter_m, dh, 0.0254, 0.022, 0.0014 / 0.00476
    )
    wv = _coil(fin_type="wavy", wave_depth_m=0.0014, wave_half_length_m=0.00476)
    j, f = air.fin_tube_j_f(wv, 2000.0)
    assert 0.005 < j < 0.05
    assert 0.01 < f < 0.5


def test_air_side_range_messages_name_the_key() -> None:
    inside = _coil()
    assert air.fin_tube_range_messages(inside, 2000.0) == []
    # 5 mm tubes and 9 rows lie outside Wang, Chi & Chang's data
    small = _coil(tube_outer_diameter_m=0.005, tube_inner_diameter_m=0.0045, banks=9)
    messages = air.fin_tube_range_messages(small, 100.0)
    keys = sorted(m.split(" = ")[0] for m in messages)
    assert keys == ["banks", "collar_diameter_m", "reynolds_dc"]
    assert all("Wang, Chi & Chang (2000)" in m for m in messages)
    hb = _coil(fin_type="herringbone", wave_depth_m=0.0005, wave_half_length_m=0.00476)
    assert any(m.startswith("wave_tan = ") for m in air.fin_tube_range_messages(hb, 2000.0))
