#!/usr/bin/env bash
# Installs the Debian packages Articula needs to build and test, only those missing.
# Usage: scripts/install-deps.sh [extra-package ...]
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config libeigen3-dev libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev libboost-dev libsuitesparse-dev liburdfdom-dev libtinyxml-dev libnlopt-cxx-dev coinor-libipopt-dev libopenmpi-dev openmpi-bin pybind11-dev python3-dev python3-numpy python3-pytest "$@")
# Node.js and npm bundle the animation viewer at build time (docs/viewer.md). Tested as commands,
# not packages: a Node.js installed otherwise (nodesource's nodejs) conflicts with Debian's npm.
command -v npm >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
