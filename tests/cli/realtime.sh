#!/usr/bin/env bash
# `simulate --realtime`: a paced run writes the same results and animation as an unpaced one,
# takes at least the simulated time over the speed, and reports its step timing in the summary
# and the report; real time with restart files, and a speed that is not positive, are refused.
set -euo pipefail
articula=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(--integrator rk4 --dt 1e-3 --t-end 0.5)

"$articula" simulate "$src/models/four_bar.yaml" "${args[@]}" --out "$out/plain" --quiet
start=$(date +%s.%N)
"$articula" simulate "$src/models/four_bar.yaml" "${args[@]}" --out "$out/paced" --realtime-speed 5 > "$out/report"
end=$(date +%s.%N)
cmp "$out/plain/results.csv" "$out/paced/results.csv"
cmp "$out/plain/animation.html" "$out/paced/animation.html"
# 0.5 s of motion at 5x real time: at least 0.1 s of wall time.
awk -v a="$start" -v b="$end" 'BEGIN { exit !(b - a >= 0.1) }' || { echo "the paced run took $start..$end"; exit 1; }
grep -q '"realtime": {"speed": 5, "steps": 500, "worst_step_s": ' "$out/paced/summary.json" ||
  { grep realtime "$out/paced/summary.json"; echo "no step timing in the summary"; exit 1; }
grep -q '"realtime": null' "$out/plain/summary.json"
grep -q "real time x5: step time worst .* us, mean .* us; [0-9]* of 500 steps missed their deadline" "$out/report" ||
  { cat "$out/report"; exit 1; }

set +e
"$articula" simulate "$src/models/four_bar.yaml" "${args[@]}" --out "$out/refused" --realtime --checkpoint 1 2> "$out/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "real-time run writes no restart files" "$out/err" || { cat "$out/err"; echo "rc=$rc"; exit 1; }
[ ! -e "$out/refused/results.csv" ] || { echo "a refused run wrote results"; exit 1; }
set +e
"$articula" simulate "$src/models/four_bar.yaml" --realtime-speed 0 --out "$out/zero" 2> "$out/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q -- "--realtime-speed" "$out/err" || { cat "$out/err"; echo "rc=$rc"; exit 1; }
echo ok
