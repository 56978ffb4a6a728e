"""Wet, dry and split cooling coils: balances, the dry limit, and an independent marching solution."""

import itertools
import math

import pytest
from ht import effectiveness_from_NTU

from workbench.correlations import humid_air as ha
from workbench.correlations import wet_coil as wc

M_DA = 0.3  # kg/s dry air
UA_AIR, UA_AIR_WET, UA_REF = 900.0, 850.0, 3000.0  # W/K


def _march(t_in: float, w_in: float, t_ref: float, n: int = 2000) -> tuple[float, float]:
    """Independent solution for a boiling refrigerant: march the air through n wet slices.

    Each slice solves its surface temperature from (ua_a/cp)(h_air - h_sat(Ts)) = ua_r (Ts -
    Tref) with psychrolib's exact saturated enthalpy (no linearisation), then moves the air's
    enthalpy by the slice's heat and its humidity ratio towards W_sat(Ts) (Lewis number 1).
    """
    from scipy.optimize import brentq

    ua_a, ua_r = UA_AIR_WET / n, UA_REF / n
    cp = ha.cp_moist(w_in)
    h, w = ha.enthalpy(t_in, w_in), w_in
    q = 0.0
    for _ in range(n):
        ts = brentq(
            lambda t, h=h: ua_a / cp * (h - ha.saturated_enthalpy(t)) - ua_r * (t - t_ref),
            t_ref,
            t_in,
        )
        dq = ua_r * (ts - t_ref)
        h -= dq / M_DA
        w -= (w - ha.saturated_humidity_ratio(ts)) * (1 - math.exp(-ua_a / (M_DA * cp)))
        q += dq
    return q, w


def test_wet_coil_energy_and_water_balance() -> None:
    t_in, w_in = 300.15, ha.humidity_ratio(300.15, 0.6)  # 27 C, 60 %
    r = wc.coil(M_DA, t_in, w_in, UA_AIR, UA_AIR_WET, UA_REF, math.inf, 280.15)
    assert r.wet_fraction == 1.0
    h_out = ha.enthalpy(r.t_air_out_k, r.w_air_out)
    # energy: capacity equals the air's enthalpy drop (the outlet state rebuilt from T and W)
    assert r.capacity_w == pytest.approx(M_DA * (ha.enthalpy(t_in, w_in) - h_out), rel=5e-3)
    # water: condensate equals dry-air flow times the humidity ratio drop
    assert r.condensate_kg_s == pytest.approx(M_DA * (w_in - r.w_air_out), rel=1e-12)
    assert r.condensate_kg_s > 0
    assert r.latent_w == pytest.approx(r.capacity_w - r.sensible_w)
    assert 0 < r.sensible_w < r.capacity_w
    assert ha.relative_humidity(r.t_air_out_k, r.w_air_out) <= 1.0


def test_wet_coil_against_marching_solution() -> None:
    t_in, w_in = 300.15, ha.humidity_ratio(300.15, 0.6)
    r = wc.wet_coil(M_DA, t_in, w_in, UA_AIR_WET, UA_REF, math.inf, 280.15)
    q, w = _march(t_in, w_in, 280.15)
    assert r.capacity_w == pytest.approx(q, rel=0.01)
    assert r.w_air_out == pytest.approx(w, rel=0.01)


def test_wet_coil_finite_coolant_energy_balance() -> None:
    # a chilled-water-like coolant: 0.2 kg/s * 4186 J/(kg K)
    c_ref = 0.2 * 4186.0
    t_in, w_in = 300.15, ha.humidity_ratio(300.15, 0.6)
    r = wc.coil(M_DA, t_in, w_in, UA_AIR, UA_AIR_WET, UA_REF, c_ref, 280.15)
    assert r.wet_fraction > 0
    assert r.capacity_w == pytest.approx(c_ref * (r.t_ref_out_k - 280.15), rel=1e-9)
    assert r.condensate_kg_s == pytest.approx(M_DA * (w_in - r.w_air_out))


def test_wet_coil_dry_air_reduces_to_epsilon_ntu() -> None:
    t_in, w_in = 300.15, 1e-7
    c_ref = 0.2 * 4186.0
    r = wc.coil(M_DA, t_in, w_in, UA_AIR, UA_AIR_WET, UA_REF, c_ref, 280.15)
    c_air = M_DA * ha.cp_moist(w_in)
    ua = 1 / (1 / UA_AIR + 1 / UA_REF)
    cmin, cmax = min(c_air, c_ref), max(c_air, c_ref)
    eps = effectiveness_from_NTU(ua / cmin, cmin / cmax, subtype="counterflow")
    assert r.capacity_w == pytest.approx(eps * cmin * 20.0, rel=1e-12)
    assert r.wet_fraction == 0.0
    assert r.condensate_kg_s == 0.0
    assert r.t_air_out_k == pytest.approx(t_in - r.capacity_w / c_air)


def test_wet_coil_split_is_continuous_in_humidity() -> None:
    t_in = 300.15
    results = [
        wc.coil(
            M_DA,
            t_in,
            ha.humidity_ratio(t_in, rh),
            UA_AIR,
            UA_AIR_WET,
            UA_REF,
            0.2 * 4186.0,
            283.15,
        )
        for rh in (0.2, 0.3, 0.35, 0.36, 0.37, 0.45, 0.6, 0.8)
    ]
    fractions = [r.wet_fraction for r in results]
    assert fractions[0] == 0.0
    assert fractions[-1] == 1.0
    assert any(0.0 < f < 1.0 for f in fractions)
    assert all(a <= b + 1e-9 for a, b in itertools.pairwise(fractions))
    capacities = [r.capacity_w for r in results]
    assert all(a < b for a, b in itertools.pairwise(capacities))
    # no jump where the coil starts to wet (measured: onset near RH 0.36, where the wet
    # fraction starts from 0 and the capacity moves by 0.02 % from RH 0.35)
    assert fractions[2] == 0.0
    assert 0.0 < fractions[3] < 0.05
    assert capacities[3] == pytest.approx(capacities[2], rel=2e-3)


# ACHP ``ACHP/DryWetSegment.py::DryWetSegment`` (CenterHighPerformanceBuildingsPurdue/ACHP), its
# two-phase branch (boiling refrigerant), run on 2026-11-27 by /tmp/peer/run_dws.py with real
# CoolProp humid air, m_da 0.3 kg/s, UA_air 900 W/K dry and 850 W/K wet (eta_a_wet given),
# UA_ref 3000 W/K, no wall resistance; its outlet RH call was guarded (slightly supersaturated).
# ACHP linearises the saturation curve with the tangent at the refrigerant temperature, we with
# the secant to the surface, and it takes its dew point from HAPropsSI, we from psychrolib.
ACHP_DWS = [
    {
        "t_air_in_k": 300.15,
        "rh": 0.6,
        "w_air_in": 0.013483206558022631,
        "t_ref_k": 280.15,
        "capacity_w": 9601.203972162206,
        "sensible_w": 5174.864198604928,
        "t_air_out_k": 283.420388327606,
        "w_air_out": 0.00762620454964749,
        "wet_fraction": 1.0,
    },
    {
        "t_air_in_k": 300.15,
        "rh": 0.45,
        "w_air_in": 0.010057893404511874,
        "t_ref_k": 283.15,
        "capacity_w": 5727.693654810821,
        "sensible_w": 4524.5045024692545,
        "t_air_out_k": 285.43196680501103,
        "w_air_out": 0.00846970653028673,
        "wet_fraction": 1.0,
    },
    {
        "t_air_in_k": 300.15,
        "rh": 0.3,
        "w_air_in": 0.006669310956358775,
        "t_ref_k": 283.15,
        "capacity_w": 4655.117898826461,
        "sensible_w": 4655.117898826461,
        "t_air_out_k": 284.91336928197865,
        "w_air_out": 0.006670856117052661,
        "wet_fraction": 0.0,
    },
    {
        "t_air_in_k": 308.15,
        "rh": 0.5,
        "w_air_in": 0.01785247051815012,
        "t_ref_k": 285.15,
        "capacity_w": 11272.916688695883,
        "sensible_w": 5966.093033964553,
        "t_air_out_k": 289.01328935060434,
        "w_air_out": 0.010861462795257501,
        "wet_fraction": 1.0,
    },
    {
        "t_air_in_k": 300.15,
        "rh": 0.8,
        "w_air_in": 0.018108467154928823,
        "t_ref_k": 278.15,
        "capacity_w": 13606.992715542152,
        "sensible_w": 5545.810365344243,
        "t_air_out_k": 282.36952576299353,
        "w_air_out": 0.007430811239656452,
        "wet_fraction": 1.0,
    },
    {
        "t_air_in_k": 300.15,
        "rh": 0.36,
        "w_air_in": 0.008020374144231263,
        "t_ref_k": 283.15,
        "capacity_w": 4674.077195543153,
        "sensible_w": 4647.3763670079325,
        "t_air_out_k": 284.9761504487477,
        "w_air_out": 0.00798512155594501,
        "wet_fraction": 0.22091733412104997,
    },
    {
        "t_air_in_k": 300.15,
        "rh": 0.38,
        "w_air_in": 0.008472020044292683,
        "t_ref_k": 283.15,
        "capacity_w": 4833.190975492137,
        "sensible_w": 4607.002552433916,
        "t_air_out_k": 285.120339535574,
        "w_air_out": 0.0081732938198219,
        "wet_fraction": 0.5707863819237622,
    },
    {
        "t_air_in_k": 305.15,
        "rh": 0.3,
        "w_air_in": 0.00892969954699354,
        "t_ref_k": 283.15,
        "capacity_w": 6361.200286103125,
        "sensible_w": 5950.258037945279,
        "t_air_out_k": 285.7543279665956,
        "w_air_out": 0.008387351850338105,
        "wet_fraction": 0.6441028938453416,
    },
]


@pytest.mark.parametrize("case", ACHP_DWS)
def test_wet_coil_against_achp_dry_wet_segment(case: dict[str, float]) -> None:
    r = wc.coil(
        M_DA,
        case["t_air_in_k"],
        case["w_air_in"],
        UA_AIR,
        UA_AIR_WET,
        UA_REF,
        math.inf,
        case["t_ref_k"],
    )
    # measured: capacity within 0.6 %, sensible 0.7 %, outlet 0.13 K, humidity ratio 0.3 %,
    # wet fraction within 0.04 (its dew point sits 0.05-0.07 K from psychrolib's)
    assert r.capacity_w == pytest.approx(case["capacity_w"], rel=0.008)
    assert r.sensible_w == pytest.approx(case["sensible_w"], rel=0.008)
    assert r.t_air_out_k == pytest.approx(case["t_air_out_k"], abs=0.15)
    assert r.w_air_out == pytest.approx(case["w_air_out"], rel=0.004)
    assert r.wet_fraction == pytest.approx(case["wet_fraction"], abs=0.05)
