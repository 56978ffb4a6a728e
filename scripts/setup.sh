#!/usr/bin/env bash
# Create ./.venv and install the project into it (editable) with the extras given as $1.
# Idempotent; works on a fresh Debian with Python 3.11 (installs python3-venv when root).
# Versions are pinned by requirements/constraints.txt (the versions CI tested; how to refresh
# it is written at its top); set WORKBENCH_CONSTRAINTS= (empty) to install without the pins.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-dev}"
py="${PYTHON:-python3}"
if ! "$py" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing python3-venv with apt-get" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-pip >/dev/null
  else
    echo "setup: Python's venv module is missing; run: sudo apt-get install python3-venv" >&2
    exit 1
  fi
fi
[ -x .venv/bin/python ] || "$py" -m venv .venv
constraints="${WORKBENCH_CONSTRAINTS-requirements/constraints.txt}"
stamp=".venv/.installed-$(echo "$extras" | tr ',' '-')"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || { [ -n "$constraints" ] && [ "$constraints" -nt "$stamp" ]; }; then
  echo "setup: installing thermal-workbench[$extras] into .venv (first run takes a few minutes)" >&2
  # pip's and the build backend's chatter goes to a log, shown only when the install fails
  log=".venv/install.log"
  if ! { .venv/bin/python -m pip install --quiet --upgrade pip \
         && .venv/bin/python -m pip install --quiet -e ".[$extras]" ${constraints:+-c "$constraints"}; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: the install failed (log above, also in $log)" >&2
    exit 1
  fi
  echo "setup: installed (pip's log: $log)" >&2
  touch "$stamp"
fi
