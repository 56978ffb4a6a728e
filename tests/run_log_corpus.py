"""Realistic notes for the run-log search tests: engineers' notes and other stored runs.

:func:`engineering_notes` writes plain notes of the kind a refrigeration team keeps (site
visits, commissioning, failures, rules of thumb), many of them naming fluids, COPs,
temperatures and capacities, so that a run note has to be found by what it says, not by being
the only note with numbers in it. :func:`run_variants` gives scenario documents of other runs:
the same heat pump with other fluids and other air temperatures, and split units.
"""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path

__all__ = ["EXAMPLES", "engineering_notes", "heat_pump", "run_variants"]

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "scenarios"

_FLUIDS = ["R290", "R134a", "R32", "R410A", "R1234yf", "R744", "R407C", "R717", "R600a", "R454B"]
_SITES = [
    "Lyon depot",
    "Hall 3",
    "the bakery",
    "Kiel office",
    "the data room",
    "plant 2",
    "Unit 14",
]
_TEMPLATES = [
    "{fluid} split unit at {site}: measured COP {cop} at {t} °C outdoor air, {q} kW cooling. "
    "Fan noise after 22:00, installer to check the mounts.",
    "Commissioning {site}: {fluid} charge {charge} kg, superheat settled at {sh} K after the "
    "TXV was opened half a turn. Suction {t} °C saturated.",
    "Oil return in {fluid} risers at {site}: add a trap every 3 m of rise; velocity below "
    "{v} m/s at part load strands the oil.",
    "Evaporator frosting at {site} with {fluid}: air at {t} °C and 85 % humidity iced the coil "
    "in {h} h; hot gas defrost every {h} h fixed it.",
    "Compressor failure at {site}: liquid slugging after a long off cycle, crankcase heater "
    "dead. {fluid} system, {q} kW. Replace heater, add a pump-down.",
    "Rule of thumb for {fluid}: each 1 K higher evaporating temperature gives about 3 % more "
    "COP; at {t} °C we measured COP {cop} on the test bench.",
    "Condenser fouling at {site}: approach grew from 8 K to {sh} K in one season, COP fell to "
    "{cop}. Clean fins in spring, {fluid} charge unchanged.",
    "Heat pump retrofit at {site}: {fluid} unit delivers {q} kW heating at {t} °C outdoor air, "
    "COP {cop}; backup heater runs below -15 °C.",
    "Zeotropic glide of {fluid}: about {sh} K across the evaporator; quote the dew point when "
    "setting superheat at {site}.",
    "Safety note for {fluid}: charge limit per room per EN 378, {charge} kg at {site}; leak "
    "detector at floor level for heavier-than-air gases.",
    "Expansion valve hunting at {site}: superheat swinging {sh} K around the set point on the "
    "{fluid} chiller; raised the valve's static superheat, stable now.",
    "Pressure drop in the {fluid} suction line at {site}: {v} bar over 30 m, cost about "
    "{sh} % capacity. Upsize to the next tube diameter.",
]


def engineering_notes(n: int, seed: int = 7) -> list[tuple[str, str]]:
    """``n`` (title, content) pairs of plain notes, deterministic for a seed."""
    import random

    rng = random.Random(seed)
    out = []
    for i in range(n):
        template = _TEMPLATES[i % len(_TEMPLATES)]
        values = {
            "fluid": rng.choice(_FLUIDS),
            "site": rng.choice(_SITES),
            "cop": f"{rng.uniform(1.8, 5.5):.2f}",
            "t": rng.choice([-20, -15, -10, -7, -5, -2, 0, 2, 5, 7, 10, 35]),
            "q": f"{rng.uniform(1.5, 40):.1f}",
            "charge": f"{rng.uniform(0.15, 12):.2f}",
            "sh": rng.choice([3, 4, 5, 6, 8, 12]),
            "v": f"{rng.uniform(2, 12):.1f}",
            "h": rng.choice([2, 4, 6, 8]),
        }
        content = template.format(**values)
        title = content.split(":")[0][:80]
        out.append((f"{title} ({i})", content))
    return out


def heat_pump(fluid: str, air_c: float, *, backend: str = "Test") -> dict:
    """The example air-to-water heat pump with another fluid and evaporator air temperature."""
    doc = json.loads((EXAMPLES / "heat_pump_v1.json").read_text(encoding="utf-8"))
    doc["name"] = f"Air-to-water heat pump, {fluid}"
    doc["fluid"] = fluid
    doc["fluid_backend"] = backend
    doc["circuits"][0]["components"][3]["air_inlet_temp_c"] = air_c
    # the corpus's figures stay those the search tests were written for, whatever the
    # example's own design values (its UAs were lowered to a few kelvin of approach)
    doc["circuits"][0]["components"][1]["ua"] = 1500
    doc["circuits"][0]["components"][3]["ua_nominal_kw_k"] = 1.2
    return doc


def run_variants() -> list[dict]:
    """Scenario documents of other runs.

    Heat pumps of four fluids at nine air temperatures, split units at other speeds.
    """
    docs = [
        heat_pump(fluid, t)
        for fluid, t in itertools.product(
            ["R290", "R134a", "R32", "R410A"], [-15, -10, -5, -2, 0, 2, 5, 7, 10]
        )
    ]
    split = json.loads((EXAMPLES / "split_units_v2.json").read_text(encoding="utf-8"))
    for speed in (30, 40, 60, 70):
        doc = copy.deepcopy(split)
        doc["instances"][0]["params"] = {"speed_hz": speed}
        docs.append(doc)
    return docs
