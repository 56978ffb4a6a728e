"""The lower floors' import rules: no circle, no import up (docs/architecture.md).

Every ``import`` of ``workbench/fluids``, ``workbench/components`` and ``workbench/solver`` is
read from the source (``ast``, including imports inside functions and under ``TYPE_CHECKING``)
and held against the folder ranks the ``__init__`` docstrings state.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "workbench"
PACKAGES = ("correlations", "fluids", "components", "solver")

# the rank of each folder (or module) of a package: a module imports only lower ranks of its own
# package, or its own folder; the longest matching prefix decides
RANKS: dict[str, dict[str, int]] = {
    "correlations": {},  # flat: pure functions importing each other, no circle
    "fluids": {
        "base": 0,
        "analytic": 1,
        "coolprop": 1,
        "secondary": 1,
        "transport": 1,
        "secondary_transport": 2,
        "spelling": 2,
        "blend": 3,
        "names": 4,
        "pool": 5,
        "limits": 5,
        "__init__": 6,
    },
    "components": {
        "catalog": 0,
        "base": 1,
        "exchangers.zones": 2,
        "junctions": 2,
        "exchangers.coils": 3,
        "exchangers.gas_cooler": 3,
        "exchangers.ihx": 3,
        "exchangers.fin_tube": 4,  # its coils are the UA coils with a march (rank 3)
        "exchangers.lines": 3,
        "exchangers.plate": 4,  # its exchangers are the coils and gas cooler with a march
        "machines": 3,
        "inventory": 4,
        "models": 5,
        "__init__": 6,
    },
    "solver": {
        "charge": 1,
        "extensions": 2,
        "tables": 2,
        "start": 3,
        "solve": 4,
        "__init__": 5,
    },
}
CORE = 0
"""Rank of every solver module not named above (the Newton core)."""

BELOW = {
    "correlations": set(),
    "fluids": set(),
    "components": {"fluids", "correlations"},
    "solver": {"fluids", "components", "correlations"},
}
"""Sibling packages each may import (besides errors, units, progress, scenario, safety)."""


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    return ".".join(rel.parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("workbench."))
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").startswith("workbench")
        ):
            found.add(str(node.module))
    return found


def _modules() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            out[_module_name(path)] = _imports(path)
    return out


def _place(module: str) -> tuple[str, str, int]:
    """(package, group, rank) of a module of the three packages."""
    parts = module.split(".")
    package, rest = parts[1], parts[2:]
    inner = ".".join(rest) or "__init__"
    if inner.endswith(".__init__"):
        inner = inner[: -len(".__init__")]
    ranks = RANKS[package]
    for prefix in sorted(ranks, key=len, reverse=True):
        if inner == prefix or inner.startswith(prefix + "."):
            return package, prefix, ranks[prefix]
    return package, inner, CORE


def _target(name: str, modules: dict[str, set[str]]) -> str:
    """The module an import names (a package's face is its ``__init__``)."""
    return name if name in modules else name + ".__init__"


def test_no_module_of_the_lower_floors_imports_up():
    modules = _modules()
    wrong = []
    for module, names in modules.items():
        package, group, rank = _place(module)
        for name in names:
            top = name.split(".")[1]
            if top not in PACKAGES:
                continue
            target = _target(name, modules)
            if target not in modules:
                continue
            t_package, t_group, t_rank = _place(target)
            if t_package != package:
                if t_package not in BELOW[package]:
                    wrong.append(f"{module} -> {name} (package {t_package} is above)")
                continue
            flat = package in ("solver", "correlations")
            if t_group == group or (rank == CORE == t_rank and flat):
                continue
            if t_rank >= rank:
                wrong.append(f"{module} -> {name} ({t_group} is not below {group})")
    assert wrong == []


def test_no_circle_of_imports_in_the_lower_floors():
    modules = _modules()
    graph = {m: {_target(n, modules) for n in names} & set(modules) for m, names in modules.items()}
    # a package's face that only hands names on is left out (it imports what imports it lazily)
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert circles == []


@pytest.mark.parametrize("package", PACKAGES)
def test_every_folder_says_what_it_may_import(package):
    for init in (ROOT / package).rglob("__init__.py"):
        if init.parent == ROOT / package or init.parent.name == "inventory":
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert "May import:" in doc, init
