#!/usr/bin/env bash
# Command-line mistakes exit 2 with a message; help and generate work.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
expect_usage() {
  set +e; msg=$("$articula" "$@" 2>&1); rc=$?; set -e
  [ "$rc" -eq 2 ] || { echo "'$*' exit $rc, expected 2"; exit 1; }
  grep -qF -- "$expected" <<< "$msg" || { echo "'$*': '$msg' lacks '$expected'"; exit 1; }
}
expected="unknown command 'simulat'"; expect_usage simulat x.yaml
expected="--dt: 'fast' is not a number"; expect_usage simulate "$root/models/pendulum.yaml" --dt fast
expected="option --newton-tolerance must be positive"; expect_usage simulate "$root/models/pendulum.yaml" --newton-tolerance 0 --out "$out/n" --quiet
test ! -e "$out/n"
# The car's fastest settings (docs/vehicles.md): a large step with a loose Newton tolerance.
"$articula" simulate "$root/models/car.yaml" --formulation hybrid --integrator generalized-alpha --dt 0.2 \
  --basic-parameter 0.2 --newton-tolerance 1e-6 --t-end 8 --out "$out/car" --quiet --no-html
grep -q '"status": "ok"' "$out/car/summary.json" && grep -q '"t_reached": 8,' "$out/car/summary.json"
expected="unknown integrator 'rk5'"; expect_usage simulate "$root/models/pendulum.yaml" --integrator rk5 --out "$out/a" --quiet
# Option names parsed by the core (simulate/option_names) are usage errors on the command line.
expected="unknown stabilization 'weak' (valid: projection, baumgarte, none)"; expect_usage simulate "$root/models/pendulum.yaml" --stabilization weak
grep -qF "(see articula --help)" <<< "$msg" || { echo "'--stabilization weak' is not a usage error"; exit 1; }
expected="unknown tangent 'exact' (valid: analytic, finite-difference)"; expect_usage simulate "$root/models/pendulum.yaml" --tangent exact
expected="handles open trees only"; expect_usage simulate "$root/models/four_bar.yaml" --formulation aba --out "$out/b" --quiet
expected="formulation 'hdca' is in ODE form"; expect_usage simulate "$root/models/pendulum.yaml" --formulation hdca --integrator newmark --out "$out/b" --quiet
expected="--subsystems needs a whole number"; expect_usage simulate "$root/models/pendulum.yaml" --formulation distributed --subsystems 0 --out "$out/b" --quiet
expected="--subsystems applies to the distributed formulation only, not to 'aba'"; expect_usage simulate "$root/models/pendulum.yaml" --formulation aba --subsystems 2 --out "$out/b" --quiet
expected="cannot split 1 body into 3 subsystems (1 to 1)"; expect_usage simulate "$root/models/pendulum.yaml" --formulation distributed --subsystems 3 --out "$out/b" --quiet
expected="unknown assembly tree 'deep' (valid: balanced, serial)"; expect_usage simulate "$root/models/pendulum.yaml" --formulation hdca --assembly-tree deep --out "$out/b" --quiet
expected="--assembly-tree applies to the dca and hdca formulations only, not to 'aba'"; expect_usage simulate "$root/models/pendulum.yaml" --formulation aba --assembly-tree serial --out "$out/b" --quiet
test ! -e "$out/b"
expected="cannot open the model file"; expect_usage info "$out/missing.yaml"
# The help is read from a variable: under pipefail, `articula --help | grep -q` fails when grep
# exits before articula has written all of it (SIGPIPE).
help=$("$articula" --help)
grep -q "articula simulate" <<< "$help"
grep -q "hdca (trees and closed loops)" <<< "$help"
"$articula" generate chain --n 8 --spatial -o "$out/chain8.yaml"
"$articula" check "$out/chain8.yaml" | grep -q "8 bodies"
"$articula" simulate "$out/chain8.yaml" --t-end 0.5 --out "$out/c" --quiet --no-html
test ! -e "$out/c/animation.html"
# The closed-loop generators; the shipped models are their output (below the comment header).
expected="generate n-four-bar needs --n N"; expect_usage generate n-four-bar -o "$out/x.yaml"
expected="option --n needs a whole number from 1 to 100000"; expect_usage generate n-four-bar --n 0 -o "$out/x.yaml"
# Numbers far outside int range are refused before any conversion (a fuzzer found the overflow).
expected="option --threads needs a whole number from 1 to 1024"; expect_usage simulate "$root/models/pendulum.yaml" --threads 1e117 --out "$out/t" --quiet
expected="option --n needs a whole number from 1 to 100000"; expect_usage generate chain --n -1e300 -o "$out/x.yaml"
expected="unknown argument '--n' for generate rssr"; expect_usage generate rssr --n 3 -o "$out/x.yaml"
expected="unknown model kind 'four-bar' for generate (valid: chain, n-four-bar, rssr, rssr-bank)"; expect_usage generate four-bar -o "$out/x.yaml"
test ! -e "$out/x.yaml"
grep -q "articula generate n-four-bar --n N -o FILE.yaml" <<< "$help"
"$articula" generate n-four-bar --n 3 -o "$out/nfb3.yaml"
"$articula" check "$out/nfb3.yaml" | grep -q "7 bodies, 7 tree degrees of freedom, 15 constraint equations"
"$articula" generate n-four-bar --n 10 -o "$out/nfb10.yaml"
diff <(grep -v '^#' "$root/models/n_four_bar.yaml") <(grep -v '^#' "$out/nfb10.yaml")
"$articula" generate rssr -o "$out/rssr.yaml"
diff <(grep -v '^#' "$root/models/rssr.yaml") <(grep -v '^#' "$out/rssr.yaml")
"$articula" check "$out/rssr.yaml" | grep -q "3 bodies, 5 tree degrees of freedom, 3 constraint equations"
"$articula" simulate "$out/rssr.yaml" --t-end 0.2 --out "$out/r" --quiet --no-html
"$articula" generate rssr --rod -o "$out/rssr_rod.yaml"
"$articula" check "$out/rssr_rod.yaml" | grep -q "2 bodies, 2 tree degrees of freedom, 1 constraint equation"
"$articula" generate rssr-bank --n 3 -o "$out/bank3.yaml"
"$articula" check "$out/bank3.yaml" | grep -q "7 bodies, 13 tree degrees of freedom, 9 constraint equations"
expected="generate rssr-bank needs --n N"; expect_usage generate rssr-bank -o "$out/x.yaml"
echo "usage errors ok"
