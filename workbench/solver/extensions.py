"""Blocks beyond components: control loops and thermal couplings (attached before solving)."""

from __future__ import annotations

from workbench.errors import SpecificationError
from workbench.solver.system import System

__all__ = ["attach"]


def attach(system: System) -> dict[int, int]:
    """Attach control loops and thermal couplings; return extra equations per circuit."""
    flat = system.flat
    if flat.controls or flat.thermal_couplings:
        raise SpecificationError(
            "control loops and thermal couplings are not solved yet (issue 5); remove "
            "'controls' and 'thermal_couplings' to solve the plant alone"
        )
    return {}
