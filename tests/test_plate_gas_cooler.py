"""Brazed plate gas cooler: a transcritical R744 march against the UA gas cooler, and a system.

The reference is the project's UA gas cooler model (counterflow, discretised along the
enthalpy, ``workbench.components.exchangers.gas_cooler.model``) given the conductance the plate
march reports: the two share no code, only the CoolProp states, and part only by how the
conductance is spread along the exchanger.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import CoolProp.CoolProp as CP
import pytest

from workbench.components.exchangers.gas_cooler.model import gas_cooler_heat_flow
from workbench.components.exchangers.plate.march import PlateModel, solve_plate
from workbench.components.exchangers.plate.spec import GAS_COOLER_SEGMENTS, parse_plate_spec
from workbench.correlations.plate_geometry import PlateGeometry
from workbench.fluids import get_backend, get_secondary
from workbench.fluids.secondary_transport import secondary_transport
from workbench.fluids.transport import transport_for
from workbench.solver import solve

GEOMETRY: dict[str, Any] = {
    "kind": "brazed_plate",
    "plates": 40,
    "plate_length_m": 0.278,
    "plate_width_m": 0.112,
    "chevron_angle_deg": 60,
    "corrugation_pitch_m": 0.007,
    "channel_gap_m": 0.002,
    "plate_thickness_m": 0.0004,
    "port_diameter_m": 0.024,
}
EXAMPLE = Path(__file__).resolve().parents[1] / "examples/scenarios/r744_heat_pump_v2.json"


def _model(**extra: Any) -> PlateModel:
    spec = parse_plate_spec({**GEOMETRY, **extra}, "gas_cooler", segments=GAS_COOLER_SEGMENTS)
    fl = get_backend("CO2", "CoolProp")
    water = "water"
    return PlateModel(
        spec, fl, transport_for(fl), get_secondary(water), secondary_transport(water), True
    )


def _inlet() -> tuple[float, float, float]:
    p = 9.0e6
    return p, CP.PropsSI("H", "T", 363.15, "P", p, "CO2"), 0.02


def test_plate_gas_cooler_march_against_the_ua_gas_cooler() -> None:
    model = _model()
    p, h, m = _inlet()
    m_w, t_w = 0.05, 288.15
    res = solve_plate(model, p, h, m, t_w, m_w)
    assert {pc.zone for pc in res.pieces} == {"supercritical"}
    ua = sum(pc.ua for pc in res.pieces)
    cp_w = get_secondary("water").cp(t_w)
    ref = gas_cooler_heat_flow(
        get_backend("CO2", "CoolProp"), p, p - res.p_out, h, m, t_w, m_w * cp_w, ua, segments=200
    )
    # measured 7e-5 apart (5200.06 W against 5200.44 W): the conductance is spread along the
    # plate by the local coefficients, the UA model spreads it over its enthalpy steps
    assert res.q == pytest.approx(ref.q, rel=1e-3)
    water = get_secondary("water")
    assert res.q == pytest.approx(m_w * (water.h(res.t_sec_out) - water.h(t_w)), rel=1e-9)


def test_plate_gas_cooler_segments_20_against_80() -> None:
    p, h, m = _inlet()
    coarse = solve_plate(_model(), p, h, m, 288.15, 0.05)
    fine = solve_plate(_model(segments=80), p, h, m, 288.15, 0.05)
    # measured 5200.1 W (20), 5204.7 W (80), 5205.5 W (160)
    assert coarse.q == pytest.approx(fine.q, rel=2e-3)


def test_plate_gas_cooler_in_the_transcritical_heat_pump() -> None:
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    gc = next(c for c in doc["circuits"][0]["components"] if c["name"] == "gas_cooler")
    del gc["ua"]
    gc["geometry"] = dict(GEOMETRY)
    result = solve(doc)
    assert result.converged, result.message
    out = result.components["gas_cooler"]
    assert out["pressure"] == pytest.approx(9.0e6, rel=1e-6)  # the control loop's target
    assert out["zone_supercritical_area_fraction"] == pytest.approx(1.0, rel=1e-12)
    assert out["secondary_heat_flow"] == pytest.approx(out["capacity"], rel=1e-8)
    assert abs(result.summary["energy_balance_w"]) < 1e-6 * out["capacity"]
    assert out["approach_temperature"] > 0.0
    # its supercritical pieces are first order: it keeps 20 segments where the condensers and
    # evaporators (Simpson's two-phase pieces) take 12
    assert out["segments"] == GAS_COOLER_SEGMENTS == 20
    keys = dict(GEOMETRY)
    keys.pop("kind")
    volume = PlateGeometry(**keys).internal_volume_m3("refrigerant")
    assert out["internal_volume"] == pytest.approx(volume, rel=1e-12)
    assert result.problems == []
