"""Size limits of a scenario document, checked before it is parsed or expanded.

A document is refused, with a :class:`~workbench.errors.ScenarioError` naming the limit, when

- its file or JSON text is larger than :data:`MAX_DOCUMENT_BYTES` (checked before the text is
  read, so a huge file costs a ``stat``), or
- it describes more than :data:`MAX_COMPONENTS` components after flattening (circuit
  components plus, per instance, its template's components; counted on the decoded JSON
  before any model is built), or more than :data:`MAX_INSTANCES` instances.

The solver's system grows with the components (three unknowns per edge and a dense Jacobian up
to 150 unknowns, sparse above); a document of a few thousand components is already far beyond
any refrigeration or heat-pump plant. Without the limits a million-component file took over a
minute and gigabytes of memory to be called valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.errors import ScenarioError, ScenarioIssue

__all__ = [
    "MAX_COMPONENTS",
    "MAX_DOCUMENT_BYTES",
    "MAX_INSTANCES",
    "check_document_size",
    "check_text_size",
]

MAX_DOCUMENT_BYTES = 8 * 1024 * 1024
"""Largest scenario file or JSON text accepted [bytes] (8 MiB)."""

MAX_COMPONENTS = 10_000
"""Most components a scenario may have after flattening."""

MAX_INSTANCES = 10_000
"""Most template instances a scenario may have."""


def _mib(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MiB"


def check_text_size(size: int, label: str | None) -> None:
    """Refuse a file or text of ``size`` bytes above :data:`MAX_DOCUMENT_BYTES`."""
    if size > MAX_DOCUMENT_BYTES:
        raise ScenarioError(
            [
                ScenarioIssue(
                    "",
                    f"the document is {_mib(size)}; scenario documents are limited to "
                    f"{_mib(MAX_DOCUMENT_BYTES)} (workbench.scenario.limits.MAX_DOCUMENT_BYTES)",
                )
            ],
            label,
        )


def _length(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0


def check_document_size(data: Mapping[str, Any], label: str | None) -> None:
    """Refuse a decoded document with too many components or instances (before parsing it)."""
    issues: list[ScenarioIssue] = []
    circuits = data.get("circuits")
    count = 0
    if isinstance(circuits, list):
        count += sum(_length(c.get("components")) for c in circuits if isinstance(c, Mapping))
    instances = data.get("instances")
    subsystems = data.get("subsystems")
    if isinstance(instances, list):
        if len(instances) > MAX_INSTANCES:
            issues.append(
                ScenarioIssue(
                    "instances",
                    f"{len(instances):,} instances; a scenario may have at most "
                    f"{MAX_INSTANCES:,} (workbench.scenario.limits.MAX_INSTANCES)",
                )
            )
        sizes = {
            name: _length(t.get("components"))
            for name, t in (subsystems.items() if isinstance(subsystems, Mapping) else ())
            if isinstance(t, Mapping)
        }
        for inst in instances:
            if isinstance(inst, Mapping) and isinstance(inst.get("of"), str):
                count += sizes.get(inst["of"], 0)
    if count > MAX_COMPONENTS:
        issues.append(
            ScenarioIssue(
                "circuits" if not instances else "instances",
                f"{count:,} components after flattening; a scenario may have at most "
                f"{MAX_COMPONENTS:,} (workbench.scenario.limits.MAX_COMPONENTS)",
            )
        )
    if issues:
        raise ScenarioError(issues, label)
