#!/usr/bin/env bash
# Installs the MLflow releases the integration tests run against (scripts/mlflow/versions: a version and any
# extra pip requirements per line) into project-local virtual environments, .cache/mlflow-<version>/.
# Idempotent: a venv whose marker matches its line is kept, so a second run takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."
SETUP_NAME=setup-mlflow
source scripts/lib/steps.sh
python="${PYTHON:-python3}"

command -v "$python" >/dev/null || fail "find Python" "'$python' is not on PATH" "install Python 3 with venv (apt-get install python3 python3-venv) or set PYTHON to a Python 3.10+"
pypi="check that PyPI is reachable (HTTPS_PROXY, PIP_INDEX_URL) and that the disk holding .cache/ has 1 GB free"

while read -r version extras; do
  case "$version" in "" | "#"*) continue ;; esac
  venv=".cache/mlflow-$version"
  marker="$venv/.installed"
  wanted="mlflow==$version $extras"
  if [ -f "$marker" ] && [ "$(cat "$marker")" = "$wanted" ] && [ -x "$venv/bin/mlflow" ]; then
    echo "$SETUP_NAME: mlflow $version ready ($venv)" >&2
    continue
  fi
  rm -rf "$venv"
  step "mlflow $version: creating the environment $venv" "install python3-venv (apt-get install python3-venv) or set PYTHON to a Python with venv" "$python" -m venv "$venv"
  step "mlflow $version: upgrading pip" "$pypi" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
  # shellcheck disable=SC2086 # extras are separate requirements
  step "mlflow $version: installing $wanted (a few minutes the first time)" "$pypi" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mlflow==$version" $extras
  # The marker is written last, so an interrupted install is redone on the next run.
  echo "$wanted" > "$marker"
done < scripts/mlflow/versions
