"""Safety limits of refrigerant charge (IEC 60335-2-40 Annex GG) and refrigerant safety data.

A pure analysis: :func:`charge_limits` takes a fluid, a room and a release height (and a
charge to judge); :mod:`workbench.safety.refrigerants` holds the LFL and safety class per
refrigerant with their source. :func:`assess` applies a scenario's ``safety`` block to the
charge of a solved result.
"""

from __future__ import annotations

from workbench.safety.annex_gg import (
    RELEASE_HEIGHTS_M,
    STANDARD,
    ChargeLimits,
    charge_limits,
    max_charge_kg,
    min_room_area_m2,
)
from workbench.safety.refrigerants import REFRIGERANTS, RefrigerantSafety, refrigerant_safety

__all__ = [
    "REFRIGERANTS",
    "RELEASE_HEIGHTS_M",
    "STANDARD",
    "ChargeLimits",
    "RefrigerantSafety",
    "charge_limits",
    "max_charge_kg",
    "min_room_area_m2",
    "refrigerant_safety",
]
