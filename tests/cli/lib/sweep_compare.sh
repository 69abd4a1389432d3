#!/usr/bin/env bash
# Sourced by the sweep tests (tests/cli/sweep_*.sh, tests/mpi/sweep_*.sh).
# without_cpu SUMMARY: summary.csv with its cpu_seconds column emptied (the one column that
# differs between two runs of the same sweep).
without_cpu() { awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_seconds") c = i } { $c = ""; print }' "$1"; }
# same_sweep DIR_A DIR_B CASES: both sweeps have CASES finished cases with byte-identical
# results.csv files, no half-written case is left in DIR_B, and the summaries agree but for CPU times.
same_sweep() {
  local n=0 dir
  for dir in "$1/cases"/*/; do cmp "$dir/results.csv" "$2/cases/$(basename "$dir")/results.csv" || return 1; n=$((n + 1)); done
  [ "$n" -eq "$3" ] || { echo "$n cases in $1, expected $3"; return 1; }
  [ -z "$(find "$2/cases" -name '*.partial')" ] || { echo "half-written cases left in $2"; return 1; }
  diff <(without_cpu "$1/summary.csv") <(without_cpu "$2/summary.csv")
}
