#pragma once
// Benchmark scenes for the BVH benchmarks, built on first use and cached for the life of the
// process, so that a --benchmark_filter run builds only the scenes it needs, and each scene and
// its trisect BVH are built once however many benchmarks use them.
//
// The generators are the scenes library's (tests/support/scenes/generators.hpp):
//   sphere_100k, sphere_1m  scenes::cube_sphere, a noisy subdivided sphere: each face of a cube
//   split into n x n
//                           quads (2 triangles each; n = 91 and 289, so 99,372 and 1,002,252
//                           triangles), every lattice vertex pushed onto the sphere of radius 5
//                           and moved radially by up to +-2% (a hash of the vertex, so shared
//                           vertices stay shared: a closed, indexed mesh).
//   soup_100k, soup_1m      scenes::spaced_soup, a random soup of 100,000 and 1,000,000 triangles:
//   centres uniform in
//                           [-10, 10]^3, each vertex within +-h of its centre per axis, where
//                           h = 20 / cbrt(count) is the mean spacing of the centres (so the
//                           overlap between triangles does not grow with the count).
//   bunny                   ../shared/meshes/stanford-bunny.obj (69,451 triangles), found in
//                           trisect::scenes::shared_mesh_folder() ($TRISECT_MESH_DIR, else the
//                           shared folder beside the project) and read with trisect::load_mesh.
//                           Skipped when absent.
//   bunny_x16               scenes::subdivided: the bunny subdivided twice by 1-to-4 midpoint
//   splits (shared
//                           midpoints, so it stays a closed indexed mesh): 16x the triangles.
#include "scenes/generators.hpp"
#include "scenes/mesh_folder.hpp"
#include "scenes/scene.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/bvh.hpp>
#include <trisect/bvh/collect.hpp>

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bench {

using trisect::Vec3;
using trisect::scenes::Scene;
using trisect::scenes::uniform;

// ---------------------------------------------------------------------------------------------
// The scene list and caches

/// The bunny's file in the shared mesh folder, when it is there.
inline std::optional<std::filesystem::path> bunny_path() {
  return trisect::scenes::shared_mesh_file("stanford-bunny");
}

/// Names of the scenes this run can build, in benchmark order. The bunny scenes are left out
/// (with a note on stderr, once) when the mesh file is absent.
inline const std::vector<std::string>& scene_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list{"sphere_100k", "sphere_1m", "soup_100k", "soup_1m"};
    if (bunny_path()) {
      list.insert(list.end(), {"bunny", "bunny_x16"});
    } else {
      std::fprintf(stderr,
                   "bench: no stanford-bunny.obj in %s (set TRISECT_MESH_DIR); "
                   "skipping bunny scenes\n",
                   trisect::scenes::shared_mesh_folder().string().c_str());
    }
    return list;
  }();
  return names;
}

inline const Scene& scene(const std::string& name);

namespace detail {
// Recursive: building bunny_x16 takes the bunny from the cache.
inline std::recursive_mutex& cache_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

inline Scene make_scene(const std::string& name) {
  using namespace trisect::scenes;
  if (name == "sphere_100k") return cube_sphere(name, 91);
  if (name == "sphere_1m") return cube_sphere(name, 289);
  if (name == "sphere_10m") return cube_sphere(name, 913);  // build benchmark only
  if (name == "soup_100k") return spaced_soup(name, 100'000, 100);
  if (name == "soup_1m") return spaced_soup(name, 1'000'000, 1000);
  if (name == "bunny") return load_scene(name, bunny_path().value());
  if (name == "bunny_x16") return subdivided(subdivided(bench::scene("bunny"), name), name);
  throw std::invalid_argument("unknown scene " + name);
}
}  // namespace detail

/// The scene called `name`, built on first use.
inline const Scene& scene(const std::string& name) {
  static std::map<std::string, std::unique_ptr<const Scene>> cache;
  const std::lock_guard lock(detail::cache_mutex());
  auto& slot = cache[name];
  if (!slot) slot = std::make_unique<const Scene>(detail::make_scene(name));
  return *slot;
}

/// trisect's BVH over scene `name` with default options, built on first use.
inline const trisect::Bvh& trisect_bvh(const std::string& name) {
  static std::map<std::string, std::unique_ptr<const trisect::Bvh>> cache;
  const Scene& source = scene(name);
  const std::lock_guard lock(detail::cache_mutex());
  auto& slot = cache[name];
  if (!slot) slot = std::make_unique<const trisect::Bvh>(trisect::build(source.soup()));
  return *slot;
}

// ---------------------------------------------------------------------------------------------
// Query generation

/// `count` points on the scene's triangles: a uniformly chosen triangle, uniform barycentrics.
inline std::vector<Vec3> surface_points(const Scene& scene, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::size_t> pick(0, scene.size() - 1);
  std::vector<Vec3> points;
  points.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const trisect::Triangle t = scene.triangle(pick(random));
    float u = uniform(random, 0, 1), v = uniform(random, 0, 1);
    if (u + v > 1) u = 1 - u, v = 1 - v;
    points.push_back(t.a + u * (t.b - t.a) + v * (t.c - t.a));
  }
  return points;
}

/// A direction uniform on the unit sphere.
inline Vec3 random_direction(std::mt19937_64& random) {
  std::normal_distribution<float> normal;
  for (;;) {
    const float x = normal(random), y = normal(random);
    const Vec3 d(x, y, normal(random));
    const float length = glm::length(d);
    if (length > 1e-3f) return d / length;
  }
}

/// A point uniform in the box.
inline Vec3 random_point(std::mt19937_64& random, const trisect::Aabb& box) {
  const float x = uniform(random, box.min.x, box.max.x);
  const float y = uniform(random, box.min.y, box.max.y);
  return {x, y, uniform(random, box.min.z, box.max.z)};
}

/// Parses "0.1pct" -> 0.001.
inline float percent_of(const std::string& variant) {
  return std::stof(variant.substr(0, variant.find("pct"))) / 100.0f;
}

/// The query sizes of the box and sphere benchmarks, as fractions of the scene's diagonal.
inline const std::vector<std::string> size_variants{"0.1pct", "1pct", "10pct"};

/// Queries in one batch of a size variant: 100 at 10%, 1000 otherwise.
inline std::size_t batch_size(const std::string& variant) {
  return variant == "10pct" ? 100 : 1000;
}

/// A batch of `batch_size(variant)` shapes `make(center, half)` centred on seeded random points
/// of the scene's triangles, `half` being half the variant's fraction of the diagonal; made on
/// the first call and kept per scene and variant.
template <class Shape, class Make>
const std::vector<Shape>& surface_queries(const std::string& scene_name, const std::string& variant,
                                          std::uint64_t seed, Make make) {
  static std::map<std::pair<std::string, std::string>, std::vector<Shape>> kept;
  std::vector<Shape>& shapes = kept[{scene_name, variant}];
  if (shapes.empty()) {
    const Scene& chosen = scene(scene_name);
    const float half = 0.5f * percent_of(variant) * chosen.diagonal();
    for (const Vec3& center : surface_points(chosen, batch_size(variant), seed))
      shapes.push_back(make(center, half));
  }
  return shapes;
}

/// The benchmark name <operation>/<library>/<scene>/<variant>/t<threads>.
inline std::string benchmark_name(const std::string& operation, const std::string& library,
                                  const std::string& scene_name, const std::string& variant,
                                  unsigned threads) {
  return operation + "/" + library + "/" + scene_name + "/" + variant + "/t" +
         std::to_string(threads);
}

// ---------------------------------------------------------------------------------------------
// Batches of queries that each answer a list of triangle ids

/// The answer to a batch: for each query, the input ids of the triangles touching it, sorted.
using Answers = std::vector<std::vector<trisect::TriangleId>>;
/// Answers every query of a batch; one call is one benchmark iteration.
using Batch = std::function<Answers()>;

/// The batch answering each of `shapes` (boxes, spheres, planes) with trisect's
/// `collect_touching` on `bvh`; both must outlive the batch.
template <class Shape>
Batch collect_touching_batch(const trisect::Bvh& bvh, const std::vector<Shape>& shapes) {
  return [&bvh, &shapes] {
    Answers answers(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i)
      answers[i] = trisect::collect_touching(bvh, shapes[i]);
    return answers;
  };
}

/// The answers of `make()()`, computed on the first call for `key` and kept: trisect's
/// answers, which the peers' are compared with.
inline const Answers& kept_answers(const std::string& key, const std::function<Batch()>& make) {
  static std::map<std::string, Answers> kept;
  if (const auto it = kept.find(key); it != kept.end()) return it->second;
  return kept[key] = make()();
}

/// Registers benchmark `name` timing `make()()`: `make` runs on the benchmark's first run only
/// (a benchmark left out by --benchmark_filter builds nothing) and returns the batch. That first
/// run also answers the batch once untimed, to count the answer sizes and compare them with
/// `reference()` (trisect's answers; pass nullptr for trisect itself). Counters:
///   triangles_per_query  mean number of triangles in an answer (the same on every side)
///   mismatched_queries   peers: queries whose answer differs from trisect's (should be 0)
/// Items processed are queries.
inline void register_batch(const std::string& name, std::function<Batch()> make,
                           std::function<const Answers&()> reference) {
  struct Slot {
    Batch batch;
    double queries = 0, triangles_per_query = 0, mismatched = 0;
  };
  const auto slot = std::make_shared<Slot>();
  benchmark::RegisterBenchmark(name.c_str(), [slot, make, reference](benchmark::State& state) {
    if (!slot->batch) {
      slot->batch = make();
      const Answers answers = slot->batch();
      std::size_t total = 0;
      for (const auto& ids : answers) total += ids.size();
      slot->queries = static_cast<double>(answers.size());
      slot->triangles_per_query = static_cast<double>(total) / slot->queries;
      if (reference) {
        const Answers& expected = reference();
        for (std::size_t i = 0; i < answers.size(); ++i)
          slot->mismatched += i >= expected.size() || answers[i] != expected[i];
      }
    }
    for (auto _ : state) {
      Answers answers = slot->batch();
      benchmark::DoNotOptimize(answers.data());
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(
        static_cast<std::int64_t>(static_cast<double>(state.iterations()) * slot->queries));
    state.counters["triangles_per_query"] = slot->triangles_per_query;
    if (reference) state.counters["mismatched_queries"] = slot->mismatched;
  })->Unit(benchmark::kMillisecond);
}

}  // namespace bench
