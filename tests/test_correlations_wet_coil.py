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
