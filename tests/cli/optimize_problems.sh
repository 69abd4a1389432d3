#!/usr/bin/env bash
# articula gradient and optimize on the five-bar design problem (malformed problem files:
# bad_problems.sh).
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The three gradients agree (the command prints the relative differences to the adjoint).
text=$("$articula" gradient "$root/problems/five_bar_design.yaml")
grep -q "^adjoint .*-4.2288" <<< "$text" || { echo "no adjoint gradient: $text"; exit 1; }
diffs=$(grep -o "relative difference [0-9.e+-]*" <<< "$text" | awk '{print $3}')
[ "$(wc -l <<< "$diffs")" -eq 2 ] || { echo "expected two differences: $text"; exit 1; }
for d in $diffs; do
  awk -v d="$d" 'BEGIN { exit !(d < 1e-6) }' || { echo "gradients differ by $d: $text"; exit 1; }
done

# The same problem in the thesis's absolute coordinates (formulation: absolute): its own adjoint
# gives the same gradient to the digits printed.
sed -e 's|formulation: reference|formulation: absolute|' -e "s|model: ../models/|model: $root/models/|" \
  "$root/problems/five_bar_design.yaml" > "$out/absolute.yaml"
text=$("$articula" gradient "$out/absolute.yaml" --method adjoint)
grep -q "^adjoint .*-4.228810863  3.211604026" <<< "$text" || { echo "absolute-coordinate adjoint: $text"; exit 1; }
grep -q "absolute-coordinate Hamiltonian adjoint" <<< "$text" || { echo "not the absolute adjoint: $text"; exit 1; }

# The optimisation converges to the static equilibrium and writes every output. (Finite-difference
# gradients: 5 runs each instead of the adjoint's 17 on this 2-parameter problem, which keeps the
# test short; optimize_tests optimises with the adjoint.)
"$articula" optimize "$root/problems/five_bar_design.yaml" --out "$out/opt" --quiet --gradient fd
for f in parameters.csv controls.csv history.csv optimization.json optimum.yaml results.csv summary.json animation.html; do
  [ -s "$out/opt/$f" ] || { echo "optimize did not write $f"; exit 1; }
done
grep -q '"converged": true' "$out/opt/optimization.json" || { echo "not converged"; cat "$out/opt/optimization.json"; exit 1; }
b1=$(awk -F, '$1 == "spring1.rest_length" { print $2 }' "$out/opt/parameters.csv")
awk -v b="$b1" 'BEGIN { exit !(b > 2.4319235 && b < 2.4319237) }' || { echo "spring1 optimum $b1"; exit 1; }
# The optimum model is an ordinary model, and a warm start begins where the last run ended.
"$articula" check "$out/opt/optimum.yaml" > /dev/null
"$articula" optimize "$root/problems/five_bar_design.yaml" --out "$out/warm" --start "$out/opt/parameters.csv" --quiet \
  --gradient fd --max-evaluations 5 || true  # from the optimum it may not meet the tolerances in 5
first=$(awk -F, 'NR == 2 { print $2 }' "$out/warm/history.csv")
awk -v J="$first" 'BEGIN { exit !(J < 1e-20) }' || { echo "the warm start did not begin at the optimum: J = $first"; exit 1; }

echo "gradient and optimize ok"
