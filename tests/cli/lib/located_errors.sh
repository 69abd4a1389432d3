#!/usr/bin/env bash
# Sourced by the CLI tests (tests/cli/*.sh; this folder is not globbed as tests). Needs $articula.
# expect_located_errors COMMAND FILE...: `articula COMMAND FILE` exits 2 with one line that names
# the file, for every file.
expect_located_errors() {
  local command=$1; shift
  local f msg rc
  for f in "$@"; do
    set +e
    msg=$("$articula" "$command" "$f" 2>&1 >/dev/null)
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || { echo "$f: exit code $rc, expected 2"; return 1; }
    grep -q "$f" <<< "$msg" || { echo "$f: message does not name the file: $msg"; return 1; }
    [ "$(echo "$msg" | wc -l)" -eq 1 ] || { echo "$f: expected one line: $msg"; return 1; }
  done
}
