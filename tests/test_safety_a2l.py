"""A2L rules of IEC 60335-2-40 Annex GG (editions 6 and 7) against a manufacturer's R32 tables.

The tables: the installation manuals of an R32 air-to-water heat pump (Panasonic Aquarea
WH-ADC0309K3E5, "maximum refrigerant charge in a room" and "minimum floor area", h0 = 0.6 m,
citing IEC 60335-2-40:2018 clause GG.2) and of an R32 heat pump indoor unit (Hisense Hi-Therma,
minimum floor area, floor-mounted, IEC 60335-2-40:2018); reproduced in docs/charge.md.
"""

from __future__ import annotations

import pytest

from workbench.safety import charge_limits
from workbench.safety.annex_gg import min_room_area_m2
from workbench.safety.editions import EDITIONS, edition, release_height_ed7

# minimum floor area [m2] per charge [kg], R32, floor-mounted (h0 = 0.6 m)
MIN_AREA_R32_FLOOR = {
    1.84: 28.81,
    1.90: 30.72,
    2.00: 34.04,
    2.10: 37.53,
    2.20: 41.19,
    2.30: 45.02,
    2.50: 53.19,
    3.00: 76.6,
    3.50: 104.26,
}
# maximum charge in a room [kg] per floor area [m2], R32, h0 = 0.6 m (rooms of 7 m2 and more)
MAX_CHARGE_R32_FLOOR = {7: 0.907, 10: 1.084, 15: 1.328, 20: 1.533, 30: 1.877, 45: 2.299}


@pytest.mark.parametrize("ed", [6, 7])
@pytest.mark.parametrize(("charge", "area"), sorted(MIN_AREA_R32_FLOOR.items()))
def test_r32_minimum_floor_area_matches_the_manufacturers_table(ed, charge, area):
    lim = charge_limits("R32", 100.0, "floor", charge_kg=charge, edition=ed)
    tol = 0.006 if area < 100 else 0.01
    assert min_room_area_m2(lim.lfl_kg_m3, charge, 0.6) == pytest.approx(area, abs=tol)
    if charge <= lim.free_kg:  # the table's first row, 1.84 kg, is the rounded 1.842 kg
        assert lim.min_room_area_m2 == 0.0
    else:
        assert lim.min_room_area_m2 == pytest.approx(area, abs=tol)


@pytest.mark.parametrize(("area", "m_max"), sorted(MAX_CHARGE_R32_FLOOR.items()))
def test_r32_maximum_charge_per_room_matches_the_manufacturers_table(area, m_max):
    lim = charge_limits("R32", float(area), "floor", edition=6)
    assert lim.m_max_kg == pytest.approx(m_max, abs=6e-4)


@pytest.mark.parametrize("fluid", ["R32", "R454B", "R1234yf"])
def test_an_a2l_charge_up_to_6_m3_lfl_needs_no_room_area(fluid):
    # the case: 1.5 kg in a 10 m2 room was "does not comply, needs 19.1 m2"
    lim = charge_limits(fluid, 10.0, "floor", charge_kg=1.5)
    assert lim.free_kg == pytest.approx(6.0 * lim.lfl_kg_m3, rel=1e-12)
    assert lim.complies is True
    assert lim.min_room_area_m2 == 0.0
    assert "no room-area requirement" in lim.message
    assert lim.clauses["free"] == "IEC 60335-2-40:2022 (edition 7) Annex GG, GG.1 (A2L: 6 m3 x LFL)"


def test_r32_threshold_is_1842_g_and_above_it_the_room_counts():
    lim = charge_limits("R32", 10.0, "floor", charge_kg=1.9, edition=6)
    assert lim.free_kg == pytest.approx(1.842, abs=1e-9)
    assert lim.complies is False
    assert lim.min_room_area_m2 == pytest.approx(30.72, abs=0.01)
    assert lim.edition == 6
    assert lim.standard == "IEC 60335-2-40:2018 Annex GG"
    assert lim.clauses["m_max"] == "IEC 60335-2-40:2018 (edition 6) Annex GG, GG.2"
    assert "IEC 60335-2-40:2018" in lim.message


def test_a3_free_charge_stays_m1():
    lim = charge_limits("R290", 10.0, "floor", charge_kg=0.2)
    assert lim.free_kg == pytest.approx(lim.m1_kg)
    assert lim.complies is False  # 0.2 kg of propane in 10 m2 at 0.6 m: m_max = 0.08 kg


def test_editions_and_release_heights():
    assert edition(None).number == 7
    assert sorted(EDITIONS) == [6, 7]
    with pytest.raises(ValueError, match="unknown edition 5"):
        edition(5)
    # edition 7: h0 = h_inst + h_rel, at least 0.6 m
    assert release_height_ed7("floor") == pytest.approx(0.6)
    assert release_height_ed7("floor", 0.8) == pytest.approx(0.8)
    assert release_height_ed7("wall", 0.2) == pytest.approx(2.0)
    # a release height below 0.6 m counts as 0.6 m in both editions
    low = charge_limits("R32", 40.0, 0.3, charge_kg=2.0)
    assert low.release_height_m == pytest.approx(0.6)
