#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) for the OBJ, PLY and
# STL readers and the query-file parser, and runs each for SECONDS (default 60) from the seed
# corpus in tests/fuzz/corpus/<target>. New inputs go to build/fuzz/corpus/, never into the
# repository. Any crash or sanitizer report fails the script and leaves the input in
# build/fuzz/. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=build/fuzz
mkdir -p "$out"
cxx=${CLANGXX:-clang++}
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -Iinclude $(pkg-config --cflags glm 2>/dev/null || true))
core=(src/math/*.cpp src/mesh/*.cpp src/bvh/*.cpp src/io/*.cpp)

build() {  # build NAME SOURCE [extra flags...]
  local name=$1 source=$2
  shift 2
  if [[ ! -x $out/$name || $source -nt $out/$name ]] || [[ -n $(find src include -newer "$out/$name" -name '*.[ch]pp' -print -quit) ]]; then
    echo "building $name"
    "$cxx" "${flags[@]}" "$@" "$source" "${core[@]}" src/cli/query_file.cpp -ltbb -o "$out/$name"
  fi
}

build fuzz_obj tests/fuzz/fuzz_mesh.cpp -DTRISECT_FUZZ_FORMAT=obj
build fuzz_ply tests/fuzz/fuzz_mesh.cpp -DTRISECT_FUZZ_FORMAT=ply
build fuzz_stl tests/fuzz/fuzz_mesh.cpp -DTRISECT_FUZZ_FORMAT=stl
build fuzz_query tests/fuzz/fuzz_query.cpp

for target in obj ply stl query; do
  corpus=$out/corpus/$target
  mkdir -p "$corpus"
  echo "fuzzing $target for ${seconds}s"
  (cd "$out" && "./fuzz_$target" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
      "corpus/$target" "../../tests/fuzz/corpus/$target" 2>&1 | tail -n 12)
done
