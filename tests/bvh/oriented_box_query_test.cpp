// Oriented box queries against brute force (the exact predicate, itself checked against the
// rational oracle in tests/geometry/oriented_box_triangle_test.cpp), as exact sorted sets, on
// every scene; the node filter's two answers checked against the oracle on random node boxes;
// a box around the whole mesh; batches equal single queries; bad boxes named.
#include "support/brute_force.hpp"
#include "support/describe.hpp"
#include "support/exact_oracle.hpp"
#include "support/query_maker.hpp"
#include "support/random_cases.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/batch.hpp>
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/oriented_box_query.hpp>

#include <catch2/catch.hpp>

#include <limits>
#include <numeric>
#include <vector>

namespace trisect::testing {
namespace {

TEST_CASE("oriented box queries equal brute force on every scene", "[bvh][oriented_box]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(41)};
    const float size = 0.05f * scene_size(scene);
    std::vector<OrientedBox> boxes;
    for (int q = 0; q < 60; ++q) boxes.push_back(make.oriented_box(q % 3 == 0 ? 4 * size : size));
    (void)require_brute_force_answers(bvh, scene, boxes);
  }
}

TEST_CASE("an oriented box around the whole mesh reports every triangle", "[bvh][oriented_box]") {
  const Scene scene = random_soup(2000, 43);
  const Bvh bvh = build(scene.soup());
  const Aabb bounds = bvh.bounds();
  std::vector<TriangleId> all(scene.size());
  std::iota(all.begin(), all.end(), TriangleId{0});
  OrientedBox around;
  around.center = 0.5f * (bounds.min + bounds.max);
  set_rotation(around.axes, 0.8, 0.3, 0.2, -0.1);
  const float size = scene_size(scene);
  around.half_extents = Vec3(size, size, size);  // holds the root box: reported whole
  CHECK(collect_touching(bvh, around) == all);
  around.half_extents = Vec3(0.3f * size, 0.2f * size, 0.1f * size);
  CHECK(collect_touching(bvh, around) == brute_force(scene, around));
}

// A node box misses the oriented box exactly when none of its 12 surface triangles touches it
// and the oriented box's centre is not inside it; it lies inside exactly when its 8 corners do.
bool node_touches(const Aabb& node, const OrientedBox& box) {
  if (node.contains(box.center)) return true;
  const auto corner = [&](unsigned bits) {
    return Vec3(bits & 1u ? node.max.x : node.min.x, bits & 2u ? node.max.y : node.min.y,
                bits & 4u ? node.max.z : node.min.z);
  };
  for (unsigned axis = 0; axis < 3; ++axis)
    for (unsigned side = 0; side < 2; ++side) {
      // The face with bit `axis` = side; its corners in cyclic order.
      const unsigned bit = 1u << axis, next = 1u << ((axis + 1) % 3), last = 1u << ((axis + 2) % 3);
      const unsigned base = side ? bit : 0u;
      const Vec3 p = corner(base), q = corner(base | next), r = corner(base | next | last),
                 s = corner(base | last);
      if (oracle::touches(Triangle{p, q, r}, box) || oracle::touches(Triangle{p, r, s}, box))
        return true;
    }
  return false;
}

bool node_inside(const Aabb& node, const OrientedBox& box) {
  for (unsigned bits = 0; bits < 8; ++bits) {
    const Vec3 c(bits & 1u ? node.max.x : node.min.x, bits & 2u ? node.max.y : node.min.y,
                 bits & 4u ? node.max.z : node.min.z);
    if (!oracle::touches(Triangle{c, c, c}, box)) return false;
  }
  return true;
}

TEST_CASE("the oriented box node filter never contradicts the exact answer",
          "[bvh][oriented_box][property]") {
  CaseGenerator g(0x0de'0bb0ULL);
  int apart = 0, inside = 0;
  for (int k = 0; k < 3000; ++k) {
    g.begin(all_regimes[static_cast<std::size_t>(k) % all_regimes.size()]);
    const OrientedBox box = g.oriented_box();
    const Aabb node = g.box_from(g.point());
    const int answer = detail::OrientedBoxFrame::of(box).classify(node);
    INFO(describe(box) << " node " << describe(node));
    if (answer < 0) REQUIRE_FALSE(node_touches(node, box));
    if (answer > 0) REQUIRE(node_inside(node, box));
    apart += answer < 0;
    inside += answer > 0;
  }
  // Both answers are given often (the filter is not trivially conservative).
  CHECK(apart > 300);
  CHECK(inside > 30);
}

TEST_CASE("bad oriented boxes are named", "[bvh][oriented_box]") {
  const Bvh bvh = build(random_soup(50, 44).soup());
  OrientedBox box;
  box.half_extents = Vec3(1, 1, -1);
  CHECK_THROWS_WITH(collect_touching(bvh, box),
                    Catch::Contains("oriented box query: half extent 2 is negative"));
  box.half_extents = Vec3(1, 1, 1);
  box.axes[1] = box.axes[0];
  CHECK_THROWS_WITH(collect_touching(bvh, box),
                    Catch::Contains("oriented box query: axes are linearly dependent"));
  const std::vector<OrientedBox> batch{OrientedBox{}, box};
  CHECK_THROWS_WITH(collect_touching_batch(bvh, std::span<const OrientedBox>(batch)),
                    Catch::Contains("batch query 1"));
}

}  // namespace
}  // namespace trisect::testing
