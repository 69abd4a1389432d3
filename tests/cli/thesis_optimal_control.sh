#!/usr/bin/env bash
# The optimal control examples of seed 002 section 5.4 end to end through articula optimize:
# the swing-up with gamma = 0 (eq. (5.4)), then gamma = 1 warm-started from its parameters.csv as
# the thesis did, and the stabilisation of the cart (eq. (5.5)) on the full 601-knot grid.
# About 30 s in Release on two cores (the stabilisation takes most of it).
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
json() { sed -n "s/^ *\"$2\": \(.*\),\?$/\1/p" "$1/optimization.json" | tr -d ','; }
last() { tail -1 "$1/results.csv"; }
col() { head -1 "$1/results.csv" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

"$articula" optimize "$root/problems/cart_double_pendulum_swing_up.yaml" --out "$out/swing0" --quiet
grep -q '"converged": true' "$out/swing0/optimization.json"
# J < 1e-10: both terminal angles within 1.4e-5 rad of upright
below "$(json "$out/swing0" cost)" 1e-10 || { echo "gamma = 0 swing-up: J = $(json "$out/swing0" cost)"; exit 1; }

"$articula" optimize "$root/problems/cart_double_pendulum_swing_up_rest.yaml" --start "$out/swing0/parameters.csv" \
  --out "$out/swing1" --quiet
grep -q '"converged": true' "$out/swing1/optimization.json"
# The warm start begins where gamma = 0 ended: its first J is that optimum's J plus the rates'
# 1/2 (alpha2dot^2 + alpha3dot^2) at tf, read from the gamma = 0 run's results.csv (a cold start
# would begin at 1/2 pi^2 = 4.93).
first=$(sed -n 2p "$out/swing1/history.csv" | cut -d, -f2)
row=$(last "$out/swing0")
sv=$(echo "$row" | cut -d, -f"$(col "$out/swing0" shoulder.v)"); ev=$(echo "$row" | cut -d, -f"$(col "$out/swing0" elbow.v)")
awk -v f="$first" -v j="$(json "$out/swing0" cost)" -v a="$sv" -v b="$ev" \
  'BEGIN { e = j + 0.5 * (a * a + b * b); d = f - e; if (d < 0) d = -d; exit !(e > 5 && d < 1e-6 * e) }' ||
  { echo "warm start not taken: first J = $first, rates at tf $sv $ev"; exit 1; }
below "$(json "$out/swing1" cost)" 1e-10 || { echo "gamma = 1 swing-up: J = $(json "$out/swing1" cost)"; exit 1; }
# The simulated optimum (results.csv) ends upright and at rest.
row=$(last "$out/swing1")
for c in shoulder.q elbow.q shoulder.v elbow.v; do
  value=$(echo "$row" | cut -d, -f"$(col "$out/swing1" $c)")
  target=0; [ "$c" = shoulder.q ] && target=1.5707963267948966
  below "$(awk -v v="$value" -v t="$target" 'BEGIN { d = v - t; print (d < 0 ? -d : d) }')" 1e-4 ||
    { echo "gamma = 1 swing-up ends with $c = $value"; exit 1; }
done

"$articula" optimize "$root/problems/cart_stabilization.yaml" --out "$out/stab" --quiet
grep -q '"converged": true' "$out/stab/optimization.json"
below "$(json "$out/stab" cost)" 1e-10 || { echo "stabilisation: J = $(json "$out/stab" cost)"; exit 1; }
# The cart stays within 0.05 mm of x = 0 all the time (the thesis reports +-7 mm).
xmax=$(awk -F, -v c="$(col "$out/stab" rail.q)" 'NR > 1 { v = $c < 0 ? -$c : $c; if (v > m) m = v } END { print m }' "$out/stab/results.csv")
below "$xmax" 5e-5 || { echo "stabilisation: max |x| = $xmax m"; exit 1; }
echo "thesis optimal control ok: swing-up J $(json "$out/swing0" cost), at rest J $(json "$out/swing1" cost), stabilisation J $(json "$out/stab" cost), max |x| $xmax m"
