#!/usr/bin/env bash
# The numpy baseline of model_file_scan: numpy (as checkpoint_scan's baseline) and h5py to locate HDF5 datasets, in a
# venv under .cache/ (git-ignored). Idempotent; prints the venv's python on success.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.cache/bench-model-files-venv
if ! "$venv/bin/python" -c "import numpy, h5py, sys; sys.exit(numpy.__version__ != '2.4.6' or h5py.__version__ != '3.14.0')" 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "numpy==2.4.6" "h5py==3.14.0" >&2
fi
echo "$PWD/$venv/bin/python"
