#!/usr/bin/env bash
# Every command that `articula --help` lists runs here once on a real input, and answers
# `articula COMMAND --help` with its own synopsis. A command added to the help without a case
# below fails this test.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

help=$("$articula" --help)
commands=$(printf '%s\n' "$help" | sed -n 's/^  articula \([a-z][a-z-]*\) .*/\1/p' | sort -u)
[ -n "$commands" ] || { echo "no commands found in --help"; exit 1; }

run() {  # run COMMAND: one real use of the command, with a check of what it did
  case "$1" in
    simulate) "$articula" simulate "$root/models/pendulum.yaml" --t-end 0.2 --out "$out/sim" --quiet
              test -s "$out/sim/results.csv" && test -s "$out/sim/summary.json" && test -s "$out/sim/animation.html" ;;
    info)     grep -q 'constraint rank' <<< "$("$articula" info "$root/models/four_bar.yaml")" ;;
    check)    "$articula" check "$root/models/four_bar.yaml" | grep -q ': ok (' ;;
    convert)  "$articula" convert "$root/models/arm6.urdf" -o "$out/arm6.yaml" && "$articula" check "$out/arm6.yaml" > /dev/null ;;
    generate) for kind in "chain --n 3 --spatial" "n-four-bar --n 2" "rssr --rod" "rssr-bank --n 2"; do
                # shellcheck disable=SC2086
                "$articula" generate $kind -o "$out/g.yaml" && "$articula" check "$out/g.yaml" > /dev/null
              done ;;
    plot)     "$articula" plot "$out/sim" --y energy -o "$out/e.svg" && grep -q '</svg>' "$out/e.svg" ;;
    report)   "$articula" report "$out/sim" -o "$out/r.html" && grep -q '</html>' "$out/r.html" ;;
    view)     # the page rebuilt from results.csv is the page the run wrote, byte for byte
              "$articula" view "$out/sim" -o "$out/v.html" > /dev/null && cmp "$out/sim/animation.html" "$out/v.html" &&
              ! "$articula" view "$out/sim" --model "$root/models/four_bar.yaml" -o "$out/w.html" 2> /dev/null ;;
    # gradient and optimize: one method and two evaluations (exit status 1: not converged), which
    # is all this test needs; optimize_problems.sh checks the gradients and the optimum.
    gradient) grep -q '^fd ' <<< "$("$articula" gradient "$root/problems/five_bar_design.yaml" --method fd)" ;;
    optimize) { "$articula" optimize "$root/problems/five_bar_design.yaml" --out "$out/opt" --quiet --gradient fd \
                  --max-evaluations 2 || [ $? -eq 1 ]; } &&
              test -s "$out/opt/parameters.csv" && "$articula" report "$out/opt" -o "$out/opt.html" ;;
    track)    "$articula" track "$root/problems/five_bar_lissajous_c.yaml" --out "$out/track" --quiet 2> /dev/null &&
              [ "$(grep -c '"architecture"' "$out/track/tracking.json")" -eq 3 ] && test -s "$out/track/tracking.csv" ;;
    sweep)    "$articula" sweep "$root/models/pendulum.yaml" --grid q0:pivot=-1:-0.5:3 --t-end 0.2 --out "$out/sweep" --quiet &&
              [ "$(grep -c ',ok,' "$out/sweep/summary.csv")" -eq 3 ] && test -s "$out/sweep/cases/g3/results.csv" ;;
    *)        echo "command '$1' is in --help but has no case in $0"; return 1 ;;
  esac
}

# simulate first: plot and report read its results.
for c in simulate $(printf '%s\n' "$commands" | grep -vx simulate); do
  run "$c" || { echo "articula $c failed"; exit 1; }
  "$articula" "$c" --help > "$out/help" || { echo "articula $c --help failed"; exit 1; }
  grep -q "^  articula $c " "$out/help" || { echo "articula $c --help does not show its synopsis"; cat "$out/help"; exit 1; }
  echo "$c ok"
done
