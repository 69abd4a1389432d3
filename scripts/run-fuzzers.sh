#!/usr/bin/env bash
# Runs the libFuzzer targets built by `make fuzz`: the stored corpora once each (regression),
# then SECONDS of fuzzing per target. Exits non-zero on the first crash, leak, hang or
# contract violation; the input is then in BUILD/found-TARGET/crash-* (or timeout-*, leak-*).
# Usage: scripts/run-fuzzers.sh BUILD SECONDS
set -euo pipefail
build=$(cd "$1" && pwd); seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
declare -A seeds=(
  [model_yaml]="$root/tests/fuzz/model_yaml $root/models $root/tests/models/bad"
  [model_urdf]="$root/tests/fuzz/model_urdf $root/models"
  [cli_args]="$root/tests/fuzz/cli_args"
  [problem_yaml]="$root/tests/fuzz/problem_yaml $root/problems $root/tests/problems/bad"
  [sweep_cases]="$root/tests/fuzz/sweep_cases $root/tests/sweep/bad"
)
for target in model_yaml model_urdf cli_args problem_yaml sweep_cases; do
  found="$build/found-$target"
  mkdir -p "$found"
  fuzzer="$build/bin/fuzz_$target"
  echo "== $target: corpus regression"
  # shellcheck disable=SC2086
  "$fuzzer" -runs=0 ${seeds[$target]} 2>&1 | tail -1
  echo "== $target: fuzzing for $seconds s"
  log="$build/fuzz-$target.log"
  # shellcheck disable=SC2086
  if ! "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
       -artifact_prefix="$found/" "$found" ${seeds[$target]} > "$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz target $target failed; the input is in $found/" >&2
    exit 1
  fi
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$log" || true
  tail -1 "$log"
done
