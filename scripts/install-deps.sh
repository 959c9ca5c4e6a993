#!/usr/bin/env bash
# Installs the Debian 12 packages that trisect's build, tests, benchmarks and CI need, and only
# those that are missing. Idempotent: when everything is present it changes nothing and exits 0.
# Needs root for apt-get; uses sudo when not root and sudo is available.
#
# Optional packages (benchmark peers the build does without) are installed too when the
# distribution offers them; when one is unavailable or fails to install, the script says so and
# still succeeds.
set -euo pipefail

packages=(
  cmake g++ make pkg-config   # toolchain
  libglm-dev                  # the library's one dependency
  libxxhash-dev               # the tree file's checksum (XXH3, header-only use)
  libcli11-dev                # the trisect command's arguments (header-only)
  nlohmann-json3-dev          # the trisect command's JSON output (header-only)
  catch2 libgmp-dev           # tests (Catch2 v2; gmpxx comes with libgmp-dev)
  libbenchmark-dev            # benchmarks
  libembree-dev libtbb-dev    # test oracle and benchmark peer
  clang-format                # formatting check
  clang libclang-rt-14-dev    # libFuzzer targets (scripts/fuzz.sh)
  pybind11-dev python3-dev python3-numpy python3-pytest  # the Python module and its tests
  python3-dask python3-distributed  # the Dask example (examples/python) and its test
  python3-venv python3-pip python3-setuptools python3-wheel  # `pip install .` in a venv (setup.py)
)

optional_packages=(
  libcgal-dev                 # benchmarks only: the CGAL peers of plane_query and overlap
  libbullet-dev               # benchmarks only: btDbvtBroadphase, the peer of broadphase
  libfcl-dev                  # benchmarks only: the FCL peer of overlap
  python3-open3d              # benchmarks only: Open3D's RaycastingScene, the Python peer
)

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == "installed" ]]
}

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done
missing_optional=()
for package in "${optional_packages[@]}"; do
  is_installed "$package" || missing_optional+=("$package")
done

if [[ ${#missing[@]} -eq 0 && ${#missing_optional[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages and ${#optional_packages[@]} optional present"
  exit 0
fi

[[ ${#missing[@]} -eq 0 ]] || echo "install-deps: missing: ${missing[*]}"
[[ ${#missing_optional[@]} -eq 0 ]] || echo "install-deps: missing optional: ${missing_optional[*]}"
if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
elif [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: not root and no sudo; skipping optional: ${missing_optional[*]}" >&2
  exit 0
else
  echo "install-deps: not root and no sudo; install these as root and re-run:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

"${as_root[@]}" apt-get update
if [[ ${#missing[@]} -gt 0 ]]; then
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
fi
for package in "${missing_optional[@]}"; do
  candidate=$(apt-cache policy "$package" 2>/dev/null | awk '/Candidate:/ {print $2}')
  if [[ -z "$candidate" || "$candidate" == "(none)" ]]; then
    echo "install-deps: optional $package is not available here; skipping it" >&2
  elif ! "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y --no-install-recommends "$package"; then
    echo "install-deps: optional $package failed to install; continuing without it" >&2
  fi
done
