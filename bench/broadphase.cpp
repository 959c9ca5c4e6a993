// Broadphase: boxes moving every frame, the pairs whose boxes overlap found again each frame.
//
// Scenario (bench/moving_boxes.hpp): 10k or 100k boxes, half-extents 0.5..1.5, in a cube sized
// so that each box overlaps about two others, moving at constant small velocities and bouncing
// off the walls. Variants: `move` (every box moves every frame) and `move10pct` (every tenth box
// moves; the others stay). One iteration is one frame: advance the boxes, tell the structure
// (move), let it find the pairs (update), count the pairs whose boxes overlap. Each benchmark
// runs 300 frames per repetition from its own copy of the scenario, and the `pairs` counter is
// the mean pair count per frame: every library sees the same frames, so the counters must
// agree. The spikes: `median_frame_ms` and `worst_frame_ms` are the median and the slowest of
// the repetition's 300 frames (wall clock), `worst_over_median` their ratio. Warm-up: untimed
// frames before each repetition's timed ones, the same for every library: 150 before the first and
// 3 before later ones (caches, and Embree's new device and scene). The 150 take the scenario past
// its start, when every box leaves the fat box it was created with in the same frame and again in
// waves a fat box's lifetime apart, until the boxes' different speeds spread them out: a cost only
// the start of a simulation pays, which the timed frames would catch or miss by chance.
//
//   trisect   trisect::Broadphase: move_proxy for the movers (the displacement is the velocity),
//             update_pairs (begin/end events and the sorted pair list); TBB in a task_arena of
//             t threads.
//   bullet    btDbvtBroadphase (libbullet-dev, optional): setAabb for the movers,
//             calculateOverlappingPairs, its pair cache filtered to overlapping boxes. One thread.
//   embree    user geometry of all boxes rebuilt at RTC_BUILD_QUALITY_LOW, rtcCollide with
//             itself (bench/peers/embree_boxes.hpp); a threads=t device.
#include "bench_main.hpp"
#include "moving_boxes.hpp"
#include "peers/embree_boxes.hpp"
#include "scenes.hpp"

#ifdef TRISECT_BENCH_HAVE_BULLET
#include "peers/bullet_broadphase.hpp"
#endif

#include <trisect/broadphase/broadphase.hpp>

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using bench::MovingBoxes;

class TrisectBroadphase {
 public:
  explicit TrisectBroadphase(const MovingBoxes& boxes) {
    for (std::size_t i = 0; i < boxes.size(); ++i)
      ids_.push_back(broadphase_.create_proxy(boxes.box(i)));
    broadphase_.update_pairs();
  }

  std::size_t step(const MovingBoxes& boxes) {
    for (const std::uint32_t i : boxes.movers)
      broadphase_.move_proxy(ids_[i], boxes.box(i), boxes.velocities[i]);
    broadphase_.update_pairs();
    return broadphase_.pairs().size();
  }

 private:
  trisect::Broadphase broadphase_;
  std::vector<trisect::ProxyId> ids_;
};

// What persists between the repetitions of one benchmark: its scenario and, for the libraries
// with incremental state, its structure.
struct Slot {
  std::unique_ptr<MovingBoxes> boxes;
  bool is_warm = false;  // the first repetition ran
  std::unique_ptr<TrisectBroadphase> trisect;
#ifdef TRISECT_BENCH_HAVE_BULLET
  std::unique_ptr<bench::BulletBroadphase> bullet;
#endif
};

constexpr int first_warmup_frames = 150;
constexpr int later_warmup_frames = 3;

template <class World>
void run_frames(benchmark::State& state, Slot& slot, World& world) {
  MovingBoxes& boxes = *slot.boxes;
  for (int frame = 0; frame < (slot.is_warm ? later_warmup_frames : first_warmup_frames); ++frame) {
    boxes.advance();
    benchmark::DoNotOptimize(world.step(boxes));
  }
  slot.is_warm = true;
  double pairs = 0;
  std::vector<double> frame_ms;  // wall-clock time of each timed frame
  frame_ms.reserve(static_cast<std::size_t>(state.max_iterations));
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    boxes.advance();
    pairs += double(world.step(boxes));
    frame_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(frame_ms.begin(), frame_ms.end());
  const double median = frame_ms[frame_ms.size() / 2], worst = frame_ms.back();
  state.counters["median_frame_ms"] = median;
  state.counters["worst_frame_ms"] = worst;
  state.counters["worst_over_median"] = median > 0 ? worst / median : 0;
  state.counters["pairs"] = pairs / double(state.iterations());
  state.counters["boxes"] = double(boxes.size());
  state.counters["movers"] = double(boxes.movers.size());
}

}  // namespace

void bench::register_all() {
  struct Size {
    const char* name;
    std::size_t count;
    benchmark::IterationCount frames;
  };
  for (const Size size : {Size{"boxes_10k", 10'000, 300}, Size{"boxes_100k", 100'000, 300}})
    for (const std::string variant : {"move", "move10pct"})
      for (const std::string library : {"trisect", "bullet", "embree"})
        for (const unsigned threads : {1u, 2u}) {
#ifndef TRISECT_BENCH_HAVE_BULLET
          if (library == "bullet") continue;
#endif
          if (library == "bullet" && threads != 1) continue;  // Bullet's broadphase is serial
          const std::string name =
              bench::benchmark_name("broadphase", library, size.name, variant, threads);
          const auto slot = std::make_shared<Slot>();
          const std::size_t count = size.count;
          const std::size_t move_every = variant == "move" ? 1 : 10;
          benchmark::RegisterBenchmark(
              name.c_str(),
              [=](benchmark::State& state) {
                if (!slot->boxes) slot->boxes = std::make_unique<MovingBoxes>(count, move_every, 1);
                const MovingBoxes& boxes = *slot->boxes;
                if (library == "embree") {
                  bench::EmbreeBoxes world(boxes, threads);
                  run_frames(state, *slot, world);
                }
#ifdef TRISECT_BENCH_HAVE_BULLET
                if (library == "bullet") {
                  if (!slot->bullet)
                    slot->bullet = std::make_unique<bench::BulletBroadphase>(boxes);
                  run_frames(state, *slot, *slot->bullet);
                }
#endif
                if (library == "trisect") {
                  if (!slot->trisect) slot->trisect = std::make_unique<TrisectBroadphase>(boxes);
                  tbb::task_arena arena(static_cast<int>(threads));
                  arena.execute([&] { run_frames(state, *slot, *slot->trisect); });
                }
              })
              ->Iterations(size.frames)
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime();
        }
}
