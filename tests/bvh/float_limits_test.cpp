// Soups and queries whose coordinates are exactly ±FLT_MAX (not only near it), mixed with
// subnormals, zeros and small integers: the tree's quantised boxes, the mapped boxes of an
// overlap query with a transform and every query's float fast paths meet the ends of the float
// range here. Every answer is compared with the GMP oracles of tests/support.
#include "support/exact_oracle.hpp"
#include "support/ray_check.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/bvh/ray_query.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/overlap/overlap.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

constexpr float largest = std::numeric_limits<float>::max();
constexpr float smallest_subnormal = std::numeric_limits<float>::denorm_min();
constexpr float smallest_normal = std::numeric_limits<float>::min();

// The coordinates the soups and queries are made of: the ends of the float range and their
// neighbours, subnormals, and ordinary small values.
constexpr float coordinates[] = {-largest,
                                 largest,
                                 -0x1.fffffcp127f,  // the float below FLT_MAX
                                 0x1.fffffcp127f,
                                 -0x1p127f,
                                 0x1p127f,
                                 -1e38f,
                                 1e38f,
                                 0.0f,
                                 1.0f,
                                 -1.0f,
                                 2.0f,
                                 smallest_subnormal,
                                 -smallest_subnormal,
                                 3 * smallest_subnormal,
                                 smallest_normal,
                                 -smallest_normal,
                                 smallest_normal - smallest_subnormal};

struct Maker {
  std::mt19937_64 random;

  int below(int count) { return std::uniform_int_distribution<int>(0, count - 1)(random); }
  float coordinate() { return coordinates[below(int(std::size(coordinates)))]; }
  Vec3 point() { return {coordinate(), coordinate(), coordinate()}; }

  // The positions of `count` triangles (a plain soup); a third of the vertices repeat an
  // earlier one (shared vertices, edges and, at times, whole triangles).
  std::vector<Vec3> soup(int count) {
    std::vector<Vec3> positions;
    for (int k = 0; k < 3 * count; ++k)
      positions.push_back(k >= 3 && below(3) == 0 ? positions[std::size_t(below(k))] : point());
    return positions;
  }

  // A signed permutation with entries ±1 or ±0.5, or (one time in two) some of its entries
  // replaced by other small numbers and translations of up to 1e38.
  Transform transform() {
    Transform transform;
    transform.rows.fill(0.0f);
    int axes[3] = {0, 1, 2};
    std::shuffle(axes, axes + 3, random);
    for (int r = 0; r < 3; ++r)
      transform.rows[std::size_t(4 * r + axes[r])] =
          (below(2) == 0 ? 1.0f : -1.0f) * (below(4) == 0 ? 0.5f : 1.0f);
    if (below(2) == 0) {
      constexpr float entries[] = {0.0f, 0.3f, -0.7f, 1e-3f, 0.6f, -0.8f, 1.0f, 3e-39f};
      for (std::size_t k = 0; k < 12; ++k)
        if (below(2) == 0)
          transform.rows[k] = entries[below(8)] * (k % 4 == 3 && below(2) == 0 ? 1e38f : 1.0f);
    }
    return transform;
  }
};

Triangle mapped(const Transform& transform, const Triangle& t) {
  return {transform.apply(t.a), transform.apply(t.b), transform.apply(t.c)};
}

bool maps_to_finite(const Transform& transform, const TriangleSoup& soup) {
  for (std::size_t id = 0; id < soup.size(); ++id) {
    const Triangle t = mapped(transform, soup.triangle(id));
    if (!is_finite(t.a) || !is_finite(t.b) || !is_finite(t.c)) return false;
  }
  return true;
}

template <class Shape>
std::vector<TriangleId> oracle_touching(const TriangleSoup& soup, const Shape& shape) {
  std::vector<TriangleId> ids;
  for (std::size_t id = 0; id < soup.size(); ++id)
    if (oracle::touches(soup.triangle(id), shape)) ids.push_back(TriangleId(id));
  return ids;
}

// Every pair (i of `first`, j of `second` mapped by `transform`) that shares a point.
std::vector<TrianglePair> oracle_pairs(const TriangleSoup& first, const TriangleSoup& second,
                                       const Transform& transform) {
  std::vector<TrianglePair> pairs;
  for (std::size_t i = 0; i < first.size(); ++i)
    for (std::size_t j = 0; j < second.size(); ++j)
      if (oracle::touches(first.triangle(i), mapped(transform, second.triangle(j))))
        pairs.push_back({TriangleId(i), TriangleId(j)});
  return pairs;
}

std::vector<TrianglePair> oracle_self_pairs(const TriangleSoup& soup) {
  std::vector<TrianglePair> pairs;
  for (std::size_t i = 0; i < soup.size(); ++i)
    for (std::size_t j = i + 1; j < soup.size(); ++j)
      if (oracle::touches_beyond_shared(soup.triangle(i), soup.triangle(j)))
        pairs.push_back({TriangleId(i), TriangleId(j)});
  return pairs;
}

TEST_CASE("a triangle spanning the float range meets its mirror images", "[bvh][overlap]") {
  // Issue 22, item 1 and its relatives: the mapped boxes, rounded outward, reached ±inf, and
  // the leaf test of a triangle's plane against such a box computed 0·inf and dropped the pair.
  const Vec3 thirds[] = {{0, 1, 0}, {0, -largest, largest}, {0, largest, 0}, {0, 1, -1}};
  for (int axis = 0; axis < 3; ++axis) {
    for (const Vec3& third : thirds) {
      Vec3 low(0.0f), high(0.0f);
      low[axis] = -largest;
      high[axis] = largest;
      const Vec3 other(third[(3 - axis) % 3], third[(4 - axis) % 3], third[(5 - axis) % 3]);
      const std::vector<Vec3> positions{low, high, other};
      const TriangleSoup soup{positions};
      const Bvh bvh = build(soup);
      for (int mirrored = 0; mirrored < 3; ++mirrored) {
        Transform mirror;
        mirror.rows[std::size_t(5 * mirrored)] = -1.0f;
        INFO("axis " << axis << ", third vertex " << other.x << ' ' << other.y << ' ' << other.z
                     << ", mirrored axis " << mirrored);
        REQUIRE(oracle_pairs(soup, soup, mirror) == std::vector<TrianglePair>{{0, 0}});
        CHECK(collect_intersecting_pairs(bvh, bvh, mirror) == std::vector<TrianglePair>{{0, 0}});
        CHECK(collect_intersecting_pairs(bvh, bvh, mirror, {.threads = 1}) ==
              std::vector<TrianglePair>{{0, 0}});
        CHECK(any_intersecting_pair(bvh, bvh, mirror));
      }
    }
  }
}

TEST_CASE("overlap at ±FLT_MAX equals the exact oracle, with and without transform and self",
          "[bvh][overlap]") {
  Maker make{std::mt19937_64(2201)};
  for (int round = 0; round < 300; ++round) {
    const std::vector<Vec3> first_positions = make.soup(1 + make.below(8));
    const std::vector<Vec3> second_positions = make.soup(1 + make.below(8));
    const TriangleSoup first{first_positions}, second{second_positions};
    const Bvh first_bvh = build(first), second_bvh = build(second);
    INFO("round " << round);
    CHECK(collect_intersecting_pairs(first_bvh, second_bvh) ==
          oracle_pairs(first, second, Transform{}));
    CHECK(self_intersections(first_bvh) == oracle_self_pairs(first));
    const Transform transform = make.transform();
    if (!maps_to_finite(transform, second)) {
      CHECK_THROWS_AS(collect_intersecting_pairs(first_bvh, second_bvh, transform), InvalidInput);
      continue;
    }
    const std::vector<TrianglePair> expected = oracle_pairs(first, second, transform);
    CHECK(collect_intersecting_pairs(first_bvh, second_bvh, transform, {.threads = 1}) == expected);
    CHECK(collect_intersecting_pairs(first_bvh, second_bvh, transform) == expected);
    // A mesh against its own image.
    if (maps_to_finite(transform, first))
      CHECK(collect_intersecting_pairs(first_bvh, first_bvh, transform) ==
            oracle_pairs(first, first, transform));
  }
}

TEST_CASE("trees over soups at ±FLT_MAX and subnormals are valid and answer exactly", "[bvh]") {
  Maker make{std::mt19937_64(2202)};
  for (int round = 0; round < 60; ++round) {
    const std::vector<Vec3> positions = make.soup(1 + make.below(40));
    const TriangleSoup soup{positions};
    INFO("round " << round << ", " << soup.size() << " triangles");
    for (const BuildMethod method : {BuildMethod::sah, BuildMethod::morton, BuildMethod::ploc}) {
      const Bvh bvh = build(soup, {.max_leaf_size = 2, .method = method});
      REQUIRE_NOTHROW(validate(bvh, &soup));
      Bvh with_ray_leaves = bvh;
      refresh_ray_leaves(with_ray_leaves);
      for (int q = 0; q < 10; ++q) {
        const Aabb box = Aabb::from_corners(make.point(), make.point());
        INFO("box " << box.min.x << ' ' << box.min.y << ' ' << box.min.z << ", " << box.max.x << ' '
                    << box.max.y << ' ' << box.max.z);
        CHECK(collect_touching(bvh, box) == oracle_touching(soup, box));
        const Vec3 normal(float(make.below(5) - 2), float(make.below(5) - 2), 1.0f);
        const Plane plane{normal, make.coordinate()};
        INFO("plane " << normal.x << ' ' << normal.y << " 1 d " << plane.d);
        CHECK(collect_touching(bvh, plane) == oracle_touching(soup, plane));
        const Plane axis_plane{Vec3(0.0f, 0.0f, make.below(2) == 0 ? 1.0f : -1.0f),
                               make.coordinate()};
        CHECK(collect_touching(bvh, axis_plane) == oracle_touching(soup, axis_plane));
        const Sphere sphere{make.point(), std::fabs(make.coordinate())};
        INFO("sphere " << sphere.center.x << ' ' << sphere.center.y << ' ' << sphere.center.z
                       << " r " << sphere.radius);
        CHECK(collect_touching(bvh, sphere) == oracle_touching(soup, sphere));
        const Vec3 direction = make.point();
        if (direction == Vec3(0.0f)) continue;
        const Ray ray{make.point(), direction};
        INFO("ray " << ray.origin.x << ' ' << ray.origin.y << ' ' << ray.origin.z << " towards "
                    << direction.x << ' ' << direction.y << ' ' << direction.z);
        check_closest_hit(soup, ray, closest_hit(bvh, ray));
        check_any_hit(soup, ray, any_hit(bvh, ray));
        check_closest_hit(soup, ray, closest_hit(with_ray_leaves, ray));
        check_any_hit(soup, ray, any_hit(with_ray_leaves, ray));
      }
    }
  }
}

}  // namespace
}  // namespace trisect::testing
