"""Scenarios with control loops, shared by the control tests."""

from __future__ import annotations

from typing import Any

from solver_cases import ua_heat_pump


def superheat_loop(
    target: float = 5.0,
    gain: float = -1.0,
    lo: float = 0.2,
    hi: float = 5.0,
    smooth_eps: float | None = None,
    band: float = 1.0,
    backend: str = "CoolProp",
) -> dict[str, Any]:
    """Evaporator superheat held by the orifice valve's z_flow (displacement compressor, UA coils)."""
    doc = ua_heat_pump(backend=backend)
    comps = {c["name"]: c for c in doc["circuits"][0]["components"]}
    del comps["evap"]["superheat_k"]
    comps["valve"]["flow_coefficient_m2"] = 2.0e-7
    doc["schema_version"] = "2"
    doc["controls"] = [
        {
            "id": "superheat",
            "measure": {"component": "evap", "output": "superheat"},
            "actuator": {
                "component": "valve",
                "factor": "z_flow",
                "min": lo,
                "max": hi,
                "initial": 1.0,
            },
            "target": target,
            "gain": gain,
            "band": band,
            "smooth_eps": smooth_eps,
        }
    ]
    return doc


def capacity_loop(
    target: float = 3000.0,
    gain: float = 1e-4,
    lo: float = 0.3,
    hi: float = 1.5,
    smooth_eps: float | None = None,
    backend: str = "CoolProp",
) -> dict[str, Any]:
    """Cooling capacity held by the compressor's z_flow (a speed-like actuator)."""
    doc = ua_heat_pump(backend=backend)
    doc["schema_version"] = "2"
    doc["controls"] = [
        {
            "id": "capacity",
            "measure": {"component": "evap", "output": "capacity"},
            "actuator": {"component": "comp", "factor": "z_flow", "min": lo, "max": hi},
            "target": target,
            "gain": gain,
            "smooth_eps": smooth_eps,
        }
    ]
    return doc
