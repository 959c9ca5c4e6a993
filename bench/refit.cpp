// Refitting a tree to deformed vertices, and loading a saved tree, on bunny_x16 and sphere_1m.
// Each refit benchmark starts from a tree built once over the scene as it is (the rest
// positions); the deformations are precomputed outside the timed loop: two position sets,
// each a smooth twist of every vertex about the vertical (y) axis through the scene's centre,
// by an angle proportional to the height (0.20 and 0.30 radians at the top), plus a sine wobble
// along x of 0.5% of the diagonal (3 periods over the height; the two sets a quarter period
// apart). Iterations alternate between the two sets, so every iteration moves every vertex.
//
//   refit/trisect/<scene>/deform/tN
//        trisect::refit(bvh, moved) with moved = the next deformed set (indexed, the scene's
//        indices), inside bench::arena(N) (a tbb::task_arena of N threads; thread_arena.hpp).
//        The timed call includes refit's own check of the moved soup.
//   refit/embree/<scene>/deform/tN
//        Embree's own refit: a scene with RTC_SCENE_FLAG_DYNAMIC at RTC_BUILD_QUALITY_LOW (the
//        two-level structure, the only one in which Embree honours a per-geometry build
//        quality) holding one RTC_GEOMETRY_TYPE_TRIANGLE geometry at RTC_BUILD_QUALITY_REFIT
//        over shared vertex and index buffers (trisect::embree::new_triangle_scene, then the
//        geometry's quality set to REFIT), committed once over the rest positions (a full
//        build: counter build_ms). Embree 3.13 needs all three to refit: without the DYNAMIC
//        flag every commit rebuilds the geometry's BVH from scratch (as long as a build, with
//        its memory freed and allocated again), REFIT quality or not. The two deformed sets are
//        kept in two buffers of their own; each iteration points the geometry at the next one
//        with rtcSetSharedGeometryBuffer (no copy: a pointer swap, timed) and runs
//        rtcUpdateGeometryBuffer(geometry, VERTEX, 0), rtcCommitGeometry and rtcCommitScene.
//        The index buffer never changes, so Embree's BVHNRefitT refits (new boxes and leaf
//        triangles, no allocation) rather than rebuilds. The device is made with "threads=N"
//        while the benchmark runs (the only device of its own; the bench::arena(2) device may
//        also be alive, see thread_arena.hpp), and the commits run inside bench::arena(N), so
//        Embree's TBB work also runs on exactly N threads.
//   refit/trisect/<scene>/partial1pct/tN
//        trisect::refit(bvh, moved, changed), the partial path, inside bench::arena(N), after
//        one untimed partial refit (the first makes the tree's slot map): a fixed random set
//        of vertices (seeded shuffle) whose triangles make up 1% of the scene's triangles
//        (vertices are taken until their triangles reach 1%) moves each iteration, between the
//        two deformed sets' positions (all other vertices at rest); `changed` is those
//        triangles' ids. Timed by the wall clock.
//   load/trisect/<scene>/mmap/t1
//        trisect::load_bvh(path) (verify_checksum on, the default: every page read once), and
//        the loaded tree destroyed (unmapped). The file is the SAH tree (trisect::build with
//        threads = 1) saved once with trisect::save_bvh under
//        std::filesystem::temp_directory_path(), removed at exit; it is warm in the page cache.
//   load/trisect/<scene>/mmap_unchecked/t1
//        the same with BvhLoadOptions{.verify_checksum = false}: map the file and view it.
// Counters:
//   triangles        triangles in the scene.
//   degradation      trisect refits: trisect::refit_quality(bvh).degradation() (SAH cost now
//                    over the cost as built; 1 = as built) after a refit to the second set
//                    (one more, untimed, when the timed loop ended on the first).
//   build_ms         embree: the first rtcCommitScene (the full build of the refit geometry).
//   bounds_error     embree: largest difference between rtcGetSceneBounds after the last
//                    refit and the exact box of the positions it was refitted to (about 0,
//                    far below the deformation's move: the refit took the new positions).
//   changed_triangles, moved_vertices
//                    partial1pct: the triangles passed as `changed`, and the vertices moved.
//   bytes            load: the tree file's size.
//   build_ms_t1      load: one trisect::build(scene.soup(), {.threads = 1}) timed once with
//                    std::chrono before the file is saved, so that load / build reads from one
//                    run (bench_build's build/trisect/<scene>/sah/t1 is the careful figure).
// Items processed are triangles (partial1pct: the changed triangles). The deform benchmarks
// are timed by the wall clock (UseRealTime: their threads' work, not the main thread's CPU).
#include "bench_main.hpp"
#include "peers/embree_scene.hpp"
#include "scenes.hpp"
#include "thread_arena.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/bvh.hpp>
#include <trisect/bvh/refit.hpp>
#include <trisect/io/bvh_file.hpp>

#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace {

using trisect::Aabb;
using trisect::TriangleId;
using trisect::TriangleSoup;
using trisect::Vec3;

const std::vector<std::string> refit_scene_names{"bunny_x16", "sphere_1m"};

// ---------------------------------------------------------------------------------------------
// The deformations

// `p` twisted about the vertical axis through the centre of `box` by `twist` radians at the
// top (0 at the bottom), then moved along x by a sine wobble of `phase`.
Vec3 deformed_point(const Vec3& p, const Aabb& box, float twist, float phase) {
  const Vec3 centre = box.center();
  const float height = box.max.y > box.min.y ? (p.y - box.min.y) / (box.max.y - box.min.y) : 0.0f;
  const float angle = twist * height;
  const float c = std::cos(angle), s = std::sin(angle);
  const float x = p.x - centre.x, z = p.z - centre.z;
  const float diagonal =
      2.0f * std::sqrt(box.extents().x * box.extents().x + box.extents().y * box.extents().y +
                       box.extents().z * box.extents().z);
  const float wobble =
      0.005f * diagonal * std::sin(2.0f * std::numbers::pi_v<float> * 3.0f * height + phase);
  return {centre.x + c * x - s * z + wobble, p.y, centre.z + s * x + c * z};
}

// The scene's two deformed position sets, made on first use and kept.
const std::array<std::vector<Vec3>, 2>& deformed_positions(const std::string& scene_name) {
  static std::map<std::string, std::array<std::vector<Vec3>, 2>> cache;
  auto& sets = cache[scene_name];
  if (sets[0].empty()) {
    const bench::Scene& scene = bench::scene(scene_name);
    const Aabb box = scene.bounds();
    constexpr float twists[2] = {0.20f, 0.30f};
    constexpr float phases[2] = {0.0f, 0.5f * std::numbers::pi_v<float>};
    for (std::size_t set = 0; set < 2; ++set) {
      sets[set].reserve(scene.positions.size());
      for (const Vec3& p : scene.positions)
        sets[set].push_back(deformed_point(p, box, twists[set], phases[set]));
    }
  }
  return sets;
}

// The partial move: a fixed random set of vertices whose triangles are 1% of the scene's.
struct PartialMove {
  std::array<std::vector<Vec3>, 2> positions;  // rest, but the moved vertices deformed
  std::vector<TriangleId> changed;             // the moved vertices' triangles, sorted
  std::size_t moved_vertices = 0;
};

const PartialMove& partial_move(const std::string& scene_name) {
  static std::map<std::string, std::unique_ptr<const PartialMove>> cache;
  auto& slot = cache[scene_name];
  if (slot) return *slot;
  const bench::Scene& scene = bench::scene(scene_name);
  const TriangleSoup soup = scene.soup();
  const std::size_t vertex_count = scene.positions.size();
  const std::size_t triangle_count = soup.size();
  // The triangles of each vertex (compressed rows); a plain soup's corners are its vertices.
  const auto corner_vertex = [&](std::size_t corner) -> std::size_t {
    return scene.indices.empty() ? corner : scene.indices[corner];
  };
  std::vector<std::size_t> row_start(vertex_count + 1, 0);
  for (std::size_t corner = 0; corner < 3 * triangle_count; ++corner)
    ++row_start[corner_vertex(corner) + 1];
  for (std::size_t v = 0; v < vertex_count; ++v) row_start[v + 1] += row_start[v];
  std::vector<TriangleId> vertex_triangles(3 * triangle_count);
  std::vector<std::size_t> fill(row_start.begin(), row_start.end() - 1);
  for (std::size_t corner = 0; corner < 3 * triangle_count; ++corner)
    vertex_triangles[fill[corner_vertex(corner)]++] = static_cast<TriangleId>(corner / 3);

  std::vector<std::size_t> order(vertex_count);
  for (std::size_t v = 0; v < vertex_count; ++v) order[v] = v;
  std::mt19937_64 random(20260126);
  std::shuffle(order.begin(), order.end(), random);

  auto move = std::make_unique<PartialMove>();
  const std::size_t target = (triangle_count + 99) / 100;
  std::vector<std::uint8_t> is_changed(triangle_count, 0);
  std::vector<std::size_t> moved;
  for (std::size_t i = 0; i < vertex_count && move->changed.size() < target; ++i) {
    const std::size_t v = order[i];
    moved.push_back(v);
    for (std::size_t k = row_start[v]; k < row_start[v + 1]; ++k) {
      const TriangleId t = vertex_triangles[k];
      if (is_changed[t] == 0) {
        is_changed[t] = 1;
        move->changed.push_back(t);
      }
    }
  }
  std::sort(move->changed.begin(), move->changed.end());
  move->moved_vertices = moved.size();
  const auto& deformed = deformed_positions(scene_name);
  for (std::size_t set = 0; set < 2; ++set) {
    move->positions[set] = scene.positions;
    for (const std::size_t v : moved) move->positions[set][v] = deformed[set][v];
  }
  slot = std::move(move);
  return *slot;
}

void set_refit_counters(benchmark::State& state, std::size_t triangles) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(triangles));
  state.counters["triangles"] = static_cast<double>(triangles);
}

// ---------------------------------------------------------------------------------------------
// trisect

void trisect_refit(benchmark::State& state, const std::string& scene_name, unsigned threads) {
  const bench::Scene& scene = bench::scene(scene_name);
  const auto& deformed = deformed_positions(scene_name);
  const std::array<TriangleSoup, 2> moved{TriangleSoup{deformed[0], scene.indices},
                                          TriangleSoup{deformed[1], scene.indices}};
  trisect::Bvh bvh = bench::trisect_bvh(scene_name);  // a copy of the tree as built
  tbb::task_arena& arena = bench::arena(threads);
  std::size_t next = 0;
  for (auto _ : state) {
    arena.execute([&] { trisect::refit(bvh, moved[next]); });
    next ^= 1;
    benchmark::DoNotOptimize(bvh.wide.data());
    benchmark::ClobberMemory();
  }
  // The degradation after a refit to the second set, whichever the timed loop ended on.
  if (next == 1) arena.execute([&] { trisect::refit(bvh, moved[1]); });
  set_refit_counters(state, scene.size());
  state.counters["degradation"] = trisect::refit_quality(bvh).degradation();
}

void trisect_partial_refit(benchmark::State& state, const std::string& scene_name,
                           unsigned threads) {
  const bench::Scene& scene = bench::scene(scene_name);
  const PartialMove& move = partial_move(scene_name);
  const std::array<TriangleSoup, 2> moved{TriangleSoup{move.positions[0], scene.indices},
                                          TriangleSoup{move.positions[1], scene.indices}};
  trisect::Bvh bvh = bench::trisect_bvh(scene_name);
  tbb::task_arena& arena = bench::arena(threads);
  // Untimed: the first partial refit of a tree makes its slot map, once.
  arena.execute([&] { trisect::refit(bvh, moved[1], move.changed); });
  std::size_t next = 0;
  for (auto _ : state) {
    arena.execute([&] { trisect::refit(bvh, moved[next], move.changed); });
    next ^= 1;
    benchmark::DoNotOptimize(bvh.wide.data());
    benchmark::ClobberMemory();
  }
  if (next == 1) arena.execute([&] { trisect::refit(bvh, moved[1], move.changed); });
  set_refit_counters(state, move.changed.size());
  state.counters["triangles"] = static_cast<double>(scene.size());
  state.counters["changed_triangles"] = static_cast<double>(move.changed.size());
  state.counters["moved_vertices"] = static_cast<double>(move.moved_vertices);
  state.counters["degradation"] = trisect::refit_quality(bvh).degradation();
}

// ---------------------------------------------------------------------------------------------
// Embree

// Positions as Embree's shared vertex buffer wants them: float3, 16 bytes of padding after.
std::vector<float> padded_vertices(const std::vector<Vec3>& positions) {
  std::vector<float> vertices;
  vertices.reserve(3 * positions.size() + 4);
  for (const Vec3& p : positions) vertices.insert(vertices.end(), {p.x, p.y, p.z});
  vertices.insert(vertices.end(), {0.0f, 0.0f, 0.0f, 0.0f});
  return vertices;
}

struct EmbreeBuffers {
  std::unique_ptr<const bench::embree::MeshBuffers> rest;
  std::array<std::vector<float>, 2> moved;
  std::array<Aabb, 2> moved_bounds;
};

const EmbreeBuffers& embree_buffers(const std::string& scene_name) {
  static std::map<std::string, EmbreeBuffers> cache;
  EmbreeBuffers& buffers = cache[scene_name];
  if (!buffers.rest) {
    const bench::Scene& scene = bench::scene(scene_name);
    buffers.rest =
        std::make_unique<const bench::embree::MeshBuffers>(scene.positions, scene.indices);
    const auto& deformed = deformed_positions(scene_name);
    for (std::size_t set = 0; set < 2; ++set) {
      buffers.moved[set] = padded_vertices(deformed[set]);
      buffers.moved_bounds[set] = Aabb::empty();
      for (const Vec3& p : deformed[set]) buffers.moved_bounds[set].extend(p);
    }
  }
  return buffers;
}

void embree_refit(benchmark::State& state, const std::string& scene_name, unsigned threads) {
  const bench::Scene& scene = bench::scene(scene_name);
  const EmbreeBuffers& buffers = embree_buffers(scene_name);
  const bench::embree::MeshBuffers& rest = *buffers.rest;
  tbb::task_arena& arena = bench::arena(threads);
  double build_ms = 0;
  float bounds_error = 0;
  {
    const bench::embree::Device device(threads);
    // Both flag and scene quality are needed for a refit (see above): without
    // RTC_SCENE_FLAG_DYNAMIC every commit rebuilds the geometry's BVH whatever its quality.
    const bench::embree::SceneHandle scene_handle = trisect::embree::new_triangle_scene(
        device.get(), rest, RTC_BUILD_QUALITY_LOW, RTC_SCENE_FLAG_DYNAMIC);
    RTCScene rtc_scene = scene_handle.get();
    RTCGeometry geometry = rtcGetGeometry(rtc_scene, 0);
    rtcSetGeometryBuildQuality(geometry, RTC_BUILD_QUALITY_REFIT);
    rtcCommitGeometry(geometry);
    const auto start = std::chrono::steady_clock::now();
    arena.execute([&] { rtcCommitScene(rtc_scene); });
    build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::size_t next = 0;
    for (auto _ : state) {
      arena.execute([&] {
        rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                   buffers.moved[next].data(), 0, 3 * sizeof(float),
                                   rest.vertex_count);
        rtcUpdateGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0);
        rtcCommitGeometry(geometry);
        rtcCommitScene(rtc_scene);
      });
      next ^= 1;
      benchmark::ClobberMemory();
    }
    RTCBounds bounds;
    rtcGetSceneBounds(rtc_scene, &bounds);
    const Aabb& expected = buffers.moved_bounds[next ^ 1];
    for (const float difference :
         {bounds.lower_x - expected.min.x, bounds.lower_y - expected.min.y,
          bounds.lower_z - expected.min.z, bounds.upper_x - expected.max.x,
          bounds.upper_y - expected.max.y, bounds.upper_z - expected.max.z})
      bounds_error = std::max(bounds_error, std::abs(difference));
  }
  set_refit_counters(state, scene.size());
  state.counters["build_ms"] = build_ms;
  state.counters["bounds_error"] = static_cast<double>(bounds_error);
}

// ---------------------------------------------------------------------------------------------
// Loading

// Tree files written by this program, removed at exit.
struct TemporaryFiles {
  std::vector<std::filesystem::path> paths;
  TemporaryFiles() = default;
  TemporaryFiles(const TemporaryFiles&) = delete;
  TemporaryFiles& operator=(const TemporaryFiles&) = delete;
  ~TemporaryFiles() {
    for (const auto& path : paths) {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
  }
};

struct SavedTree {
  std::filesystem::path path;
  double bytes = 0;
  double build_ms_t1 = 0;
};

const SavedTree& saved_tree(const std::string& scene_name) {
  static TemporaryFiles files;
  static std::map<std::string, SavedTree> cache;
  if (const auto it = cache.find(scene_name); it != cache.end()) return it->second;
  const bench::Scene& scene = bench::scene(scene_name);
  SavedTree saved;
  trisect::BuildOptions options;
  options.threads = 1;
  const auto start = std::chrono::steady_clock::now();
  trisect::Bvh bvh = trisect::build(scene.soup(), options);
  saved.build_ms_t1 =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  saved.path = std::filesystem::temp_directory_path() /
               ("trisect-bench-refit-" + std::to_string(::getpid()) + "-" + scene_name + ".tbvh");
  files.paths.push_back(saved.path);
  trisect::save_bvh(bvh, saved.path);
  saved.bytes = static_cast<double>(std::filesystem::file_size(saved.path));
  return cache[scene_name] = saved;
}

void trisect_load(benchmark::State& state, const std::string& scene_name, bool verify_checksum) {
  const bench::Scene& scene = bench::scene(scene_name);
  const SavedTree& saved = saved_tree(scene_name);
  trisect::BvhLoadOptions options;
  options.verify_checksum = verify_checksum;
  for (auto _ : state) {
    const trisect::Bvh bvh = trisect::load_bvh(saved.path, options);
    benchmark::DoNotOptimize(bvh.wide.data());
    benchmark::ClobberMemory();
  }
  set_refit_counters(state, scene.size());
  state.counters["bytes"] = saved.bytes;
  state.counters["build_ms_t1"] = saved.build_ms_t1;
}

}  // namespace

void bench::register_all() {
  const std::vector<std::string>& available = bench::scene_names();
  for (const std::string& scene : refit_scene_names) {
    if (std::find(available.begin(), available.end(), scene) == available.end()) continue;
    using Refit = void (*)(benchmark::State&, const std::string&, unsigned);
    for (const auto& [peer, refit] : {std::pair<const char*, Refit>{"trisect", trisect_refit},
                                      std::pair<const char*, Refit>{"embree", embree_refit}})
      for (const unsigned threads : {1u, 2u})
        benchmark::RegisterBenchmark(
            bench::benchmark_name("refit", peer, scene, "deform", threads).c_str(),
            [scene, threads, refit = refit](benchmark::State& state) {
              refit(state, scene, threads);
            })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    for (const unsigned threads : {1u, 2u})
      benchmark::RegisterBenchmark(
          bench::benchmark_name("refit", "trisect", scene, "partial1pct", threads).c_str(),
          [scene, threads](benchmark::State& state) {
            trisect_partial_refit(state, scene, threads);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    for (const auto& [variant, verify] :
         {std::pair{"mmap", true}, std::pair{"mmap_unchecked", false}})
      benchmark::RegisterBenchmark(
          bench::benchmark_name("load", "trisect", scene, variant, 1).c_str(),
          [scene, verify = verify](benchmark::State& state) { trisect_load(state, scene, verify); })
          ->Unit(benchmark::kMillisecond);
  }
}
