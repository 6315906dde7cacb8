#!/usr/bin/env bash
# Installs the MLflow releases the integration tests run against (scripts/mlflow/versions: a version and any
# extra pip requirements per line) into project-local virtual environments, .cache/mlflow-<version>/.
# Idempotent: a venv whose marker matches its line is kept, so a second run takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"

while read -r version extras; do
  case "$version" in "" | "#"*) continue ;; esac
  venv=".cache/mlflow-$version"
  marker="$venv/.installed"
  wanted="mlflow==$version $extras"
  if [ -f "$marker" ] && [ "$(cat "$marker")" = "$wanted" ] && [ -x "$venv/bin/mlflow" ]; then
    continue
  fi
  echo "setup-mlflow: installing mlflow==$version into $venv" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
  # shellcheck disable=SC2086 # extras are separate requirements
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mlflow==$version" $extras
  # The marker is written last, so an interrupted install is redone on the next run.
  echo "$wanted" > "$marker"
done < scripts/mlflow/versions
