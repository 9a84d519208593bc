#!/usr/bin/env bash
# Configures and builds one CMake preset (release by default): scripts/build.sh [PRESET]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
jobs="${STRATA_JOBS:-$(nproc)}"
# ccache (CMakeLists.txt): paths under the checkout are hashed relative to it,
# and the build folder is not hashed, so a fresh clone elsewhere (CI's) hits
# the objects an earlier build compiled. Debug info keeps the first build's
# paths, as ccache documents for hash_dir=false.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs"
