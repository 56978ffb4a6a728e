#!/usr/bin/env bash
# The README's main command: set up .venv and run the main job on the example scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
exec .venv/bin/python -m workbench.main_job "$@"
