#!/usr/bin/env bash
# Every malformed problem file: `articula gradient` exits 2 with one line naming the file.
set -euo pipefail
articula=$1; root=$2
# shellcheck source=lib/located_errors.sh
source "$(dirname "$0")/lib/located_errors.sh"
expect_located_errors gradient "$root"/tests/problems/bad/*.yaml
echo "all malformed problems rejected"
