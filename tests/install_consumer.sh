#!/usr/bin/env bash
# Installs this build into a temporary prefix, then builds and runs the
# out-of-tree consumer project (examples/consumer) against it, with CMake and
# with pkg-config. Usage: install_consumer.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"
build="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/strata"
"$work/prefix/bin/strata" --version

# CMake consumer.
cmake -S "$src/examples/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"

# pkg-config consumer: the same program with a plain compiler command.
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib/x86_64-linux-gnu/pkgconfig"
pkg-config --modversion strata
# shellcheck disable=SC2046
g++ "$src/examples/consumer/main.cpp" -o "$work/consumer-pc" $(pkg-config --cflags --libs strata)
"$work/consumer-pc"
echo "install + consumer: ok"
