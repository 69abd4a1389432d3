#!/usr/bin/env bash
# A sweep in one process interrupted by Ctrl-C (SIGINT) after a few cases, then by SIGKILL, each
# time started again with the same arguments: it completes, skipping the finished cases, with the
# results.csv files and summary.csv (but for CPU times) of a sweep that never stopped.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
pid=0
trap 'kill -9 $pid 2>/dev/null || true; rm -rf "$out"' EXIT
source "$root/tests/cli/lib/sweep_compare.sh"
model=$root/models/double_pendulum.yaml
# 12 cases of about 0.1 s each
args=(--grid q0:shoulder=-1.2:0.3:12 --integrator rk4 --dt 2e-5 --t-end 1)
"$articula" sweep "$model" "${args[@]}" --out "$out/whole" --quiet
finished() { ls "$out/cut/cases" 2>/dev/null | grep -vc partial || true; }
# Job control: without it bash starts background commands with SIGINT ignored.
set -m
for signal in INT KILL; do
  before=$(finished)
  "$articula" sweep "$model" "${args[@]}" --out "$out/cut" --quiet &
  pid=$!
  for _ in $(seq 1 500); do [ "$(finished)" -ge $((before + 3)) ] && break; sleep 0.02; done
  kill -s "$signal" "$pid"
  wait "$pid" 2>/dev/null || true
  [ "$(finished)" -lt 12 ] || { echo "the sweep finished before SIG$signal: nothing was tested"; exit 1; }
done
stopped=$(finished)
"$articula" sweep "$model" "${args[@]}" --out "$out/cut" > "$out/log"
grep -q "12 of 12 cases finished ($((12 - stopped)) in this run)" "$out/log" || { cat "$out/log"; exit 1; }
same_sweep "$out/whole" "$out/cut" 12
echo "stopped by SIGINT and SIGKILL with $stopped of 12 cases done; completed identically"
