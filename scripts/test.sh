#!/usr/bin/env bash
# Passes the tests on a fresh machine: Node 24 (into a cache when the system's is older), npm ci,
# Debian's Chromium for the browser journeys when it is missing and this machine may install it
# (root or passwordless sudo), then npm test. CI (.ci/run) calls exactly this.
# Usage: bash scripts/test.sh [--dry-run]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=setup-common.sh
source scripts/setup-common.sh
parse_flags "$@"

provision_node
install_dependencies

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  echo "Chromium: $chromium"
elif [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file; point it at a Chromium binary." >&2
  exit 1
else
  if [ "$(id -u)" -eq 0 ]; then
    as_root() { "$@"; }
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root() { sudo -n "$@"; }
  else
    cat >&2 <<'MESSAGE'
The browser journeys need Chromium, which is not installed, and this script may not install it
(it is not root and sudo asks for a password). Install Debian's Chromium, then run this again:

    sudo apt-get install -y chromium

or set CHROMIUM_PATH to a Chromium binary you have.
MESSAGE
    exit 1
  fi
  run_step as_root apt-get update -qq
  run_step as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

run_step npm test
