// Broadphase: boxes moving every frame, the pairs whose boxes overlap found again each frame; and
// scene queries (boxes, rays) on a broadphase.
//
// Scenes, each a scenario with size(), box(i), is_static(i), its movers, displacement(i) and
// advance() (one frame's motion):
//
//   boxes_10k, boxes_100k (bench/moving_boxes.hpp): 10k or 100k boxes, half-extents 0.5..1.5, in
//     a cube sized so that each box overlaps about two others, moving at constant small
//     velocities and bouncing off the walls. Variants: `move` (every box moves every frame) and
//     `move10pct` (every tenth box moves; the others stay).
//   rest_22k/jitter (bench/resting_pile.hpp): a resting world, 22,000 unit cubes stacked in brick
//     bond on a static floor, each resting on two below with contacts 0.005 deep (41,440
//     pairs); every frame every cube jitters by at most 0.001 per axis about its rest position (a
//     solver's residual motion), never leaving its fat box, and is moved with that displacement.
//   static_1m/move1k (bench/static_level.hpp): a large level, 1,000,000 static unit cubes on a
//     lattice (trisect's Layer::static_layer, Bullet's StaticFilter group) and 1,000 bodies moving
//     as boxes_*'s movers do through it, each overlapping about 3.4 of the cubes.
//
// One iteration is one frame: advance the boxes, tell the structure (move), let it find the pairs
// (update), count the pairs whose boxes overlap. Each benchmark runs 300 frames per repetition
// from its own copy of the scenario, and the `pairs` counter is the mean pair count per frame:
// every library sees the same frames, so the counters must agree. The spikes: `median_frame_ms`
// and `worst_frame_ms` are the median and the slowest of the repetition's 300 frames (wall
// clock), `worst_over_median` their ratio. Warm-up: untimed frames before each repetition's timed
// ones, the same for every library: 150 before the first and 3 before later ones (caches, and
// Embree's new device and scene). The 150 take the scenario past its start, when every box
// leaves the fat box it was created with in the same frame and again in waves a fat box's
// lifetime apart, until the boxes' different speeds spread them out (and, for Bullet, past the
// ~100 frames in which it moves unmoved proxies to its fixed tree and re-optimises that): a cost
// only the start of a simulation pays, which the timed frames would catch or miss by chance.
// Building a world (1,001,000 proxies for static_1m) is not timed; trisect's and Bullet's are
// built on a benchmark's first repetition and kept for the later ones.
//
//   trisect   trisect::Broadphase (bench/trisect_broadphase.hpp), its proxies created as one batch
//             (create_proxies): move_proxy for the movers (the displacement is the scenario's),
//             update_pairs (begin/end events and the sorted pair list); TBB in a task_arena of t
//             threads.
//   bullet    btDbvtBroadphase (libbullet-dev, optional; bench/peers/bullet_broadphase.hpp):
//             setAabb for the movers, calculateOverlappingPairs, its pair cache filtered to
//             overlapping boxes; with static boxes, these in its fixed tree and both trees
//             rebuilt top-down (optimize) before the frames. One thread.
//   embree    boxes_* and rest_22k: user geometry of all boxes rebuilt at RTC_BUILD_QUALITY_LOW,
//             rtcCollide with itself (bench/peers/embree_boxes.hpp); static_1m: the level built
//             once (MEDIUM), the movers rebuilt every frame (LOW), rtcCollide(movers, level) and
//             rtcCollide(movers, movers) (bench/peers/embree_level.hpp); a threads=t device.
//
// Scene queries, broadphase_query/<library>/boxes_100k/{box,ray}/t1 (bench/query_frames.hpp):
// the 100k boxes of boxes_100k, at rest (nothing moves: the queries alone are timed), and per
// frame 1000 box queries (half-extents 0.5..2.5) or 1000 segments (lengths 20..40), each
// counting the boxes it meets: `hits` is the mean count per frame (it must agree between the
// libraries), `us_per_query` the mean frame time over 1000, and the frame counters as above.
//
//   trisect   Broadphase::query(box, visit), Broadphase::query(ray, filter, visit), the ray from
//             t = 0 to 1 (bench/trisect_queries.hpp).
//   bullet    aabbTest and rayTest with counting callbacks that test the proxies' own boxes, on
//             the tree rebuilt top-down (bench/peers/bullet_queries.hpp).
//   embree    the boxes built once; box queries as rtcCollide of the frame's query boxes (a scene
//             built per frame) with them, segments as rtcIntersect1 with an intersection function
//             that counts and lets the walk go on (bench/peers/embree_queries.hpp).
// Every side decides a segment's hits by the same test up to ties no random segment meets
// (bench/segment.hpp).
//
// Creation, broadphase_create/<library>/boxes_100k/<variant>/t1 (bench/proxy_creation.hpp): the
// 100k boxes created at once, in a batch or one at a time.
#include "bench_main.hpp"
#include "moving_boxes.hpp"
#include "peers/embree_boxes.hpp"
#include "peers/embree_level.hpp"
#include "peers/embree_queries.hpp"
#include "proxy_creation.hpp"
#include "query_frames.hpp"
#include "resting_pile.hpp"
#include "scenes.hpp"
#include "segment.hpp"
#include "static_level.hpp"
#include "trisect_broadphase.hpp"
#include "trisect_queries.hpp"

#ifdef TRISECT_BENCH_HAVE_BULLET
#include "peers/bullet_broadphase.hpp"
#include "peers/bullet_queries.hpp"
#endif

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace {

constexpr int first_warmup_frames = 150;
constexpr int later_warmup_frames = 3;
constexpr benchmark::IterationCount timed_frames = 300;

// Means over a repetition's timed frames.
struct FrameMeans {
  double count = 0;     // what step() returned: pairs or hits
  double frame_ms = 0;  // wall clock
};

// The warm-up and the timed frames of one repetition: each frame advances the scenario and steps
// the world. Sets the frame-time counters; returns the means.
template <class Scenario, class World>
FrameMeans run_frames(benchmark::State& state, Scenario& scenario, World& world, bool& is_warm) {
  for (int frame = 0; frame < (is_warm ? later_warmup_frames : first_warmup_frames); ++frame) {
    scenario.advance();
    benchmark::DoNotOptimize(world.step(scenario));
  }
  is_warm = true;
  double count = 0;
  std::vector<double> frame_ms;  // wall-clock time of each timed frame
  frame_ms.reserve(static_cast<std::size_t>(state.max_iterations));
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    scenario.advance();
    count += double(world.step(scenario));
    frame_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  const double frames = double(frame_ms.size());
  const double mean_ms = std::accumulate(frame_ms.begin(), frame_ms.end(), 0.0) / frames;
  std::sort(frame_ms.begin(), frame_ms.end());
  const double median = frame_ms[frame_ms.size() / 2], worst = frame_ms.back();
  state.counters["median_frame_ms"] = median;
  state.counters["worst_frame_ms"] = worst;
  state.counters["worst_over_median"] = median > 0 ? worst / median : 0;
  return {count / frames, mean_ms};
}

// What persists between the repetitions of one benchmark: its scenario and, for the libraries
// with incremental state (trisect, bullet), its world.
template <class Scenario>
struct Slot {
  std::unique_ptr<Scenario> scenario;
  std::shared_ptr<void> world;
  bool is_warm = false;  // the first repetition ran
};

// The frames on a world of type World made from the scenario on the first repetition and kept.
template <class World, class Scenario>
FrameMeans run_kept(benchmark::State& state, Slot<Scenario>& slot) {
  if (!slot.world) slot.world = std::make_shared<World>(*slot.scenario);
  return run_frames(state, *slot.scenario, *std::static_pointer_cast<World>(slot.world),
                    slot.is_warm);
}

// The frames of one library at `threads` threads. Embree's world is made for each repetition:
// its device must not outlive the benchmark (see peers/embree_scene.hpp).
template <class Worlds, class Scenario>
FrameMeans run_library(benchmark::State& state, Slot<Scenario>& slot, const std::string& library,
                       unsigned threads) {
  FrameMeans means;
  if (library == "trisect") {
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute([&] { means = run_kept<typename Worlds::Trisect>(state, slot); });
  }
#ifdef TRISECT_BENCH_HAVE_BULLET
  if (library == "bullet") means = run_kept<typename Worlds::Bullet>(state, slot);
#endif
  if (library == "embree") {
    typename Worlds::Embree world(*slot.scenario, threads);
    means = run_frames(state, *slot.scenario, world, slot.is_warm);
  }
  return means;
}

// One scene: its name's parts, its scenario and how its counters are made.
template <class Scenario>
struct Scene {
  std::string operation, name, variant;
  std::vector<unsigned> threads;  // trisect's and Embree's; Bullet's broadphase is serial
  std::function<std::unique_ptr<Scenario>()> make;
  std::function<void(benchmark::State&, const Scenario&, const FrameMeans&)> counters;
};

// One repetition of a benchmark: the scenario made on its first run, the frames, the counters.
template <class Worlds, class Scenario>
void run_benchmark(benchmark::State& state, const Scene<Scenario>& scene, Slot<Scenario>& slot,
                   const std::string& library, unsigned threads) {
  if (!slot.scenario) slot.scenario = scene.make();
  const FrameMeans means = run_library<Worlds>(state, slot, library, threads);
  scene.counters(state, *slot.scenario, means);
}

// Registers <operation>/<library>/<scene>/<variant>/t<threads> for each library and thread count:
// 300 timed frames of the scenario on Worlds' world types.
template <class Worlds, class Scenario>
void register_scene(const Scene<Scenario>& scene) {
  for (const std::string library : {"trisect", "bullet", "embree"})
    for (const unsigned threads : scene.threads) {
#ifndef TRISECT_BENCH_HAVE_BULLET
      if (library == "bullet") continue;
#endif
      if (library == "bullet" && threads != 1) continue;
      const std::string name =
          bench::benchmark_name(scene.operation, library, scene.name, scene.variant, threads);
      const auto slot = std::make_shared<Slot<Scenario>>();
      const auto run = [=](benchmark::State& state) {
        run_benchmark<Worlds>(state, scene, *slot, library, threads);
      };
      benchmark::RegisterBenchmark(name.c_str(), run)
          ->Iterations(timed_frames)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
}

// The world types of the pair-finding scenes.
template <class EmbreeWorld>
struct PairWorlds {
  using Trisect = bench::TrisectBroadphase;
#ifdef TRISECT_BENCH_HAVE_BULLET
  using Bullet = bench::BulletBroadphase;
#endif
  using Embree = EmbreeWorld;
};

// The world types of the scene queries.
struct QueryWorlds {
  using Trisect = bench::TrisectQueries;
#ifdef TRISECT_BENCH_HAVE_BULLET
  using Bullet = bench::BulletQueries;
#endif
  using Embree = bench::EmbreeQueries;
};

// Counters of the pair-finding scenes.
template <class Scenario>
void pair_counters(benchmark::State& state, const Scenario& scenario, const FrameMeans& means) {
  state.counters["pairs"] = means.count;
  state.counters["boxes"] = double(scenario.size());
  state.counters["movers"] = double(scenario.movers.size());
}

// Counters of the scene queries.
template <class Query>
void query_counters(benchmark::State& state, const bench::QueryFrames<Query>& frames,
                    const FrameMeans& means) {
  const double queries = double(frames.per_batch());
  state.counters["hits"] = means.count;
  state.counters["boxes"] = double(frames.scene.size());
  state.counters["queries"] = queries;
  state.counters["us_per_query"] = 1000.0 * means.frame_ms / queries;
}

void register_moving_boxes() {
  using bench::MovingBoxes;
  struct Size {
    const char* name;
    std::size_t count;
  };
  for (const Size size : {Size{"boxes_10k", 10'000}, Size{"boxes_100k", 100'000}})
    for (const std::string variant : {"move", "move10pct"}) {
      const std::size_t count = size.count, move_every = variant == "move" ? 1 : 10;
      register_scene<PairWorlds<bench::EmbreeBoxes>>(Scene<MovingBoxes>{
          .operation = "broadphase",
          .name = size.name,
          .variant = variant,
          .threads = {1, 2},
          .make = [=] { return std::make_unique<MovingBoxes>(count, move_every, 1); },
          .counters = pair_counters<MovingBoxes>});
    }
}

void register_resting_pile() {
  using bench::RestingPile;
  register_scene<PairWorlds<bench::EmbreeBoxes>>(
      Scene<RestingPile>{.operation = "broadphase",
                         .name = "rest_22k",
                         .variant = "jitter",
                         .threads = {1, 2},
                         .make = [] { return std::make_unique<RestingPile>(1); },
                         .counters = pair_counters<RestingPile>});
}

void register_static_level() {
  using bench::StaticLevel;
  register_scene<PairWorlds<bench::EmbreeLevel>>(
      Scene<StaticLevel>{.operation = "broadphase",
                         .name = "static_1m",
                         .variant = "move1k",
                         .threads = {1},
                         .make = [] { return std::make_unique<StaticLevel>(1000, 1); },
                         .counters = pair_counters<StaticLevel>});
}

// The scene queries of kind Query (boxes or segments), named `variant`.
template <class Query>
void register_queries(const char* variant) {
  using Frames = bench::QueryFrames<Query>;
  register_scene<QueryWorlds>(
      Scene<Frames>{.operation = "broadphase_query",
                    .name = "boxes_100k",
                    .variant = variant,
                    .threads = {1},
                    .make = [] { return std::make_unique<Frames>(100'000, 1000, 1); },
                    .counters = query_counters<Query>});
}

}  // namespace

void bench::register_all() {
  register_moving_boxes();
  register_resting_pile();
  register_static_level();
  register_queries<trisect::Aabb>("box");
  register_queries<bench::Segment>("ray");
  bench::register_creation();
}
