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
