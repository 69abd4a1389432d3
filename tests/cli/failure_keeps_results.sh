#!/usr/bin/env bash
# A run that fails part-way keeps a readable CSV up to the failure, writes the error
# into summary.json and exits 1.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
set +e
"$articula" simulate "$root/tests/models/blowup.yaml" --integrator rk4 --dt 1e-3 --t-end 2 --out "$out/run" --quiet 2> "$out/err"
rc=$?
set -e
cat "$out/err"
[ "$rc" -eq 1 ] || { echo "exit code $rc, expected 1"; exit 1; }
grep -q "non-finite" "$out/err"
grep -q "joint 'pin'" "$out/err"
grep -q '"status": "error"' "$out/run/summary.json"
# Samples up to the failure are there and every line is complete.
rows=$(($(wc -l < "$out/run/results.csv") - 1))
[ "$rows" -ge 50 ] || { echo "only $rows rows kept"; exit 1; }
awk -F, 'NR==1{n=NF} NF!=n{exit 1}' "$out/run/results.csv"
last=$(tail -1 "$out/run/results.csv" | cut -d, -f1)
python3 -c "import sys; t=float('$last'); sys.exit(0 if 0.4 <= t <= 0.51 else 1)"
echo "failed run kept $rows rows up to t = $last"
