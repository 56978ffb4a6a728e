"""Wang and co-workers' j and f factors against peer implementations run on the same inputs.

The reference numbers below were produced on 2026-11-27 by /tmp/peer/run_peers.py, which ran
the peers' own code unchanged, with the humid-air property calls replaced by constants
(rho 1.2 kg/m^3, mu 1.8e-5 Pa s, k 0.026 W/(m K), cp 1005 J/(kg K)) so that j could be
recovered from their h as j = h Pr^(2/3) / (G cp) and f read from their f (ACHP) or from their
pressure drop dp = f A_o G^2 / (2 rho A_c) (EGSim):

- PLAIN_ACHP: ACHP ``ACHP/FinCorrelations.py::PlainFins`` (CenterHighPerformanceBuildingsPurdue/ACHP);
- HERRINGBONE_ACHP: ACHP ``HerringboneFins``;
- LOUVERED_EGSIM: EGSim ``backend/FinTubeHEXFins.py::Wang1999_Louvered_Dry`` (OmarZaki96/EGSim);
- WAVY_PYTHON_HVAC: python-hvac ``corrugated_flat_fin`` ``j_Wang_small``/``f_Wang_small``
  (TomLXXVI/python-hvac, commit 0be9062e), which reproduce Shah & Sekulic (2003) sec. 7.5.4.3.

Each dict holds the inputs the peer used (its own geometry's D_h, A_o/A_t ...) and its j and f.
"""

import itertools
import math

import pytest

from workbench.correlations import wang_plain_louvered as wpl
from workbench.correlations import wang_wavy as ww

# ACHP PlainFins (Wang, Chi & Chang 2000)
PLAIN_ACHP = [
    {
        "re_dc": 2278.824277,
        "banks": 1,
        "fin_pitch_m": 0.001814285714,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.002325876659,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "j": 0.0127260863,
        "f": 0.03740331981,
    },
    {
        "re_dc": 3798.040462,
        "banks": 2,
        "fin_pitch_m": 0.001814285714,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.002363324973,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "j": 0.00815838444,
        "f": 0.03056883219,
    },
    {
        "re_dc": 6191.032992,
        "banks": 3,
        "fin_pitch_m": 0.001411111111,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.001835966048,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "j": 0.006536029739,
        "f": 0.02479703465,
    },
    {
        "re_dc": 11187.80808,
        "banks": 4,
        "fin_pitch_m": 0.00254,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.003353452154,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "j": 0.004330037608,
        "f": 0.02466050935,
    },
]
# ACHP HerringboneFins (Wang, Hwang & Lin 2002)
HERRINGBONE_ACHP = [
    {
        "re_dc": 1139.412139,
        "banks": 1,
        "fin_spacing_m": 0.001704285714,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.003082295208,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "wave_tan": 0.2941176471,
        "j": 0.003679357594,
        "f": 0.06908747282,
    },
    {
        "re_dc": 3798.040462,
        "banks": 2,
        "fin_spacing_m": 0.001704285714,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.003082295208,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "wave_tan": 0.2941176471,
        "j": 0.002140873147,
        "f": 0.04685149778,
    },
    {
        "re_dc": 1934.69781,
        "banks": 4,
        "fin_spacing_m": 0.001301111111,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.002385536281,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "wave_tan": 0.2941176471,
        "j": 0.004370610266,
        "f": 0.05349306989,
    },
    {
        "re_dc": 9032.017816,
        "banks": 3,
        "fin_spacing_m": 0.002006666667,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.003592567334,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "wave_tan": 0.2941176471,
        "j": 0.001472108864,
        "f": 0.03669048653,
    },
]
# EGSim Wang1999_Louvered_Dry (Wang, Lee, Chang & Lin 1999)
LOUVERED_EGSIM = [
    {
        "re_dc": 1450.972637,
        "banks": 1,
        "fin_pitch_m": 0.001814285714,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.002352620243,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "louver_pitch_m": 0.0024,
        "louver_height_m": 0.001,
        "area_ratio": 16.19727399,
        "j": 0.02698172716,
        "f": 0.1010653745,
    },
    {
        "re_dc": 1098.356825,
        "banks": 2,
        "fin_pitch_m": 0.0015875,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.002055424443,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "louver_pitch_m": 0.0024,
        "louver_height_m": 0.001,
        "area_ratio": 18.36831313,
        "j": 0.03153091188,
        "f": 0.116418524,
    },
    {
        "re_dc": 6590.140947,
        "banks": 2,
        "fin_pitch_m": 0.0015875,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.002055424443,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "louver_pitch_m": 0.0024,
        "louver_height_m": 0.001,
        "area_ratio": 18.36831313,
        "j": 0.01213539043,
        "f": 0.05167794272,
    },
    {
        "re_dc": 4313.148726,
        "banks": 4,
        "fin_pitch_m": 0.002116666667,
        "collar_diameter_m": 0.00974,
        "hydraulic_diameter_m": 0.002741818455,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.0191,
        "louver_pitch_m": 0.0024,
        "louver_height_m": 0.001,
        "area_ratio": 14.02623485,
        "j": 0.01539641201,
        "f": 0.06110392758,
    },
]
# python-hvac j_Wang_small / f_Wang_small (Wang, Jang & Chiou 1999)
WAVY_PYTHON_HVAC = [
    {
        "re_dc": 400.0,
        "banks": 1,
        "fin_pitch_m": 0.001818181818,
        "collar_diameter_m": 0.0098,
        "hydraulic_diameter_m": 0.003,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.022,
        "wave_tan": 0.2867453858,
        "area_ratio": 14.0,
        "j": 0.04815187952,
        "f": 0.7841434188,
    },
    {
        "re_dc": 1500.0,
        "banks": 2,
        "fin_pitch_m": 0.001818181818,
        "collar_diameter_m": 0.0098,
        "hydraulic_diameter_m": 0.003,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.022,
        "wave_tan": 0.2867453858,
        "area_ratio": 14.0,
        "j": 0.02731806144,
        "f": 0.2774085272,
    },
    {
        "re_dc": 3000.0,
        "banks": 4,
        "fin_pitch_m": 0.001428571429,
        "collar_diameter_m": 0.0098,
        "hydraulic_diameter_m": 0.003,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.022,
        "wave_tan": 0.2867453858,
        "area_ratio": 14.0,
        "j": 0.02350242645,
        "f": 0.398942804,
    },
    {
        "re_dc": 7000.0,
        "banks": 6,
        "fin_pitch_m": 0.0025,
        "collar_diameter_m": 0.0098,
        "hydraulic_diameter_m": 0.003,
        "transverse_pitch_m": 0.0254,
        "longitudinal_pitch_m": 0.022,
        "wave_tan": 0.2867453858,
        "area_ratio": 14.0,
        "j": 0.01006095949,
        "f": 0.05390807549,
    },
]


def _split(case: dict[str, float]) -> tuple[dict[str, float], float, float]:
    args = {k: v for k, v in case.items() if k not in ("j", "f")}
    args["banks"] = int(args["banks"])
    return args, case["j"], case["f"]


@pytest.mark.parametrize("case", PLAIN_ACHP)
def test_wang_plain_matches_achp(case: dict[str, float]) -> None:
    args, j, f = _split(case)
    assert wpl.j_plain_wang_2000(**args) == pytest.approx(j, rel=1e-8)  # type: ignore[arg-type]
    del args["hydraulic_diameter_m"]
    assert wpl.f_plain_wang_2000(**args) == pytest.approx(f, rel=1e-8)  # type: ignore[arg-type]


@pytest.mark.parametrize("case", LOUVERED_EGSIM)
def test_wang_louvered_matches_egsim(case: dict[str, float]) -> None:
    args, j, f = _split(case)
    area_ratio = args.pop("area_ratio")
    assert wpl.j_louvered_wang_1999(**args) == pytest.approx(j, rel=1e-6)  # type: ignore[arg-type]
    got_f = wpl.f_louvered_wang_1999(**args, area_ratio=area_ratio)  # type: ignore[arg-type]
    assert got_f == pytest.approx(f, rel=1e-6)


@pytest.mark.parametrize("case", WAVY_PYTHON_HVAC)
def test_wang_wavy_matches_python_hvac(case: dict[str, float]) -> None:
    args, j, f = _split(case)
    area_ratio = args.pop("area_ratio")
    assert ww.j_wavy_wang_1999(**args) == pytest.approx(j, rel=1e-8)  # type: ignore[arg-type]
    got_f = ww.f_wavy_wang_1999(**args, area_ratio=area_ratio)  # type: ignore[arg-type]
    assert got_f == pytest.approx(f, rel=1e-8)


@pytest.mark.parametrize("case", HERRINGBONE_ACHP)
def test_wang_herringbone_matches_achp(case: dict[str, float]) -> None:
    args, j, f = _split(case)
    assert ww.j_herringbone_wang_2002(**args) == pytest.approx(j, rel=1e-8)  # type: ignore[arg-type]
    assert ww.f_herringbone_wang_2002(**args) == pytest.approx(f, rel=1e-8)  # type: ignore[arg-type]


def test_wang_herringbone_hydraulic_diameter_by_hand() -> None:
    # beta = pi 9.74^2 / (4 25.4 19.1) = 0.15364; sec = sqrt(1 + 0.2941^2) = 1.04234
    # D_h = 2 1.7043 (0.84636) / (0.84636 1.04234 + 2 1.7043 0.15364 / 9.74) = 3.0823 mm
    dh = ww.herringbone_hydraulic_diameter(1.7042857e-3, 9.74e-3, 25.4e-3, 19.1e-3, 1.4 / 4.76)
    assert dh == pytest.approx(3.0823e-3, rel=1e-4)


def test_wang_herringbone_friction_undefined_below_its_low_branch() -> None:
    case = dict(HERRINGBONE_ACHP[0])
    args, _, _ = _split(case)
    args["re_dc"] = 150.0
    with pytest.raises(ValueError, match="reynolds_dc"):
        ww.f_herringbone_wang_2002(**args)  # type: ignore[arg-type]


def test_wang_plain_j_falls_with_reynolds_and_f_positive() -> None:
    args, _, _ = _split(dict(PLAIN_ACHP[1]))
    js = []
    for re in (500.0, 1000.0, 2000.0, 5000.0):
        args["re_dc"] = re
        js.append(wpl.j_plain_wang_2000(**args))  # type: ignore[arg-type]
    assert all(a > b for a, b in itertools.pairwise(js))
    assert all(0.002 < j < 0.05 for j in js)


def test_wang_louvered_branches_meet_within_the_papers_jump() -> None:
    args, _, _ = _split(dict(LOUVERED_EGSIM[1]))
    del args["area_ratio"]
    args["re_dc"] = 999.999
    low = wpl.j_louvered_wang_1999(**args)  # type: ignore[arg-type]
    args["re_dc"] = 1000.0
    high = wpl.j_louvered_wang_1999(**args)  # type: ignore[arg-type]
    assert math.isclose(low, high, rel_tol=0.15)
