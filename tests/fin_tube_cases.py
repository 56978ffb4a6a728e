"""Coils and scenarios of the fin-and-tube tests, and the air-side balances every solved case obeys."""

from __future__ import annotations

import copy
import json
from typing import Any

import psychrolib
import pytest

from workbench.main_job import REPO_ROOT

EXAMPLE = REPO_ROOT / "examples" / "scenarios" / "split_unit_fin_tube_v2.json"

EVAPORATOR_GEOMETRY: dict[str, Any] = {
    "kind": "fin_tube",
    "tubes_per_bank": 12,
    "banks": 2,
    "circuits": 3,
    "tube_length_m": 0.7,
    "tube_outer_diameter_m": 0.00952,
    "tube_inner_diameter_m": 0.0088,
    "transverse_pitch_m": 0.0254,
    "longitudinal_pitch_m": 0.022,
    "fins_per_m": 550,
    "fin_thickness_m": 0.00012,
    "fin_type": "wavy",
    "wave_depth_m": 0.0015,
    "wave_half_length_m": 0.0055,
}


def example_doc() -> dict[str, Any]:
    """The example split unit (a fresh copy)."""
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return doc


def component(doc: dict[str, Any], name: str) -> dict[str, Any]:
    """The component ``name`` of the first circuit, to edit in place."""
    comp: dict[str, Any] = next(c for c in doc["circuits"][0]["components"] if c["name"] == name)
    return comp


def with_params(doc: dict[str, Any], name: str, **params: Any) -> dict[str, Any]:
    """A copy of ``doc`` with parameters of component ``name`` set (None removes one)."""
    doc = copy.deepcopy(doc)
    comp = component(doc, name)
    for key, value in params.items():
        if value is None:
            comp.pop(key, None)
        else:
            comp[key] = value
    return doc


def assert_air_balances(result: Any, doc: dict[str, Any]) -> None:
    """Energy and water balance of every geometric coil, rebuilt with psychrolib.

    Refrigerant heat = m_da (h_air,in - h_air,out) and condensate = m_da (W_in - W_out), the air
    states from the reported outlet temperature and humidity ratio; and the cycle's balance.
    """
    psychrolib.SetUnitSystem(psychrolib.SI)
    for comp in doc["circuits"][0]["components"]:
        if "geometry" not in comp:
            continue
        out = result.components[comp["name"]]
        t_in = comp["air_inlet_temp_c"]
        p_air = comp.get("air_pressure_pa", 101325.0)
        rh = comp.get("air_inlet_rh", 0.0)
        w_in = psychrolib.GetHumRatioFromRelHum(t_in, rh, p_air) if rh > 0 else 0.0
        m_da = out["air_mass_flow"] / (1.0 + w_in)
        t_out = out["air_outlet_temperature"] - 273.15
        w_out = out["air_outlet_humidity_ratio"]
        h_in = 1006.0 * t_in + w_in * (2501000.0 + 1860.0 * t_in)  # ASHRAE eq. 32, W = 0 kept
        h_out = 1006.0 * t_out + w_out * (2501000.0 + 1860.0 * t_out)
        q_air = m_da * (h_in - h_out)
        q_ref = out["capacity"] if comp["type"] == "Evaporator" else -out["capacity"]
        assert q_air == pytest.approx(q_ref, rel=1e-6), comp["name"]
        assert out["condensate_kg_s"] == pytest.approx(m_da * (w_in - w_out), rel=1e-6, abs=1e-12)
        assert out["sensible_capacity"] + out["latent_capacity"] == pytest.approx(q_air, rel=1e-9)
        if w_in > 0:
            assert 0.0 <= out["air_outlet_rh"] <= 1.0
    s = result.summary
    assert abs(s["energy_balance_w"]) < 1e-6 * s["compressor_power_w"]
    assert s["heating_capacity_w"] == pytest.approx(
        s["cooling_capacity_w"] + s["compressor_power_w"], rel=1e-6
    )
