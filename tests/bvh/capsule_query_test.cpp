// Capsule queries against brute force (the exact predicate, itself checked against the
// rational oracle in tests/geometry/capsule_triangle_test.cpp), as exact sorted sets, on every
// scene: segments through the mesh (radius 0), capsules tangent at vertices, balls, capsules
// containing the whole mesh; batches equal single queries; bad capsules named.
#include "support/brute_force.hpp"
#include "support/describe.hpp"
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/capsule_query.hpp>
#include <trisect/bvh/collect.hpp>

#include <catch2/catch.hpp>

#include <limits>
#include <numeric>
#include <vector>

namespace trisect::testing {
namespace {

TEST_CASE("capsule queries equal brute force on every scene", "[bvh][capsule]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(17)};
    const float size = 0.05f * scene_size(scene);
    std::vector<Capsule> capsules;
    for (int q = 0; q < 60; ++q) capsules.push_back(make.capsule(size));
    (void)require_brute_force_answers(bvh, scene, capsules);
  }
}

TEST_CASE("a capsule around the whole mesh reports every triangle", "[bvh][capsule]") {
  const Scene scene = random_soup(2000, 31);
  const Bvh bvh = build(scene.soup());
  const float size = scene_size(scene);
  const Aabb bounds = bvh.bounds();
  std::vector<TriangleId> all(scene.size());
  std::iota(all.begin(), all.end(), TriangleId{0});
  // The ball at one end holds the root box (reported whole), and a long thin capsule along the
  // diagonal whose radius only just reaches every corner (tested triangle by triangle).
  CHECK(collect_touching(bvh, Capsule{bounds.min, bounds.max, 2 * size}) == all);
  const Capsule thin{bounds.min, bounds.max, 0.6f * size};
  CHECK(collect_touching(bvh, thin) == brute_force(scene, thin));
}

TEST_CASE("bad capsules are named", "[bvh][capsule]") {
  const Bvh bvh = build(random_soup(50, 32).soup());
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(collect_touching(bvh, Capsule{Vec3(0.0f), Vec3(1.0f), -1.0f}),
                    Catch::Contains("capsule query: radius is negative"));
  CHECK_THROWS_WITH(collect_touching(bvh, Capsule{Vec3(0.0f), Vec3(1.0f), nan}),
                    Catch::Contains("capsule query: radius is NaN"));
  CHECK_THROWS_WITH(collect_touching(bvh, Capsule{Vec3(0.0f), Vec3(1.0f), inf}),
                    Catch::Contains("capsule query: radius is not finite"));
  CHECK_THROWS_WITH(collect_touching(bvh, Capsule{Vec3(0.0f, nan, 0.0f), Vec3(1.0f), 1.0f}),
                    Catch::Contains("capsule query: end a"));
  CHECK_THROWS_WITH(collect_touching(bvh, Capsule{Vec3(0.0f), Vec3(inf, 0.0f, 0.0f), 1.0f}),
                    Catch::Contains("capsule query: end b"));
  const std::vector<Capsule> batch{Capsule{Vec3(0.0f), Vec3(1.0f), 1.0f},
                                   Capsule{Vec3(0.0f), Vec3(1.0f), -2.0f}};
  CHECK_THROWS_WITH(collect_touching_batch(bvh, std::span<const Capsule>(batch)),
                    Catch::Contains("batch query 1"));
}

}  // namespace
}  // namespace trisect::testing
