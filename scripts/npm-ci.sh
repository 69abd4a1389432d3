#!/usr/bin/env bash
# Installs the npm packages pinned in DIR/package-lock.json into DIR/node_modules with `npm ci`,
# only when the lock file changed since the last install (a stamp in node_modules says which).
# One install at a time per folder: builds (Release, ASan, fuzz) and tests may run side by side.
# Usage: scripts/npm-ci.sh DIR
set -euo pipefail
dir=$(cd "$1" && pwd)
fail() { echo "npm-ci: $*" >&2; exit 1; }
command -v npm >/dev/null || fail "npm is not installed: install Node.js 18 or newer with npm (Debian: apt-get install nodejs npm; scripts/install-deps.sh does it)"

exec 9<"$dir"
flock 9
stamp=$dir/node_modules/.articula-lock-sha256
want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && exit 0
echo "npm-ci: installing the packages of $dir/package-lock.json from the npm registry"
(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
  fail "npm ci failed in $dir: its packages come from the npm registry ($(npm config get registry)); check the network or the npm configuration, then build again"
echo "$want" > "$stamp"
