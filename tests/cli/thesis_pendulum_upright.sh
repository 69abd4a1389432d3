#!/usr/bin/env bash
# Seed 002 section 5.5.1 end to end through articula optimize, by continuation as the thesis did:
# subproblem 1 (problems/five_bar_pendulum_upright.yaml, 7.1 degrees) from V = 0, then the tilt
# raised to alpha5 = [-10, -10], [-10, -12], [-10, -13.5], [-10, -15] degrees without the velocity
# term (problems/five_bar_pendulum_upright_sp4.yaml with its initial state changed), each
# warm-started from the last, then subproblem 4 itself (w = 0.05). The pendulum must end upright
# and nearly still. About 35 s in Release on two cores.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
json() { sed -n "s/^ *\"$2\": \(.*\),\?$/\1/p" "$1/optimization.json" | tr -d ','; }
col() { head -1 "$1/results.csv" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
at_end() { tail -1 "$1/results.csv" | cut -d, -f"$(col "$1" "$2")"; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

"$articula" optimize "$root/problems/five_bar_pendulum_upright.yaml" --out "$out/sp1" --quiet || [ $? -eq 1 ]
previous=$out/sp1
sp4=$root/problems/five_bar_pendulum_upright_sp4.yaml
for alpha2 in -0.17453292519943295 -0.20943951023931956 -0.23561944901923448 -0.2617993877991494; do
  step=$out/tilt$alpha2
  sed -e "s|model: ../models/|model: $root/models/|" -e "s|q: \[-0.17453292519943295, -0.2617993877991494\]|q: [-0.17453292519943295, $alpha2]|" \
    -e '/type: body_velocity/d' "$sp4" > "$step.yaml"
  # An intermediate step may stop on its evaluation budget (exit status 1): its best point is
  # the next one's start all the same.
  "$articula" optimize "$step.yaml" --start "$previous/parameters.csv" --out "$step" --quiet || [ $? -eq 1 ]
  echo "alpha2 $alpha2: $(json "$step" status), $(json "$step" evaluations) evaluations, J $(json "$step" cost)"
  previous=$step
done
"$articula" optimize "$sp4" --start "$previous/parameters.csv" --out "$out/sp4" --quiet || [ $? -eq 1 ]

# Upright (gamma(tf) = acos(cos a1 cos a2)) and still; measured: J 1.2e-4, gamma 2.2e-5 rad,
# rates below 2e-5 rad/s.
a1=$(at_end "$out/sp4" hooke.q0); a2=$(at_end "$out/sp4" hooke.q1)
w1=$(at_end "$out/sp4" hooke.v0); w2=$(at_end "$out/sp4" hooke.v1)
awk -v a="$a1" -v b="$a2" -v u="$w1" -v v="$w2" -v j="$(json "$out/sp4" cost)" \
  'BEGIN { g = atan2(sqrt(1 - (cos(a) * cos(b))^2), cos(a) * cos(b)); printf "J %g, gamma(tf) %g rad, rates %g %g rad/s\n", j, g, u, v;
           exit !(g < 1e-3 && u * u + v * v < 1e-4 && j < 1e-3) }' || { echo "subproblem 4 not solved"; exit 1; }
