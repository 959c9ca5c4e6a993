// Overlap: every intersecting triangle pair between the bunny and a moved copy of itself, and
// the self-intersections of the bunny plus a shifted copy as one mesh.
//
// Scenes (the bunny of ../shared/meshes and bunny_x16 of scenes.hpp, D the bounding-box
// diagonal):
//   bunny/shift10        the copy moved by 0.1 D along x
//   bunny/rotshift10     the copy turned by 30 degrees about z, then moved by 0.1 D along x
//   bunny_x16/shift10    bunny_x16 (1,111,216 triangles) against its copy moved by 0.1 D along
//                        x; CGAL is left out there (seconds per iteration at this size)
//   bunny_pair/self      the bunny and its shift10 copy as one indexed mesh (138,902
//                        triangles): its self-intersections (contact between the copies; the
//                        bunny's own shared edges and vertices do not count)
//   bunny_x16/self       bunny_x16 alone (1,111,216 triangles, closed): its self-intersections
//                        (none; about 6.7M neighbour pairs to decide: the 1M-triangle case)
//   clearance bunny/shift10/d1pct: every pair of the bunny and its shift10 copy within
//                        d = 1% of D of each other (issue 40)
// Sides (one iteration answers the whole question; pairs found are a counter on every side):
//   trisect          collect_intersecting_pairs(bvh, bvh, transform) over one BVH (the copy is
//                    the transform, nothing copied); self_intersections(bvh).
//   embree_collide   both meshes as RTC_GEOMETRY_TYPE_USER with one box per triangle widened
//                    by an ulp (the copy's vertices mapped once, before timing), both scenes
//                    built once (MEDIUM, threads=1 device); per iteration rtcCollide, the exact
//                    test trisect::intersects on every candidate, a sort.
//   fcl              (optional) fcl::BVHModel<OBBRSSd> built once; fcl::collide with the copy
//                    placed by the transform, every contact (floating point, not exact).
//                    For clearance (`clearance/embree_collide`), what a user would do without
//                    trisect's: the boxes grown by d (and an ulp), rtcCollide, and the exact
//                    distance test (trisect::squared_distance against d², exactly) on every
//                    candidate, a sort.
//   trisect clearance trisect::pairs_within(bvh, bvh, d, transform).
//   cgal             (optional) box_intersection_d + exact do_intersect (Epick) on the copy
//                    mapped once before timing; self: PMP::self_intersections on a
//                    Surface_mesh built once.
#include "bench_main.hpp"
#include "peers/embree_scene.hpp"
#include "scenes.hpp"
#include "thread_arena.hpp"

#include <trisect/geometry/triangle_distance.hpp>
#include <trisect/geometry/triangle_triangle.hpp>
#include <trisect/overlap/clearance.hpp>
#include <trisect/overlap/overlap.hpp>

#ifdef TRISECT_BENCH_HAVE_FCL
#include "peers/fcl_mesh.hpp"
#endif
#ifdef TRISECT_BENCH_HAVE_CGAL
#include "peers/cgal_overlap.hpp"
#endif

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using trisect::Transform;
using trisect::TrianglePair;

/// The scene/variant pairs of the two-mesh benchmarks.
const std::vector<std::pair<std::string, std::string>> cases{
    {"bunny", "shift10"}, {"bunny", "rotshift10"}, {"bunny_x16", "shift10"}};

Transform variant_transform(const std::string& scene, const std::string& variant) {
  const float shift = 0.1f * bench::scene(scene).diagonal();
  if (variant == "shift10") return Transform{{1, 0, 0, shift, 0, 1, 0, 0, 0, 0, 1, 0}};
  const float c = std::cos(0.5235988f), s = std::sin(0.5235988f);
  return Transform{{c, -s, 0, shift, s, c, 0, 0, 0, 0, 1, 0}};
}

/// `scene` with every vertex mapped by `variant`'s transform (for the peers that need a copy),
/// built once.
const bench::Scene& moved(const std::string& scene, const std::string& variant) {
  static std::map<std::string, std::unique_ptr<const bench::Scene>> cache;
  auto& slot = cache[scene + "_" + variant];
  if (!slot) {
    auto copy = std::make_unique<bench::Scene>(bench::scene(scene));
    copy->name = scene + "_" + variant;
    const Transform transform = variant_transform(scene, variant);
    for (trisect::Vec3& p : copy->positions) p = transform.apply(p);
    slot = std::move(copy);
  }
  return *slot;
}

/// The bunny and its shift10 copy as one indexed mesh.
const bench::Scene& bunny_pair() {
  static const bench::Scene pair = [] {
    bench::Scene scene = bench::scene("bunny");
    const bench::Scene& copy = moved("bunny", "shift10");
    const auto offset = static_cast<std::uint32_t>(scene.positions.size());
    scene.name = "bunny_pair";
    scene.positions.insert(scene.positions.end(), copy.positions.begin(), copy.positions.end());
    for (std::uint32_t index : copy.indices) scene.indices.push_back(offset + index);
    return scene;
  }();
  return pair;
}

/// Registers `name` timing `run()`, which returns the number of pairs found.
void register_count(const std::string& name, std::function<std::function<std::size_t()>()> make) {
  auto run = std::make_shared<std::function<std::size_t()>>();
  benchmark::RegisterBenchmark(name.c_str(), [run, make](benchmark::State& state) {
    if (!*run) *run = make();
    std::size_t pairs = 0;
    for (auto _ : state) {
      pairs = (*run)();
      benchmark::DoNotOptimize(pairs);
    }
    state.counters["pairs"] = static_cast<double>(pairs);
  })->Unit(benchmark::kMillisecond);
}

// --- embree_collide

RTCBounds widened(const trisect::Aabb& box) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  RTCBounds bounds = bench::embree::to_bounds(box);
  bounds.lower_x = std::nextafter(bounds.lower_x, -inf);
  bounds.lower_y = std::nextafter(bounds.lower_y, -inf);
  bounds.lower_z = std::nextafter(bounds.lower_z, -inf);
  bounds.upper_x = std::nextafter(bounds.upper_x, inf);
  bounds.upper_y = std::nextafter(bounds.upper_y, inf);
  bounds.upper_z = std::nextafter(bounds.upper_z, inf);
  return bounds;
}

struct EmbreeSide {
  const bench::Scene* scene;
  std::vector<RTCBounds> boxes;
  bench::embree::SceneHandle handle;

  // Each triangle's box grown by `grow` on every side (in double, then widened by an ulp).
  explicit EmbreeSide(const bench::Scene& source, float grow = 0) : scene(&source) {
    for (std::size_t t = 0; t < source.size(); ++t) {
      trisect::Aabb box = source.triangle(t).bounds();
      for (int axis = 0; axis < 3; ++axis) {
        box.min[axis] = static_cast<float>(double(box.min[axis]) - double(grow));
        box.max[axis] = static_cast<float>(double(box.max[axis]) + double(grow));
      }
      boxes.push_back(widened(box));
    }
    handle = bench::embree::user_box_scene(bench::embree::single_thread_device(), boxes);
  }
};

struct Candidates {
  const bench::Scene* first;
  const bench::Scene* second;
  std::vector<TrianglePair> pairs;
};

void on_candidates(void* user, RTCCollision* collisions, unsigned count) {
  auto& found = *static_cast<Candidates*>(user);
  for (unsigned k = 0; k < count; ++k) {
    const RTCCollision& c = collisions[k];
    if (trisect::intersects(found.first->triangle(c.primID0), found.second->triangle(c.primID1)))
      found.pairs.push_back({c.primID0, c.primID1});
  }
}

std::function<std::size_t()> embree_run(const std::string& scene, const std::string& variant) {
  auto first = std::make_shared<EmbreeSide>(bench::scene(scene));
  auto second = std::make_shared<EmbreeSide>(moved(scene, variant));
  return [first, second] {
    Candidates found{first->scene, second->scene, {}};
    // On one thread, as the benchmark's name says (the callback is not thread-safe either).
    bench::arena(1).execute(
        [&] { rtcCollide(first->handle.get(), second->handle.get(), on_candidates, &found); });
    std::sort(found.pairs.begin(), found.pairs.end());
    return found.pairs.size();
  };
}

// --- clearance

float clearance_distance(const std::string& scene) {
  return 0.01f * bench::scene(scene).diagonal();
}

struct NearCandidates {
  const bench::Scene* first;
  const bench::Scene* second;
  trisect::SquaredDistance radius;
  std::vector<TrianglePair> pairs;
};

void on_near_candidates(void* user, RTCCollision* collisions, unsigned count) {
  auto& found = *static_cast<NearCandidates*>(user);
  for (unsigned k = 0; k < count; ++k) {
    const RTCCollision& c = collisions[k];
    const trisect::SquaredDistance between = trisect::squared_distance(
        found.first->triangle(c.primID0), found.second->triangle(c.primID1));
    if (trisect::compare(between, found.radius) <= 0) found.pairs.push_back({c.primID0, c.primID1});
  }
}

std::function<std::size_t()> embree_clearance(const std::string& scene,
                                              const std::string& variant) {
  const float d = clearance_distance(scene);
  auto first = std::make_shared<EmbreeSide>(bench::scene(scene), d);
  auto second = std::make_shared<EmbreeSide>(moved(scene, variant));
  return [first, second, d] {
    NearCandidates found{first->scene, second->scene, trisect::SquaredDistance::of_radius(d), {}};
    bench::arena(1).execute(
        [&] { rtcCollide(first->handle.get(), second->handle.get(), on_near_candidates, &found); });
    std::sort(found.pairs.begin(), found.pairs.end());
    return found.pairs.size();
  };
}

}  // namespace

void bench::register_all() {
  // A threads=2 Embree device for the whole run: without it the embree_collide benchmarks'
  // threads=1 device caps every later t2 run of trisect at one thread (thread_arena.hpp), and
  // their rtcCollide runs in a one-thread arena.
  bench::arena(2);
  const auto& names = bench::scene_names();
  if (std::find(names.begin(), names.end(), "bunny") == names.end()) return;
  for (const auto& [scene, variant] : cases) {
    for (unsigned threads : {1u, 2u}) {
      register_count(
          bench::benchmark_name("overlap", "trisect", scene, variant, threads),
          [scene, variant, threads] {
            const trisect::Bvh& bvh = bench::trisect_bvh(scene);
            const Transform transform = variant_transform(scene, variant);
            return std::function<std::size_t()>([&bvh, transform, threads] {
              return trisect::collect_intersecting_pairs(bvh, bvh, transform, {threads}).size();
            });
          });
    }
    register_count(bench::benchmark_name("overlap", "embree_collide", scene, variant, 1),
                   [scene, variant] { return embree_run(scene, variant); });
#ifdef TRISECT_BENCH_HAVE_FCL
    register_count(bench::benchmark_name("overlap", "fcl", scene, variant, 1), [scene, variant] {
      auto model = std::make_shared<bench::fcl_peer::Model>(bench::scene(scene));
      const Transform transform = variant_transform(scene, variant);
      return std::function<std::size_t()>(
          [model, transform] { return model->count_pairs(*model, transform); });
    });
#endif
#ifdef TRISECT_BENCH_HAVE_CGAL
    if (scene == "bunny_x16") continue;  // seconds per iteration: see the scene list above
    register_count(bench::benchmark_name("overlap", "cgal", scene, variant, 1), [scene, variant] {
      auto first = std::make_shared<bench::cgal::OverlapMesh>(bench::scene(scene));
      auto second = std::make_shared<bench::cgal::OverlapMesh>(moved(scene, variant));
      return std::function<std::size_t()>([first, second] { return first->pairs(*second).size(); });
    });
#endif
  }
  {
    // bunny only: on bunny_x16, 1% of the diagonal spans hundreds of its tiny triangles, and
    // either side takes tens of seconds.
    const std::string scene = "bunny", variant = "shift10";
    for (unsigned threads : {1u, 2u})
      register_count(
          bench::benchmark_name("clearance", "trisect", scene, variant + "/d1pct", threads),
          [scene, variant, threads] {
            const trisect::Bvh& bvh = bench::trisect_bvh(scene);
            const Transform transform = variant_transform(scene, variant);
            const float d = clearance_distance(scene);
            return std::function<std::size_t()>([&bvh, transform, d, threads] {
              return trisect::pairs_within(bvh, bvh, d, transform, {threads}).size();
            });
          });
    register_count(
        bench::benchmark_name("clearance", "embree_collide", scene, variant + "/d1pct", 1),
        [scene, variant] { return embree_clearance(scene, variant); });
  }
  // The self cases: a scene and how to make its indexed mesh.
  const std::vector<std::pair<std::string, std::function<const bench::Scene&()>>> self_cases{
      {"bunny_pair/shift10", bunny_pair},
      {"bunny_x16/self", []() -> const bench::Scene& { return bench::scene("bunny_x16"); }}};
  for (const auto& [name, mesh] : self_cases) {
    const auto slash = name.find('/');
    const std::string scene = name.substr(0, slash), variant = name.substr(slash + 1);
    for (unsigned threads : {1u, 2u}) {
      register_count(bench::benchmark_name("overlap_self", "trisect", scene, variant, threads),
                     [mesh, threads] {
                       auto bvh = std::make_shared<trisect::Bvh>(trisect::build(mesh().soup()));
                       return std::function<std::size_t()>([bvh, threads] {
                         return trisect::self_intersections(*bvh, {threads}).size();
                       });
                     });
    }
#ifdef TRISECT_BENCH_HAVE_CGAL
    register_count(bench::benchmark_name("overlap_self", "cgal", scene, variant, 1), [mesh] {
      auto cgal_mesh = std::make_shared<bench::cgal::OverlapMesh>(mesh());
      return std::function<std::size_t()>(
          [cgal_mesh] { return cgal_mesh->self_intersection_count(); });
    });
#endif
  }
}
