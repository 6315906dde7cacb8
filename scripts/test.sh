#!/usr/bin/env bash
# The one test command (npm test): prepares the tools the integration tiers need, idempotently and cached
# under .cache/ (scripts/setup-*.sh, side by side), then runs every tier with vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/lib/setup-tools.sh
exec npx vitest run "$@"
