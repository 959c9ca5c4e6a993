// BVH construction over each scene, at 1 and 2 threads. One iteration builds one hierarchy
// over the whole scene and frees it; items processed are triangles.
//
//   build/trisect/<scene>/sah/tN     trisect::build with BuildOptions{.threads = N} (binned SAH,
//                                    16 bins, leaves of at most 8, the default costs).
//   build/trisect/<scene>/morton/tN  the same with .method = BuildMethod::morton (linear BVH,
//                                    leaves of at most 4): the peer of Embree's LOW.
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
//   leaves      leaf count of the tree whose sah_cost is shown.
//   triangles   triangles in the scene.
//   bytes_per_triangle
//               trisect: trisect::statistics(bvh).bytes_per_triangle (wide nodes, the triangle
//               copy and ids). embree: what the committed scene keeps, counted by the device's
//               memory monitor (rtcSetDeviceMemoryMonitorFunction: allocations minus releases
//               during the build; the shared vertex and index buffers are the caller's).
#include "bench_main.hpp"
#include "peers/embree_scene.hpp"
#include "scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/bvh.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <utility>

namespace {

void set_common_counters(benchmark::State& state, std::size_t triangles, double sah_cost,
                         std::size_t leaves, double bytes_per_triangle) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(triangles));
  state.counters["triangles"] = static_cast<double>(triangles);
  state.counters["sah_cost"] = sah_cost;
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
  set_common_counters(state, scene.size(), statistics.sah_cost, statistics.leaf_count,
                      statistics.bytes_per_triangle);
}

const bench::embree::BuilderCost& builder_cost(const std::string& scene_name,
                                               RTCBuildQuality quality) {
  static std::map<std::pair<std::string, int>, bench::embree::BuilderCost> cache;
  const auto key = std::make_pair(scene_name, static_cast<int>(quality));
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  return cache[key] = bench::embree::builder_sah_cost(bench::scene(scene_name), quality);
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
  }
  set_common_counters(state, scene.size(), cost.sah_cost, cost.leaf_count,
                      static_cast<double>(kept_bytes) / static_cast<double>(scene.size()));
}

}  // namespace

void bench::register_all() {
  for (const std::string& scene : bench::scene_names()) {
    for (const auto& [variant, method] : {std::pair{"sah", trisect::BuildMethod::sah},
                                          std::pair{"morton", trisect::BuildMethod::morton}})
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
