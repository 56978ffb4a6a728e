"""The ``workbench`` entry point: command modules, missing extras, environment warnings."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from workbench.cli import main as cli


def _module(tmp_path: Path, name: str, body: str) -> str:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(body), encoding="utf-8")
    return name


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_missing_third_party_package_becomes_a_hint(
    on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _module(on_path, "wb_optional_cmd", "import wb_no_such_dependency_xyz\n")
    monkeypatch.setattr(cli, "COMMAND_MODULES", ((name, "notes"),))
    parser = cli.build_parser()
    assert parser.epilog is not None
    assert "wb_no_such_dependency_xyz missing" in parser.epilog
    assert "thermal-workbench[notes]" in parser.epilog


def test_a_missing_workbench_module_is_an_error_not_a_hint(
    on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _module(on_path, "wb_broken_cmd", "import workbench.no_such_module_xyz\n")
    monkeypatch.setattr(cli, "COMMAND_MODULES", ((name, "core"),))
    with pytest.raises(ModuleNotFoundError, match=r"workbench\.no_such_module_xyz"):
        cli.build_parser()


def test_a_broken_command_module_is_an_error(
    on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _module(on_path, "wb_raising_cmd", "from workbench.errors import NoSuchName\n")
    monkeypatch.setattr(cli, "COMMAND_MODULES", ((name, "core"),))
    with pytest.raises(ImportError, match="NoSuchName"):
        cli.build_parser()


def test_every_command_module_imports_or_names_its_missing_package() -> None:
    parser = cli.build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"validate", "flatten", "schema", "solve", "sweep", "run-notebook"} <= set(commands)
    for entry in (parser.epilog or "").removeprefix("unavailable commands: ").split("; "):
        if entry:  # only a package that really is not installed may hide a command
            missing = entry.split(": ")[-1].removesuffix(" missing)")
            assert importlib.util.find_spec(missing) is None, entry


def test_no_xdg_runtime_dir_warning_without_a_runtime_dir() -> None:
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    env["PYTHONWARNINGS"] = "always"
    code = (
        "import sys; from workbench.cli.main import main; code = main(sys.argv[1:]); "
        "import platformdirs; platformdirs.user_runtime_dir('probe'); sys.exit(code)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, "notes", "db", "url"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "XDG_RUNTIME_DIR" not in run.stderr, run.stderr
    # the same probe without the command line's filter does warn: the test can fail
    bare = subprocess.run(
        [sys.executable, "-c", "import platformdirs; platformdirs.user_runtime_dir('probe')"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "XDG_RUNTIME_DIR" in bare.stderr
