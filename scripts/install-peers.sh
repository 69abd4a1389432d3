#!/usr/bin/env bash
# Installs the peer engines measured by `make bench-peers` (Debian packages), if missing.
set -euo pipefail
exec "$(dirname "$0")/install-deps.sh" libsimbody-dev libdart-dev libmujoco-dev
