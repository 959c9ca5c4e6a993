// Frustum queries against brute force (the exact predicate, itself checked against the rational
// oracle in tests/geometry/frustum_triangle_test.cpp), as exact sorted sets, on every scene:
// view frustums from near the mesh, some with a side plane through a vertex; a frustum holding
// the whole mesh; batches equal single queries; bad frustums named.
#include "support/brute_force.hpp"
#include "support/describe.hpp"
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/frustum_query.hpp>

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

namespace trisect::testing {
namespace {

TEST_CASE("frustum queries equal brute force on every scene", "[bvh][frustum]") {
  std::size_t found = 0, empty = 0;
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(47)};
    const float size = scene_size(scene);
    std::vector<Frustum> frustums;
    for (int q = 0; q < 30; ++q) frustums.push_back(make.frustum(q % 2 == 0 ? 0.1f * size : size));
    const auto [scene_found, scene_empty] = require_brute_force_answers(bvh, scene, frustums);
    found += scene_found;
    empty += scene_empty;
  }
  // The frustums see much of the meshes, and some see nothing.
  CHECK(found > 10000);
  CHECK(empty > 0);
}

TEST_CASE("a frustum holding the whole mesh reports every triangle", "[bvh][frustum]") {
  const Scene scene = random_soup(2000, 48);
  const Bvh bvh = build(scene.soup());
  const Aabb bounds = bvh.bounds();
  const float size = scene_size(scene);
  std::vector<TriangleId> all(scene.size());
  std::iota(all.begin(), all.end(), TriangleId{0});
  const Vec3 centre = 0.5f * (bounds.min + bounds.max);
  const Frustum wide = view_frustum(centre - Vec3(0, 0, 2 * size), {0, 0, 1}, {0, 1, 0}, 2.5f, 1.0f,
                                    0.5f * size, 4 * size);
  CHECK(collect_touching(bvh, wide) == all);
  const Frustum narrow = view_frustum(centre - Vec3(0, 0, 2 * size), {0, 0, 1}, {0, 1, 0}, 0.2f,
                                      1.5f, 0.5f * size, 4 * size);
  CHECK(collect_touching(bvh, narrow) == brute_force(scene, narrow));
}

TEST_CASE("bad frustums are named", "[bvh][frustum]") {
  const Bvh bvh = build(random_soup(50, 49).soup());
  Frustum bad = view_frustum({0, 0, 0}, {0, 0, 1}, {0, 1, 0}, 1, 1, 1, 2);
  bad.planes[3].normal = Vec3(0.0f);
  CHECK_THROWS_WITH(collect_touching(bvh, bad),
                    Catch::Contains("frustum query: plane 3: normal is zero"));
  const std::vector<Frustum> batch{view_frustum({0, 0, 0}, {0, 0, 1}, {0, 1, 0}, 1, 1, 1, 2), bad};
  CHECK_THROWS_WITH(collect_touching_batch(bvh, std::span<const Frustum>(batch)),
                    Catch::Contains("batch query 1"));
}

}  // namespace
}  // namespace trisect::testing
