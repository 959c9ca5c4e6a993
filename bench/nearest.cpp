// Nearest queries: the closest point of a mesh (closest), inside or outside a closed mesh
// (inside), and the distance between two meshes (mesh_distance).
//
// Points, 1024 per iteration, seeded, made once per scene and variant (D the diagonal of the
// scene's bounding box):
//   near     a random point of a random triangle (bench::surface_points) moved by an offset
//            uniform in the ball of radius 0.01 D;
//   far      uniform in the box of the same centre and 3x the extents of the bounds, points
//            inside the bounds rejected;
//   uniform  uniform in the bounds.
//
// closest/<library>/<scene>/{near,far}/tN, scenes bunny_x16 and sphere_1m:
//   trisect        trisect::closest_point per point (t1).
//   trisect_batch  trisect::closest_points over all of them (t1, t2: its own TBB split).
//   cgal           (optional) AABB_tree::closest_point_and_primitive (Epick, triangle
//                  primitives, accelerate_distance_queries), peers/cgal_closest_point.hpp.
//   embree         rtcPointQuery with a float closest-point function shrinking the radius, on a
//                  triangle scene (MEDIUM, threads=1 device), embree_closest_point.hpp
//                  (src/embree_peer/, shared with the tests).
// knearest/trisect/bunny_x16/{k1,k8}/t1: trisect::k_nearest with k = 1 and 8 per point of the
// near points (t1); each answer's first triangle is checked against k1's (the same id and
// distance), whose answers are checked against closest's.
// inside/<library>/<scene>/{near,uniform}/tN, closed scenes sphere_1m and fandisk (the shared
// CAD mesh, 12,946 triangles, many vertices and faces on axis planes; left out when absent):
//   trisect        trisect::side_of per point (t1).
//   trisect_batch  trisect::sides_of (t1, t2).
//   cgal           (optional) CGAL::Side_of_triangle_mesh on a Surface_mesh,
//                  peers/cgal_side_of_mesh.hpp.
// The peers and trisect at t2 split the points among the threads of a tbb::task_arena
// (tbb::parallel_for over blocks of 16 points); at t1 they answer them in order on the calling
// thread.
// mesh_distance/<library>/<pair>/<variant>/t1, one query per iteration:
//   bunny/apart           the bunny against a copy moved along x by its width plus 0.1 D (so
//                         their boxes are 0.1 D apart);
//   bunny/touching        against a copy moved along x by 0.1 D (they intersect: distance 0);
//   sphere_1m_ball/near   sphere_1m against "ball" (scenes::cube_sphere with n = 16, 3,072
//                         triangles, scaled to radius ~0.5), centred on the diagonal direction
//                         (1, 1, 1) at the spheres' largest radii plus 0.01 D of sphere_1m.
//   trisect        trisect::mesh_distance(first, second, transform) on the two BVHs (the copy
//                  of the bunny is the transform over the one BVH).
//   fcl            (optional) fcl::distance between two fcl::BVHModel<OBBRSSd> (built once),
//                  the second placed by the transform, peers/fcl_mesh.hpp.
//
// Every side answers the same queries. Items processed are queries. Each peer's answers (and
// trisect_batch's) are compared with trisect's once, untimed, before timing: a disagreement
// skips the benchmark with an error naming the first query that disagrees. They agree when
//   closest        the distances are within 1e-4 relative of trisect's; or, counted in
//                  `inexact_distances`, the peer's triangle is at trisect's distance within
//                  1e-4 relative (trisect::squared_distance, exact, on the peer's triangle):
//                  the right triangle with a float distance (Embree's);
//   inside         the sides are equal, except where CGAL says ON_BOUNDARY (`boundary_points`);
//   mesh_distance  the distances are within 1e-4 relative of trisect's.
// trisect_batch must give exactly trisect's answers. trisect (per point) also reports its walk:
// nodes_per_query and triangles_per_query (trisect::QueryStats; for mesh_distance, per call);
// every mesh_distance benchmark reports the distance it found (`distance`).
#include "bench_main.hpp"
#include "embree_closest_point.hpp"
#include "peers/embree_scene.hpp"
#include "scenes.hpp"
#include "thread_arena.hpp"

#include <trisect/geometry/point_triangle_distance.hpp>
#include <trisect/nearest/closest_point.hpp>
#include <trisect/nearest/inside.hpp>
#include <trisect/nearest/k_nearest.hpp>
#include <trisect/nearest/mesh_distance.hpp>

#ifdef TRISECT_BENCH_HAVE_CGAL
#include "peers/cgal_closest_point.hpp"
#include "peers/cgal_side_of_mesh.hpp"
#endif
#ifdef TRISECT_BENCH_HAVE_FCL
#include "peers/fcl_mesh.hpp"
#endif

#include <benchmark/benchmark.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using bench::Scene;
using trisect::ClosestPoint;
using trisect::MeshDistance;
using trisect::PointSide;
using trisect::Transform;
using trisect::Vec3;

constexpr std::size_t point_count = 1024;
constexpr double relative_tolerance = 1e-4;
constexpr float infinity = std::numeric_limits<float>::infinity();

// ---------------------------------------------------------------------------------------------
// Scenes beyond bench/scenes.hpp's, and points

/// Scene `name`: "fandisk" (the shared mesh), "ball" (see the file's comment), or one of
/// bench::scene's; built on first use.
const Scene& nearest_scene(const std::string& name) {
  static std::map<std::string, std::unique_ptr<const Scene>> cache;
  if (name != "fandisk" && name != "ball") return bench::scene(name);
  auto& slot = cache[name];
  if (!slot) {
    using namespace trisect::scenes;
    slot = std::make_unique<const Scene>(
        name == "ball" ? transformed(cube_sphere("ball", 16), 0.1f, Vec3(0.0f), "")
                       : load_scene(name, shared_mesh_file(name).value()));
  }
  return *slot;
}

/// trisect's BVH over `nearest_scene(name)`, built on first use.
const trisect::Bvh& nearest_bvh(const std::string& name) {
  static std::map<std::string, std::unique_ptr<const trisect::Bvh>> cache;
  if (name != "fandisk" && name != "ball") return bench::trisect_bvh(name);
  auto& slot = cache[name];
  if (!slot)
    slot = std::make_unique<const trisect::Bvh>(trisect::build(nearest_scene(name).soup()));
  return *slot;
}

/// The `point_count` points of `variant` (near, far, uniform) for scene `name`, made once.
const std::vector<Vec3>& query_points(const std::string& name, const std::string& variant) {
  static std::map<std::pair<std::string, std::string>, std::vector<Vec3>> cache;
  std::vector<Vec3>& points = cache[{name, variant}];
  if (!points.empty()) return points;
  const Scene& scene = nearest_scene(name);
  const trisect::Aabb bounds = scene.bounds();
  std::mt19937_64 random(variant == "near" ? 31 : variant == "far" ? 37 : 41);
  if (variant == "near") {
    const float radius = 0.01f * scene.diagonal();
    for (const Vec3& surface : bench::surface_points(scene, point_count, 29)) {
      const float length = radius * std::cbrt(bench::uniform(random, 0, 1));
      points.push_back(surface + length * bench::random_direction(random));
    }
  } else if (variant == "far") {
    const trisect::Aabb outer =
        trisect::Aabb::from_center_extents(bounds.center(), 3.0f * bounds.extents());
    while (points.size() < point_count) {
      const Vec3 p = bench::random_point(random, outer);
      if (!bounds.contains(p)) points.push_back(p);
    }
  } else {
    for (std::size_t i = 0; i < point_count; ++i)
      points.push_back(bench::random_point(random, bounds));
  }
  return points;
}

// ---------------------------------------------------------------------------------------------
// Threads

// ---------------------------------------------------------------------------------------------
// Timed batches and their checks

/// A batch of queries: how many, and the call that answers them all (one iteration).
template <class Answer>
struct Queries {
  std::size_t count = 0;                          ///< Queries answered per call.
  std::function<void(std::span<Answer>)> answer;  ///< Writes the `count` answers.
};

/// `one(point)` for each of `points`: in order at t1, in blocks of 16 among the threads of
/// `arena(threads)` otherwise. `points` must outlive the batch.
template <class Answer, class One>
Queries<Answer> per_point(const std::vector<Vec3>& points, unsigned threads, One one) {
  if (threads == 1)
    return {points.size(), [&points, one](std::span<Answer> answers) {
              for (std::size_t i = 0; i < points.size(); ++i) answers[i] = one(points[i]);
            }};
  tbb::task_arena& threads_arena = bench::arena(threads);
  return {points.size(), [&points, one, &threads_arena](std::span<Answer> answers) {
            threads_arena.execute([&] {
              tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 16),
                                [&](const auto& range) {
                                  for (std::size_t i = range.begin(); i < range.end(); ++i)
                                    answers[i] = one(points[i]);
                                });
            });
          }};
}

/// How a peer's answer compares with trisect's.
enum class Verdict {
  same,     ///< The same answer.
  excused,  ///< Not the same, for a documented reason (counted).
  differs,  ///< A disagreement: the benchmark is skipped.
};

/// How a benchmark's answers are checked against trisect's.
template <class Answer>
struct Check {
  /// trisect's answers (empty function: trisect itself, nothing to check).
  std::function<const std::vector<Answer>&()> reference;
  /// The verdict on answer i (peer's, trisect's).
  std::function<Verdict(std::size_t, const Answer&, const Answer&)> verdict;
  /// The counter of excused answers, or nullptr.
  const char* excused_counter = nullptr;
};

/// Counters reported after timing, computed once at setup.
using Counters = std::map<std::string, double>;

/// An answer as the error message of a disagreement shows it.
std::string describe(const std::optional<ClosestPoint>& answer) {
  if (!answer) return "none";
  std::ostringstream text;
  text.precision(9);
  text << "triangle " << answer->id << " at " << answer->distance;
  return text.str();
}

/// As above, for a side.
std::string describe(const std::vector<ClosestPoint>& answer) {
  if (answer.empty()) return "none";
  std::ostringstream text;
  text.precision(9);
  text << answer.size() << " triangles, the first " << answer[0].id << " at " << answer[0].distance;
  return text.str();
}

std::string describe(PointSide side) { return trisect::to_string(side); }

/// As above, for a mesh distance.
std::string describe(const std::optional<MeshDistance>& answer) {
  if (!answer) return "none";
  std::ostringstream text;
  text.precision(9);
  text << "triangles " << answer->first << ", " << answer->second << " at " << answer->distance;
  return text.str();
}

/// Registers benchmark `name` timing `make().answer`: `make` runs on the benchmark's first run
/// only (a benchmark left out by --benchmark_filter builds nothing), which also answers the
/// batch once untimed, checks it with `check`, and computes `counters(answers)` when given.
template <class Answer>
void register_queries(const std::string& name, unsigned threads,
                      std::function<Queries<Answer>()> make, Check<Answer> check,
                      std::function<Counters(const std::vector<Answer>&)> counters = {}) {
  struct Slot {
    bool ready = false;
    Queries<Answer> queries;
    std::vector<Answer> answers;
    std::string error;
    double excused = 0;
    Counters counters;
  };
  const auto slot = std::make_shared<Slot>();
  auto* registered = benchmark::RegisterBenchmark(name.c_str(), [slot, make, check, counters](
                                                                    benchmark::State& state) {
    if (!slot->ready) {
      slot->ready = true;
      try {
        slot->queries = make();
        slot->answers.resize(slot->queries.count);
        slot->queries.answer(slot->answers);
        if (check.reference) {
          const std::vector<Answer>& expected = check.reference();
          for (std::size_t i = 0; i < slot->answers.size() && slot->error.empty(); ++i) {
            const Verdict verdict = check.verdict(i, slot->answers[i], expected[i]);
            slot->excused += verdict == Verdict::excused;
            if (verdict == Verdict::differs)
              slot->error = "query " + std::to_string(i) +
                            " disagrees with trisect: " + describe(slot->answers[i]) +
                            ", trisect " + describe(expected[i]);
          }
        }
        if (counters) slot->counters = counters(slot->answers);
      } catch (const std::exception& error) {
        slot->error = std::string("setup failed: ") + error.what();
      }
    }
    if (!slot->error.empty()) {
      state.SkipWithError(slot->error.c_str());
      return;
    }
    for (auto _ : state) {
      slot->queries.answer(slot->answers);
      benchmark::DoNotOptimize(slot->answers.data());
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(slot->queries.count));
    if (check.excused_counter != nullptr) state.counters[check.excused_counter] = slot->excused;
    for (const auto& [counter, value] : slot->counters) state.counters[counter] = value;
  });
  registered->Unit(benchmark::kMillisecond);
  if (threads > 1) registered->UseRealTime();
}

/// The answers of `make()` (trisect's, the reference of the peers), computed once per `key`.
template <class Answer>
const std::vector<Answer>& kept_answers(const std::string& key,
                                        const std::function<Queries<Answer>()>& make) {
  static std::map<std::string, std::vector<Answer>> kept;
  if (const auto it = kept.find(key); it != kept.end()) return it->second;
  const Queries<Answer> queries = make();
  std::vector<Answer> answers(queries.count);
  queries.answer(answers);
  return kept[key] = std::move(answers);
}

/// True when `distance` is within `relative_tolerance` of `expected`.
bool near_distance(double distance, double expected) {
  return std::abs(distance - expected) <= relative_tolerance * expected;
}

/// Counters of trisect's walk: `stats` over `queries` queries.
Counters walk_counters(const trisect::QueryStats& stats, double queries) {
  return {{"nodes_per_query", double(stats.nodes_visited) / queries},
          {"triangles_per_query", double(stats.triangles_tested) / queries}};
}

// ---------------------------------------------------------------------------------------------
// closest

using MaybeClosest = std::optional<ClosestPoint>;

/// The check of trisect_batch against trisect: exactly the same answers.
Verdict same_closest(std::size_t, const MaybeClosest& batch, const MaybeClosest& single) {
  if (!batch || !single)
    return batch.has_value() == single.has_value() ? Verdict::same : Verdict::differs;
  return batch->id == single->id && batch->distance == single->distance &&
                 batch->point == single->point
             ? Verdict::same
             : Verdict::differs;
}

/// The closest-point batch of `library` (trisect, trisect_batch, cgal, embree) at `threads`.
Queries<MaybeClosest> closest_queries(const std::string& scene, const std::string& variant,
                                      const std::string& library, unsigned threads) {
  const std::vector<Vec3>& points = query_points(scene, variant);
  if (library == "trisect_batch") {
    const trisect::Bvh& bvh = nearest_bvh(scene);
    tbb::task_arena& threads_arena = bench::arena(threads);
    return {points.size(), [&bvh, &points, &threads_arena](std::span<MaybeClosest> answers) {
              threads_arena.execute([&] { trisect::closest_points(bvh, points, answers); });
            }};
  }
#ifdef TRISECT_BENCH_HAVE_CGAL
  if (library == "cgal") {
    static std::map<std::string, std::shared_ptr<const bench::cgal::ClosestPointTree>> trees;
    auto& tree = trees[scene];
    if (!tree) tree = std::make_shared<const bench::cgal::ClosestPointTree>(nearest_scene(scene));
    return per_point<MaybeClosest>(
        points, threads, [tree](const Vec3& p) -> MaybeClosest { return tree->closest(p); });
  }
#endif
  if (library == "embree") {
    RTCScene embree_scene = bench::embree::cached_triangle_scene(scene, RTC_BUILD_QUALITY_MEDIUM);
    const bench::embree::MeshBuffers& mesh = bench::embree::mesh_buffers(scene);
    return per_point<MaybeClosest>(points, threads, [embree_scene, &mesh](const Vec3& p) {
      return trisect::embree::closest_point(embree_scene, mesh, p);
    });
  }
  const trisect::Bvh& bvh = nearest_bvh(scene);
  return per_point<MaybeClosest>(points, threads,
                                 [&bvh](const Vec3& p) { return trisect::closest_point(bvh, p); });
}

/// trisect's closest points (per point, t1), the reference of the others.
const std::vector<MaybeClosest>& closest_reference(const std::string& scene,
                                                   const std::string& variant) {
  return kept_answers<MaybeClosest>("closest/" + scene + "/" + variant,
                                    [&] { return closest_queries(scene, variant, "trisect", 1); });
}

/// The check of a peer's closest points (see the file's comment).
Check<MaybeClosest> closest_check(const std::string& scene, const std::string& variant) {
  return {[scene, variant]() -> const std::vector<MaybeClosest>& {
            return closest_reference(scene, variant);
          },
          [scene, variant](std::size_t i, const MaybeClosest& peer, const MaybeClosest& expected) {
            if (!peer || !expected)
              return peer.has_value() == expected.has_value() ? Verdict::same : Verdict::differs;
            if (near_distance(peer->distance, expected->distance)) return Verdict::same;
            const Scene& source = nearest_scene(scene);
            if (peer->id >= source.size()) return Verdict::differs;
            const double exact = trisect::distance_of(trisect::squared_distance(
                query_points(scene, variant)[i], source.triangle(peer->id)));
            return near_distance(exact, expected->distance) ? Verdict::excused : Verdict::differs;
          },
          "inexact_distances"};
}

/// Registers the closest benchmarks.
void register_closest() {
  for (const std::string& scene : bench::scene_names()) {
    if (scene != "bunny_x16" && scene != "sphere_1m") continue;
    for (const std::string variant : {"near", "far"}) {
      const auto name = [&](const std::string& library, unsigned threads) {
        return bench::benchmark_name("closest", library, scene, variant, threads);
      };
      register_queries<MaybeClosest>(
          name("trisect", 1), 1,
          [scene, variant] { return closest_queries(scene, variant, "trisect", 1); }, {},
          [scene, variant](const std::vector<MaybeClosest>&) {
            trisect::QueryStats stats;
            const trisect::Bvh& bvh = nearest_bvh(scene);
            for (const Vec3& p : query_points(scene, variant))
              benchmark::DoNotOptimize(trisect::closest_point(bvh, p, infinity, &stats));
            return walk_counters(stats, point_count);
          });
      for (const unsigned threads : {1u, 2u}) {
        register_queries<MaybeClosest>(name("trisect_batch", threads), threads,
                                       [scene, variant, threads] {
                                         return closest_queries(scene, variant, "trisect_batch",
                                                                threads);
                                       },
                                       {[scene, variant]() -> const std::vector<MaybeClosest>& {
                                          return closest_reference(scene, variant);
                                        },
                                        same_closest});
#ifdef TRISECT_BENCH_HAVE_CGAL
        register_queries<MaybeClosest>(
            name("cgal", threads), threads,
            [scene, variant, threads] { return closest_queries(scene, variant, "cgal", threads); },
            closest_check(scene, variant));
#endif
        register_queries<MaybeClosest>(
            name("embree", threads), threads,
            [scene, variant, threads] {
              return closest_queries(scene, variant, "embree", threads);
            },
            closest_check(scene, variant));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// knearest

using Neighbours = std::vector<ClosestPoint>;

/// trisect's k nearest (k = `k`) of every near point of bunny_x16, one point at a time.
Queries<Neighbours> k_nearest_queries(std::size_t k) {
  const trisect::Bvh& bvh = nearest_bvh("bunny_x16");
  return per_point<Neighbours>(query_points("bunny_x16", "near"), 1,
                               [&bvh, k](const Vec3& p) { return trisect::k_nearest(bvh, p, k); });
}

/// The same first triangle, at the same distance, as `reference` (k1's answer).
Verdict same_first(std::size_t, const Neighbours& answer, const Neighbours& reference) {
  if (answer.empty() || reference.empty())
    return answer.empty() == reference.empty() ? Verdict::same : Verdict::differs;
  return answer[0].id == reference[0].id && answer[0].distance == reference[0].distance
             ? Verdict::same
             : Verdict::differs;
}

/// k1's answers, checked against closest's (the first triangle of each is closest's).
const std::vector<Neighbours>& k1_reference() {
  return kept_answers<Neighbours>("knearest/k1", [] {
    Queries<Neighbours> queries = k_nearest_queries(1);
    const std::vector<MaybeClosest>& closest = closest_reference("bunny_x16", "near");
    return Queries<Neighbours>{
        queries.count, [queries, &closest](std::span<Neighbours> answers) {
          queries.answer(answers);
          for (std::size_t i = 0; i < answers.size(); ++i)
            if (!closest[i] || answers[i].size() != 1 || answers[i][0].id != closest[i]->id)
              throw std::runtime_error("k_nearest with k = 1 differs from closest_point at point " +
                                       std::to_string(i));
        }};
  });
}

/// Registers knearest/trisect/bunny_x16/{k1,k8}/t1.
void register_k_nearest() {
  for (const std::size_t k : {std::size_t{1}, std::size_t{8}}) {
    register_queries<Neighbours>(
        bench::benchmark_name("knearest", "trisect", "bunny_x16", k == 1 ? "k1" : "k8", 1), 1,
        [k] { return k_nearest_queries(k); },
        {[]() -> const std::vector<Neighbours>& { return k1_reference(); }, same_first},
        [k](const std::vector<Neighbours>&) {
          trisect::QueryStats stats;
          const trisect::Bvh& bvh = nearest_bvh("bunny_x16");
          for (const Vec3& p : query_points("bunny_x16", "near"))
            benchmark::DoNotOptimize(trisect::k_nearest(bvh, p, k, infinity, &stats));
          return walk_counters(stats, point_count);
        });
  }
}

// ---------------------------------------------------------------------------------------------
// inside

/// The side-of batch of `library` (trisect, trisect_batch, cgal) at `threads`.
Queries<PointSide> inside_queries(const std::string& scene, const std::string& variant,
                                  const std::string& library, unsigned threads) {
  const std::vector<Vec3>& points = query_points(scene, variant);
#ifdef TRISECT_BENCH_HAVE_CGAL
  if (library == "cgal") {
    static std::map<std::string, std::shared_ptr<const bench::cgal::SideOfMesh>> meshes;
    auto& mesh = meshes[scene];
    if (!mesh) mesh = std::make_shared<const bench::cgal::SideOfMesh>(nearest_scene(scene));
    return per_point<PointSide>(points, threads, [mesh](const Vec3& p) { return mesh->side(p); });
  }
#endif
  const trisect::Bvh& bvh = nearest_bvh(scene);
  if (library == "trisect_batch") {
    tbb::task_arena& threads_arena = bench::arena(threads);
    return {points.size(), [&bvh, &points, &threads_arena](std::span<PointSide> answers) {
              threads_arena.execute([&] { trisect::sides_of(bvh, points, answers); });
            }};
  }
  return per_point<PointSide>(points, threads,
                              [&bvh](const Vec3& p) { return trisect::side_of(bvh, p); });
}

/// trisect's sides (per point, t1), the reference of the others.
const std::vector<PointSide>& inside_reference(const std::string& scene,
                                               const std::string& variant) {
  return kept_answers<PointSide>("inside/" + scene + "/" + variant,
                                 [&] { return inside_queries(scene, variant, "trisect", 1); });
}

/// The closed scenes of the inside benchmarks that this run has.
std::vector<std::string> closed_scenes() {
  std::vector<std::string> names{"sphere_1m"};
  if (trisect::scenes::shared_mesh_file("fandisk")) names.push_back("fandisk");
  return names;
}

/// Registers the inside benchmarks.
void register_inside() {
  for (const std::string& scene : closed_scenes())
    for (const std::string variant : {"near", "uniform"}) {
      const auto name = [&](const std::string& library, unsigned threads) {
        return bench::benchmark_name("inside", library, scene, variant, threads);
      };
      const auto reference = [scene, variant]() -> const std::vector<PointSide>& {
        return inside_reference(scene, variant);
      };
      register_queries<PointSide>(
          name("trisect", 1), 1,
          [scene, variant] { return inside_queries(scene, variant, "trisect", 1); }, {});
      for (const unsigned threads : {1u, 2u}) {
        register_queries<PointSide>(name("trisect_batch", threads), threads,
                                    [scene, variant, threads] {
                                      return inside_queries(scene, variant, "trisect_batch",
                                                            threads);
                                    },
                                    {reference, [](std::size_t, PointSide batch, PointSide single) {
                                       return batch == single ? Verdict::same : Verdict::differs;
                                     }});
#ifdef TRISECT_BENCH_HAVE_CGAL
        register_queries<PointSide>(
            name("cgal", threads), threads,
            [scene, variant, threads] { return inside_queries(scene, variant, "cgal", threads); },
            {reference,
             [](std::size_t, PointSide cgal, PointSide expected) {
               if (cgal == PointSide::surface) return Verdict::excused;  // ON_BOUNDARY
               return cgal == expected ? Verdict::same : Verdict::differs;
             },
             "boundary_points"});
#endif
      }
    }
}

// ---------------------------------------------------------------------------------------------
// mesh_distance

using MaybeDistance = std::optional<MeshDistance>;

/// The two scenes of a pair and the transform that places the second.
struct MeshPair {
  std::string first, second;
  Transform second_to_first;
};

/// A translation by `offset`.
Transform translation(const Vec3& offset) {
  return Transform{{1, 0, 0, offset.x, 0, 1, 0, offset.y, 0, 0, 1, offset.z}};
}

/// The largest distance of a position of `scene` from the origin.
float largest_radius(const Scene& scene) {
  float radius = 0;
  for (const Vec3& p : scene.positions) radius = std::max(radius, glm::length(p));
  return radius;
}

/// Pair `pair` in `variant` (see the file's comment).
MeshPair mesh_pair(const std::string& pair, const std::string& variant) {
  if (pair == "bunny") {
    const Scene& bunny = nearest_scene("bunny");
    const trisect::Aabb bounds = bunny.bounds();
    const float width = bounds.max.x - bounds.min.x, tenth = 0.1f * bunny.diagonal();
    return {"bunny", "bunny", translation({variant == "apart" ? width + tenth : tenth, 0, 0})};
  }
  const Scene& sphere = nearest_scene("sphere_1m");
  const float centres =
      largest_radius(sphere) + largest_radius(nearest_scene("ball")) + 0.01f * sphere.diagonal();
  return {"sphere_1m", "ball", translation(centres * glm::normalize(Vec3(1, 1, 1)))};
}

/// The mesh-distance query of `library` (trisect, fcl) for `pair` in `variant`.
Queries<MaybeDistance> distance_queries(const std::string& pair, const std::string& variant,
                                        const std::string& library) {
  const MeshPair meshes = mesh_pair(pair, variant);
#ifdef TRISECT_BENCH_HAVE_FCL
  if (library == "fcl") {
    using bench::fcl_peer::Model;
    static std::map<std::string, std::shared_ptr<const Model>> models;
    for (const std::string& name : {meshes.first, meshes.second})
      if (!models[name]) models[name] = std::make_shared<const Model>(nearest_scene(name));
    return {1, [first = models[meshes.first], second = models[meshes.second],
                transform = meshes.second_to_first](std::span<MaybeDistance> answers) {
              answers[0] = first->distance(*second, transform);
            }};
  }
#endif
  (void)library;
  const trisect::Bvh& first = nearest_bvh(meshes.first);
  const trisect::Bvh& second = nearest_bvh(meshes.second);
  return {1,
          [&first, &second, transform = meshes.second_to_first](std::span<MaybeDistance> answers) {
            answers[0] = trisect::mesh_distance(first, second, transform);
          }};
}

/// The counter `distance`: the answer's distance (-1 for none).
Counters distance_counter(const std::vector<MaybeDistance>& answers) {
  return {{"distance", answers.at(0) ? answers[0]->distance : -1.0}};
}

/// Registers the mesh_distance benchmarks.
void register_mesh_distance() {
  std::vector<std::pair<std::string, std::string>> cases;
  const auto& names = bench::scene_names();
  if (std::find(names.begin(), names.end(), "bunny") != names.end())
    cases.insert(cases.end(), {{"bunny", "apart"}, {"bunny", "touching"}});
  cases.emplace_back("sphere_1m_ball", "near");
  for (const auto& [pair, variant] : cases) {
    const auto name = [&](const std::string& library) {
      return bench::benchmark_name("mesh_distance", library, pair, variant, 1);
    };
    register_queries<MaybeDistance>(
        name("trisect"), 1, [pair, variant] { return distance_queries(pair, variant, "trisect"); },
        {},
        [pair, variant](const std::vector<MaybeDistance>& answers) {
          const MeshPair meshes = mesh_pair(pair, variant);
          trisect::QueryStats stats;
          benchmark::DoNotOptimize(trisect::mesh_distance(nearest_bvh(meshes.first),
                                                          nearest_bvh(meshes.second),
                                                          meshes.second_to_first, &stats));
          Counters counters = walk_counters(stats, 1);
          counters.merge(distance_counter(answers));
          return counters;
        });
#ifdef TRISECT_BENCH_HAVE_FCL
    register_queries<MaybeDistance>(
        name("fcl"), 1, [pair, variant] { return distance_queries(pair, variant, "fcl"); },
        {[pair, variant]() -> const std::vector<MaybeDistance>& {
           return kept_answers<MaybeDistance>("mesh_distance/" + pair + "/" + variant, [&] {
             return distance_queries(pair, variant, "trisect");
           });
         },
         [](std::size_t, const MaybeDistance& fcl, const MaybeDistance& expected) {
           if (!fcl || !expected) return Verdict::differs;
           return near_distance(fcl->distance, expected->distance) ? Verdict::same
                                                                   : Verdict::differs;
         }},
        distance_counter);
#endif
  }
}

}  // namespace

void bench::register_all() {
  register_closest();
  register_k_nearest();
  register_inside();
  register_mesh_distance();
}
