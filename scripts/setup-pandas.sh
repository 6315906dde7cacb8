#!/usr/bin/env bash
# Installs pandas (with pyarrow for Parquet and scipy for the two-sample KS statistic), pinned as the client
# dataset's pandas reference is (scripts/fixtures/requirements-client-dataset.txt), into a project-local virtual
# environment, .cache/venv-pandas, for the integration tier that checks the client's dataset statistics against
# pandas (test/int/pandas) and for the dataset_stats benchmark's baseline.
# Idempotent: a venv whose marker matches the pins is kept, so a second run takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."
SETUP_NAME=setup-pandas
source scripts/lib/steps.sh
python="${PYTHON:-python3}"

venv=".cache/venv-pandas"
marker="$venv/.installed"
requirements="scripts/fixtures/requirements-client-dataset.txt"
if cmp -s "$requirements" "$marker" 2>/dev/null && [ -x "$venv/bin/python" ]; then
  echo "$SETUP_NAME: pandas ready ($venv)" >&2
  exit 0
fi
command -v "$python" >/dev/null || fail "find Python" "'$python' is not on PATH" "install Python 3 with venv (apt-get install python3 python3-venv) or set PYTHON to a Python 3.10+"
pypi="check that PyPI is reachable (HTTPS_PROXY, PIP_INDEX_URL) and that the disk holding .cache/ has 400 MB free"
rm -rf "$venv"
step "creating the environment $venv" "install python3-venv (apt-get install python3-venv) or set PYTHON to a Python with venv" "$python" -m venv "$venv"
step "installing pandas, pyarrow, numpy and scipy as pinned in $requirements (under a minute the first time)" "$pypi" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
# The marker is written last, so an interrupted install is redone on the next run.
cp "$requirements" "$marker"
