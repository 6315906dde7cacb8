#!/usr/bin/env bash
# The pandas baseline of dataset_stats: a venv under .cache/ (git-ignored) with the same pins as the fixture
# generator of the client's dataset statistics (scripts/fixtures/requirements-client-dataset.txt), never the
# system python. Idempotent and fast on the second run; prints the venv's python on success.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.cache/bench-pandas-venv
requirements=scripts/fixtures/requirements-client-dataset.txt
if ! cmp -s "$requirements" "$venv/.requirements" 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2
  cp "$requirements" "$venv/.requirements"
fi
echo "$PWD/$venv/bin/python"
