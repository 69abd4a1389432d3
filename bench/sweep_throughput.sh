#!/usr/bin/env bash
# Throughput of `articula sweep` on 1 and 2 MPI ranks (docs/benchmarks.md, "Ensembles"): a
# 256-case grid (16 masses x 16 release angles) of the double pendulum, RK4 with dt = 1e-4 s
# over 5 s (50 000 steps and 500 samples per case), timed as whole commands (MPI start-up,
# writing 256 results.csv and summary.csv included), REPEAT times each, alternating; prints
# every time with the load average before it and the CPU seconds of the cases (summary.csv),
# the medians and the ratio. Usage: bench/sweep_throughput.sh ARTICULA [REPEAT]
set -euo pipefail
articula=$(realpath "$1"); repeat=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=("$root/models/double_pendulum.yaml" --grid mass:upper=0.5:2:16 --grid q0:shoulder=-1.5:0:16
      --integrator rk4 --dt 1e-4 --t-end 5 --quiet)
run() {  # run NP: one whole sweep on NP ranks; sets wall and cpu (seconds)
  rm -rf "$out/s"
  local start end
  start=$(date +%s.%N)
  bash "$root/tests/mpi/mpirun.sh" "$1" "$articula" sweep "${args[@]}" --out "$out/s"
  end=$(date +%s.%N)
  [ "$(grep -c ',ok,' "$out/s/summary.csv")" -eq 256 ] || { echo "not every case ran" >&2; exit 1; }
  cpu=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_seconds") c = i } NR > 1 { s += $c } END { printf "%.2f", s }' "$out/s/summary.csv")
  wall=$(echo "$end - $start" | bc -l)
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
one=(); two=()
load() { cut -d' ' -f1 /proc/loadavg; }
for _ in $(seq 1 "$repeat"); do
  l1=$(load); run 1; one+=("$wall"); c1=$cpu
  l2=$(load); run 2; two+=("$wall"); c2=$cpu
  printf '1 rank %.2f s (load %s, cases %s s CPU), 2 ranks %.2f s (load %s, cases %s s CPU)\n' "${one[-1]}" "$l1" "$c1" "${two[-1]}" "$l2" "$c2"
done
m1=$(printf '%s\n' "${one[@]}" | median); m2=$(printf '%s\n' "${two[@]}" | median)
printf 'median: 1 rank %.2f s (%.1f cases/s), 2 ranks %.2f s (%.1f cases/s), throughput ratio %.2f\n' \
  "$m1" "$(echo "256 / $m1" | bc -l)" "$m2" "$(echo "256 / $m2" | bc -l)" "$(echo "$m1 / $m2" | bc -l)"
