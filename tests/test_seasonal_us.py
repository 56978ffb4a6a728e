"""HSPF2 and SEER2 (AHRI 210/240-2023) from declared points, against hand calculations."""

from __future__ import annotations

import pytest

from workbench.seasonal import RatingInputError, hspf2_from_declared, seer2_from_declared
from workbench.seasonal.ahri210240 import HSPF2_REGIONS

# Region IV of AHRI 210/240-2023 Table 14, typed again: bin [degF] -> fractional hours
REGION_IV = {
    52: 0.103, 47: 0.093, 42: 0.100, 37: 0.109, 32: 0.126, 27: 0.087, 22: 0.055, 17: 0.036,
    12: 0.026, 7: 0.013, 2: 0.006, -3: 0.002, -8: 0.001,
}  # fmt: skip
COOLING = {67: 0.214, 72: 0.231, 77: 0.216, 82: 0.161, 87: 0.104, 92: 0.052, 97: 0.018, 102: 0.004}


def test_us_region_iv_table_matches_the_standard():
    reg = HSPF2_REGIONS[4]
    from workbench.seasonal.ahri210240 import HEATING_BINS_F

    got = {t: f for t, f in zip(HEATING_BINS_F, reg.fractions) if f}
    assert got == REGION_IV
    assert (reg.design_f, reg.zero_load_f, reg.slope, reg.slope_variable) == (5.0, 55.0, 1.15, 1.07)


def test_us_hspf2_constant_cop_without_cycling_loss_is_3412_cop():
    # more capacity in the cold than the load line ever asks (1.348 Qh(47) at -8 degF)
    pts = [
        {"t_c": -30, "capacity_kw": 300, "cop": 3.0},
        {"t_c": 20, "capacity_kw": 100, "cop": 3.0},
    ]
    r = hspf2_from_declared(pts, cd=0.0)
    assert (r.bins["backup_kw"] == 0).all()
    assert r.value == pytest.approx(3.0 * 3.412, rel=1e-12)


def test_us_hspf2_matches_hand_calculation():
    # capacity 6 kW at -15 degC rising to 10 kW at 15 degC; COP 2 -> 4 over the same span
    pts = [
        {"t_c": -15, "capacity_kw": 6.0, "cop": 2.0},
        {"t_c": 15, "capacity_kw": 10.0, "cop": 4.0},
    ]
    cd = 0.25
    q47 = 6.0 + 4.0 * ((47 - 32) / 1.8 + 15) / 30
    num = den = 0.0
    for t_f, n in REGION_IV.items():
        t_c = (t_f - 32) / 1.8
        bl = (55 - t_f) / (55 - 5) * 1.07 * q47
        cap = 6.0 + 4.0 * (t_c + 15) / 30
        cop = 2.0 + 2.0 * (t_c + 15) / 30
        if cap >= bl:
            x = bl / cap
            e = x * cap / (cop * (1 - cd * (1 - x)))
            rh = 0.0
        else:
            e = cap / cop
            rh = bl - cap
        num += n * bl
        den += n * (e + rh)
    r = hspf2_from_declared(pts, region=4, cd=cd)
    assert r.value == pytest.approx(3.412 * num / den, rel=1e-12)
    assert (r.bins["backup_kw"] > 0).any()  # the coldest bins need resistance heat


def test_us_hspf2_cut_out_puts_the_cold_bins_on_resistance():
    pts = [{"t_c": -15, "capacity_kw": 20, "cop": 3.0}, {"t_c": 15, "capacity_kw": 20, "cop": 3.0}]
    r = hspf2_from_declared(pts, cd=0.0, cut_out_c=-10.0)
    cold = r.bins[r.bins["t_c"] < -10]
    assert list(cold["t_f"]) == [12, 7, 2, -3, -8]  # 17 degF is -8.3 degC
    assert (cold["backup_kw"] == cold["load_kw"]).all()
    assert r.ratio < 3.0


def test_us_seer2_matches_hand_calculation():
    pts = [{"t_c": 25, "capacity_kw": 7.0, "eer": 5.0}, {"t_c": 40, "capacity_kw": 5.5, "eer": 3.0}]
    cd, v = 0.25, 0.93
    q95 = 7.0 - 1.5 * (35 - 25) / 15
    num = den = 0.0
    for t_f, n in COOLING.items():
        t_c = (t_f - 32) / 1.8
        bl = (t_f - 65) / 30 * q95 / 1.1 * v
        cap = 7.0 - 1.5 * (t_c - 25) / 15
        eer = 5.0 - 2.0 * (t_c - 25) / 15
        x = min(1.0, bl / cap)
        num += n * x * cap
        den += n * x * cap / (eer * (1 - cd * (1 - x)))
    r = seer2_from_declared(pts, cd=cd, v_factor=v)
    assert r.value == pytest.approx(3.412 * num / den, rel=1e-12)


def test_us_bad_region_names_it():
    pts = [
        {"t_c": -15, "capacity_kw": 6.0, "cop": 2.0},
        {"t_c": 15, "capacity_kw": 10.0, "cop": 4.0},
    ]
    with pytest.raises(RatingInputError, match="region"):
        hspf2_from_declared(pts, region=7)
