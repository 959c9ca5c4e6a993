// statistics() on scenes small enough to work out by hand: node and leaf counts, depth, the
// SAH cost over the wide tree and the bytes held.
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/bvh.hpp>

#include <catch2/catch.hpp>

#include <vector>

namespace trisect::testing {
namespace {

static_assert(sizeof(WideNode) == 128 && sizeof(Triangle) == 36 && sizeof(TriangleId) == 4);

// `count` right triangles in the plane z = 0, each with the box [3i, 3i + 1] x [0, 1] (half
// area 1), so that two neighbours span [3i, 3i + 4] x [0, 1] (half area 4).
std::vector<Vec3> triangles_in_a_row(int count) {
  std::vector<Vec3> positions;
  for (int i = 0; i < count; ++i) {
    const auto x = static_cast<float>(3 * i);
    positions.insert(positions.end(), {{x, 0, 0}, {x + 1, 0, 0}, {x, 1, 0}});
  }
  return positions;
}

TEST_CASE("statistics of one triangle: a root holding one leaf", "[bvh][statistics]") {
  const std::vector<Vec3> positions = triangles_in_a_row(1);
  const Bvh bvh = build(TriangleSoup{positions});
  const BvhStatistics stats = statistics(bvh, 2.0f, 3.0f);
  CHECK(stats.node_count == 2);
  CHECK(stats.leaf_count == 1);
  CHECK(stats.depth == 1);
  // The root's traversal (2 x 1) and its leaf's triangle (3 x 1 x 1).
  CHECK(stats.sah_cost == 5.0);
  // The wide node, the triangle (36 bytes, 12 past the last group, an 8-byte word of leaf
  // starts) and its id.
  CHECK(stats.bytes == 128 + (36 + 12 + 8) + 4);
  CHECK(stats.bytes_per_triangle == 188.0);
}

TEST_CASE("statistics of nine triangles in leaves of one: two wide nodes", "[bvh][statistics]") {
  // The binary tree has 9 leaves and 8 inner nodes. The root wide node opens 6 of the 7 inner
  // nodes below the binary root to reach 8 children; the one left, the smallest, holds two
  // neighbours (half area 4) and becomes the second wide node, with two leaves.
  const std::vector<Vec3> positions = triangles_in_a_row(9);
  const Bvh bvh = build(TriangleSoup{positions}, {.max_leaf_size = 1, .threads = 1});
  REQUIRE_NOTHROW(validate(bvh));
  REQUIRE(bvh.bounds() == Aabb{{0, 0, 0}, {25, 1, 0}});  // half area 25
  const BvhStatistics stats = statistics(bvh, 2.0f, 3.0f);
  CHECK(bvh.wide.size() == 2);
  CHECK(stats.node_count == 2 + 9);
  CHECK(stats.leaf_count == 9);
  CHECK(stats.depth == 2);
  // Traversal 2 x (25 + 4) / 25 for the two wide nodes, intersection 3 x 9 x 1 / 25 for the
  // nine leaves of one triangle each.
  CHECK(stats.sah_cost == Approx(85.0 / 25.0).epsilon(1e-12));
  CHECK(statistics(bvh).sah_cost == Approx(38.0 / 25.0).epsilon(1e-12));
  CHECK(stats.bytes == 2 * 128 + (9 * 36 + 12 + 8) + 9 * 4);
  CHECK(stats.bytes_per_triangle == Approx(636.0 / 9.0).epsilon(1e-12));
}

TEST_CASE("statistics of an empty bvh are zero", "[bvh][statistics]") {
  const BvhStatistics stats = statistics(build(TriangleSoup{}));
  CHECK(stats.node_count == 0);
  CHECK(stats.leaf_count == 0);
  CHECK(stats.depth == 0);
  CHECK(stats.sah_cost == 0.0);
  CHECK(stats.bytes == 0);
  CHECK(stats.bytes_per_triangle == 0.0);
}

}  // namespace
}  // namespace trisect::testing
