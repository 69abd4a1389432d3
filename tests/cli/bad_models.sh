#!/usr/bin/env bash
# Every malformed model: `articula check` exits 2 with one line naming the file and line.
set -euo pipefail
articula=$1; root=$2
for f in "$root"/tests/models/bad/*.yaml; do
  set +e
  msg=$("$articula" check "$f" 2>&1 >/dev/null)
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { echo "$f: exit code $rc, expected 2"; exit 1; }
  grep -q "$f" <<< "$msg" || { echo "$f: message does not name the file: $msg"; exit 1; }
  [ "$(echo "$msg" | wc -l)" -eq 1 ] || { echo "$f: expected one line: $msg"; exit 1; }
done
echo "all malformed models rejected"
