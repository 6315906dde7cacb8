#!/usr/bin/env bash
# Installs the MLflow releases the integration tests run against (scripts/mlflow/versions: a version and any
# extra pip requirements per line) into project-local virtual environments, .cache/mlflow-<version>/.
# Idempotent: a venv whose marker matches its line is kept, so a second run takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."
SETUP_NAME=setup-mlflow
source scripts/lib/steps.sh
source scripts/lib/pinned-venv.sh
python="${PYTHON:-python3}"

command -v "$python" >/dev/null || fail "find Python" "'$python' is not on PATH" "install Python 3 with venv (apt-get install python3 python3-venv) or set PYTHON to a Python 3.10+"

# One release: kept when its marker matches its line, else (re)installed (scripts/lib/pinned-venv.sh).
install_release() {
  local version="$1" extras="$2"
  # shellcheck disable=SC2086 # extras are separate requirements
  pinned_venv ".cache/mlflow-$version" "mlflow==$version $extras" "mlflow $version" 1000 "mlflow==$version" $extras
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
