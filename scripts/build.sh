#!/usr/bin/env bash
# Configures and builds one CMake preset (release by default), all of it or
# only the named targets: scripts/build.sh [PRESET [TARGET ...]]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
shift || true
jobs="${STRATA_JOBS:-$(nproc)}"
# ccache (CMakeLists.txt): paths under the checkout are hashed relative to it,
# and the build folder is not hashed, so a fresh clone elsewhere (CI's) hits
# the objects an earlier build compiled. Debug info keeps the first build's
# paths, as ccache documents for hash_dir=false.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
# The configure step's own lines ("Strata: engines built: ...") are shown;
# all of its output when it fails.
if ! configured=$(cmake --preset "$preset" 2>&1); then
  echo "$configured" >&2
  exit 1
fi
grep -E '^-- Strata' <<<"$configured" || true
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build --preset "$preset" -j "$jobs" "${targets[@]}"
