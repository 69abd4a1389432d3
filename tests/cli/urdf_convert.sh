#!/usr/bin/env bash
# URDF robots: simulate one directly, convert it to YAML and get the same run from the YAML;
# what cannot be mapped is one located error; a missing mesh is a warning.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$articula" convert "$root/models/arm6.urdf" -o "$out/arm6.yaml"
"$articula" check "$out/arm6.yaml" | grep -q 'ok (6 bodies'
grep -q '6 joint limits, 6 joint frictions' <<< "$("$articula" info "$root/models/arm6.urdf")"
"$articula" simulate "$root/models/arm6.urdf" --t-end 0.5 --out "$out/urdf" --quiet --no-html
"$articula" simulate "$out/arm6.yaml" --t-end 0.5 --out "$out/yaml" --quiet --no-html
cmp "$out/urdf/results.csv" "$out/yaml/results.csv" || { echo "the converted model runs differently"; exit 1; }

# A mimic joint: exit status 2 and one message with file, line and joint.
set +e
"$articula" convert "$root/tests/fuzz/model_urdf/mimic.urdf" -o "$out/m.yaml" 2> "$out/err"
status=$?
set -e
[ "$status" -eq 2 ] || { echo "mimic joint: exit status $status"; exit 1; }
grep -q "mimic.urdf:2.*joint 'j': mimic joints cannot be mapped" "$out/err" || { cat "$out/err"; exit 1; }
[ ! -e "$out/m.yaml" ] || { echo "a failed conversion wrote its output"; exit 1; }

# A missing mesh: a warning on stderr, a placeholder, and the model still works.
"$articula" check "$root/tests/fuzz/model_urdf/missing_mesh.urdf" 2> "$out/warn" > /dev/null
grep -q "warning: .*missing_mesh.urdf: link 'a': mesh 'package://nowhere/a.stl' was not found" "$out/warn" || { cat "$out/warn"; exit 1; }

# Usage errors.
set +e
"$articula" convert "$root/models/arm6.urdf" 2> "$out/usage"; status=$?
set -e
[ "$status" -eq 2 ] && grep -q 'convert needs -o FILE.yaml' "$out/usage" || { echo "missing -o: status $status"; cat "$out/usage"; exit 1; }
echo "URDF import ok"
