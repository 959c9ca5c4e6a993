// The generic traversal: visitors that stop it, and the child-by-child path of scalar
// queries beside the SIMD child tests of wide nodes.
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>

namespace trisect::testing {
namespace {

// A box query seen only through the scalar TriangleQuery tests, so that the traversal takes
// its child-by-child path instead of BoxQuery::child_masks.
struct ScalarBoxQuery {
  BoxQuery inner;
  [[nodiscard]] bool may_touch(const Aabb& node) const { return inner.may_touch(node); }
  [[nodiscard]] bool contains(const Aabb& node) const { return inner.contains(node); }
  [[nodiscard]] bool touches(const Triangle& triangle) const { return inner.touches(triangle); }
};
static_assert(WideTriangleQuery<BoxQuery> && !WideTriangleQuery<ScalarBoxQuery>);
TEST_CASE("for_each_touching stops when the visitor returns false", "[bvh]") {
  const Scene scene = random_soup(2000, 21);
  const Bvh bvh = build(scene.soup());
  const Aabb everything = Aabb::from_corners(Vec3(-20.0f), Vec3(20.0f));
  int visits = 0;
  const bool completed =
      for_each_touching(bvh, everything, [&](TriangleId) { return ++visits < 5; });
  CHECK_FALSE(completed);
  CHECK(visits == 5);
  QueryStats stats;
  CHECK(collect_touching(bvh, everything, &stats).size() == scene.size());
  CHECK(stats.triangles_inside == scene.size());  // the root lies inside: nothing is tested
  CHECK(stats.triangles_tested == 0);
}
TEST_CASE("wide nodes collapse the binary tree: 2 to 8 children", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    const Bvh bvh = build(soup, {.threads = 1});
    const bool single_leaf = std::popcount(bvh.wide[0].used_mask()) == 1;
    std::size_t wide_leaves = 0;
    for (const WideNode& node : bvh.wide) {
      CHECK(std::popcount(node.used_mask()) >= (single_leaf ? 1 : 2));
      for (std::uint32_t child : node.child) wide_leaves += child == WideNode::leaf ? 1u : 0u;
    }
    CHECK(wide_leaves == statistics(bvh).leaf_count);
    // Every wide node but the root is one of 2 to 8 children: fewer wide nodes than leaves.
    CHECK((single_leaf || bvh.wide.size() < wide_leaves));
    // The SIMD child tests and the child-by-child fallback give the same answers.
    const float size = scene_size(scene);
    for (std::size_t q = 0; q < 40; ++q) {
      const Vec3 center = scene.positions[(q * 7919) % scene.positions.size()];
      const Aabb box = Aabb::from_center_extents(center, Vec3(size * 0.02f * float(q % 5)));
      std::vector<TriangleId> scalar;
      for_each_touching(bvh, ScalarBoxQuery{make_query(bvh, box)}, [&](TriangleId id) {
        scalar.push_back(id);
        return true;
      });
      std::sort(scalar.begin(), scalar.end());
      CHECK(collect_touching(bvh, box) == scalar);
    }
  }
}

}  // namespace
}  // namespace trisect::testing
