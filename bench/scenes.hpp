#pragma once
// Benchmark scenes for the BVH benchmarks, built on first use and cached for the life of the
// process, so that a --benchmark_filter run builds only the scenes it needs, and each scene and
// its trisect BVH are built once however many benchmarks use them.
//
//   sphere_100k, sphere_1m  noisy subdivided sphere: each face of a cube split into n x n
//                           quads (2 triangles each; n = 91 and 289, so 99,372 and 1,002,252
//                           triangles), every lattice vertex pushed onto the sphere of radius 5
//                           and moved radially by up to +-2% (a hash of the vertex, so shared
//                           vertices stay shared: a closed, indexed mesh).
//   soup_100k, soup_1m      random soup of 100,000 and 1,000,000 triangles: centres uniform in
//                           [-10, 10]^3, each vertex within +-h of its centre per axis, where
//                           h = 20 / cbrt(count) is the mean spacing of the centres (so the
//                           overlap between triangles does not grow with the count).
//   bunny                   ../shared/meshes/stanford-bunny.obj (69,451 triangles), found
//                           through $TRISECT_MESH_DIR or TRISECT_BENCH_MESH_DIR (set by CMake
//                           to ${PROJECT_SOURCE_DIR}/../shared/meshes). Skipped when absent.
//   bunny_x16               the bunny subdivided twice by 1-to-4 midpoint splits (shared
//                           midpoints, so it stays a closed indexed mesh): 16x the triangles.
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/bvh.hpp>
#include <trisect/mesh/triangle_soup.hpp>

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace bench {

using trisect::Vec3;

/// An owning indexed triangle mesh (a soup has 3 distinct vertices per triangle).
struct Scene {
  std::string name;
  std::vector<Vec3> positions;
  std::vector<std::uint32_t> indices;  // 3 per triangle

  [[nodiscard]] trisect::TriangleSoup soup() const { return {positions, indices}; }
  [[nodiscard]] std::size_t size() const { return indices.size() / 3; }
  [[nodiscard]] trisect::Triangle triangle(std::size_t id) const {
    return {positions[indices[3 * id]], positions[indices[3 * id + 1]],
            positions[indices[3 * id + 2]]};
  }
  [[nodiscard]] trisect::Aabb bounds() const {
    trisect::Aabb box = trisect::Aabb::empty();
    for (const Vec3& p : positions) box.extend(p);
    return box;
  }
  /// Length of the diagonal of the bounds.
  [[nodiscard]] float diagonal() const {
    const trisect::Aabb box = bounds();
    return glm::length(box.max - box.min);
  }
};

// ---------------------------------------------------------------------------------------------
// Generators

inline float uniform(std::mt19937_64& random, float low, float high) {
  return std::uniform_real_distribution<float>(low, high)(random);
}

/// A value in [-1, 1) from a 64-bit key (splitmix64 finaliser).
inline float hash_unit(std::uint64_t key) {
  key += 0x9e3779b97f4a7c15ull;
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ull;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebull;
  key ^= key >> 31;
  return static_cast<float>(static_cast<double>(key >> 11) * 0x1p-52 - 1.0);
}

/// Cube faces split into n x n quads, projected onto a noisy sphere of radius 5: 12 n^2
/// triangles, closed and indexed.
inline Scene noisy_sphere(const std::string& name, std::uint32_t n) {
  Scene scene{name, {}, {}};
  const std::uint64_t side = n + 1u;
  std::unordered_map<std::uint64_t, std::uint32_t> vertex_of;
  const auto vertex = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k) {
    const std::uint64_t key = (i * side + j) * side + k;
    const auto [it, inserted] =
        vertex_of.try_emplace(key, static_cast<std::uint32_t>(scene.positions.size()));
    if (inserted) {
      const auto coordinate = [n](std::uint32_t c) {
        return 2.0f * static_cast<float>(c) / static_cast<float>(n) - 1.0f;
      };
      const Vec3 direction = glm::normalize(Vec3(coordinate(i), coordinate(j), coordinate(k)));
      scene.positions.push_back(direction * (5.0f * (1.0f + 0.02f * hash_unit(key))));
    }
    return it->second;
  };
  for (int axis = 0; axis < 3; ++axis)
    for (std::uint32_t level : {0u, n})
      for (std::uint32_t u = 0; u < n; ++u)
        for (std::uint32_t v = 0; v < n; ++v) {
          const auto at = [&](std::uint32_t du, std::uint32_t dv) {
            std::uint32_t c[3];
            c[axis] = level;
            c[(axis + 1) % 3] = u + du;
            c[(axis + 2) % 3] = v + dv;
            return vertex(c[0], c[1], c[2]);
          };
          const std::uint32_t a = at(0, 0), b = at(1, 0), c = at(1, 1), d = at(0, 1);
          scene.indices.insert(scene.indices.end(), {a, b, c, a, c, d});
        }
  return scene;
}

/// `count` random triangles in [-10, 10]^3 (see the file comment), 3 own vertices each.
inline Scene random_soup(const std::string& name, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Scene scene{name, {}, {}};
  const float h = 20.0f / std::cbrt(static_cast<float>(count));
  scene.positions.reserve(3 * count);
  for (std::size_t i = 0; i < count; ++i) {
    const float x = uniform(random, -10, 10), y = uniform(random, -10, 10);
    const Vec3 center(x, y, uniform(random, -10, 10));
    for (int k = 0; k < 3; ++k) {
      const float dx = uniform(random, -h, h), dy = uniform(random, -h, h);
      scene.positions.push_back(center + Vec3(dx, dy, uniform(random, -h, h)));
    }
  }
  scene.indices.resize(3 * count);
  for (std::size_t i = 0; i < scene.indices.size(); ++i)
    scene.indices[i] = static_cast<std::uint32_t>(i);
  return scene;
}

/// Reads the vertices and faces of a Wavefront OBJ file (`v x y z`, `f a b c ...` with
/// `a/b/c` forms and negative indices; polygons fan-triangulated). Throws on a bad index.
inline Scene read_obj(const std::string& name, const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  Scene scene{name, {}, {}};
  std::string line, token;
  std::vector<std::uint32_t> face;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    if (!(words >> token)) continue;
    if (token == "v") {
      float x = 0, y = 0, z = 0;
      words >> x >> y >> z;
      scene.positions.emplace_back(x, y, z);
    } else if (token == "f") {
      face.clear();
      while (words >> token) {
        const long index = std::stol(token.substr(0, token.find('/')));
        const long count = static_cast<long>(scene.positions.size());
        const long zero_based = index < 0 ? count + index : index - 1;
        if (zero_based < 0 || zero_based >= count)
          throw std::runtime_error(path.string() + ": bad vertex index in: " + line);
        face.push_back(static_cast<std::uint32_t>(zero_based));
      }
      for (std::size_t k = 2; k < face.size(); ++k)
        scene.indices.insert(scene.indices.end(), {face[0], face[k - 1], face[k]});
    }
  }
  return scene;
}

/// Each triangle split into 4 at its edge midpoints; midpoints are shared between the two
/// triangles of an edge.
inline Scene subdivided(const Scene& input, const std::string& name) {
  Scene scene{name, input.positions, {}};
  std::unordered_map<std::uint64_t, std::uint32_t> midpoint_of;
  const auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
    const std::uint64_t key = (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
    const auto [it, inserted] =
        midpoint_of.try_emplace(key, static_cast<std::uint32_t>(scene.positions.size()));
    if (inserted) scene.positions.push_back(0.5f * (scene.positions[a] + scene.positions[b]));
    return it->second;
  };
  scene.indices.reserve(4 * input.indices.size());
  for (std::size_t t = 0; t < input.size(); ++t) {
    const std::uint32_t a = input.indices[3 * t], b = input.indices[3 * t + 1],
                        c = input.indices[3 * t + 2];
    const std::uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
    scene.indices.insert(scene.indices.end(), {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca});
  }
  return scene;
}

// ---------------------------------------------------------------------------------------------
// The scene list and caches

/// Where the real meshes are: $TRISECT_MESH_DIR, else the directory CMake compiled in.
inline std::filesystem::path mesh_dir() {
  if (const char* dir = std::getenv("TRISECT_MESH_DIR"); dir != nullptr && *dir != '\0') return dir;
#ifdef TRISECT_BENCH_MESH_DIR
  return TRISECT_BENCH_MESH_DIR;
#else
  return "../shared/meshes";
#endif
}

inline std::filesystem::path bunny_path() { return mesh_dir() / "stanford-bunny.obj"; }

/// Names of the scenes this run can build, in benchmark order. The bunny scenes are left out
/// (with a note on stderr, once) when the mesh file is absent.
inline const std::vector<std::string>& scene_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list{"sphere_100k", "sphere_1m", "soup_100k", "soup_1m"};
    if (std::filesystem::is_regular_file(bunny_path())) {
      list.insert(list.end(), {"bunny", "bunny_x16"});
    } else {
      std::fprintf(stderr, "bench: %s not found (set TRISECT_MESH_DIR); skipping bunny scenes\n",
                   bunny_path().string().c_str());
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
  if (name == "sphere_100k") return noisy_sphere(name, 91);
  if (name == "sphere_1m") return noisy_sphere(name, 289);
  if (name == "soup_100k") return random_soup(name, 100'000, 100);
  if (name == "soup_1m") return random_soup(name, 1'000'000, 1000);
  if (name == "bunny") return read_obj(name, bunny_path());
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
