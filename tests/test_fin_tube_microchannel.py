"""Microchannel coils (``kind: "microchannel"``) share the march: geometry, fins, a solved unit."""

from __future__ import annotations

import pytest
from fin_tube_cases import assert_air_balances, example_doc, with_params

from workbench import solve
from workbench.components.exchangers.fin_tube.geometry import GeometryKeyError, parse_geometry
from workbench.correlations.fin_efficiency import fin_parameter, straight_fin_efficiency

CONDENSER = {
    "kind": "microchannel",
    "tubes_per_bank": 40,
    "banks": 1,
    "circuits": 10,
    "tube_length_m": 0.8,
    "tube_depth_m": 0.02,
    "tube_height_m": 0.0018,
    "tube_pitch_m": 0.01,
    "ports_per_tube": 16,
    "port_width_m": 0.0009,
    "port_height_m": 0.001,
    "fins_per_m": 700,
    "fin_thickness_m": 0.0001,
    "louver_pitch_m": 0.001,
    "louver_angle_deg": 27,
}


def test_microchannel_geometry_ports_path_and_wall():
    g = parse_geometry(CONDENSER)
    assert g.kind == "microchannel"
    assert g.ports == 16
    assert g.inner_diameter_m == pytest.approx(2 * 0.0009 * 0.001 / 0.0019)
    assert g.path_length_m == pytest.approx(40 / 10 * 0.8)
    assert g.internal_volume_m3 == pytest.approx(40 * 16 * 0.0009 * 0.001 * 0.8)
    assert g.straight_fin_length_m == pytest.approx((0.01 - 0.0018) / 2 - 0.0001)
    assert g.wall_resistance_k_w == pytest.approx(0.0004 / (237.0 * g.inner_area_m2))


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"ports_per_tube": 40}, "port_width_m"),
        ({"tube_pitch_m": 0.0015}, "tube_pitch_m"),
        ({"j_correlation": "wang"}, "j_correlation"),
        ({"fin_type": "wavy"}, "fin_type"),
        ({"louver_angle_deg": -3}, "louver_angle_deg"),
    ],
)
def test_microchannel_geometry_errors_name_the_key(change, key):
    with pytest.raises(GeometryKeyError) as info:
        parse_geometry({**CONDENSER, **change})
    assert info.value.key == key
    assert str(info.value).startswith(f"geometry.{key}: ")


def test_split_unit_with_a_microchannel_condenser_converges_and_balances():
    doc = with_params(example_doc(), "condenser", geometry=CONDENSER)
    result = solve(doc)
    assert result.converged, result.report()
    assert_air_balances(result, doc)
    cd = result.components["condenser"]
    assert cd["internal_volume"] == pytest.approx(parse_geometry(CONDENSER).internal_volume_m3)
    # the straight fin's efficiency at the reported coefficient
    m = fin_parameter(cd["air_heat_transfer_coefficient"], 237.0, 0.0001)
    assert cd["fin_efficiency"] == pytest.approx(
        straight_fin_efficiency(m, (0.01 - 0.0018) / 2 - 0.0001), rel=1e-12
    )
    assert cd["refrigerant_pressure_drop"] > 0.0
    assert cd["air_pressure_drop"] > 0.0
    # far less refrigerant than the fin-and-tube condenser of the example
    fin_tube = solve(example_doc())
    items = {i["name"]: i for i in result.charge["items"]}
    ft_items = {i["name"]: i for i in fin_tube.charge["items"]}
    assert items["condenser"]["kg"] < 0.5 * ft_items["condenser"]["kg"]


def test_microchannel_evaporator_dehumidifies_and_warns_outside_the_louver_data():
    geometry = {**CONDENSER, "tubes_per_bank": 30, "tube_length_m": 0.6, "circuits": 15}
    doc = with_params(example_doc(), "evaporator", geometry=geometry)
    result = solve(doc)
    assert result.converged, result.report()
    assert_air_balances(result, doc)
    ev = result.components["evaporator"]
    assert ev["condensate_kg_s"] > 0.0
    assert ev["sensible_heat_ratio"] < 0.8
    assert any("reynolds_lp" in w and "evaporator" in w for w in result.warnings)
