#!/usr/bin/env bash
# ctest's browser test (label browser; make test-browser): simulates the showcase model (every
# shape kind, an OBJ mesh, a missing mesh) and the four-bar (loop constraints), opens each page in
# headless Chromium (check_animation.mjs) and keeps the screenshots in OUTDIR; then a URDF arm.
# Usage: run.sh ARTICULA SOURCE_DIR OUTDIR. Exit status 77 (ctest: skipped) without Chromium or Node.js.
set -euo pipefail
articula=$1; root=$2; out=$3
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "skipped: no Chromium at $chromium (Debian: apt-get install chromium; or set CHROMIUM)"; exit 77; }
command -v node >/dev/null || { echo "skipped: no Node.js to drive Chromium (Debian: apt-get install nodejs npm)"; exit 77; }
"$root/scripts/npm-ci.sh" "$root/tests/browser"  # playwright-core, pinned in package-lock.json
export CHROMIUM=$chromium

rm -rf "$out"
mkdir -p "$out"
# The showcase's missing mesh gives exactly one warning, naming the body and the file.
"$articula" simulate "$root/tests/browser/showcase.yaml" --t-end 3 --out "$out/showcase" --quiet 2> "$out/showcase.stderr"
cat "$out/showcase.stderr"
[ "$(grep -c 'warning' "$out/showcase.stderr")" -eq 1 ] && grep -q "body 'ghost'.*missing_part.stl" "$out/showcase.stderr" ||
  { echo "expected one warning about the ghost's missing mesh"; exit 1; }
node "$root/tests/browser/check_animation.mjs" "$out/showcase/animation.html" "$out/showcase.png"

"$articula" simulate "$root/models/four_bar.yaml" --t-end 10 --out "$out/four_bar" --quiet
node "$root/tests/browser/check_animation.mjs" "$out/four_bar/animation.html" "$out/four_bar.png"

# A URDF robot: its base drawn as ground shapes, its gripper an STL mesh found beside the URDF.
"$articula" simulate "$root/models/arm6.urdf" --t-end 2 --out "$out/arm6" --quiet
grep -q '"groundShapes":\[{' "$out/arm6/animation.html" || { echo "the arm's base is not in the page"; exit 1; }
node "$root/tests/browser/check_animation.mjs" "$out/arm6/animation.html" "$out/arm6.png"
