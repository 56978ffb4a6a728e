#!/usr/bin/env bash
# The README's test command: set up .venv with every extra, lint, and run the whole test suite
# (real CoolProp, an embedded PostgreSQL 16 + pgvector started by the tests, real notebooks, and
# JupyterLab driven in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
# The browser test drives Debian's Chromium with Playwright (its own browser download is not used).
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "test: installing chromium with apt-get (for tests/test_browser_notebooks.py)" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
    >/dev/null 2>&1 || echo "test: apt-get install chromium failed; the browser test will fail" >&2
fi
.venv/bin/ruff check workbench tests benchmarks
.venv/bin/ruff format --check workbench tests benchmarks
.venv/bin/mypy  # strict on scenario, fluids, components, solver, sweep ([tool.mypy] in pyproject.toml)
# temporary files (and the tests' embedded PostgreSQL) in a folder of this checkout's own: another
# checkout's pytest run on the same machine never cleans them up underneath this one (short path:
# the database's Unix socket lives there)
basetemp="/tmp/workbench-pytest-$(pwd | cksum | cut -d' ' -f1)"
exec .venv/bin/python -m pytest --basetemp="$basetemp" "$@"
