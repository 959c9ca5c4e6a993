#!/usr/bin/env bash
# Installs the Debian 12 packages that trisect's build, tests, benchmarks and CI need, and only
# those that are missing. Idempotent: when everything is present it changes nothing and exits 0.
# Needs root for apt-get; uses sudo when not root and sudo is available.
set -euo pipefail

packages=(
  cmake g++ make pkg-config   # toolchain
  libglm-dev                  # the library's one dependency
  catch2 libgmp-dev           # tests (Catch2 v2; gmpxx comes with libgmp-dev)
  libbenchmark-dev            # benchmarks
  libembree-dev libtbb-dev    # test oracle and benchmark peer
  clang-format                # formatting check
)

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == "installed" ]]
}

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: missing: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: not root and no sudo; install these as root and re-run:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
