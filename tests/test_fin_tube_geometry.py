"""The ``geometry`` object of a coil: parsed once, and every error names its key path."""

from __future__ import annotations

import math

import pytest
from fin_tube_cases import EVAPORATOR_GEOMETRY, example_doc, with_params

from workbench import solve
from workbench.components.exchangers.fin_tube.component import FinTubeEvaporator
from workbench.components.exchangers.fin_tube.geometry import (
    DEFAULT_SEGMENTS,
    GeometryKeyError,
    parse_geometry,
)
from workbench.errors import ScenarioError, SpecificationError


def test_geometry_path_length_areas_and_volume_from_the_keys():
    g = parse_geometry(EVAPORATOR_GEOMETRY)
    assert g.segments == DEFAULT_SEGMENTS
    assert g.path_length_m == pytest.approx(24 * 0.7 / 3)
    assert g.internal_volume_m3 == pytest.approx(24 * math.pi * 0.0088**2 / 4 * 0.7)
    assert g.inner_area_m2 == pytest.approx(24 * math.pi * 0.0088 * 0.7)
    # wall: ln(Do/Di) / (2 pi k L_total), copper 390 W/(m K)
    assert g.wall_resistance_k_w == pytest.approx(
        math.log(0.00952 / 0.0088) / (2 * math.pi * 390 * 24 * 0.7)
    )
    assert parse_geometry({**EVAPORATOR_GEOMETRY, "segments": 40}).segments == 40


@pytest.mark.parametrize(
    ("change", "key", "reason"),
    [
        ({"fins_per_m": 0}, "fins_per_m", "positive"),
        ({"fins_per_m": 9000}, "fin_thickness_m", "no gap"),
        ({"transverse_pitch_m": 0.009}, "transverse_pitch_m", "collar"),
        ({"tube_inner_diameter_m": 0.01}, "tube_inner_diameter_m", "below"),
        ({"fin_type": "spiral"}, "fin_type", "not one of"),
        ({"wave_depth_m": None}, "wave_depth_m", "needs"),
        ({"banks": 2.5}, "banks", "whole number"),
        ({"tube_length_m": "long"}, "tube_length_m", "number"),
        ({"fin_pitch": 0.002}, "fin_pitch", "unknown key"),
        ({"segments": 1}, "segments", "at least 2"),
        ({"circuits": 100}, "circuits", "exceeds"),
        ({"kind": "plate"}, "kind", "not one of"),
        ({"two_phase_friction": "lockhart"}, "two_phase_friction", "not one of"),
    ],
)
def test_geometry_error_names_the_key_and_the_reason(change, key, reason):
    doc = {**EVAPORATOR_GEOMETRY, **change}
    doc = {k: v for k, v in doc.items() if v is not None}
    with pytest.raises(GeometryKeyError) as info:
        parse_geometry(doc)
    assert info.value.key == key
    assert str(info.value).startswith(f"geometry.{key}: ")
    assert reason in str(info.value)
    assert FinTubeEvaporator.check_geometry(doc) == [(f".{key}", info.value.reason)]


def test_geometry_missing_key_is_named():
    doc = {k: v for k, v in EVAPORATOR_GEOMETRY.items() if k != "longitudinal_pitch_m"}
    with pytest.raises(SpecificationError, match=r"geometry\.longitudinal_pitch_m: missing"):
        parse_geometry(doc)


def test_geometry_error_in_a_scenario_names_the_component_and_the_key():
    doc = example_doc()
    bad = with_params(doc, "evaporator", geometry={**EVAPORATOR_GEOMETRY, "fins_per_m": -3})
    with pytest.raises((ScenarioError, SpecificationError)) as info:
        solve(bad)
    text = str(info.value)
    assert "evaporator" in text or "components[3]" in text
    assert "fins_per_m" in text
    assert "positive" in text


def test_geometry_with_a_condenser_bank_or_z_ua_is_refused():
    doc = example_doc()
    for extra in ({"condenser_bank": {"circuits": 2}}, {"z_ua": 1.1}):
        with pytest.raises((ScenarioError, SpecificationError)) as info:
            solve(with_params(doc, "condenser", **extra))
        assert next(iter(extra)) in str(info.value)
