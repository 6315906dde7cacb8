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

# One release: kept when its marker matches its line, else (re)installed. The marker is written last, so an
# interrupted install is redone on the next run.
install_release() {
  local version="$1" extras="$2"
  local venv=".cache/mlflow-$version"
  local marker="$venv/.installed"
  local wanted="mlflow==$version $extras"
  if [ -f "$marker" ] && [ "$(cat "$marker")" = "$wanted" ] && [ -x "$venv/bin/mlflow" ]; then
    echo "$SETUP_NAME: mlflow $version ready ($venv)" >&2
    return
  fi
  rm -rf "$venv"
  step "mlflow $version: creating the environment $venv" "install python3-venv (apt-get install python3-venv) or set PYTHON to a Python with venv" "$python" -m venv "$venv"
  step "mlflow $version: upgrading pip" "$pypi" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
  # shellcheck disable=SC2086 # extras are separate requirements
  step "mlflow $version: installing $wanted (a few minutes the first time)" "$pypi" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mlflow==$version" $extras
  echo "$wanted" > "$marker"
}

# The releases install side by side: each waits mostly on downloads and unpacking.
pids=()
while read -r version extras; do
  case "$version" in "" | "#"*) continue ;; esac
  install_release "$version" "$extras" &
  pids+=($!)
done < scripts/mlflow/versions
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
