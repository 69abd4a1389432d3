#!/usr/bin/env bash
# docs/tutorial.md stays true: its model (the first ```yaml block) checks, simulates, plots and
# reports as the tutorial says, and its Python lines run when the module is built.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$out"
awk '/^```yaml$/ {on = 1; next} on && /^```$/ {exit} on' "$root/docs/tutorial.md" > pendulum2.yaml
[ -s pendulum2.yaml ] || { echo "no yaml block in docs/tutorial.md"; exit 1; }
"$articula" check pendulum2.yaml | grep -q 'pendulum2.yaml: ok (2 bodies, 2 tree degrees of freedom, 0 constraint equations)'
"$articula" info pendulum2.yaml > /dev/null
"$articula" simulate pendulum2.yaml --t-end 10 --out run1 --quiet
drift=$(sed -n 's/.*"max_relative_energy_drift": \([0-9.e+-]*\).*/\1/p' run1/summary.json)
awk -v d="$drift" 'BEGIN { exit !(d < 1e-5) }' || { echo "energy drift $drift, the tutorial promises a few 1e-6"; exit 1; }
"$articula" simulate pendulum2.yaml --t-end 10 --integrator rk4 --dt 1e-3 --out run2 --quiet
"$articula" plot run1 --y energy -o energy.svg
"$articula" plot run1 --y tip.y --x tip.x --title "tip path" -o path.svg
"$articula" report run1 -o report.html
# Step 6: the second yaml block is the optimal control problem; the optimum holds the tip.
awk '/^```yaml$/ {n++; if (n == 2) {on = 1; next}} on && /^```$/ {exit} on' "$root/docs/tutorial.md" > hold.yaml
"$articula" gradient hold.yaml > /dev/null
"$articula" optimize hold.yaml --out opt --quiet
cost=$(sed -n 's/.*"cost": \([0-9.e+-]*\).*/\1/p' opt/optimization.json)
awk -v J="$cost" 'BEGIN { exit !(J < 0.006) }' || { echo "the tutorial's optimum has J = $cost, it promises 0.0056"; exit 1; }
"$articula" plot opt --y tip.x,tip.y -o tip.svg
module=$(dirname "$articula")/../python
if [ -d "$module" ] && ls "$module"/articula*.so > /dev/null 2>&1; then
  awk '/^```python$/ {on = 1; next} on && /^```$/ {exit} on' "$root/docs/tutorial.md" > tutorial.py
  PYTHONPATH="$module" /usr/bin/python3 tutorial.py
fi
echo "tutorial ok"
