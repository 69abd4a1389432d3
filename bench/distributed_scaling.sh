#!/usr/bin/env bash
# Strong scaling of the distributed formulation over MPI ranks (docs/distributed.md, "Measured
# across ranks"; docs/benchmarks.md): the 1024-body spatial chain in SUBSYSTEMS subsystems (default
# 8), RK4 with dt = 1e-3 s over T_END seconds (default 0.5: 500 steps, 2000 evaluations), timed as
# whole `articula simulate` commands (MPI start-up, loading, the results.csv of rank 0 at 0.05 s
# included) on 1 and 2 ranks, REPEAT times each (default 5), alternating; prints every time with
# the load average before it, the medians and the ratio, and checks that both runs wrote the same
# results.csv. Usage: bench/distributed_scaling.sh ARTICULA [REPEAT [SUBSYSTEMS [T_END]]]
set -euo pipefail
articula=$(realpath "$1"); repeat=${2:-5}; subsystems=${3:-8}; t_end=${4:-0.5}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$articula" generate chain --n 1024 --spatial -o "$out/chain.yaml"
args=("$out/chain.yaml" --formulation distributed --subsystems "$subsystems" --integrator rk4 --dt 1e-3
      --t-end "$t_end" --output-dt 0.05 --no-html)
run() {  # run NP: one whole simulation on NP ranks into $out/NP; sets wall (seconds)
  local start end
  start=$(date +%s.%N)
  bash "$root/tests/mpi/mpirun.sh" "$1" "$articula" simulate "${args[@]}" --out "$out/$1" > "$out/log$1"
  end=$(date +%s.%N)
  wall=$(echo "$end - $start" | bc -l)
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
load() { cut -d' ' -f1 /proc/loadavg; }
one=(); two=()
for _ in $(seq 1 "$repeat"); do
  l1=$(load); run 1; one+=("$wall")
  l2=$(load); run 2; two+=("$wall")
  printf '1 rank %.3f s (load %s), 2 ranks %.3f s (load %s)\n' "${one[-1]}" "$l1" "${two[-1]}" "$l2"
done
cmp "$out/1/results.csv" "$out/2/results.csv" || { echo "1 and 2 ranks wrote different results" >&2; exit 1; }
grep "MPI ranks per evaluation" "$out/log2" || true
m1=$(printf '%s\n' "${one[@]}" | median); m2=$(printf '%s\n' "${two[@]}" | median)
printf 'median: 1 rank %.3f s, 2 ranks %.3f s, speed-up %.2f (%d subsystems, t_end %s s)\n' \
  "$m1" "$m2" "$(echo "$m1 / $m2" | bc -l)" "$subsystems" "$t_end"
