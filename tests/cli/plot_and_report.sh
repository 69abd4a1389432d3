#!/usr/bin/env bash
# articula plot and articula report on a short four-bar run: well-formed SVG and HTML holding
# the expected series, and one clear message with a non-zero exit for bad input.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run=$out/run
"$articula" simulate "$root/models/four_bar.yaml" --t-end 0.5 --out "$run" --quiet --no-html

# Well-formed XML (the report is written as polyglot HTML) with xmllint where installed; always
# the closing tag.
well_formed() {
  if command -v xmllint > /dev/null; then xmllint --noout "$1"; fi
  tail -1 "$1" | grep -qx "$2" || { echo "$1 does not end with $2"; exit 1; }
}

"$articula" plot "$run" --y energy,constraint_error -o "$out/fig.svg"
well_formed "$out/fig.svg" "</svg>"
for series in kinetic_energy potential_energy total_energy constraint_position_error constraint_velocity_error; do
  grep -q ">$series</text>" "$out/fig.svg" || { echo "fig.svg lacks the legend entry $series"; exit 1; }
done
[ "$(grep -c '<polyline' "$out/fig.svg")" -eq 5 ] || { echo "fig.svg: expected 5 polylines"; exit 1; }
grep -q '>four_bar</text>' "$out/fig.svg" || { echo "fig.svg: no title from summary.json"; exit 1; }
grep -q '>time (s)</text>' "$out/fig.svg" || { echo "fig.svg: no x axis label"; exit 1; }

# A results.csv path works as well as its directory; prefixes, --log-y, --title and the size.
"$articula" plot "$run/results.csv" --y A,relative_energy_drift --x time --log-y --title "four-bar <drift>" \
  --width 640 --height 360 -o "$out/log.svg"
well_formed "$out/log.svg" "</svg>"
grep -q '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360.0"' "$out/log.svg" || { echo "log.svg: wrong size"; exit 1; }
grep -q '>four-bar &lt;drift&gt;</text>' "$out/log.svg" || { echo "log.svg: title not escaped"; exit 1; }
for series in A.q A.v relative_energy_drift; do
  grep -q ">$series</text>" "$out/log.svg" || { echo "log.svg lacks $series"; exit 1; }
done
grep -q '>1e-[0-9]*</text>' "$out/log.svg" || { echo "log.svg: no decade tick labels"; exit 1; }

"$articula" report "$run" -o "$out/report.html"
well_formed "$out/report.html" "</html>"
[ "$(grep -c '<svg' "$out/report.html")" -eq 3 ] || { echo "report.html: expected 3 plots"; exit 1; }
for text in "The run finished: 0.5 s simulated with reference + rk45." ">total_energy</text>" \
  ">relative_energy_drift</text>" ">constraint_velocity_error</text>" "<th>real-time factor</th>" \
  "<th>evaluations per step</th>" "<th>time per step</th>"; do
  grep -qF "$text" "$out/report.html" || { echo "report.html lacks '$text'"; exit 1; }
done
! grep -Eq '<script|src=|href=' "$out/report.html" || { echo "report.html is not self-contained"; exit 1; }

# A run that fails: its last sample holds inf, which plot leaves out with a warning naming the
# column and line, and the report shows the error that stopped the run.
"$articula" simulate "$root/tests/models/blowup.yaml" --integrator rk4 --dt 1e-3 --t-end 2 --out "$out/failed" --quiet --no-html 2> /dev/null \
  && { echo "the blowup run did not fail"; exit 1; }
msg=$("$articula" plot "$out/failed" --y total_energy -o "$out/failed.svg" 2>&1)
grep -qF "warning: $out/failed/results.csv: column 'total_energy' has 1 non-finite value, the first on line 52" <<< "$msg" \
  || { echo "no warning for inf: '$msg'"; exit 1; }
well_formed "$out/failed.svg" "</svg>"
"$articula" report "$out/failed" -o "$out/failed.html"
well_formed "$out/failed.html" "</html>"
grep -qF 'role="alert">The run failed: at t = 0.5 s (step 500): non-finite' "$out/failed.html" \
  || { echo "failed.html: no error"; exit 1; }
grep -qF "column &#39;total_energy&#39; has 1 non-finite value, the first on line 52: not drawn." "$out/failed.html" \
  || { echo "failed.html: no note on the non-finite energy"; exit 1; }

# Bad input: exit 2 and one message naming the problem; nothing written.
expect_error() {
  set +e; msg=$("$articula" "$@" 2>&1); rc=$?; set -e
  [ "$rc" -eq 2 ] || { echo "'$*' exit $rc, expected 2"; exit 1; }
  grep -qF -- "$expected" <<< "$msg" || { echo "'$*': '$msg' lacks '$expected'"; exit 1; }
}
expected="'$out/nowhere': no such results directory or file"; expect_error plot "$out/nowhere" --y energy -o "$out/x.svg"
expected="holds no results.csv"; expect_error report "$out" -o "$out/x.html"
expected="no column 'energie'; the columns are time, A.q, D.q, B.q,"; expect_error plot "$run" --y energie -o "$out/x.svg"
expected="--x 'energy' selects 3 columns"; expect_error plot "$run" --y A.q --x energy -o "$out/x.svg"
mkdir "$out/bad"
{ head -3 "$run/results.csv"; echo "0.02,1,2"; } > "$out/bad/results.csv"
expected="$out/bad/results.csv:4: expected 21 values, found 3"; expect_error plot "$out/bad" --y energy -o "$out/x.svg"
expected="report needs the run summary '$out/bad/summary.json'"; expect_error report "$out/bad" -o "$out/x.html"
cp "$run/summary.json" "$out/bad/"
expected="$out/bad/results.csv:4: expected 21 values, found 3"; expect_error report "$out/bad/results.csv" -o "$out/x.html"
{ head -2 "$run/results.csv"; head -3 "$run/results.csv" | tail -1 | sed 's/^[^,]*,[^,]*,/0.01,x1,/'; } > "$out/bad/results.csv"
expected="$out/bad/results.csv:3: column 'A.q': 'x1' is not a number"; expect_error plot "$out/bad" --y energy -o "$out/x.svg"
echo '{"status": "ok", "model": {"name": "x"' > "$out/bad/summary.json"
expected="$out/bad/summary.json:2:1: not valid JSON"; expect_error report "$out/bad" -o "$out/x.html"
head -1 "$run/results.csv" > "$out/bad/results.csv"
expected="no samples to plot"; expect_error plot "$out/bad" --y energy -o "$out/x.svg"
expected="plot needs --y"; expect_error plot "$run" -o "$out/x.svg"
expected="report needs -o FILE"; expect_error report "$run"
expected="option --y: empty column name in 'energy,'"; expect_error plot "$run" --y energy, -o "$out/x.svg"
expected="option --width needs a whole number from 200 to 20000"; expect_error plot "$run" --y energy --width 50 -o "$out/x.svg"
expected="unknown option '--log-y' for report"; expect_error report "$run" --log-y -o "$out/x.html"
test ! -e "$out/x.svg" && test ! -e "$out/x.html"

help=$("$articula" --help)  # not piped into grep -q: articula would get SIGPIPE under pipefail
grep -q "articula plot RESULTS --y LIST" <<< "$help"
grep -q "articula report RESULTS -o FILE.html" <<< "$help"
grep -q -- "--log-y   *plot |value| on a log axis" <<< "$help"
echo "plot and report ok"
