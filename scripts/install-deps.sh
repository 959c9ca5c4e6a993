#!/usr/bin/env bash
# Installs the Debian 12 packages one use of trisect needs, and only those that are missing.
# Idempotent: when everything is present it changes nothing and exits 0. Needs root for
# apt-get; uses sudo when not root and sudo is available.
#
#   install-deps.sh run     the library, the `trisect` command and its demo (`make run`)
#   install-deps.sh test    run + the test suite, the examples and the Python module (`make test`)
#   install-deps.sh bench   run + Google Benchmark and the benchmark peers (`make bench`)
#   install-deps.sh all     everything, with the sanitizer, fuzzing and formatting tools (CI; the
#                           default)
#
# Optional packages (benchmark peers, and Bullet for the adapter's example and test: the build
# does without them) are installed too when the distribution offers them; when one is
# unavailable or fails to install, the script says so and still succeeds.
set -euo pipefail

profile=${1:-all}

run_packages=(
  cmake g++ make pkg-config   # toolchain
  libglm-dev libtbb-dev       # the library's dependencies
  libgmp-dev                  # exact ties of the nearest queries (gmpxx comes with libgmp-dev)
  libxxhash-dev               # the tree file's checksum (XXH3, header-only use)
  libcli11-dev                # the trisect command's arguments (header-only)
  nlohmann-json3-dev          # the trisect command's JSON output (header-only)
  libembree-dev               # `trisect demo` times Embree beside trisect; the tests' oracle
)
test_packages=(
  catch2                      # the test suite (Catch2 v2)
  pybind11-dev python3-dev python3-numpy python3-pytest  # the Python module and its tests
  python3-dask python3-distributed  # the Dask example (examples/python) and its test
  python3-venv python3-pip python3-setuptools python3-wheel  # `pip install .` in a venv (setup.py)
)
test_optional=(
  libbullet-dev               # the Bullet adapter (examples/bullet), its example and its test
)
bench_packages=(
  libbenchmark-dev            # benchmarks
)
tool_packages=(
  clang-format                # formatting check
  clang libclang-rt-14-dev    # libFuzzer targets (scripts/fuzz.sh)
)
bench_optional=(
  libcgal-dev                 # benchmarks only: the CGAL peers of plane_query and overlap
  libbullet-dev               # btDbvtBroadphase, the peer of broadphase and physics_step
  libfcl-dev                  # benchmarks only: the FCL peer of overlap
  python3-open3d              # benchmarks only: Open3D's RaycastingScene, the Python peer
)

packages=("${run_packages[@]}")
optional_packages=()
case "$profile" in
  run) ;;
  test)
    packages+=("${test_packages[@]}")
    optional_packages+=("${test_optional[@]}")
    ;;
  bench)
    packages+=("${bench_packages[@]}")
    optional_packages+=("${bench_optional[@]}")
    ;;
  all)
    packages+=("${test_packages[@]}" "${bench_packages[@]}" "${tool_packages[@]}")
    optional_packages+=("${bench_optional[@]}")  # libbullet-dev among them
    ;;
  *)
    echo "install-deps: unknown profile '$profile' (expected run, test, bench or all)" >&2
    exit 2
    ;;
esac

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
  echo "install-deps ($profile): all ${#packages[@]} packages and ${#optional_packages[@]} optional present"
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
