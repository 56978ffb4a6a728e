"""Validation of the charge fields: a fixed charge and what it frees, volumes, the safety block.

Rules (each issue names its JSON path):

- ``circuits[i].charge_kg`` and a ``subcooling_k`` on a condenser of that circuit both fix the
  circuit's charge: give one (the issue names both paths). Not with a receiver or accumulator in
  the circuit: its level takes the charge (an accumulator's circuit keeps the subcooling spec).
- ``circuits[i].charge_kg`` needs refrigerant volumes in that circuit (``internal_volume_m3``
  on a coil, or a coil's ``geometry``, whose tubes are its volume; ``hot_/cold_internal_volume_m3``
  on a heat exchanger, ``volume_m3`` on an edge, a thermal coupling's ``geometry``, whose
  plates are its coupled coils' volumes).
- ``safety`` needs a fluid with safety data (:mod:`workbench.safety.refrigerants`).
"""

from __future__ import annotations

from workbench.errors import ScenarioIssue
from workbench.safety.refrigerants import REFRIGERANTS, normalise_name
from workbench.scenario.flat import FlatScenario

__all__ = ["check_charge"]

_VOLUMES = ("internal_volume_m3", "hot_internal_volume_m3", "cold_internal_volume_m3")


def check_charge(flat: FlatScenario) -> list[ScenarioIssue]:
    """The problems of the charge fields of ``flat`` (see module docstring)."""
    issues = []
    for cid, path in flat.charge_paths.items():
        comps = flat.circuit_components(cid)
        vessel = any(comp.type in ("Receiver", "Accumulator") for comp in comps)
        for comp in comps:
            if comp.type == "Condenser" and "subcooling_k" in comp.params and not vessel:
                issues.append(
                    ScenarioIssue(
                        path,
                        f"{path} and {comp.path}.subcooling_k both fix the state of circuit "
                        f"{cid}: with a fixed charge the subcooling is what the charge sets; "
                        "remove one of them",
                    )
                )
        has_volume = any(
            any(comp.params.get(k) for k in _VOLUMES) or comp.params.get("geometry")
            for comp in comps
        ) or any(e.volume_m3 or e.line for e in flat.circuit_edges(cid))
        # a thermal coupling built from plates gives both its circuits' coupled coils a volume
        has_volume = has_volume or any(
            c.geometry is not None and cid in (c.hot_circuit, c.cold_circuit)
            for c in flat.thermal_couplings
        )
        if not has_volume:
            issues.append(
                ScenarioIssue(
                    path,
                    f"a fixed charge needs the refrigerant volumes of circuit {cid}: give "
                    "internal_volume_m3 (or a geometry) on its coils or volume_m3 on its edges "
                    "(or a line)",
                )
            )
    if flat.safety is not None and normalise_name(flat.fluid) not in REFRIGERANTS:
        issues.append(
            ScenarioIssue(
                "safety",
                f"no safety data (LFL, safety class) for fluid {flat.fluid!r}; known: "
                f"{', '.join(sorted({r.name for r in REFRIGERANTS.values()}))}",
            )
        )
    return issues
