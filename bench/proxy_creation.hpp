#pragma once
// Creating many proxies at once (a level loaded, a wave of bodies spawned), for the broadphase
// benchmark (bench/broadphase.cpp): broadphase_create/<library>/boxes_100k/<variant>/t1, one
// iteration one insertion of the 100k boxes of boxes_100k into the structure, timed alone (the
// structure made empty, the first pair search and the destruction are not timed), 10
// iterations.
//
//   trisect/batch           Broadphase::create_proxies into an empty broadphase (a subtree by
//                           binned SAH).
//   trisect/batch_into_100k the same into a broadphase that already holds another 100k boxes
//                           (the same boxes moved by half a box): the batch's tree joins the other.
//   trisect/one_by_one      create_proxy for each box.
//   bullet/one_by_one       btDbvtBroadphase::createProxy for each box (Bullet has no batch
//                           insertion).
//   embree/build            what an Embree user does: a user geometry of the boxes committed at
//                           RTC_BUILD_QUALITY_LOW.
//
// Counters: `height` (edges on the longest path of the dynamic tree; the bound is
// 2·log2(n)), `two_log2_n`, `sah_cost` (the tree's surface area cost), and, after the first
// update (untimed), `pairs` (Bullet's: the pairs in its cache, whose fat boxes overlap).
#include "moving_boxes.hpp"
#include "peers/embree_scene.hpp"

#ifdef TRISECT_BENCH_HAVE_BULLET
#include <btBulletCollisionCommon.h>
#endif

#include <trisect/broadphase/broadphase.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bench {

/// The boxes of boxes_100k, and the same moved by `offset` on every axis.
inline std::vector<trisect::Aabb> creation_boxes(float offset) {
  const MovingBoxes boxes(100'000, 1, 1);
  std::vector<trisect::Aabb> all(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const trisect::Aabb box = boxes.box(i);
    all[i] = {box.min + trisect::Vec3(offset), box.max + trisect::Vec3(offset)};
  }
  return all;
}

/// Times `create()` once per iteration; `after(made)` then runs untimed, and what was made is
/// destroyed untimed.
template <class Make, class After>
void time_creation(benchmark::State& state, const Make& create, const After& after) {
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto made = create();
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    after(*made);
  }
}

/// Counters of a broadphase's dynamic tree after a creation (its first update made here).
inline void tree_counters(benchmark::State& state, trisect::Broadphase& broadphase) {
  broadphase.update_pairs();
  const trisect::DynamicAabbTree& tree = broadphase.tree(trisect::Layer::dynamic_layer);
  state.counters["height"] = tree.height();
  state.counters["two_log2_n"] = 2 * std::log2(double(tree.size()));
  state.counters["sah_cost"] = tree.sah_cost();
  state.counters["pairs"] = double(broadphase.pairs().size());
}

inline void register_creation() {
  static const std::vector<trisect::Aabb> boxes = creation_boxes(0.0f);
  static const std::vector<trisect::Aabb> moved = creation_boxes(0.5f);
  const auto add = [](const std::string& name, std::function<void(benchmark::State&)> body) {
    benchmark::RegisterBenchmark(name.c_str(), std::move(body))
        ->Iterations(10)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime();
  };
  const auto counters = [](benchmark::State& state) {
    return [&state](trisect::Broadphase& broadphase) { tree_counters(state, broadphase); };
  };
  add("broadphase_create/trisect/boxes_100k/batch/t1", [=](benchmark::State& state) {
    time_creation(
        state,
        [] {
          auto broadphase = std::make_unique<trisect::Broadphase>();
          broadphase->create_proxies(boxes);
          return broadphase;
        },
        counters(state));
  });
  add("broadphase_create/trisect/boxes_100k/batch_into_100k/t1", [](benchmark::State& state) {
    for (auto _ : state) {
      auto broadphase = std::make_unique<trisect::Broadphase>();
      broadphase->create_proxies(moved);
      broadphase->update_pairs();
      const auto start = std::chrono::steady_clock::now();
      broadphase->create_proxies(boxes);
      state.SetIterationTime(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      tree_counters(state, *broadphase);
    }
  });
  add("broadphase_create/trisect/boxes_100k/one_by_one/t1", [=](benchmark::State& state) {
    time_creation(
        state,
        [] {
          auto broadphase = std::make_unique<trisect::Broadphase>();
          for (const trisect::Aabb& box : boxes) broadphase->create_proxy(box);
          return broadphase;
        },
        counters(state));
  });
#ifdef TRISECT_BENCH_HAVE_BULLET
  add("broadphase_create/bullet/boxes_100k/one_by_one/t1", [](benchmark::State& state) {
    time_creation(
        state,
        [] {
          auto broadphase = std::make_unique<btDbvtBroadphase>();
          for (const trisect::Aabb& box : boxes)
            broadphase->createProxy(btVector3(box.min.x, box.min.y, box.min.z),
                                    btVector3(box.max.x, box.max.y, box.max.z), 0, nullptr, 1, -1,
                                    nullptr);
          return broadphase;
        },
        [&state](btDbvtBroadphase& broadphase) {
          broadphase.calculateOverlappingPairs(nullptr);
          state.counters["pairs"] =
              double(broadphase.getOverlappingPairCache()->getNumOverlappingPairs());
        });
  });
#endif
  add("broadphase_create/embree/boxes_100k/build/t1", [](benchmark::State& state) {
    const embree::Device device(1);
    std::vector<RTCBounds> bounds(boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) embree::set_corners(bounds[i], boxes[i]);
    time_creation(
        state,
        [&] {
          return std::make_unique<embree::SceneHandle>(
              embree::user_box_scene(device.get(), bounds, RTC_BUILD_QUALITY_LOW));
        },
        [](embree::SceneHandle&) {});
  });
}

}  // namespace bench
