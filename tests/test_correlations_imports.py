"""The correlation floor imports only what its package docstring allows."""

import ast
from pathlib import Path

import workbench.correlations as pkg

ALLOWED = {
    "numpy",
    "scipy",
    "ht",
    "fluids",
    "CoolProp",
    "psychrolib",
    "math",
    "dataclasses",
    "typing",
    "collections",
    "__future__",
}


def test_correlations_import_only_the_allowed_libraries() -> None:
    folder = Path(pkg.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                inside = name.startswith(("workbench.correlations", "workbench.errors"))
                assert top in ALLOWED or inside, f"{path.name} imports {name}"
