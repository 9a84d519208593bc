#!/usr/bin/env bash
# Installs the Debian packages Strata needs that are missing; a no-op when all
# are present. Safe to run any number of times. Needs root (or sudo) only when
# something is missing.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config ccache
  libgtest-dev libgmock-dev
  librapidcheck-dev libbenchmark-dev
  libbenchmark-tools python3-scipy python3-numpy
  python3-dev python3-venv python3-matplotlib
  libboost-dev libboost-program-options-dev
  libtbb-dev
  nettle-dev
  libopenblas-dev
  openmpi-bin libopenmpi-dev
  llvm-19 llvm-19-dev libzstd-dev lld-19
  graphviz
  valgrind
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The Python module's build and test tools from PyPI, in the repository's
# .venv (Debian's NumPy and SciPy stay visible: --system-site-packages).
# python/CMakeLists.txt finds them there.
python_tools() {
  local root venv
  root="$(cd "$(dirname "$0")/.." && pwd)"
  venv="$root/.venv"
  if "$venv/bin/python" -c "import nanobind, pytest, scikit_build_core, jax" 2>/dev/null; then
    return 0
  fi
  echo "setup: installing nanobind, scikit-build-core, pytest and jax (CPU) in $venv" >&2
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  # JAX is there for the tests of arrays passed through DLPack. NumPy and
  # SciPy stay Debian's (matplotlib is built against them): pinned here so
  # that pip does not replace them with newer wheels.
  local pins
  pins="$(mktemp)"
  /usr/bin/python3 -c 'import numpy, scipy; print(f"numpy=={numpy.__version__}\nscipy=={scipy.__version__}")' >"$pins"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -c "$pins" \
    "nanobind==3.1.0" "scikit-build-core==1.1.2" "pytest==9.2.0" "jax[cpu]==0.4.30"
  rm -f "$pins"
}

if [ ${#missing[@]} -eq 0 ]; then
  python_tools
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "setup: missing packages (${missing[*]}) and not root; install them or rerun as root" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
python_tools
