# Sourced by scripts/setup-*.sh. `step WHAT FIX COMMAND...` prints one progress line (stderr), runs the command
# with its output kept aside, and on failure prints that output's tail and one message naming the step, the
# command and the fix, then exits 1, so `npm test` stops there instead of running the tiers without their tools.
# Each script sets SETUP_NAME first.

step() {
  local what="$1" fix="$2"
  shift 2
  echo "${SETUP_NAME}: ${what}" >&2
  local log code=0
  log="$(mktemp)"
  "$@" >"$log" 2>&1 || code=$?
  if [ "$code" != 0 ]; then
    tail -n 20 "$log" | sed "s/^/${SETUP_NAME}:   | /" >&2
    rm -f "$log"
    fail "$what" "\`$*\` exited with status $code" "$fix"
  fi
  rm -f "$log"
}

# fail WHAT PROBLEM FIX: the one failure message, then exit 1.
fail() {
  echo "${SETUP_NAME}: FAILED at step \"$1\": $2. Fix: $3" >&2
  exit 1
}
