#!/usr/bin/env bash
# The main job end to end: simulate the four-bar, check the three outputs.
set -euo pipefail
articula=$1; root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$articula" simulate "$root/models/four_bar.yaml" --t-end 2 --out "$out" --quiet
test -s "$out/results.csv"
test -s "$out/summary.json"
test -s "$out/animation.html"
# 2 s at 0.01 s: 201 samples plus the header
[ "$(wc -l < "$out/results.csv")" -eq 202 ] || { echo "unexpected row count"; exit 1; }
head -1 "$out/results.csv" | grep -q '^time,A.q,D.q,B.q,'
grep -q '"status": "ok"' "$out/summary.json"
grep -q '"t_reached": 2' "$out/summary.json"
# Self-contained: no URL but the XHTML namespace that three.js names (an XML name, never fetched).
if grep -o 'https\?://[^"'"'"' )]*' "$out/animation.html" | grep -vqx 'http://www.w3.org/1999/xhtml'; then
  echo "the animation page refers to the network"; exit 1
fi
echo "four-bar run ok"
