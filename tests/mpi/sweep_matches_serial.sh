#!/usr/bin/env bash
# A sweep of 40 cases on 2 MPI ranks gives, case by case, the results.csv of the same sweep run
# in one process, byte for byte, and the same summary.csv but for the CPU times; both ranks run
# cases; and a case equals `articula simulate` of the model edited to the case's values.
set -euo pipefail
articula=$1; root=$2
mpirun=$root/tests/mpi/mpirun.sh
bash "$mpirun" --available >/dev/null || exit 77
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
model=$root/models/double_pendulum.yaml
# 5 masses x 4 initial angles x 2 end times = 40 cases
args=(--grid mass:upper=0.5:2.5:5 --grid q0:shoulder=-1.2:0.3:4 --grid t_end=0.2,0.35 --integrator rk45)

"$articula" sweep "$model" "${args[@]}" --out "$out/serial" --quiet
bash "$mpirun" 2 "$articula" sweep "$model" "${args[@]}" --out "$out/mpi" > "$out/mpi.log"
grep -q "40 cases of double_pendulum on 2 MPI ranks" "$out/mpi.log" || { cat "$out/mpi.log"; echo "not on 2 ranks"; exit 1; }
for r in 0 1; do grep -q "(rank $r)" "$out/mpi.log" || { echo "rank $r ran no case"; exit 1; }; done

n=0
for dir in "$out/serial/cases"/*/; do
  id=$(basename "$dir")
  cmp "$dir/results.csv" "$out/mpi/cases/$id/results.csv"
  n=$((n + 1))
done
[ "$n" -eq 40 ] || { echo "$n cases, expected 40"; exit 1; }
source "$root/tests/cli/lib/sweep_compare.sh"
diff <(without_cpu "$out/serial/summary.csv") <(without_cpu "$out/mpi/summary.csv")
[ "$(grep -c ',ok,' "$out/mpi/summary.csv")" -eq 40 ] || { cat "$out/mpi/summary.csv"; exit 1; }

# The case with the model's own mass (1 kg): the model file with its initial angle, simulated alone.
read -r id q t_end < <(awk -F, '$2 == 1 && $4 == 0.35 { print $1, $3, $4; exit }' "$out/mpi/summary.csv")
sed "s/q: -1.0707963267948966/q: $q/" "$model" > "$out/edited.yaml"
grep -q "q: $q}" "$out/edited.yaml"
"$articula" simulate "$out/edited.yaml" --integrator rk45 --t-end "$t_end" --no-html --quiet --out "$out/alone"
cmp "$out/alone/results.csv" "$out/mpi/cases/$id/results.csv"
echo "40 cases on 2 ranks equal the serial sweep; case $id equals articula simulate"
