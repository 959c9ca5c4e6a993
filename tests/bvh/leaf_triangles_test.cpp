// LeafTriangles: every slot's triangle and leaf read back as written, for random leaf tilings
// that cross the 64-slot words of the leaf-start bits; groups of four from each leaf's first
// slot, structure-of-arrays as TriangleGroup says; and a built BVH grouped by its own leaves.
#include <trisect/bvh/build.hpp>
#include <trisect/bvh/leaf_triangles.hpp>

#include "support/scenes.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

// Positions of `count` distinct triangles (every coordinate tells its triangle and place).
std::vector<Vec3> numbered_triangles(std::size_t count) {
  std::vector<Vec3> positions;
  for (std::size_t i = 0; i < count; ++i) {
    const auto x = static_cast<float>(i);
    positions.insert(positions.end(), {{x, 0.25f, 0.5f}, {x + 0.125f, 1, 2}, {x, 3, 4}});
  }
  return positions;
}

// Leaves of 1 to `largest` slots tiling [0, count), in a shuffled order.
std::vector<LeafRange> random_leaves(std::size_t count, std::uint32_t largest,
                                     std::mt19937_64& random) {
  std::uniform_int_distribution<std::uint32_t> size(1, largest);
  std::vector<LeafRange> leaves;
  for (std::uint32_t begin = 0; begin < count;) {
    const auto end = std::min(static_cast<std::uint32_t>(count), begin + size(random));
    leaves.push_back({begin, end});
    begin = end;
  }
  std::shuffle(leaves.begin(), leaves.end(), random);
  return leaves;
}

TEST_CASE("leaf triangles read back by slot, by leaf and by group", "[bvh][leaf_triangles]") {
  std::mt19937_64 random(14);
  for (const std::size_t count : {1u, 3u, 4u, 5u, 63u, 64u, 65u, 200u, 1000u}) {
    for (const std::uint32_t largest : {1u, 4u, 8u, 70u}) {
      INFO("count " << count << ", leaves of at most " << largest);
      const std::vector<Vec3> positions = numbered_triangles(count);
      const TriangleSoup soup{positions};
      std::vector<TriangleId> ids(count);
      for (std::size_t slot = 0; slot < count; ++slot) ids[slot] = TriangleId(count - 1 - slot);
      const std::vector<LeafRange> leaves = random_leaves(count, largest, random);
      const LeafTriangles stored = LeafTriangles::of(soup, ids, leaves);
      REQUIRE(stored.size() == count);
      for (const LeafRange leaf : leaves) {
        for (std::uint32_t slot = leaf.begin; slot < leaf.end; ++slot) {
          REQUIRE(stored.triangle(slot) == soup.triangle(ids[slot]));
          const LeafRange found = stored.leaf_of(slot);
          REQUIRE((found.begin == leaf.begin && found.end == leaf.end));
        }
        for (std::uint32_t first = leaf.begin; first < leaf.end; first += 4) {
          const TriangleGroup group = stored.group(first, leaf.end);
          REQUIRE(group.count == int(std::min<std::uint32_t>(4, leaf.end - first)));
          REQUIRE(group.coordinates == static_cast<const float*>(stored.address(first)));
          for (int lane = 0; lane < group.count; ++lane) {
            const Triangle expected = soup.triangle(ids[first + std::uint32_t(lane)]);
            REQUIRE(group.triangle(lane) == expected);
            float lanes[4];
            group.lanes(2, 1).store(lanes);  // vertex c, axis y
            REQUIRE(lanes[lane] == expected.c.y);
          }
        }
      }
    }
  }
}

TEST_CASE("a built BVH groups its triangles by its own leaves", "[bvh][leaf_triangles]") {
  const Scene scene = random_soup(5000, 7);
  const TriangleSoup soup = scene.soup();
  for (const BuildMethod method : {BuildMethod::sah, BuildMethod::morton, BuildMethod::ploc}) {
    const Bvh bvh = build(soup, {.method = method});
    REQUIRE_NOTHROW(validate(bvh, &soup));  // checks leaf_of against every leaf
    CHECK(bvh.triangles.size() == soup.size());
    CHECK(bvh.triangles.bytes() >= 36 * soup.size());
    CHECK(bvh.triangles.bytes() <= 36 * soup.size() + 12 + 8 * (soup.size() / 64 + 1) + 64);
  }
}

TEST_CASE("ray leaves hold every group of the leaves as an edge group", "[bvh][leaf_triangles]") {
  const Scene scene = random_soup(3000, 9);
  const TriangleSoup soup = scene.soup();
  for (const std::uint32_t largest : {1u, 5u, 8u, 13u}) {
    INFO("leaves of at most " << largest);
    const Bvh bvh = build(soup, {.max_leaf_size = largest, .ray_leaves = true});
    REQUIRE(bvh.has_ray_leaves());
    CHECK(statistics(bvh).ray_leaf_bytes == (12 * soup.size() + 3) * sizeof(float));
    for (std::uint32_t begin = 0; begin < bvh.size();) {
      const LeafRange leaf = bvh.triangles.leaf_of(begin);
      for (std::uint32_t first = leaf.begin; first < leaf.end; first += 4) {
        const TriangleGroup group = bvh.triangles.group(first, leaf.end);
        const EdgeGroup edges = bvh.ray_leaves.group(first, leaf.end);
        REQUIRE(edges.count == group.count);
        float expected[EdgeGroup::rows * 4];
        for (int lane = 0; lane < group.count; ++lane)
          EdgeGroup::write_lane(expected, group.count, lane, group.triangle(lane));
        for (int value = 0; value < EdgeGroup::rows * group.count; ++value)
          REQUIRE(edges.values[value] == expected[value]);
      }
      begin = leaf.end;
    }
  }
  // A copy without them: rays read the vertices.
  Bvh bvh = build(soup, {.ray_leaves = true});
  bvh.ray_leaves = {};
  CHECK(!bvh.has_ray_leaves());
  CHECK(statistics(bvh).ray_leaf_bytes == 0);
}

}  // namespace
}  // namespace trisect::testing
