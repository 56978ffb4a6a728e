"""Standard copper tube tables and the oil-return velocities."""

from __future__ import annotations

import math

import pytest

from workbench.correlations.line_sizes import (
    TUBE_SERIES,
    minimum_oil_return_velocity,
    tube_sizes,
)


def test_line_sizes_series_sorted_and_consistent() -> None:
    for name, sizes in TUBE_SERIES.items():
        assert sizes == tube_sizes(name)
        ods = [s.outer_diameter_m for s in sizes]
        ids = [s.inner_diameter_m for s in sizes]
        assert ods == sorted(ods)
        assert ids == sorted(ids)
        for s in sizes:
            assert s.series == name
            assert 0.02 < s.wall_m / s.outer_diameter_m < 0.2
            assert s.volume_per_length_m3_m == pytest.approx(math.pi / 4 * s.inner_diameter_m**2)


def test_line_sizes_hand_values() -> None:
    by_label = {s.label: s for s in tube_sizes("astm_b280_drawn")}
    seven_eighths = by_label["7/8 in x 0.045 in"]
    assert seven_eighths.inner_diameter_m == pytest.approx(0.785 * 0.0254)  # 19.94 mm
    assert by_label["1 1/8 in x 0.050 in"].inner_diameter_m == pytest.approx(1.025 * 0.0254)
    assert len(by_label) == 13
    coil = {s.label: s for s in tube_sizes("astm_b280_coil")}
    assert coil["3/8 in x 0.032 in"].inner_diameter_m == pytest.approx(0.311 * 0.0254)  # 7.9 mm
    metric = {s.label: s for s in tube_sizes("en12735_metric")}
    assert metric["22 x 1"].inner_diameter_m == pytest.approx(0.020)
    assert metric["35 x 1.5"].inner_diameter_m == pytest.approx(0.032)
    # 1 m of 22 x 1 holds 0.314 l
    assert metric["22 x 1"].volume_per_length_m3_m * 1e3 == pytest.approx(0.31416, rel=1e-4)


def test_line_sizes_unknown_series() -> None:
    with pytest.raises(ValueError, match="known: astm_b280_drawn, astm_b280_coil, en12735_metric"):
        tube_sizes("type_k")


def test_line_oil_return_velocities() -> None:
    assert minimum_oil_return_velocity("suction", "riser") == pytest.approx(5.08)
    assert minimum_oil_return_velocity("discharge", "horizontal") == pytest.approx(2.54)
    assert minimum_oil_return_velocity("suction", "riser", "danfoss_maneurop") == 8.0
    assert minimum_oil_return_velocity("suction", "horizontal", "danfoss_maneurop") == 4.0
    # a riser asks more than a horizontal run, under every rule
    assert minimum_oil_return_velocity("suction", "riser") > minimum_oil_return_velocity(
        "suction", "horizontal"
    )
    with pytest.raises(ValueError, match="gives no minimum for a discharge riser"):
        minimum_oil_return_velocity("discharge", "riser", "danfoss_maneurop")
    with pytest.raises(ValueError, match="unknown oil-return rule"):
        minimum_oil_return_velocity("suction", "riser", "bitzer")
