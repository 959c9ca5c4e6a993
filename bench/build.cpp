// BVH construction over each scene, at 1 and 2 threads. One iteration builds one hierarchy
// over the whole scene and frees it; items processed are triangles.
//
//   build/trisect/<scene>/sah/tN     trisect::build with BuildOptions{.threads = N} (binned SAH,
//                                    16 bins, leaves of at most 8, the default costs).
//   build/trisect/<scene>/fast/tN    the same with .method = BuildMethod::morton (linear BVH,
//                                    leaves of at most 4), the fastest builder: the peer of
//                                    Embree's LOW (named "morton" before 2026-11-28).
//   build/trisect/<scene>/ploc/tN    .method = BuildMethod::ploc (clustering, leaves of at most
//                                    4): trees between the two above.
//   build/embree/<scene>/medium/tN   rtcNewScene + one RTC_GEOMETRY_TYPE_TRIANGLE geometry over
//   build/embree/<scene>/low/tN      shared buffers + rtcCommitScene + release, with
//                                    RTC_BUILD_QUALITY_MEDIUM or LOW, on a device made with
//                                    "threads=N" (the only Embree device alive while it runs:
//                                    Embree's TBB thread cap is process-wide).
// Counters:
//   sah_cost    trisect: trisect::statistics(bvh).sah_cost of the tree built, over its 8-wide
//               nodes (traversal and intersection cost 1; the tree is the same at any thread
//               count). embree: the same formula over the 8-wide tree that Embree's builder
//               makes through rtcBuildBVH at the same quality (MEDIUM: binned SAH; LOW: Morton)
//               with trisect's parameters (see peers/embree_scene.hpp). rtcCommitScene's own
//               BVH has multi-triangle leaves of its own layout and no comparable cost. (Before
//               trisect kept one layout, both were measured over binary trees: figures in
//               older results are not comparable with these.)
//   sah_cost_lanes
//               the same formula with each leaf priced per lane of its groups of four (its
//               triangle count rounded up to a multiple of 4), the pricing trisect's builder
//               and queries use. trisect: over its tree; embree: over the tree its builder
//               makes with sahBlockSize 4 and intersection cost 4 per block (Embree's own
//               pricing of four-triangle leaves, in the same unit).
//   leaves      leaf count of the tree whose sah_cost is shown.
//   triangles   triangles in the scene.
//   bytes_per_triangle
//               trisect: what the tree keeps in memory, statistics(bvh).bytes (wide nodes,
//               the triangle copy and ids) plus ray_node_bytes (the rays' float nodes), per
//               triangle. embree: what the committed scene keeps, counted by the device's
//               memory monitor (rtcSetDeviceMemoryMonitorFunction: allocations minus releases
//               during the build; the shared vertex and index buffers are the caller's).
//   peak_bytes_per_triangle
//               the most memory held at once while one more build runs (after the timed ones),
//               above what was held before it, per triangle: the heap through operator new
//               (replaced in this program to count live bytes), plus for Embree what its
//               device's memory monitor reports (its own aligned and mapped allocations).
//
// sphere_10m (scenes::cube_sphere with n = 913: 10,003,428 triangles) is a build-only scene,
// for peak memory; select it with --benchmark_filter=sphere_10m.
#include "bench_main.hpp"
#include "peers/embree_scene.hpp"
#include "scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/bvh.hpp>

#include <benchmark/benchmark.h>

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <new>
#include <string>
#include <utility>

namespace {

// Live heap bytes (operator new and Embree's monitored allocations) and the most since reset.
std::atomic<std::int64_t> live_bytes{0};
std::atomic<std::int64_t> peak_bytes{0};

void count_bytes(std::int64_t bytes) noexcept {
  const std::int64_t now = live_bytes.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::int64_t peak = peak_bytes.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

void* counted_allocation(std::size_t size, std::size_t alignment) {
  void* p = nullptr;
  if (alignment <= alignof(std::max_align_t)) {
    p = std::malloc(size == 0 ? 1 : size);
  } else if (posix_memalign(&p, alignment, size == 0 ? alignment : size) != 0) {
    p = nullptr;
  }
  if (p == nullptr) throw std::bad_alloc();
  count_bytes(static_cast<std::int64_t>(malloc_usable_size(p)));
  return p;
}

void counted_free(void* p) noexcept {
  if (p == nullptr) return;
  count_bytes(-static_cast<std::int64_t>(malloc_usable_size(p)));
  std::free(p);
}

// Peak bytes held while `run` runs, above those held before it.
template <class Run>
std::int64_t peak_during(const Run& run) {
  peak_bytes.store(live_bytes.load());
  const std::int64_t before = live_bytes.load();
  run();
  return peak_bytes.load() - before;
}

void set_common_counters(benchmark::State& state, std::size_t triangles, double sah_cost,
                         double sah_cost_lanes, std::size_t leaves, double bytes_per_triangle) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(triangles));
  state.counters["triangles"] = static_cast<double>(triangles);
  state.counters["sah_cost"] = sah_cost;
  state.counters["sah_cost_lanes"] = sah_cost_lanes;
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters["bytes_per_triangle"] = bytes_per_triangle;
}

void trisect_build(benchmark::State& state, const std::string& scene_name,
                   trisect::BuildMethod method, unsigned threads) {
  const bench::Scene& scene = bench::scene(scene_name);
  trisect::BuildOptions options;
  options.threads = threads;
  options.method = method;
  trisect::Bvh bvh;
  for (auto _ : state) {
    bvh = trisect::build(scene.soup(), options);
    benchmark::DoNotOptimize(bvh.wide.data());
    benchmark::ClobberMemory();
  }
  const trisect::BvhStatistics statistics = trisect::statistics(bvh);
  set_common_counters(
      state, scene.size(), statistics.sah_cost, statistics.sah_cost_lanes, statistics.leaf_count,
      static_cast<double>(statistics.bytes + statistics.ray_node_bytes) / double(scene.size()));
  bvh = {};
  const std::int64_t peak = peak_during([&] { bvh = trisect::build(scene.soup(), options); });
  state.counters["peak_bytes_per_triangle"] =
      static_cast<double>(peak) / static_cast<double>(scene.size());
}

// The cost of Embree's tree priced per triangle, and of the tree it makes for blocks of four
// priced per lane.
bench::embree::BuilderCost builder_cost(const std::string& scene_name, RTCBuildQuality quality) {
  static std::map<std::pair<std::string, int>, bench::embree::BuilderCost> cache;
  const auto key = std::make_pair(scene_name, static_cast<int>(quality));
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  bench::embree::BuilderCost cost =
      bench::embree::builder_sah_cost(bench::scene(scene_name), quality);
  cost.sah_cost_lanes =
      bench::embree::builder_sah_cost(bench::scene(scene_name), quality, 4).sah_cost_lanes;
  return cache[key] = cost;
}

const bench::embree::MeshBuffers& buffers(const std::string& scene_name) {
  static std::map<std::string, std::unique_ptr<const bench::embree::MeshBuffers>> cache;
  auto& slot = cache[scene_name];
  if (!slot) {
    const bench::Scene& scene = bench::scene(scene_name);
    slot = std::make_unique<const bench::embree::MeshBuffers>(scene.positions, scene.indices);
  }
  return *slot;
}

void embree_build(benchmark::State& state, const std::string& scene_name, RTCBuildQuality quality,
                  unsigned threads) {
  const bench::Scene& scene = bench::scene(scene_name);
  const bench::embree::MeshBuffers& mesh = buffers(scene_name);
  // Before the timed device exists: builder_sah_cost makes and releases its own device.
  const bench::embree::BuilderCost cost = builder_cost(scene_name, quality);
  std::int64_t kept_bytes = 0;
  {
    const bench::embree::Device device(threads);
    for (auto _ : state) {
      const bench::embree::SceneHandle built =
          bench::embree::triangle_scene(device.get(), mesh, quality);
      benchmark::DoNotOptimize(built.get());
      benchmark::ClobberMemory();
    }
    kept_bytes = bench::embree::triangle_scene_bytes(device.get(), mesh, quality);
    rtcSetDeviceMemoryMonitorFunction(
        device.get(),
        [](void*, ssize_t bytes, bool) {
          count_bytes(bytes);
          return true;
        },
        nullptr);
    const std::int64_t peak = peak_during([&] {
      const bench::embree::SceneHandle built =
          bench::embree::triangle_scene(device.get(), mesh, quality);
      benchmark::DoNotOptimize(built.get());
    });
    rtcSetDeviceMemoryMonitorFunction(device.get(), nullptr, nullptr);
    state.counters["peak_bytes_per_triangle"] =
        static_cast<double>(peak) / static_cast<double>(scene.size());
  }
  set_common_counters(state, scene.size(), cost.sah_cost, cost.sah_cost_lanes, cost.leaf_count,
                      static_cast<double>(kept_bytes) / static_cast<double>(scene.size()));
}

}  // namespace

void* operator new(std::size_t size) { return counted_allocation(size, 0); }
void* operator new[](std::size_t size) { return counted_allocation(size, 0); }
void* operator new(std::size_t size, std::align_val_t alignment) {
  return counted_allocation(size, static_cast<std::size_t>(alignment));
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  return counted_allocation(size, static_cast<std::size_t>(alignment));
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }

void bench::register_all() {
  std::vector<std::string> scenes = bench::scene_names();
  scenes.push_back("sphere_10m");
  for (const std::string& scene : scenes) {
    for (const auto& [variant, method] : {std::pair{"sah", trisect::BuildMethod::sah},
                                          std::pair{"fast", trisect::BuildMethod::morton},
                                          std::pair{"ploc", trisect::BuildMethod::ploc}})
      for (const unsigned threads : {1u, 2u})
        benchmark::RegisterBenchmark(
            bench::benchmark_name("build", "trisect", scene, variant, threads).c_str(),
            [scene, method = method, threads](benchmark::State& state) {
              trisect_build(state, scene, method, threads);
            })
            ->Unit(benchmark::kMillisecond);
    for (const auto& [variant, quality] :
         {std::pair{"medium", RTC_BUILD_QUALITY_MEDIUM}, std::pair{"low", RTC_BUILD_QUALITY_LOW}})
      for (const unsigned threads : {1u, 2u})
        benchmark::RegisterBenchmark(
            bench::benchmark_name("build", "embree", scene, variant, threads).c_str(),
            [scene, quality = quality, threads](benchmark::State& state) {
              embree_build(state, scene, quality, threads);
            })
            ->Unit(benchmark::kMillisecond);
  }
}
