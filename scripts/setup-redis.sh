#!/usr/bin/env bash
# Installs Debian's redis-server for the shared-cache and job-queue tests (test/int/redis): each test starts its
# own server on a free loopback port with a temporary directory and no persistence, and stops it afterwards.
# Looked for in this order (test/support/redis-server.ts reads the same): $REDIS_SERVER_PATH, then PATH.
# Idempotent: once one is found, a run takes milliseconds.
set -euo pipefail
SETUP_NAME=setup-redis
source "$(dirname "$0")/lib/steps.sh"

if [ -n "${REDIS_SERVER_PATH:-}" ]; then
  [ -x "$REDIS_SERVER_PATH" ] || fail "find redis-server" "REDIS_SERVER_PATH=$REDIS_SERVER_PATH is not an executable file" "point REDIS_SERVER_PATH at a redis-server binary, or unset it to use Debian's"
  echo "$SETUP_NAME: using $REDIS_SERVER_PATH (REDIS_SERVER_PATH)" >&2
  exit 0
fi
if found="$(command -v redis-server)"; then
  echo "$SETUP_NAME: using $found" >&2
  exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || fail "install redis-server" "not root and no sudo to run apt-get" "run npm test as root once, install Debian's redis-server package yourself, or set REDIS_SERVER_PATH to a redis-server binary"
  sudo="sudo -n"
fi
export DEBIAN_FRONTEND=noninteractive
fix="let this user run apt-get (root, or sudo without a password) and reach the Debian mirrors, or install redis-server yourself and set REDIS_SERVER_PATH"
step "refreshing the apt package lists" "$fix" $sudo apt-get update -qq
# The package's own service is not started (no systemd here, and the tests start their own servers).
step "installing Debian's redis-server package" "$fix" $sudo apt-get install -y -qq --no-install-recommends redis-server
step "checking the installed redis-server runs" "install the libraries it reports missing (apt-get install -f), or set REDIS_SERVER_PATH to a working binary" redis-server --version
