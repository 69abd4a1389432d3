#!/usr/bin/env bash
# Seed 002 section 5.5.1 end to end through articula optimize, by continuation as the thesis did
# (the `continuation` of problems/five_bar_pendulum_upright_sp4.yaml): subproblem 1 (7.1 degrees)
# from V = 0, then the tilt raised to alpha5 = [-10, -10], [-10, -12], [-10, -13.5], [-10, -15]
# degrees without the velocity term, each from the last optimum, then subproblem 4 itself
# (w = 0.05). The pendulum must end upright and nearly still. About 35 s in Release on two cores.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
json() { sed -n "s/^ *\"$2\": \(.*\),\?$/\1/p" "$1/optimization.json" | tr -d ','; }
col() { head -1 "$1/results.csv" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
at_end() { tail -1 "$1/results.csv" | cut -d, -f"$(col "$1" "$2")"; }

# A stage or the last problem may stop on its evaluation budget (exit status 1): the checks below
# judge the result.
"$articula" optimize "$root/problems/five_bar_pendulum_upright_sp4.yaml" --out "$out/sp4" --quiet || [ $? -eq 1 ]
# every stage ran (the history numbers them 1 to 6 in its last column)
[ "$(awk -F, 'NR > 1 { print $NF }' "$out/sp4/history.csv" | sort -u | wc -l)" -eq 6 ] || { echo "not every stage ran"; exit 1; }

# Upright (gamma(tf) = acos(cos a1 cos a2)) and still; measured: J 1.2e-4, gamma 2.2e-5 rad,
# rates below 2e-5 rad/s.
a1=$(at_end "$out/sp4" hooke.q0); a2=$(at_end "$out/sp4" hooke.q1)
w1=$(at_end "$out/sp4" hooke.v0); w2=$(at_end "$out/sp4" hooke.v1)
awk -v a="$a1" -v b="$a2" -v u="$w1" -v v="$w2" -v j="$(json "$out/sp4" cost)" \
  'BEGIN { g = atan2(sqrt(1 - (cos(a) * cos(b))^2), cos(a) * cos(b)); printf "J %g, gamma(tf) %g rad, rates %g %g rad/s\n", j, g, u, v;
           exit !(g < 1e-3 && u * u + v * v < 1e-4 && j < 1e-3) }' || { echo "subproblem 4 not solved"; exit 1; }
