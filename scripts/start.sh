#!/usr/bin/env bash
# Runs rfckit on a fresh machine: Node 24 (into a cache when the system's is older), npm ci,
# the web build, then the server on SQLite (./data) at http://localhost:8080 (PORT to change).
# Usage: bash scripts/start.sh [--dry-run]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=setup-common.sh
source scripts/setup-common.sh
parse_flags "$@"

provision_node
install_dependencies
# npm start builds the web app, then serves it with the API
run_step npm start
