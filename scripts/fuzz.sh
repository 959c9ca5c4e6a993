#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) for the OBJ, PLY and
# STL readers, the query-file parser, the slice and overlap command lines and tree files, and runs each for SECONDS (default 60) from the seed
# corpus in tests/fuzz/corpus/<target>. New inputs go to build/fuzz/corpus/, never into the
# repository. Any crash or sanitizer report fails the script and leaves the input in
# build/fuzz/. The library sources are compiled once, JOBS (default 2) at a time, and shared by
# the targets; a change to any source or header rebuilds them. The targets are linked, and the
# fuzzers run (each on one thread), JOBS at a time too. TARGETs (default: all of them)
# name the ones to build and run: obj, ply, stl, query, arguments, bvh_file.
# Usage: scripts/fuzz.sh [SECONDS [TARGET...]]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=("${@:2}")
all_targets=(obj ply stl query arguments bvh_file)
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $target "* ]] ||
    { echo "unknown fuzz target '$target' (${all_targets[*]})" >&2; exit 2; }
done
jobs=${JOBS:-2}
out=build/fuzz
objects=$out/obj
mkdir -p "$objects"
cxx=${CLANGXX:-clang++}
sanitizers=(-fsanitize=address,undefined -fno-sanitize-recover=all)
flags=(-std=c++20 -O1 -g "${sanitizers[@]}" -Iinclude -Isrc $(pkg-config --cflags glm 2>/dev/null || true))
# Every library and command source but the program's main (the arguments target runs the command
# in-process); CLI11 and nlohmann-json are header-only.
# The command's sources are compiled as one (a unity source, as CMake builds them): each includes
# CLI11, whose header-only parser takes about 15 s to compile under the sanitizers.
cli_unity=$out/cli_unity.cpp
core=(src/math/*.cpp src/geometry/*.cpp src/mesh/*.cpp src/bvh/*.cpp src/slice/*.cpp src/overlap/*.cpp src/nearest/*.cpp src/io/*.cpp "$cli_unity")
stamp=$out/core.stamp

# The library objects: instrumented for coverage (fuzzer-no-link) but without libFuzzer's main.
if [[ ! -f $stamp ]] || [[ -n $(find src include -newer "$stamp" -name '*.[ch]pp' -print -quit) ]]; then
  echo "building the library objects (${#core[@]} sources, $jobs at a time)"
  rm -f "$objects"/*.o "$stamp"
  for source in $(ls src/cli/*.cpp | grep -v main.cpp); do
    echo "#include \"$PWD/$source\""
  done >"$cli_unity"
  printf '%s\n' "${core[@]}" | xargs -P "$jobs" -I{} sh -c \
    'o="$1/$(echo "$2" | tr / _).o"; shift 2; exec "$@" -c "$0" -o "$o"' \
    {} "$objects" {} "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link
  touch "$stamp"
fi

build() {  # build NAME SOURCE [extra flags...]
  local name=$1 source=$2
  shift 2
  if [[ ! -x $out/$name || $source -nt $out/$name || $stamp -nt $out/$name ]]; then
    echo "building $name"
    "$cxx" "${flags[@]}" -fsanitize=fuzzer "$@" "$source" "$objects"/*.o -ltbb -lgmpxx -lgmp -o "$out/$name"
  fi
}

# Runs "$@" in the background once fewer than `jobs` started by it are running (waiting on the
# oldest first); `wait_jobs` waits for the rest. Each is waited on once, by its pid, so that a
# failure is seen however early it ended: `failed` is then 1.
failed=0
pids=()
waited=0
start_job() {
  while ((${#pids[@]} - waited >= jobs)); do
    wait "${pids[waited]}" || failed=1
    waited=$((waited + 1))
  done
  "$@" &
  pids+=($!)
}
wait_jobs() {
  while ((waited < ${#pids[@]})); do
    wait "${pids[waited]}" || failed=1
    waited=$((waited + 1))
  done
}

for target in "${targets[@]}"; do
  case $target in
    obj | ply | stl) start_job build "fuzz_$target" tests/fuzz/fuzz_mesh.cpp "-DTRISECT_FUZZ_FORMAT=$target" ;;
    *) start_job build "fuzz_$target" "tests/fuzz/fuzz_$target.cpp" ;;
  esac
done
wait_jobs
((failed == 0)) || { echo "building a fuzz target failed" >&2; exit 1; }

# Each fuzzer runs on one thread: `jobs` of them at a time, each into its own log.
fuzz() {  # fuzz TARGET
  local target=$1
  mkdir -p "$out/corpus/$target"
  # Absolute corpus paths: the arguments target changes its working folder.
  (cd "$out" && "./fuzz_$target" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
      -timeout=10 -artifact_prefix="$PWD/" \
      "$PWD/corpus/$target" "$PWD/../../tests/fuzz/corpus/$target" >"$target.log" 2>&1)
}
for target in "${targets[@]}"; do
  echo "fuzzing $target for ${seconds}s"
  start_job fuzz "$target"
done
wait_jobs
for target in "${targets[@]}"; do
  echo "== $target"
  tail -n 12 "$out/$target.log"
done
((failed == 0)) || { echo "a fuzzer failed: see its log above and its input in $out/" >&2; exit 1; }
