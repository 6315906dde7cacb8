#!/usr/bin/env bash
# The pandas baseline of dataset_stats runs in the venv npm test's pandas tier uses (scripts/setup-pandas.sh:
# .cache/venv-pandas, the client dataset's pinned pandas), never the system python. Idempotent and fast on the
# second run; prints the venv's python on success.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup-pandas.sh
echo "$PWD/.cache/venv-pandas/bin/python"
