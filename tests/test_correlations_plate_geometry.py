"""Brazed plate geometry: derived quantities against hand calculations."""

from __future__ import annotations

import math

import pytest
from scipy.integrate import quad

from workbench.correlations.plate_geometry import STAINLESS_CONDUCTIVITY_W_M_K, PlateGeometry
from workbench.errors import ScenarioError


def _geometry(**changes: object) -> PlateGeometry:
    keys: dict[str, object] = {
        "plates": 30,
        "plate_length_m": 0.278,
        "plate_width_m": 0.112,
        "chevron_angle_deg": 60.0,
        "corrugation_pitch_m": 7.0e-3,
        "channel_gap_m": 2.0e-3,
        "plate_thickness_m": 0.3e-3,
        "port_diameter_m": 0.024,
    }
    keys.update(changes)
    return PlateGeometry(**keys)  # type: ignore[arg-type]


def test_plate_geometry_enlargement_matches_arc_length_integral() -> None:
    geo = _geometry()
    slope = math.pi * 2.0e-3 / 7.0e-3  # max slope of y = (b/2) sin(2 pi x / Lambda)
    arc, _ = quad(
        lambda x: math.sqrt(1.0 + (slope * math.cos(2 * math.pi * x / 7e-3)) ** 2), 0, 7e-3
    )
    assert geo.enlargement_factor == pytest.approx(arc / 7.0e-3, rel=1e-9)
    # the three-point approximation quoted by Martin (1996), within 0.2 %
    a2 = slope**2
    approx = (1.0 + math.sqrt(1.0 + a2) + 4.0 * math.sqrt(1.0 + a2 / 2.0)) / 6.0
    assert geo.enlargement_factor == pytest.approx(approx, rel=2e-3)
    assert 1.0 < geo.enlargement_factor < 1.5


def test_plate_geometry_hand_calculation() -> None:
    geo = _geometry()
    phi = geo.enlargement_factor
    assert geo.channels == 29
    assert geo.channels_refrigerant == 14
    assert geo.channels_secondary == 15
    assert geo.equivalent_diameter_m == pytest.approx(4.0e-3)
    assert geo.hydraulic_diameter_m == pytest.approx(4.0e-3 / phi)
    assert geo.channel_flow_area_m2 == pytest.approx(2.0e-3 * 0.112)
    assert geo.effective_length_m == pytest.approx(0.278 - 0.024)
    assert geo.heat_transfer_area_m2 == pytest.approx(28 * 0.254 * 0.112 * phi)
    depth = 30 * 0.3e-3 + 29 * 2.0e-3
    assert geo.pack_depth_m == pytest.approx(depth)
    ports = 2 * math.pi / 4 * 0.024**2 * depth
    assert geo.internal_volume_m3("refrigerant") == pytest.approx(14 * 2e-3 * 0.112 * 0.254 + ports)
    assert geo.internal_volume_m3("secondary") == pytest.approx(15 * 2e-3 * 0.112 * 0.254 + ports)
    assert geo.wall_resistance_m2_k_w == pytest.approx(0.3e-3 / STAINLESS_CONDUCTIVITY_W_M_K)


def test_plate_geometry_even_channel_count_splits_evenly() -> None:
    geo = _geometry(plates=31)
    assert geo.channels_refrigerant == geo.channels_secondary == 15


def test_plate_geometry_bad_keys_all_named() -> None:
    with pytest.raises(ScenarioError) as caught:
        _geometry(plates=2, channel_gap_m=-1.0, chevron_angle_deg=95.0)
    paths = {issue.path for issue in caught.value.issues}
    assert paths == {"plates", "channel_gap_m", "chevron_angle_deg"}


def test_plate_geometry_port_larger_than_plate_rejected() -> None:
    with pytest.raises(ScenarioError, match="port_diameter_m"):
        _geometry(port_diameter_m=0.2)


def test_plate_geometry_unknown_side() -> None:
    with pytest.raises(ValueError, match="side must be"):
        _geometry().internal_volume_m3("water")
