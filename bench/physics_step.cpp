// Physics step: a whole Bullet world step with Bullet's own broadphase, or with trisect's behind
// Bullet's interface (trisect::bullet::BroadphaseAdapter, examples/bullet): what an engine built
// on Bullet gains or loses per step by dropping trisect in.
//
// Scene (examples/bullet/falling_boxes_scene.hpp): a btDiscreteDynamicsWorld of 5000 unit boxes
// on a jittered lattice four layers high falling onto a static floor, the same seeded start for
// both. One iteration is one stepSimulation(1/60): AABB updates, broadphase, narrowphase, islands,
// solver and integration. Each repetition builds the scene afresh (untimed), steps 30 frames
// untimed (the boxes fall; caches warm up), then times 300 frames: the impacts and the pile
// forming, 5 s of simulated time. Counters: `median_frame_ms`, `worst_frame_ms` and
// `worst_over_median` of the 300 frames (wall clock); `pairs`, the mean size of the pair cache
// per frame (Bullet keeps a pair while the fat boxes overlap, trisect only while the boxes do,
// so the narrowphase gets fewer pairs from trisect); `resting`, the boxes at rest after the
// last frame.
//
//   trisect   BroadphaseAdapter (its own btHashedOverlappingPairCache), trisect's update in a
//             task_arena of 1 thread.
//   bullet    btDbvtBroadphase, Bullet's default; the world is serial either way.
//
// Built with the adapter only when Bullet and the examples are (TRISECT_BENCH_HAVE_BULLET_WORLD);
// otherwise the program registers nothing.
#include "bench_main.hpp"

#ifdef TRISECT_BENCH_HAVE_BULLET_WORLD
#include "scenes.hpp"

#include "falling_boxes_scene.hpp"

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace {

using trisect::bullet::BroadphaseKind;
using trisect::bullet::FallingBoxesScene;

constexpr int box_count = 5000;
constexpr int warmup_frames = 30;
constexpr benchmark::IterationCount timed_frames = 300;

void run_frames(benchmark::State& state, BroadphaseKind kind) {
  FallingBoxesScene scene(kind, box_count);
  for (int frame = 0; frame < warmup_frames; ++frame) scene.step();
  const btOverlappingPairCache& cache = *scene.broadphase().getOverlappingPairCache();
  std::vector<double> frame_ms;  // wall-clock time of each timed frame
  frame_ms.reserve(static_cast<std::size_t>(state.max_iterations));
  double pairs = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    scene.step();
    frame_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    pairs += double(cache.getNumOverlappingPairs());
  }
  std::sort(frame_ms.begin(), frame_ms.end());
  const double median = frame_ms[frame_ms.size() / 2], worst = frame_ms.back();
  state.counters["median_frame_ms"] = median;
  state.counters["worst_frame_ms"] = worst;
  state.counters["worst_over_median"] = median > 0 ? worst / median : 0;
  state.counters["pairs"] = pairs / double(state.iterations());
  state.counters["resting"] = double(scene.outcome().resting);
}

}  // namespace

void bench::register_all() {
  for (const BroadphaseKind kind : {BroadphaseKind::trisect, BroadphaseKind::bullet}) {
    const std::string name = bench::benchmark_name("physics_step", trisect::bullet::name_of(kind),
                                                   "boxes_5k", "fall", 1);
    benchmark::RegisterBenchmark(name.c_str(),
                                 [kind](benchmark::State& state) {
                                   tbb::task_arena arena(1);
                                   arena.execute([&] { run_frames(state, kind); });
                                 })
        ->Iterations(timed_frames)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

#else

void bench::register_all() {}  // no Bullet, or no examples: nothing to compare

#endif
