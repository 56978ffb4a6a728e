import math

import pytest

from workbench.safety import REFRIGERANTS, charge_limits, max_charge_kg, refrigerant_safety
from workbench.safety.annex_gg import min_room_area_m2, release_height_m


def test_r290_limits_match_the_standard_table():
    lim = charge_limits("R290", room_area_m2=4.0, release_height_m="floor")
    assert lim.lfl_kg_m3 == pytest.approx(0.038)
    assert lim.m1_kg == pytest.approx(0.152, abs=5e-4)
    assert lim.m2_kg == pytest.approx(0.988, abs=5e-4)
    assert lim.m3_kg == pytest.approx(4.94, abs=5e-3)
    assert lim.m_max_kg == pytest.approx(0.05, abs=5e-4)


def test_gg2_formula_by_hand():
    lfl, area, h0 = 0.038, 20.0, 1.8
    expected = 2.5 * lfl**1.25 * h0 * math.sqrt(area)
    assert max_charge_kg(lfl, area, h0) == pytest.approx(expected, rel=1e-12)
    assert min_room_area_m2(lfl, expected, h0) == pytest.approx(area, rel=1e-12)


def test_charge_below_m1_complies_in_any_room():
    lim = charge_limits("Propane", 1.0, 0.6, charge_kg=0.15)
    assert lim.complies is True
    assert lim.min_room_area_m2 == 0.0
    assert lim.allowed_kg == pytest.approx(0.152)


def test_charge_between_m1_and_m2_needs_a_room():
    lim = charge_limits("R290", 20.0, "wall", charge_kg=0.5)
    area = (0.5 / (2.5 * 0.038**1.25 * 1.8)) ** 2
    assert lim.min_room_area_m2 == pytest.approx(area, rel=1e-12)
    assert lim.complies is (lim.m_max_kg >= 0.5)
    assert lim.margin_kg == pytest.approx(lim.allowed_kg - 0.5)


def test_charge_too_large_for_the_room_does_not_comply():
    lim = charge_limits("R290", 10.0, "floor", charge_kg=0.5)
    assert lim.complies is False
    assert lim.margin_kg < 0
    assert "does NOT comply" in lim.message


def test_charge_above_m2_is_beyond_gg2_for_a3():
    lim = charge_limits("R290", 1000.0, "ceiling", charge_kg=1.5)
    assert lim.complies is False
    assert lim.min_room_area_m2 is None
    assert lim.allowed_kg == pytest.approx(lim.m2_kg)


def test_a2l_cap_is_m3():
    lim = charge_limits("R32", 1000.0, "ceiling", charge_kg=5.0)
    assert lim.m3_kg == pytest.approx(130 * 0.307)
    assert lim.complies is True


def test_non_flammable_has_no_limit_and_says_so():
    lim = charge_limits("R134a", 10.0, "floor", charge_kg=3.0)
    assert lim.m1_kg is None
    assert lim.complies is True
    assert "no charge limit" in lim.message


@pytest.mark.parametrize(
    ("name", "cls"),
    [
        ("R454B", "A2L"),
        ("R32", "A2L"),
        ("R290", "A3"),
        ("R600a", "A3"),
        ("R1234yf", "A2L"),
        ("R1234ze(E)", "A2L"),
        ("R152a", "A2"),
        ("R717", "B2L"),
        ("R452B", "A2L"),
        ("R455A", "A2L"),
        ("R454C", "A2L"),
        ("R744", "A1"),
        ("CO2", "A1"),
        ("R134a", "A1"),
        ("R410A", "A1"),
        ("R407C", "A1"),
        ("IsoButane", "A3"),
    ],
)
def test_table_has_the_common_refrigerants(name, cls):
    row = refrigerant_safety(name)
    assert row.safety_class == cls
    assert row.flammable is (cls[1] != "1")


def test_flammable_rows_have_lfl_in_kg_m3():
    for row in REFRIGERANTS.values():
        if row.flammable:
            assert 0.02 < row.lfl_kg_m3 < 0.5


def test_unknown_fluid_and_bad_inputs_are_named():
    with pytest.raises(KeyError, match="no safety data for fluid 'R999'"):
        charge_limits("R999", 10.0, "floor")
    with pytest.raises(ValueError, match="unknown release height 'roof'"):
        release_height_m("roof")
    with pytest.raises(ValueError, match="room_area_m2 must be > 0"):
        charge_limits("R290", 0.0, "floor")
