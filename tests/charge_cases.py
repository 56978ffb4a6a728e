"""The R290 heat pump of examples/scenarios/r290_heat_pump_charge_v2.json in its variants."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "examples/scenarios/r290_heat_pump_charge_v2.json"


def charge_doc(
    *,
    charge_kg: float | None = None,
    subcooling_k: float | None = None,
    void_fraction: str | None = None,
    volumes: bool = True,
) -> dict[str, Any]:
    """The example with a fixed charge, or a fixed subcooling (and other options)."""
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text())
    circuit = doc["circuits"][0]
    circuit.pop("charge_kg", None)
    if charge_kg is not None:
        circuit["charge_kg"] = charge_kg
    condenser = circuit["components"][1]
    if subcooling_k is not None:
        condenser["subcooling_k"] = subcooling_k
    if void_fraction is not None:
        doc["charge"] = {"void_fraction": void_fraction}
    if not volumes:
        for comp in circuit["components"]:
            comp.pop("internal_volume_m3", None)
        for edge in circuit["edges"]:
            edge.pop("volume_m3", None)
        doc.pop("charge", None)
        doc.pop("safety", None)
    return copy.deepcopy(doc)


def receiver_doc(*, charge_kg: float | None = None, level: float | None = None) -> dict[str, Any]:
    """The example with a 1 L receiver after the condenser (no subcooling spec)."""
    doc = charge_doc()
    circuit = doc["circuits"][0]
    if charge_kg is not None:
        circuit["charge_kg"] = charge_kg
    receiver: dict[str, Any] = {"name": "receiver", "type": "Receiver", "internal_volume_m3": 1e-3}
    if level is not None:
        receiver["liquid_level"] = level
    circuit["components"].insert(2, receiver)
    circuit["edges"][1] = {"from": "condenser:outlet", "to": "receiver:inlet", "volume_m3": 5e-5}
    circuit["edges"].insert(2, {"from": "receiver:outlet", "to": "valve:inlet", "volume_m3": 5e-5})
    return doc


def accumulator_doc(*, charge_kg: float | None = None) -> dict[str, Any]:
    """The example with a 0.5 L suction accumulator (the evaporator loses its superheat spec)."""
    doc = charge_doc(subcooling_k=3.0)
    circuit = doc["circuits"][0]
    if charge_kg is not None:
        circuit["charge_kg"] = charge_kg  # the condenser keeps its subcooling: the level is free
    del circuit["components"][3]["superheat_k"]
    circuit["components"].append(
        {"name": "accumulator", "type": "Accumulator", "internal_volume_m3": 5e-4}
    )
    circuit["edges"][3] = {"from": "evaporator:outlet", "to": "accumulator:inlet"}
    circuit["edges"].append(
        {"from": "accumulator:outlet", "to": "compressor:inlet", "volume_m3": 3e-4}
    )
    return doc
