#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/int/browser), driven by playwright-core. Idempotent:
# when /usr/bin/chromium is already there this does nothing, so a second run takes milliseconds.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "setup-chromium: installing Debian's chromium package" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
/usr/bin/chromium --version >&2
