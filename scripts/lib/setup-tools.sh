#!/usr/bin/env bash
# Runs every scripts/setup-*.sh side by side: the pip installs wait on the network and on unpacking, not on each
# other. The scripts that call apt-get run one after another in their own lane, since dpkg allows one at a time.
# Exits 1 when any setup failed, after all have ended; each failed script has printed its own step and fix.
set -euo pipefail
cd "$(dirname "$0")/../.."
apt_lane=()
pids=()
names=()
for setup in scripts/setup-*.sh; do
  [ -e "$setup" ] || continue
  if grep -q "apt-get install" "$setup"; then
    apt_lane+=("$setup")
  else
    bash "$setup" &
    pids+=($!)
    names+=("$setup")
  fi
done
if [ ${#apt_lane[@]} -gt 0 ]; then
  (for setup in "${apt_lane[@]}"; do bash "$setup"; done) &
  pids+=($!)
  names+=("${apt_lane[*]}")
fi
failed=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "setup: ${names[$i]} failed (its message is above)" >&2; failed=1; }
done
exit "$failed"
