#!/usr/bin/env bash
# Installs schemathesis (the API fuzzer the integration tier runs against /openapi.json) and openapi-spec-validator
# (the validator schemathesis itself builds on) into a project-local virtual environment, .cache/venv-schemathesis.
# Idempotent (scripts/lib/pinned-venv.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
SETUP_NAME=setup-schemathesis
source scripts/lib/steps.sh
source scripts/lib/pinned-venv.sh

pins=(schemathesis==4.32.5 openapi-spec-validator==0.9.0)
pinned_venv .cache/venv-schemathesis "${pins[*]}" "${pins[*]}" 200 "${pins[@]}"
