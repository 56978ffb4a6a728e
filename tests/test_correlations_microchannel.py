"""Microchannel geometry and the louvered-fin j and f against ACHP.

MICRO_ACHP was produced on 2026-11-27 by /tmp/peer/run_micro.py: ACHP's
``ACHP/MicroFinCorrelations.py::MultiLouveredMicroFins`` (CenterHighPerformanceBuildingsPurdue/ACHP)
run unchanged with constant air properties (rho 1.2, mu 1.8e-5, k 0.026, cp 1005, SI), j
recovered from its h as j = h Pr^(2/3) / (rho u_max cp) with its own u_max and Re_Lp; its f is
Chang et al. (2000) (all cases have Re_Lp >= 150, where ACHP's transcription agrees with the
paper); ``j_kim_bullard`` is its active Kim & Bullard (2002) line and ``j_chang_wang`` its
commented-out Chang & Wang (1997) line evaluated as written. ACHP takes the fin length as the
tube spacing b, as here.
"""

import math

import pytest

from workbench.correlations import microchannel as mc

MICRO_ACHP = [
    {
        "re_lp": 383.69048403085543,
        "louver_angle_deg": 27.0,
        "fin_pitch_m": 0.0012699999999999999,
        "fin_length_m": 0.008,
        "fin_depth_m": 0.02,
        "louver_length_m": 0.0068,
        "tube_pitch_m": 0.0098,
        "tube_height_m": 0.0018,
        "fin_thickness_m": 0.0001,
        "louver_pitch_m": 0.0012,
        "hydraulic_diameter_m": 0.0012809651101343591,
        "j_kim_bullard": 0.024530921180518212,
        "j_chang_wang": 0.023994707736622222,
        "f": 0.38720043564529316,
    },
    {
        "re_lp": 799.6165356880317,
        "louver_angle_deg": 23.0,
        "fin_pitch_m": 0.001411111111111111,
        "fin_length_m": 0.008,
        "fin_depth_m": 0.02,
        "louver_length_m": 0.0068,
        "tube_pitch_m": 0.0098,
        "tube_height_m": 0.0018,
        "fin_thickness_m": 0.0001,
        "louver_pitch_m": 0.0014,
        "hydraulic_diameter_m": 0.0014928422971714728,
        "j_kim_bullard": 0.01701829761437856,
        "j_chang_wang": 0.01657295145491934,
        "f": 0.20646315722481104,
    },
    {
        "re_lp": 1213.6519802311298,
        "louver_angle_deg": 30.0,
        "fin_pitch_m": 0.0010583333333333332,
        "fin_length_m": 0.008,
        "fin_depth_m": 0.02,
        "louver_length_m": 0.0068,
        "tube_pitch_m": 0.0098,
        "tube_height_m": 0.0018,
        "fin_thickness_m": 0.0001,
        "louver_pitch_m": 0.001,
        "hydraulic_diameter_m": 0.0010141435904090484,
        "j_kim_bullard": 0.0139360885085108,
        "j_chang_wang": 0.013612996605531204,
        "f": 0.2903160612532042,
    },
    {
        "re_lp": 166.70259739257813,
        "louver_angle_deg": 25.0,
        "fin_pitch_m": 0.0015875,
        "fin_length_m": 0.008,
        "fin_depth_m": 0.02,
        "louver_length_m": 0.0068,
        "tube_pitch_m": 0.0098,
        "tube_height_m": 0.0018,
        "fin_thickness_m": 0.0001,
        "louver_pitch_m": 0.0013,
        "hydraulic_diameter_m": 0.0017286648989712388,
        "j_kim_bullard": 0.03592577608690488,
        "j_chang_wang": 0.03513167413810688,
        "f": 0.45011990094009907,
    },
]


def _common(case: dict[str, float]) -> dict[str, float]:
    keys = (
        "re_lp",
        "louver_angle_deg",
        "fin_pitch_m",
        "fin_length_m",
        "louver_length_m",
        "tube_pitch_m",
        "fin_thickness_m",
        "louver_pitch_m",
    )
    return {k: case[k] for k in keys}


@pytest.mark.parametrize("case", MICRO_ACHP)
def test_microchannel_j_and_f_match_achp(case: dict[str, float]) -> None:
    args = _common(case)
    j_cw = mc.j_louver_chang_wang_1997(**args, tube_depth_m=case["fin_depth_m"])
    assert j_cw == pytest.approx(case["j_chang_wang"], rel=1e-9)
    j_kb = mc.j_louver_kim_bullard_2002(**args, fin_depth_m=case["fin_depth_m"])
    assert j_kb == pytest.approx(case["j_kim_bullard"], rel=1e-6)
    f = mc.f_louver_chang_2000(
        **args,
        fin_depth_m=case["fin_depth_m"],
        tube_height_m=case["tube_height_m"],
        hydraulic_diameter_m=case["hydraulic_diameter_m"],
    )
    assert f == pytest.approx(case["f"], rel=1e-6)


def test_microchannel_f_low_branch_by_hand() -> None:
    # Re_Lp = 100, theta 27, Fp 1.27, Fl 8, Fd 20, Ll 6.8, Tp 9.8, Dm 1.8, df 0.1, Lp 1.2,
    # Dh 1.28 mm; the three factors by hand (Chang et al. 2000, Re_Lp < 150):
    f1 = 14.39 * 100 ** (-0.805 * 1.27 / 8) * math.log(1 + 1.27 / 1.2) ** 3.04
    f2 = (
        math.log((0.1 / 1.27) ** 0.48 + 0.9) ** -1.435
        * (1.28 / 1.2) ** -3.01
        * math.log(50.0) ** -3.01
    )
    f3 = (1.27 / 6.8) ** -0.308 * (20 / 6.8) ** -0.308 * math.exp(-0.1167 * 9.8 / 1.8) * 27**0.35
    got = mc.f_louver_chang_2000(
        100.0, 27.0, 1.27e-3, 8e-3, 20e-3, 6.8e-3, 9.8e-3, 1.8e-3, 0.1e-3, 1.2e-3, 1.28e-3
    )
    assert got == pytest.approx(f1 * f2 * f3, rel=1e-12)
    assert 0.1 < got < 2.0


def _coil(**over: object) -> mc.MicrochannelGeometry:
    keys: dict[str, object] = dict(
        tubes_per_bank=10,
        banks=1,
        circuits=5,
        tube_length_m=0.5,
        tube_depth_m=0.020,
        tube_height_m=0.002,
        tube_pitch_m=0.010,
        ports_per_tube=10,
        port_width_m=0.0015,
        port_height_m=0.001,
        fins_per_m=800.0,
        fin_thickness_m=0.0001,
        louver_pitch_m=0.0012,
        louver_angle_deg=27.0,
    )
    keys.update(over)
    return mc.MicrochannelGeometry(**keys)  # type: ignore[arg-type]


def test_microchannel_geometry_by_hand() -> None:
    g = _coil()
    # Fl = 10 - 2 = 8 mm; 400 fins per tube; A_fr = 10 * 10 mm * 0.5 m
    assert g.fin_length_m == pytest.approx(0.008)
    assert g.frontal_area_m2 == pytest.approx(0.05)
    # A_c = 10 * 8 mm * (500 - 400 * 0.1 mm) = 10 * 0.008 * 0.46
    assert g.min_flow_area_m2 == pytest.approx(0.0368)
    # fins: 2 * 10 * 0.008 * 0.020 * 400 = 1.28 m^2
    assert g.fin_area_m2 == pytest.approx(1.28)
    # tubes: 10 * (0.5 (2 * 0.018 + pi 0.002) - 2 * 400 * 0.0001 * 0.02)
    assert g.tube_outer_area_m2 == pytest.approx(10 * (0.5 * (0.036 + math.pi * 0.002) - 0.0016))
    assert g.hydraulic_diameter_m == pytest.approx(4 * 0.0368 * 0.02 / g.air_area_m2)
    assert g.port_hydraulic_diameter_m == pytest.approx(2 * 1.5 * 1.0 / 2.5 * 1e-3)
    assert g.internal_volume_m3 == pytest.approx(10 * 10 * 0.0015 * 0.001 * 0.5)
    assert g.louver_length == pytest.approx(0.85 * 0.008)
    assert g.reynolds_louver(0.5, 1.8e-5) == pytest.approx(0.5 / 0.0368 * 0.0012 / 1.8e-5)


@pytest.mark.parametrize(
    ("over", "key"),
    [
        ({"tube_pitch_m": 0.002}, "tube_pitch_m"),
        ({"port_height_m": 0.003}, "port_height_m"),
        ({"ports_per_tube": 20}, "port_width_m"),
        ({"louver_angle_deg": 0.0}, "louver_angle_deg"),
    ],
)
def test_microchannel_geometry_rejects_naming_the_key(over: dict[str, object], key: str) -> None:
    with pytest.raises(ValueError, match=f"^{key}:"):
        _coil(**over)


def test_microchannel_registry_and_range_messages() -> None:
    from workbench.correlations import air_side as air

    g = _coil()
    j, f = air.microchannel_j_f(g, 500.0)
    assert j == mc.j_louver_chang_wang_1997(
        500.0, 27.0, g.fin_pitch_m, 0.008, 0.020, g.louver_length, 0.010, 0.0001, 0.0012
    )
    assert f == mc.f_louver_chang_2000(
        500.0,
        27.0,
        g.fin_pitch_m,
        0.008,
        0.020,
        g.louver_length,
        0.010,
        0.002,
        0.0001,
        0.0012,
        g.hydraulic_diameter_m,
    )
    j_kb, _ = air.microchannel_j_f(g, 500.0, "kim_bullard")
    assert j_kb == pytest.approx(j, rel=0.1)
    with pytest.raises(ValueError, match=r"^j_correlation:"):
        air.microchannel_j_f(g, 500.0, "colburn")
    assert air.microchannel_range_messages(g, 500.0) == []
    msgs = air.microchannel_range_messages(g, 800.0, "kim_bullard")
    assert [m.split(" = ")[0] for m in msgs] == ["reynolds_lp"]
