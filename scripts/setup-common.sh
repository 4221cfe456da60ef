# Shared steps of scripts/start.sh and scripts/test.sh; sourced, not run.
# Expects: the repository root as the working directory, and `dry_run` set to 0 or 1.

# Node 24 on PATH, installed into a cache when the system's node is older (scripts/node24.sh).
provision_node() {
  eval "$(bash scripts/node24.sh)"
  echo "node $(node --version), npm $(npm --version)"
}

# Runs a step, or in a dry run only says it would.
run_step() {
  if [ "$dry_run" = 1 ]; then
    echo "would run: $*"
  else
    echo "running: $*"
    "$@"
  fi
}

# npm ci on a fresh clone, or when package-lock.json changed since the last install.
install_dependencies() {
  if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "dependencies are installed and match package-lock.json"
  else
    run_step npm ci --no-audit --no-fund
  fi
}

# Parses the flags both scripts take.
parse_flags() {
  dry_run=0
  for flag in "$@"; do
    case "$flag" in
      --dry-run) dry_run=1 ;;
      -h | --help)
        echo "usage: bash $0 [--dry-run]   (--dry-run: provision Node 24, then only print the remaining steps)"
        exit 0
        ;;
      *)
        echo "$0: unknown option '$flag' (try --help)" >&2
        exit 2
        ;;
    esac
  done
}
