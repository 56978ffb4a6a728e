"""CI runs with a new empty home folder: every cache the project or its tools write lands there."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_WHERE = """
import json, os, subprocess, sys
from pathlib import Path
import platformdirs, matplotlib
from jupyter_core import paths as jp
from IPython.paths import get_ipython_dir
from workbench.fluids.blend.table_build import blend_cache_dir
from workbench.notes.db import embedded_data_dir, workbench_home
pip = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True)
print(json.dumps({
    "home": str(Path.home()),
    "blend tables": str(blend_cache_dir()),
    "workbench data": str(workbench_home()),
    "database": str(embedded_data_dir()),
    "user cache": platformdirs.user_cache_dir("workbench", appauthor=False),
    "coolprop tables": os.path.expanduser("~/.CoolProp"),
    "matplotlib cache": matplotlib.get_cachedir(),
    "matplotlib config": matplotlib.get_configdir(),
    "jupyter data": jp.jupyter_data_dir(),
    "jupyter runtime": jp.jupyter_runtime_dir(),
    "jupyter config": jp.jupyter_config_dir(),
    "ipython": get_ipython_dir(),
    "pip cache": pip.stdout.strip(),
}))
"""


def test_ci_points_every_cache_at_a_new_empty_home(tmp_path):
    env = dict(os.environ)
    env.update(
        TMPDIR=str(tmp_path),
        PYTHON=sys.executable,
        WORKBENCH_HOME="/somewhere/else",
        MPLCONFIGDIR="/somewhere/else/mpl",
        XDG_CACHE_HOME="/somewhere/else/cache",
    )
    script = f'source scripts/fresh_home.sh && ls -A "$HOME" | wc -l && "$PYTHON" -c \'{_WHERE}\''
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    count, where_json = done.stdout.strip().split("\n", 1)
    assert count.strip() == "0"  # the folder is new and empty when the tests start
    where = json.loads(where_json)
    home = Path(where.pop("home"))
    assert home.parent == tmp_path
    assert home != Path(os.environ.get("HOME", "/"))
    outside = {name: path for name, path in where.items() if not Path(path).is_relative_to(home)}
    assert outside == {}
    assert "empty home folder for this run" in done.stderr


def test_ci_run_sources_the_fresh_home_before_the_readme_command():
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    commands = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert commands.index("source scripts/fresh_home.sh") < commands.index(
        "exec bash scripts/test.sh"
    )
