// Builds: valid and independent of the thread count, the wide nodes the binary tree collapses
// into, validate() naming broken invariants, empty and indexed soups, invalid input.
#include "support/brute_force.hpp"
#include "support/every_query_check.hpp"
#include "support/property.hpp"
#include "support/query_maker.hpp"
#include "support/ray_check.hpp"
#include "support/same_tree.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/ray_query.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace trisect::testing {
namespace {

TEST_CASE("bvh builds are valid and identical for 1, 2 and 8 threads", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    const Bvh one = build(soup, {.threads = 1});
    REQUIRE_NOTHROW(validate(one, &soup));
    for (unsigned threads : {2u, 8u}) {
      const Bvh many = build(soup, {.threads = threads});
      REQUIRE(same_tree(one, many));
    }
    const BvhStatistics stats = statistics(one);
    CHECK(stats.node_count == one.wide.size() + stats.leaf_count);
    CHECK(stats.depth <= max_bvh_depth);
  }
}
TEST_CASE("morton builds are valid, shallow and identical for 1, 2 and 8 threads", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    const Bvh one = build(soup, {.threads = 1, .method = BuildMethod::morton});
    REQUIRE_NOTHROW(validate(one, &soup));
    for (unsigned threads : {2u, 8u})
      REQUIRE(same_tree(one, build(soup, {.threads = threads, .method = BuildMethod::morton})));
    // 30 bits of code, then halving runs of equal codes: at most 30 + 32 binary levels.
    CHECK(statistics(one).depth <= 62);
  }
}

TEST_CASE("ploc builds are valid and identical for 1, 2 and 8 threads", "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    const Bvh one = build(soup, {.threads = 1, .method = BuildMethod::ploc});
    REQUIRE_NOTHROW(validate(one, &soup));
    for (unsigned threads : {2u, 8u})
      REQUIRE(same_tree(one, build(soup, {.threads = threads, .method = BuildMethod::ploc})));
    CHECK(statistics(one).depth <= max_bvh_depth);
  }
}

TEST_CASE("morton and ploc trees answer every query as brute force does", "[bvh]") {
  for (const BuildMethod method : {BuildMethod::morton, BuildMethod::ploc}) {
    for (const Scene& scene : all_scenes()) {
      INFO(scene.name << " method " << static_cast<int>(method));
      const Bvh bvh = build(scene.soup(), {.method = method});
      check_every_query(bvh, scene, testing::reduced_run() ? 20 : 60);
    }
  }
}

TEST_CASE("morton and ploc builds of one triangle, equal centres and a flat scene", "[bvh]") {
  const std::vector<Vec3> one = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  for (const BuildMethod method : {BuildMethod::morton, BuildMethod::ploc}) {
    INFO("method " << static_cast<int>(method));
    const Bvh single = build(TriangleSoup{one}, {.method = method});
    CHECK(single.size() == 1);
    CHECK(collect_touching(single, Aabb{Vec3(0), Vec3(0)}) == std::vector<TriangleId>{0});
    // 100 copies of one triangle (every code and every distance equal) and a flat row of
    // triangles (two axes of zero extent).
    std::vector<Vec3> copies, row;
    for (int i = 0; i < 100; ++i) {
      copies.insert(copies.end(), one.begin(), one.end());
      row.insert(row.end(), {{float(i), 0, 0}, {float(i) + 1, 0, 0}, {float(i) + 0.5f, 0, 0}});
    }
    for (const std::vector<Vec3>* positions : {&copies, &row}) {
      const TriangleSoup soup{*positions};
      const Bvh bvh = build(soup, {.method = method});
      REQUIRE_NOTHROW(validate(bvh, &soup));
      CHECK(collect_touching(bvh, Aabb{Vec3(0.5f, -1, -1), Vec3(0.5f, 1, 1)}).size() ==
            (positions == &copies ? 100u : 1u));
      // Equal distances pair up by rank: the copies' tree is as shallow as a balanced one.
      if (positions == &copies) CHECK(statistics(bvh).depth <= 5);
    }
  }
}

TEST_CASE("ploc builds of triangles spaced in a geometric series are valid and walkable", "[bvh]") {
  // Triangles at 2^i along x, i = 0 .. 120: each cluster's nearest is the one before it until
  // the areas underflow to ties, which pair up by rank. The tree stays within the walks'
  // depth, and a box finds exactly the triangles it should.
  std::vector<Vec3> positions;
  for (int i = 0; i <= 120; ++i) {
    const float x = std::ldexp(1.0f, i);
    positions.insert(positions.end(), {Vec3(x, 0, 0), Vec3(x, 1, 0), Vec3(x, 0, 1)});
  }
  const TriangleSoup soup{positions};
  const Bvh bvh = build(soup, {.method = BuildMethod::ploc});
  REQUIRE_NOTHROW(validate(bvh, &soup));
  CHECK(statistics(bvh).depth <= max_bvh_depth);
  for (const int i : {0, 1, 30, 119, 120}) {
    const float x = std::ldexp(1.0f, i);
    CHECK(collect_touching(bvh, Aabb{Vec3(x, 0, 0), Vec3(x, 0, 0)}) ==
          std::vector<TriangleId>{static_cast<TriangleId>(i)});
  }
}

TEST_CASE("validate names a corrupted node", "[bvh]") {
  const Scene scene = all_scenes().front();
  const TriangleSoup soup = scene.soup();
  const Bvh good = build(soup, {.threads = 1});
  REQUIRE(good.wide.size() > 1);
  Bvh bad = good;
  bad.wide[1].exponent[0] -= 8;  // every child box shrinks to 1/256 of its width on x
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("is outside"));
  const auto partial = std::find_if(good.wide.begin(), good.wide.end(), [](const WideNode& node) {
    return node.child[WideNode::width - 1] == WideNode::unused;
  });
  REQUIRE(partial != good.wide.end());
  const auto partial_index = static_cast<std::size_t>(partial - good.wide.begin());
  const std::string partial_name = "wide node " + std::to_string(partial_index);
  bad = good;
  bad.wide[partial_index].faces[1][WideNode::width - 1] = 1;  // an unused face
  CHECK_THROWS_WITH(validate(bad), Catch::Contains(partial_name + " has a misplaced unused lane"));
  bad = good;
  bad.wide[partial_index].used = 0xff;  // every lane marked used
  CHECK_THROWS_WITH(validate(bad), Catch::Contains(partial_name + " has a wrong used mask"));
  bad = good;
  bad.wide[1].exponent[2] = 0;  // a zero step
  CHECK_THROWS_WITH(validate(bad),
                    Catch::Contains("wide node 1 has grid exponent 0 on axis 2, outside 1 to 254"));
  bad = good;
  const float width = good.root_bounds.max.x - good.root_bounds.min.x;
  REQUIRE(width > 0);
  bad.wide[0].origin[0] += width;  // the root's child boxes move right by the root's width
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("wide node 0 child 0 bounds are outside"));
  bad = good;
  bad.wide[0].first[1] += 1;  // child 0 grows into child 1's slots
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("wide node"));
  bad = good;
  bad.wide.shrink_to(bad.wide.size() - 1);
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("wide node"));
  bad = good;
  // The root's box no longer holds the triangles (which the structure checks, first), nor the
  // decoded child boxes (the plane query's reach, taken from it).
  bad.root_bounds.max.x = bad.root_bounds.min.x;
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("is outside the root box"));
  bad = good;
  bad.root_bounds.max.y = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("the root box is not finite"));
  bad = good;
  bad.wide[0].child[1] = WideNode::unused;  // an unused lane before used ones
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("unused lane"));
  bad = good;
  std::swap(bad.ids[0], bad.ids[bad.ids.size() - 1]);  // two slots name each other's triangles
  CHECK_THROWS_WITH(validate(bad, &soup), Catch::Contains("does not hold input triangle"));
}
TEST_CASE("empty soups build empty trees with empty answers", "[bvh]") {
  const Bvh bvh = build(TriangleSoup{});
  CHECK(bvh.empty());
  REQUIRE_NOTHROW(validate(bvh));
  CHECK(collect_touching(bvh, Aabb{Vec3(-1.0f), Vec3(1.0f)}).empty());
  CHECK(collect_touching(bvh, Plane{Vec3(0, 0, 1), 0}).empty());
  CHECK_FALSE(closest_hit(bvh, Ray{Vec3(0.0f), Vec3(0, 0, 1)}).has_value());
}
TEST_CASE("indexed soups answer in input triangle ids", "[bvh]") {
  const std::vector<Vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const std::vector<std::uint32_t> indices{0, 1, 2, 0, 1, 3, 1, 2, 3, 0, 2, 3};
  const TriangleSoup soup{positions, indices};
  const Bvh bvh = build(soup, {.max_leaf_size = 1});
  REQUIRE_NOTHROW(validate(bvh, &soup));
  CHECK(collect_touching(bvh, Plane{Vec3(0, 0, 1), 0}) == std::vector<TriangleId>{0, 1, 2, 3});
  CHECK(collect_touching(bvh, Plane{Vec3(0, 0, 1), 1}) == std::vector<TriangleId>{1, 2, 3});
  CHECK(collect_touching(bvh, Aabb{Vec3(0.51f, 0.51f, 0.0f), Vec3(0.6f, 0.6f, 0.0f)}).empty());
  CHECK(collect_touching(bvh, Aabb{Vec3(0.5f, 0.5f, 0.0f), Vec3(0.5f, 0.5f, 0.0f)}) ==
        std::vector<TriangleId>{0, 2});
}
TEST_CASE("invalid soups, options and queries are rejected with the place named", "[bvh]") {
  const std::vector<Vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<std::uint32_t> bad_index{0, 1, 3};
  // Every builder checks the triangles in its first pass (the fast ones lane by lane).
  for (const BuildMethod method : {BuildMethod::sah, BuildMethod::morton, BuildMethod::ploc}) {
    INFO("method " << static_cast<int>(method));
    CHECK_THROWS_WITH(build(TriangleSoup{positions, bad_index}, {.method = method}),
                      Catch::Contains("index 2") && Catch::Contains("triangle 0"));
    for (const float bad : {std::nanf(""), std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity()}) {
      for (int axis = 0; axis < 3; ++axis) {
        std::vector<Vec3> with_bad = positions;
        with_bad.push_back({0, 0, 0});
        with_bad.push_back({1, 1, 1});
        with_bad.push_back({0, 2, 0});
        with_bad[4][axis] = bad;
        CHECK_THROWS_WITH(build(TriangleSoup{with_bad}, {.method = method}),
                          Catch::Contains("triangle 1"));
      }
    }
    // Coordinates at the float limits and subnormal ones are valid.
    const std::vector<Vec3> extreme{
        {-FLT_MAX, 0, 1e-45f}, {FLT_MAX, 1e-40f, 0}, {0, FLT_MAX, -1e-45f}};
    CHECK(build(TriangleSoup{extreme}, {.method = method}).size() == 1);
  }
  CHECK_THROWS_WITH(build(TriangleSoup{std::span<const Vec3>(positions).first(2)}),
                    Catch::Contains("multiple of 3"));
  CHECK_THROWS_AS(build(TriangleSoup{positions}, {.max_leaf_size = 0}), InvalidInput);
  const Bvh bvh = build(TriangleSoup{positions});
  CHECK_THROWS_AS(collect_touching(bvh, Plane{Vec3(0.0f), 1}), InvalidInput);
  CHECK_THROWS_AS(collect_touching(bvh, Sphere{Vec3(0.0f), -1}), InvalidInput);
  CHECK_THROWS_AS(collect_touching(bvh, Aabb{Vec3(1.0f), Vec3(0.0f)}), InvalidInput);
  CHECK_THROWS_AS(closest_hit(bvh, Ray{Vec3(0.0f), Vec3(0.0f)}), InvalidInput);
}

TEST_CASE("thread counts: 0 to 4096 build one tree, anything more is named", "[bvh][threads]") {
  const Scene scene = noisy_sphere(30, 40, 3);
  const Bvh one = build(scene.soup(), {.threads = 1});
  for (const unsigned threads : {0u, 2u, 4096u}) {
    for (const BuildMethod method : {BuildMethod::sah, BuildMethod::morton, BuildMethod::ploc}) {
      INFO(threads);
      CHECK(same_tree(build(scene.soup(), {.threads = threads, .method = method}),
                      build(scene.soup(), {.threads = 1, .method = method})));
    }
  }
  CHECK(same_tree(build(scene.soup(), {.threads = 4096}), one));
  for (const unsigned threads : {4097u, 0x80000000u, 0xFFFFFFFFu})
    CHECK_THROWS_WITH(
        build(scene.soup(), {.threads = threads}),
        "build options: threads must be from 0 to 4096, got " + std::to_string(threads));
}

TEST_CASE("both builders name the first invalid triangle of a large soup", "[bvh]") {
  // Far apart in the id range, so that different parallel chunks find them.
  constexpr std::size_t count = 20000, first_bad = 9001, second_bad = 17003;
  std::vector<Vec3> positions;
  for (std::size_t t = 0; t < count; ++t) {
    const auto x = static_cast<float>(t);
    positions.insert(positions.end(), {{x, 0, 0}, {x + 1, 0, 0}, {x, 1, 0}});
  }
  std::vector<std::uint32_t> indices(3 * count);
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<std::uint32_t>(i);
  std::vector<Vec3> with_infinity = positions;
  with_infinity[3 * first_bad + 1].y = std::numeric_limits<float>::infinity();
  with_infinity[3 * second_bad].z = std::nanf("");
  std::vector<std::uint32_t> bad_indices = indices;
  bad_indices[3 * first_bad + 2] = static_cast<std::uint32_t>(positions.size());
  bad_indices[3 * second_bad] = static_cast<std::uint32_t>(positions.size() + 7);
  for (const BuildMethod method : {BuildMethod::sah, BuildMethod::morton, BuildMethod::ploc})
    for (const unsigned threads : {1u, 2u, 8u}) {
      const BuildOptions options{.threads = threads, .method = method};
      CHECK_THROWS_WITH(build(TriangleSoup{with_infinity}, options),
                        Catch::Contains("triangle 9001"));
      CHECK_THROWS_WITH(build(TriangleSoup{positions, bad_indices}, options),
                        Catch::Contains("index 27005") && Catch::Contains("triangle 9001"));
      CHECK(build(TriangleSoup{positions, indices}, options).size() == count);
    }
}

// Two unit right triangles in z = 0, side by side three apart: the root's half area is
// 4 x 1 = 4, each leaf's 1 x 1 = 1.
const std::vector<Vec3> two_apart{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {3, 0, 0}, {4, 0, 0}, {3, 1, 0}};

// The tree: one wide node holding the two leaves.
TEST_CASE("statistics of a hand-built tree, with unit costs and others", "[bvh]") {
  const Bvh bvh = build(TriangleSoup{two_apart}, {.max_leaf_size = 1});
  const BvhStatistics stats = statistics(bvh);
  CHECK(stats.node_count == 3);
  CHECK(stats.leaf_count == 2);
  CHECK(stats.depth == 1);
  CHECK(stats.sah_cost == 1.0 + 2 * (1.0 / 4));  // the root, then each leaf: 1 x 1/4
  // Traversal cost 2 weighs the wide node, intersection cost 3 the leaves' triangles.
  CHECK(statistics(bvh, 2.0f, 3.0f).sah_cost == 2.0 + 2 * 3.0 / 4);
  // Per lane, each one-triangle leaf is charged for four.
  CHECK(stats.sah_cost_lanes == 1.0 + 2 * (4.0 / 4));
  CHECK(statistics(bvh, 2.0f, 3.0f).sah_cost_lanes == 2.0 + 2 * 3.0 * 4 / 4);
  // One wide node (128 bytes), two triangles (36 each) with the 12 bytes past the last group
  // and one 8-byte word of leaf starts, and two ids (4 each).
  CHECK(stats.bytes == 128 + (2 * 36 + 12 + 8) + 2 * 4);
  CHECK(stats.bytes_per_triangle == 228.0 / 2);
}

TEST_CASE("statistics of a tree spanning the whole float range are finite", "[bvh]") {
  constexpr float big = std::numeric_limits<float>::max();
  const std::vector<Vec3> corners{{-big, -big, -big}, {big, -big, big}, {big, big, -big},
                                  {0, 0, 0},          {1, 0, 0},        {0, 1, 0}};
  const Bvh bvh = build(TriangleSoup{corners});
  const BvhStatistics stats = statistics(bvh);
  CHECK(std::isfinite(stats.sah_cost));
  CHECK(stats.sah_cost >= 1.0);  // at least the root's traversal
}

TEST_CASE("the builder weighs a leaf by the lanes of its groups of four", "[bvh]") {
  // A leaf of 1 to 4 triangles costs 4 lanes times its half area; the root's traversal is paid
  // whether it holds one leaf or two.
  const auto leaves = [](const std::vector<Vec3>& soup, BuildOptions options) {
    return statistics(build(TriangleSoup{soup}, options)).leaf_count;
  };
  // Boxes [0, 1] x [0, 1] and [0.5, 1.5] x [0, 1]: one leaf costs 4 x 1.5 = 6, two 4 + 4 = 8
  // (per triangle it would be 3 against 2: two leaves).
  const std::vector<Vec3> overlapping{{0, 0, 0},    {1, 0, 0},    {0, 1, 0},
                                      {1.5f, 0, 0}, {1.5f, 1, 0}, {0.5f, 1, 0}};
  CHECK(leaves(overlapping, {}) == 1);
  CHECK(leaves(overlapping, {.traversal_cost = 1.0f, .intersection_cost = 0.6f}) == 1);
  // Three apart: one leaf costs 4 x 4 = 16, two 4 + 4 = 8.
  CHECK(leaves(two_apart, {}) == 2);
  CHECK(leaves(two_apart, {.traversal_cost = 0.0f, .intersection_cost = 5.0f}) == 2);
}

}  // namespace
}  // namespace trisect::testing
