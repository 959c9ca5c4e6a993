#pragma once
// The TBB arenas the benchmarks run their N-thread variants in, shared by the programs that
// link the Embree wrapper (bench_ray, bench_nearest).
#include "embree_peer.hpp"

#include <tbb/task_arena.h>

#include <map>
#include <memory>

namespace bench {

/// The arena of `threads` threads, made once per program. With N > 1 a threads=N Embree device
/// is kept alive beside it: Embree caps the process's TBB concurrency at its largest live
/// device's (see peers/embree_scene.hpp), which would otherwise hold the arena to fewer threads.
inline tbb::task_arena& arena(unsigned threads) {
  static std::map<unsigned, std::unique_ptr<tbb::task_arena>> arenas;
  static std::map<unsigned, std::unique_ptr<trisect::embree::Device>> devices;
  auto& slot = arenas[threads];
  if (!slot) {
    if (threads > 1) devices[threads] = std::make_unique<trisect::embree::Device>(threads);
    slot = std::make_unique<tbb::task_arena>(static_cast<int>(threads));
  }
  return *slot;
}

}  // namespace bench
