#!/usr/bin/env bash
# The same inputs give bit-identical outputs: two runs of each formulation write the same
# CSV and animation byte for byte; the Hamiltonian divide-and-conquer (hdca, state [q; p])
# writes the same on 1 and 2 threads.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$articula" generate chain --n 12 --spatial -o "$out/chain.yaml"
for case in "four_bar:$root/models/four_bar.yaml:reference" "chain:$out/chain.yaml:aba" "chain_crba:$out/chain.yaml:crba"; do
  IFS=: read -r name model formulation <<< "$case"
  for k in 1 2; do
    "$articula" simulate "$model" --formulation "$formulation" --t-end 2 --quiet --out "$out/$name-$k"
  done
  cmp "$out/$name-1/results.csv" "$out/$name-2/results.csv"
  cmp "$out/$name-1/animation.html" "$out/$name-2/animation.html"
  echo "$name ($formulation): identical"
done
for case in "chain:$out/chain.yaml" "seed000_four_bar:$root/models/seed000_four_bar.yaml"; do
  IFS=: read -r name model <<<"$case"
  for threads in 1 2; do
    "$articula" simulate "$model" --formulation hdca --threads "$threads" --t-end 0.3 --quiet --out "$out/hdca-$name-$threads"
  done
  grep -q '"formulation": "hdca"' "$out/hdca-$name-2/summary.json"
  cmp "$out/hdca-$name-1/results.csv" "$out/hdca-$name-2/results.csv"
  cmp "$out/hdca-$name-1/animation.html" "$out/hdca-$name-2/animation.html"
  echo "$name (hdca): identical on 1 and 2 threads"
done
