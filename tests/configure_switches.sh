#!/usr/bin/env bash
# Configures Strata (configure step only) as if optional dependencies were not
# installed, and checks that each engine turns itself off with a message
# saying what is missing instead of failing. Usage: configure_switches.sh SOURCE_DIR
set -euo pipefail
src="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

configure() { # NAME ARGS...: configure into $work/NAME, print its output
  local name="$1"
  shift
  cmake -S "$src" -B "$work/$name" -G Ninja -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCH=OFF "$@" 2>&1
}
expect() { # OUTPUT TEXT
  if ! grep -qF -- "$2" <<<"$1"; then
    echo "expected configure output to say: $2"
    echo "--- output:"
    echo "$1"
    exit 1
  fi
}

expect_line() { # OUTPUT LINE: a whole line equal to LINE
  if ! grep -qxF -- "$2" <<<"$1"; then
    echo "expected configure output to have the line: $2"
    echo "--- output:"
    echo "$1"
    exit 1
  fi
}

# No LLVM: the jit is off, the rest stays.
out="$(configure no-llvm -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON)"
expect "$out" "Strata: LLVM 19 not found (Debian: llvm-19-dev libzstd-dev): the jit engine is off"
expect "$out" "Configuring done"

# No oneTBB and no CUDA toolkit: tbb, jit and cuda are off; the interpreter remains.
out="$(configure no-tbb -DCMAKE_DISABLE_FIND_PACKAGE_TBB=ON -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON)"
expect "$out" "Strata: oneTBB not found (Debian: libtbb-dev): the tbb engine is off"
expect "$out" "Strata: the jit engine needs oneTBB (the tbb engine is off): the jit engine is off"
expect "$out" "Strata: the CUDA toolkit (NVRTC) not found"
expect_line "$out" "-- Strata: engines built: interp"
expect "$out" "Configuring done"

# Switched off by hand: no message about missing dependencies, just the list.
out="$(configure off -DSTRATA_ENABLE_TBB=OFF -DSTRATA_ENABLE_JIT=OFF -DSTRATA_ENABLE_CUDA=OFF)"
expect_line "$out" "-- Strata: engines built: interp"
if grep -q "not found" <<<"$out"; then echo "unexpected 'not found' message"; echo "$out"; exit 1; fi
echo "configure switches: ok"
