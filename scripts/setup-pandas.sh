#!/usr/bin/env bash
# Installs pandas (with pyarrow for Parquet and scipy for the two-sample KS statistic), pinned as the client
# dataset's pandas reference is (scripts/fixtures/requirements-client-dataset.txt), into a project-local virtual
# environment, .cache/venv-pandas, for the integration tier that checks the client's dataset statistics against
# pandas (test/int/pandas) and for the dataset_stats benchmark's baseline. Idempotent (scripts/lib/pinned-venv.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
SETUP_NAME=setup-pandas
source scripts/lib/steps.sh
source scripts/lib/pinned-venv.sh

requirements="scripts/fixtures/requirements-client-dataset.txt"
pinned_venv .cache/venv-pandas "$(cat "$requirements")" "pandas, pyarrow, numpy and scipy as pinned in $requirements" 400 -r "$requirements"
