#!/usr/bin/env bash
# articula sweep on bad input: every malformed cases file of tests/sweep/bad gives exit status 2
# and one line naming the file, line and column of the mistake, and writes nothing; bad generator
# options are usage errors; a case whose values are refused or whose run fails is recorded as
# failed, with its message, and the other cases run (exit status 1).
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
model=$root/models/double_pendulum.yaml
bad=$root/tests/sweep/bad

# file, the location the message must start with, and a piece of its text
while IFS='|' read -r file where text; do
  rc=0
  msg=$("$articula" sweep "$model" --cases "$bad/$file" --out "$out/bad" 2>&1 >/dev/null) || rc=$?
  [ "$rc" -eq 2 ] || { echo "$file: exit status $rc, expected 2"; exit 1; }
  [ "$(wc -l <<< "$msg")" -eq 1 ] || { echo "$file: expected one line: $msg"; exit 1; }
  [[ "$msg" == "articula: error: $bad/$file$where"* ]] || { echo "$file: expected location $where: $msg"; exit 1; }
  grep -qF "$text" <<< "$msg" || { echo "$file: expected '$text': $msg"; exit 1; }
  [ ! -e "$out/bad" ] || { echo "$file: the sweep wrote $out/bad"; exit 1; }
done <<'TABLE'
no_id_column.csv|:1:1:|the first column must be 'id'
unknown_property.csv|:1:16:|unknown property 'weight'
unknown_body.csv|:1:4:|unknown body 'uper' (bodies: upper, lower)
unknown_spring.csv|:1:4:|unknown spring
not_a_number.csv|:3:9:|column 'mass:upper': '1.0x' is not a finite number
not_finite.csv|:2:4:|'nan' is not a finite number
duplicate_id.csv|:4:1:|case 'c1': duplicate id
duplicate_column.csv|:1:24:|column 'mass:upper': appears twice
wrong_count.csv|:3:4:|expected 3 values (id and 2 columns), found 2
unusable_id.csv|:2:1:|is not usable as a directory name
bad_gravity_component.csv|:1:4:|gravity:x, gravity:y or gravity:z
coordinate_out_of_range.csv|:1:4:|joint 'shoulder' has 1 coordinate
empty.csv|:|no header line
no_cases.csv|:2:|no cases below the header
TABLE

usage_error() {  # usage_error TEXT ARGS...: exit status 2 and TEXT in the message
  local text=$1 rc=0 msg; shift
  msg=$("$articula" sweep "$model" "$@" --out "$out/usage" 2>&1 >/dev/null) || rc=$?
  [ "$rc" -eq 2 ] && grep -qF -- "$text" <<< "$msg" || { echo "sweep $*: rc=$rc: $msg"; exit 1; }
  [ ! -e "$out/usage" ] || { echo "sweep $*: wrote $out/usage"; exit 1; }
}
usage_error "exactly one of --cases" --grid mass:upper=1:2:2 --cases "$bad/empty.csv"
usage_error "exactly one of --cases"
usage_error "'mass:upper=1:2': expected COLUMN=LO:HI:N" --grid mass:upper=1:2
usage_error "option --grid: column 'mass:uper': unknown body" --grid mass:uper=1:2:3
usage_error "unknown distribution 'lognormal'" --monte-carlo 4 --vary "mass:upper=lognormal(0,1)"
usage_error "--monte-carlo N and --vary SPEC go together" --monte-carlo 4
usage_error "option --checkpoint is not for sweep" --grid mass:upper=1:2:2 --checkpoint 1

# Failed cases: a mass that is not positive (refused before the run) and a run that blows up.
printf 'id,mass:upper,gravity:y\nfine,1,-9.81\nnegative,-2,-9.81\nblowup,1,-1e300\nalso_fine,2,-9.81\n' > "$out/cases.csv"
rc=0
"$articula" sweep "$model" --cases "$out/cases.csv" --t-end 0.2 --out "$out/failing" --quiet || rc=$?
[ "$rc" -eq 1 ] || { echo "exit status $rc with failed cases, expected 1"; exit 1; }
summary=$out/failing/summary.csv
grep -q '^fine,1,-9.81,ok,0.2,' "$summary"
grep -q '^also_fine,2,-9.81,ok,0.2,' "$summary"
grep -q '^negative,-2,-9.81,failed,,,,[0-9.e-]*,"mass:upper: a mass must be positive, got -2"$' "$summary"
grep -q "^blowup,1,-1e+300,failed,0,.*not finite" "$summary"
[ -f "$out/failing/cases/blowup/results.csv" ] && [ -f "$out/failing/cases/blowup/summary.json" ]
grep -q '"status": "error"' "$out/failing/cases/blowup/summary.json"
# A failed case is finished: running again redoes nothing.
"$articula" sweep "$model" --cases "$out/cases.csv" --t-end 0.2 --out "$out/failing" > "$out/again" || true
grep -q "4 of 4 cases finished (0 in this run), 2 failed" "$out/again" || { cat "$out/again"; exit 1; }
echo "14 malformed cases files located, usage errors refused, failed cases recorded"
