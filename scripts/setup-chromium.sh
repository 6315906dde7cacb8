#!/usr/bin/env bash
# Finds Chromium for the browser tests (test/int/browser, driven by playwright-core), or installs Debian's package.
# Looked for in this order (test/support/chromium.ts reads the same list): $CHROMIUM_PATH, then where Debian and
# Ubuntu install it. Idempotent: once one is found, a run takes milliseconds.
set -euo pipefail
SETUP_NAME=setup-chromium
source "$(dirname "$0")/lib/steps.sh"

if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] || fail "find Chromium" "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file" "point CHROMIUM_PATH at a Chromium or Chrome binary, or unset it to use Debian's"
  echo "$SETUP_NAME: using $CHROMIUM_PATH (CHROMIUM_PATH)" >&2
  exit 0
fi
for candidate in /usr/bin/chromium /usr/bin/chromium-browser /usr/lib/chromium/chromium; do
  if [ -x "$candidate" ]; then
    echo "$SETUP_NAME: using $candidate" >&2
    exit 0
  fi
done

sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || fail "install Chromium" "not root and no sudo to run apt-get" "run npm test as root once, install Debian's chromium package yourself, or set CHROMIUM_PATH to a Chromium binary"
  sudo="sudo -n"
fi
export DEBIAN_FRONTEND=noninteractive
fix="let this user run apt-get (root, or sudo without a password) and reach the Debian mirrors, or install Chromium yourself and set CHROMIUM_PATH"
step "refreshing the apt package lists" "$fix" $sudo apt-get update -qq
step "installing Debian's chromium package (about 300 MB)" "$fix" $sudo apt-get install -y -qq --no-install-recommends chromium
step "checking the installed Chromium runs" "install the libraries it reports missing (apt-get install -f), or set CHROMIUM_PATH to a working binary" /usr/bin/chromium --headless --no-sandbox --version
