"""Executing the workbench notebooks with papermill on a kernel of this interpreter.

Used by ``workbench run-notebook``, the main job and the notebook tests.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError

__all__ = [
    "KERNEL_NAME",
    "NOTEBOOK_DIR",
    "ensure_kernel",
    "example_scenarios",
    "list_notebooks",
    "locate",
    "notebook_outputs",
    "parse_parameter",
    "resolve_notebook",
    "run_notebook",
]

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
"""The ``notebooks/`` folder of the source checkout."""

KERNEL_NAME = "thermal-workbench"
"""Kernel spec installed into ``sys.prefix`` when ``python3`` is not this interpreter."""


def locate(path: str | Path) -> Path:
    """A data path as given when it exists, else relative to the repository root.

    Lets a notebook's relative defaults (``examples/scenarios/...``) work whether Jupyter was
    started in the repository root or in ``notebooks/``.
    """
    path = Path(path)
    if path.exists() or path.is_absolute():
        return path
    candidate = NOTEBOOK_DIR.parent / path
    return candidate if candidate.exists() else path


def example_scenarios() -> dict[str, Path]:
    """The example scenarios of the repository: file name -> path (name order)."""
    folder = locate("examples/scenarios")
    return {p.name: p for p in sorted(folder.glob("*.json"))} if folder.is_dir() else {}


def list_notebooks(folder: Path = NOTEBOOK_DIR) -> list[Path]:
    """The notebooks of ``folder`` in name order (``01_...``, ``02_...``)."""
    return sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))


def resolve_notebook(name: str | Path, folder: Path = NOTEBOOK_DIR) -> Path:
    """A notebook path from a path or a name such as ``02_parameter_sweep`` (or ``02``).

    Raises
    ------
    WorkbenchError
        No such notebook; the message lists the available ones.
    """
    path = Path(name)
    if path.is_file():
        return path
    stem = path.name.removesuffix(".ipynb")
    for candidate in list_notebooks(folder):
        if candidate.stem == stem or candidate.stem.split("_", 1)[0] == stem:
            return candidate
    known = ", ".join(p.stem for p in list_notebooks(folder)) or "none"
    raise WorkbenchError(f"no notebook {str(name)!r}; notebooks in {folder}: {known}")


def _same_interpreter(argv0: str) -> bool:
    import shutil

    exe = argv0 if os.path.isabs(argv0) else shutil.which(argv0)
    if not exe:
        return False
    try:
        return os.path.samefile(exe, sys.executable)
    except OSError:
        return False


def ensure_kernel() -> str:
    """Name of a Jupyter kernel that runs this interpreter (``sys.executable``).

    ``python3`` when its spec already points here (a plain venv with ipykernel usually does,
    through ``PATH``); otherwise a ``thermal-workbench`` spec is written into ``sys.prefix``
    with this interpreter's absolute path, so papermill never runs another Python.
    """
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    manager = KernelSpecManager()
    for name in ("python3", KERNEL_NAME):
        try:
            spec = manager.get_kernel_spec(name)
        except NoSuchKernel:
            continue
        if spec.argv and _same_interpreter(spec.argv[0]):
            return name
    from ipykernel.kernelspec import install

    install(prefix=sys.prefix, kernel_name=KERNEL_NAME, display_name="Thermal Workbench")
    return KERNEL_NAME


def parse_parameter(text: str) -> Any:
    """A ``-p key value`` value: JSON when it parses (numbers, lists, true), else the string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def run_notebook(
    name: str | Path,
    parameters: Mapping[str, Any] | None = None,
    *,
    output: Path | None = None,
    output_dir: Path | None = None,
    kernel_name: str | None = None,
    cwd: Path | None = None,
    progress: bool = False,
    timeout_s: int | None = 1200,
) -> Path:
    """Execute a notebook with papermill and return the executed notebook's path.

    Parameters
    ----------
    name : str or path
        Notebook name (``02_parameter_sweep``) or path.
    parameters : mapping, optional
        Values for the notebook's ``parameters`` cell. ``output_dir`` defaults to
        ``<output_dir>/<notebook stem>`` (the artefacts folder).
    output : path, optional
        Executed notebook; default ``<output_dir>/<notebook name>``.
    output_dir : path, optional
        Folder for executed notebooks and artefacts; default ``output/notebooks``.
    kernel_name : str, optional
        Jupyter kernel; default :func:`ensure_kernel`.
    cwd : path, optional
        Working directory of the kernel; default the repository root (so relative paths such
        as ``examples/scenarios/...`` resolve).
    progress : bool
        Show papermill's progress bar.
    timeout_s : int, optional
        Per-cell timeout [s].

    Raises
    ------
    WorkbenchError
        Unknown notebook.
    papermill.PapermillExecutionError
        A cell raised; the executed notebook (with the traceback) is still written.
    """
    import papermill

    source = resolve_notebook(name)
    folder = Path(output_dir) if output_dir is not None else Path("output") / "notebooks"
    folder.mkdir(parents=True, exist_ok=True)
    params = dict(parameters or {})
    params.setdefault("output_dir", str((folder / source.stem).resolve()))
    target = Path(output) if output is not None else folder / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    papermill.execute_notebook(
        str(source),
        str(target),
        parameters=params,
        kernel_name=kernel_name or ensure_kernel(),
        cwd=str(cwd or NOTEBOOK_DIR.parent),
        progress_bar=progress,
        execution_timeout=timeout_s,
        kernel_manager_class=f"{__name__}._LocalKernelManager",
    )
    return target


@functools.cache
def _local_kernel_manager_class() -> type:
    """A kernel manager whose kernel talks over Unix sockets (``ipc``), not loopback TCP.

    A batch run's kernel is a child of this process on this machine; over TCP without keys a
    recent ipykernel prints an unencryption warning into every log (one per notebook).
    """
    from jupyter_client.manager import AsyncKernelManager

    class LocalKernelManager(AsyncKernelManager):  # type: ignore[misc]
        def __init__(self, **kwargs: Any) -> None:
            kwargs.setdefault("transport", "ipc")
            super().__init__(**kwargs)

    return LocalKernelManager


def __getattr__(name: str) -> Any:
    # papermill imports the kernel manager class by dotted name; jupyter_client is imported
    # only when a notebook runs
    if name == "_LocalKernelManager":
        return _local_kernel_manager_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def notebook_outputs(path: Path) -> list[str]:
    """Where a stored notebook carries outputs.

    One ``cell <n>`` per code cell with outputs or an execution count; empty for a clean
    notebook.
    """
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    return [
        f"cell {k}"
        for k, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count"))
    ]
