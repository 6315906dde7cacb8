#!/usr/bin/env bash
# Installs schemathesis (the API fuzzer the integration tier runs against /openapi.json) and openapi-spec-validator
# (the validator schemathesis itself builds on) into a project-local virtual environment, .cache/venv-schemathesis.
# Idempotent: a venv whose marker matches the pinned requirements is kept, so a second run takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."
SETUP_NAME=setup-schemathesis
source scripts/lib/steps.sh
python="${PYTHON:-python3}"

venv=".cache/venv-schemathesis"
marker="$venv/.installed"
wanted="schemathesis==4.32.5 openapi-spec-validator==0.9.0"
if [ -f "$marker" ] && [ "$(cat "$marker")" = "$wanted" ] && [ -x "$venv/bin/st" ]; then
  echo "$SETUP_NAME: schemathesis ready ($venv)" >&2
  exit 0
fi
command -v "$python" >/dev/null || fail "find Python" "'$python' is not on PATH" "install Python 3 with venv (apt-get install python3 python3-venv) or set PYTHON to a Python 3.10+"
pypi="check that PyPI is reachable (HTTPS_PROXY, PIP_INDEX_URL) and that the disk holding .cache/ has 200 MB free"
rm -rf "$venv"
step "creating the environment $venv" "install python3-venv (apt-get install python3-venv) or set PYTHON to a Python with venv" "$python" -m venv "$venv"
# shellcheck disable=SC2086 # the pins are separate requirements
step "installing $wanted (under a minute the first time)" "$pypi" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $wanted
# The marker is written last, so an interrupted install is redone on the next run.
echo "$wanted" > "$marker"
