// Plane queries against brute force, as exact sorted sets, on every scene, also scaled past
// the float child tests.
#include "support/brute_force.hpp"
#include "support/node_picker.hpp"
#include "support/query_maker.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include <cmath>
#include <limits>
#include <optional>

namespace trisect::testing {
namespace {

// `plane` times the power of two that brings its magnitude over the BVH's bounds
// (sum |n_i| max|x_i| + |d|) to about 2^101, or nothing when a coefficient would overflow.
std::optional<Plane> scaled_past_float_tests(const Bvh& bvh, const Plane& plane) {
  const Aabb bounds = bvh.bounds();
  double magnitude = std::fabs(double(plane.d));
  for (int axis = 0; axis < 3; ++axis)
    magnitude += std::fabs(double(plane.normal[axis])) *
                 std::max(std::fabs(double(bounds.min[axis])), std::fabs(double(bounds.max[axis])));
  const float scale = std::ldexp(1.0f, 101 - std::ilogb(magnitude));
  const Plane scaled{plane.normal * scale, plane.d * scale};
  if (!is_finite(scaled.normal) || !std::isfinite(scaled.d)) return std::nullopt;
  return scaled;
}

TEST_CASE("plane queries equal brute force on every scene, also scaled past the float tests",
          "[bvh]") {
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    QueryMaker make{scene, std::mt19937_64(12)};
    for (int q = 0; q < 150; ++q) {
      const Plane plane = make.plane();
      INFO("plane " << plane.normal.x << ' ' << plane.normal.y << ' ' << plane.normal.z << " d "
                    << plane.d);
      const auto expected = brute_force(scene, plane);
      REQUIRE(collect_touching(bvh, plane) == expected);
      // The same plane scaled by a power of two (exact) so that |n|·|x| + |d| reaches 1e30:
      // too large for the float child tests, so the traversal takes the exact child-by-child
      // path, with the same answer.
      if (const auto scaled = scaled_past_float_tests(bvh, plane)) {
        REQUIRE(make_query(bvh, *scaled).float_error_bound ==
                std::numeric_limits<float>::infinity());
        REQUIRE(make_query(bvh, *scaled).node_error_bound ==
                std::numeric_limits<float>::infinity());
        REQUIRE(collect_touching(bvh, *scaled) == expected);
      }
    }
  }
}

TEST_CASE("the plane query's error bounds are at least the proven ones", "[bvh]") {
  // dot(n, p) - d takes three products and three sums: with unit roundoff u, its error is at
  // most gamma_6 = 6u / (1 - 6u) times M = |d| + sum |n_i| max |x_i| over the region (Higham,
  // "Accuracy and Stability of Numerical Algorithms", §3.1). In double the products are exact:
  // three sums, gamma_3. A bound below these (a quarter of today's, say) is not proven.
  const Scene scene = random_soup(500, 81);
  const Bvh bvh = build(scene.soup());
  const Aabb region = bvh.bounds();
  std::mt19937_64 random(82);
  for (int q = 0; q < 100; ++q) {
    const Plane plane{Vec3(uniform(random, -3, 3), uniform(random, -3, 3), uniform(random, -3, 3)),
                      uniform(random, -30, 30)};
    double magnitude = std::fabs(double(plane.d));
    for (int axis = 0; axis < 3; ++axis)
      magnitude +=
          std::fabs(double(plane.normal[axis])) *
          std::max(std::fabs(double(region.min[axis])), std::fabs(double(region.max[axis])));
    const double float_unit = 0x1p-24, double_unit = 0x1p-53;
    const PlaneQuery query = make_query(bvh, plane);
    CHECK(double(query.float_error_bound) >= 6 * float_unit / (1 - 6 * float_unit) * magnitude);
    CHECK(query.error_bound >= 3 * double_unit / (1 - 3 * double_unit) * magnitude);
    // The node tests: gamma_8 of three magnitudes plus the decode's u (see PlaneQuery), over
    // the reach, which holds the region.
    CHECK(double(query.node_error_bound) >=
          (3 * 8 * float_unit / (1 - 8 * float_unit) + float_unit) * magnitude);
  }
}

TEST_CASE("plane node tests keep every child whose decoded box the plane touches exactly",
          "[bvh]") {
  // Planes through a corner of a child's decoded box (d rounded to float, so a hair to either
  // side or exactly through it), with random normals: where the exact test says the closed box
  // touches, the float child test on the quantised faces must keep the child.
  std::mt19937_64 random(83);
  for (const Scene& scene : all_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    if (bvh.wide.empty()) continue;
    NodePicker picker(bvh);
    int touching = 0, apart = 0;
    for (int q = 0; q < 3000; ++q) {
      const WideNode& node = picker.node(random);
      const Aabb box = node.child_bounds(NodePicker::used_lane(node, random));
      const Vec3 corner((q & 1) != 0 ? box.max.x : box.min.x, (q & 2) != 0 ? box.max.y : box.min.y,
                        (q & 4) != 0 ? box.max.z : box.min.z);
      const Vec3 normal(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1));
      if (normal == Vec3(0)) continue;
      const Plane plane{normal, glm::dot(normal, corner)};
      const PlaneQuery query = make_query(bvh, plane);
      REQUIRE(query.node_error_bound < std::numeric_limits<float>::infinity());
      const unsigned kept = query.child_masks(node).touching;
      for (int i = 0; i < NodePicker::used_lanes(node); ++i) {
        const bool exact = query.may_touch(node.child_bounds(i));
        (exact ? touching : apart) += 1;
        if (exact) REQUIRE((kept >> i & 1u) == 1u);
      }
    }
    CHECK(touching > 3000);
    CHECK(apart > 1000);
  }
}

}  // namespace
}  // namespace trisect::testing
