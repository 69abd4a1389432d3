#!/usr/bin/env bash
# Command-line mistakes exit 2 with a message; help and generate work.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
expect_usage() {
  set +e; msg=$("$articula" "$@" 2>&1); rc=$?; set -e
  [ "$rc" -eq 2 ] || { echo "'$*' exit $rc, expected 2"; exit 1; }
  echo "$msg" | grep -qF -- "$expected" || { echo "'$*': '$msg' lacks '$expected'"; exit 1; }
}
expected="unknown command 'simulat'"; expect_usage simulat x.yaml
expected="--dt: 'fast' is not a number"; expect_usage simulate "$root/models/pendulum.yaml" --dt fast
expected="unknown integrator 'rk5'"; expect_usage simulate "$root/models/pendulum.yaml" --integrator rk5 --out "$out/a" --quiet
expected="handles open trees only"; expect_usage simulate "$root/models/four_bar.yaml" --formulation aba --out "$out/b" --quiet
expected="cannot open the model file"; expect_usage info "$out/missing.yaml"
"$articula" --help | grep -q "articula simulate"
"$articula" generate chain --n 8 --spatial -o "$out/chain8.yaml"
"$articula" check "$out/chain8.yaml" | grep -q "8 bodies"
"$articula" simulate "$out/chain8.yaml" --t-end 0.5 --out "$out/c" --quiet --no-html
test ! -e "$out/c/animation.html"
echo "usage errors ok"
