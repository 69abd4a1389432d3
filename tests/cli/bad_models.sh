#!/usr/bin/env bash
# Every malformed model: `articula check` exits 2 with one line naming the file and line.
set -euo pipefail
articula=$1; root=$2
# shellcheck source=lib/located_errors.sh
source "$(dirname "$0")/lib/located_errors.sh"
expect_located_errors check "$root"/tests/models/bad/*.yaml
echo "all malformed models rejected"
