"""The charge keeps the layering: components -> solver -> sweep -> the analyses (charge too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "workbench"

# a layer and the packages above it, which it must not import
ANALYSES = ("workbench.charge", "workbench.calibrate", "workbench.seasonal")
ABOVE = {
    "components": ("workbench.solver", "workbench.sweep", *ANALYSES),
    "solver": ("workbench.sweep", *ANALYSES),
    "sweep": ANALYSES,
}


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top, in functions or under TYPE_CHECKING."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("layer", sorted(ABOVE))
def test_charge_layers_no_import_runs_upward(layer: str) -> None:
    upward = {
        f"{path.relative_to(PACKAGE.parent)}: {name}"
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for name in _imports(path)
        if any(name == top or name.startswith(top + ".") for top in ABOVE[layer])
    }
    assert upward == set()


def test_charge_layers_public_names_are_the_lower_layers_objects() -> None:
    import workbench.charge as charge
    from workbench.components.inventory import density, items, void_fraction
    from workbench.solver.charge import inventory as charge_inventory
    from workbench.solver.charge import results as charge_results

    assert charge.inventory is charge_inventory.inventory
    assert charge.Inventory is charge_inventory.Inventory
    assert charge.charge_table is charge_results.charge_table
    assert charge.ZoneCharge is items.ZoneCharge
    assert charge.ChargeItem is items.ChargeItem
    assert charge.path_zones is density.path_zones
    assert charge.void_fraction is void_fraction.void_fraction
    assert all(hasattr(charge, name) for name in charge.__all__)
