#!/usr/bin/env bash
# Bundles the animation page's viewer (docs/viewer.md): web/viewer/main.js and what it imports,
# three.js included, into one minified script, OUT.js. The npm packages (three, esbuild) are the
# versions pinned in web/package-lock.json, installed into web/node_modules by scripts/npm-ci.sh.
# Usage: scripts/build-viewer.sh OUT.js   (the build runs it: cmake/viewer.cmake)
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/.." && pwd)
web=$root/web
fail() { echo "build-viewer: $*" >&2; exit 1; }
command -v node >/dev/null || fail "node is not installed: install Node.js 18 or newer with npm (Debian: apt-get install nodejs npm; scripts/install-deps.sh does it)"

"$root/scripts/npm-ci.sh" "$web"
three=$(node -p "require('$web/node_modules/three/package.json').version")
mkdir -p "$(dirname "$out")"
# ES2020 (every browser with WebGL 2 runs it); ASCII output; three.js's licence kept at the end.
"$web/node_modules/.bin/esbuild" "$web/viewer/main.js" --bundle --minify --format=iife --target=es2020 \
  --legal-comments=eof --log-level=warning \
  --banner:js="/*! Articula viewer, three.js $three, bundled by esbuild (docs/viewer.md) */" --outfile="$out.tmp"
# The bundle goes inline into a <script> element, which the text "</script" would end.
if grep -qi '</script' "$out.tmp"; then rm -f "$out.tmp"; fail "the bundle contains '</script' and cannot be inlined"; fi
mv "$out.tmp" "$out"
