#!/usr/bin/env bash
# Sweeps on 2 MPI ranks that stop half-way are completed by running the same command again:
#  1. --max-cases 15 stops after 15 of 40 cases; the second run does the other 25;
#  2. one rank killed with SIGKILL (mpirun then ends the job) after some cases; the second run
#     removes the half-written case and completes;
# each time every results.csv, and summary.csv but for the CPU times, equal an uninterrupted
# run. A directory made from other cases or another model is refused, untouched.
set -euo pipefail
articula=$1; root=$2
mpirun=$root/tests/mpi/mpirun.sh
bash "$mpirun" --available >/dev/null || exit 77
out=$(mktemp -d)
pid=0
trap 'kill -9 $pid 2>/dev/null || true; rm -rf "$out"' EXIT
model=$root/models/double_pendulum.yaml
source "$root/tests/cli/lib/sweep_compare.sh"

# 1. Stopped by --max-cases.
args=(--grid mass:upper=0.5:2.5:5 --grid q0:shoulder=-1.2:0.3:8 --t-end 0.3 --quiet)
"$articula" sweep "$model" "${args[@]}" --out "$out/whole"
bash "$mpirun" 2 "$articula" sweep "$model" "${args[@]}" --out "$out/cut" --max-cases 15
[ "$(ls "$out/cut/cases" | wc -l)" -eq 15 ] || { ls "$out/cut/cases"; exit 1; }
[ "$(wc -l < "$out/cut/summary.csv")" -eq 16 ] || { cat "$out/cut/summary.csv"; exit 1; }
bash "$mpirun" 2 "$articula" sweep "$model" "${args[@]}" --out "$out/cut"
same_sweep "$out/whole" "$out/cut" 40

# Refused: other cases, another model, other options; the directory is left as it was.
cp "$out/cut/summary.csv" "$out/summary.before"
expect_refusal() {  # expect_refusal MESSAGE ARGS...
  local message=$1 rc=0; shift
  "$articula" sweep "$@" --out "$out/cut" 2> "$out/err" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "$message" "$out/err" || { echo "rc=$rc"; cat "$out/err"; exit 1; }
}
expect_refusal "made from other cases" "$model" --grid mass:upper=0.5:2.5:4 --grid q0:shoulder=-1.2:0.3:8 --t-end 0.3
expect_refusal "made from another model file" "$root/models/pendulum.yaml" --grid q0:pivot=-1.2:0.3:8 --t-end 0.3
expect_refusal "made from other simulation options" "$model" "${args[@]}" --rtol 1e-9
# Under mpirun too: every rank meets the error, rank 0 says it once (before mpirun ends the job).
rc=0
bash "$mpirun" 2 "$articula" sweep "$model" --grid mass:upper=0.5:2.5:4 --grid q0:shoulder=-1.2:0.3:8 --t-end 0.3 \
  --out "$out/cut" 2> "$out/err" || rc=$?
[ "$rc" -ne 0 ] && [ "$(grep -c "made from other cases" "$out/err")" -eq 1 ] || { echo "rc=$rc"; cat "$out/err"; exit 1; }
cmp "$out/summary.before" "$out/cut/summary.csv"

# 2. A rank lost: cases of about 0.1 s each, one rank killed once 4 cases are done.
args=(--grid q0:shoulder=-1.2:0.3:12 --integrator rk4 --dt 2e-5 --t-end 1 --quiet)
"$articula" sweep "$model" "${args[@]}" --out "$out/whole2"
bash "$mpirun" 2 "$articula" sweep "$model" "${args[@]}" --out "$out/lost" &
pid=$!
for _ in $(seq 1 600); do [ "$(ls "$out/lost/cases" 2>/dev/null | grep -vc partial)" -ge 4 ] && break; sleep 0.02; done
rank=$(pgrep -P "$pid" -f "articula sweep" | head -1)
[ -n "$rank" ] || { echo "no rank process found"; exit 1; }
kill -9 "$rank"
wait "$pid" 2>/dev/null || true
done_before=$(ls "$out/lost/cases" | grep -vc partial)
[ ! -f "$out/lost/summary.csv" ] && [ "$done_before" -lt 12 ] || { echo "the sweep finished before the rank was lost: nothing was tested"; exit 1; }
bash "$mpirun" 2 "$articula" sweep "$model" "${args[@]}" --out "$out/lost"
same_sweep "$out/whole2" "$out/lost" 12
echo "resumed after 15 of 40 cases (--max-cases) and after a lost rank ($done_before of 12 done): identical results"
