#!/usr/bin/env bash
# The one test command (npm test): prepares the tools the integration tiers need, idempotently and cached
# under .cache/, then runs every tier with vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
for setup in scripts/setup-*.sh; do
  [ -e "$setup" ] || continue
  bash "$setup"
done
exec npx vitest run "$@"
