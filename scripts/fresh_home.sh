# Sourced by .ci/run: the run gets a new, empty home folder, so that a green CI means an empty
# machine passes. Every cache the project or its tools write lands there and starts empty: the
# blend property tables and the embedded database's data (platformdirs' per-user folders),
# CoolProp's tables (~/.CoolProp), matplotlib's font cache, Jupyter's and IPython's folders,
# pip's download cache. Variables that would point elsewhere are dropped.
# The interpreter is found first: a pyenv shim looks for its versions under the old home.
PYTHON="${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}"
export PYTHON
WORKBENCH_FRESH_HOME="$(mktemp -d "${TMPDIR:-/tmp}/workbench-ci-home.XXXXXX")"
export WORKBENCH_FRESH_HOME HOME="$WORKBENCH_FRESH_HOME"
export XDG_CACHE_HOME="$HOME/.cache" XDG_DATA_HOME="$HOME/.local/share" XDG_CONFIG_HOME="$HOME/.config"
unset WORKBENCH_HOME MPLCONFIGDIR IPYTHONDIR JUPYTER_CONFIG_DIR JUPYTER_DATA_DIR JUPYTER_RUNTIME_DIR \
  PIP_CACHE_DIR PLAYWRIGHT_BROWSERS_PATH
echo "ci: empty home folder for this run: $HOME" >&2
