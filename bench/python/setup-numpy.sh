#!/usr/bin/env bash
# The numpy baseline of checkpoint_scan: a venv under .cache/ (git-ignored) with a pinned numpy, never the
# system python. Idempotent and fast on the second run; prints the venv's python on success.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.cache/bench-venv
numpy_version=2.4.6
if ! "$venv/bin/python" -c "import numpy, sys; sys.exit(numpy.__version__ != '$numpy_version')" 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "numpy==$numpy_version" >&2
fi
echo "$PWD/$venv/bin/python"
