// Clearance (pairs_within, self_pairs_within) against an exact rational brute force: every pair
// of triangles measured in GMP rationals (support/nearest_oracle.hpp, no library predicate),
// with and without a transform, at several thread counts; pairs at exactly the distance; the
// distance 0 against overlap; huge and tiny coordinates; zero-area triangles; bad distances.
#include "support/nearest_oracle.hpp"
#include "support/property.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/math/validate.hpp>
#include <trisect/overlap/clearance.hpp>
#include <trisect/overlap/overlap.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

namespace trisect::testing {
namespace {

// The triangles of `scene`, each vertex mapped by `transform` (`Transform::apply`, whose
// rounding rule overlap_test.cpp checks against the contract written out again).
std::vector<Triangle> mapped_triangles(const Scene& scene, const Transform& transform) {
  std::vector<Triangle> triangles;
  for (std::size_t i = 0; i < scene.size(); ++i) {
    const Triangle t = scene.soup().triangle(i);
    triangles.push_back({transform.apply(t.a), transform.apply(t.b), transform.apply(t.c)});
  }
  return triangles;
}

// True when one axis's gap between the boxes of `s` and `t` alone is certainly beyond `d`: the
// gap in double errs by at most a relative 2^-53, which the margin covers.
bool surely_apart(const Triangle& s, const Triangle& t, float d) {
  const Aabb a = s.bounds(), b = t.bounds();
  for (int axis = 0; axis < 3; ++axis) {
    const double gap = std::max(double(b.min[axis]) - double(a.max[axis]),
                                double(a.min[axis]) - double(b.max[axis]));
    if (gap > double(d) * (1 + 0x1p-40)) return true;
  }
  return false;
}

bool share_a_vertex(const Triangle& s, const Triangle& t) {
  for (const Vec3& p : {s.a, s.b, s.c})
    for (const Vec3& q : {t.a, t.b, t.c})
      if (p == q) return true;
  return false;
}

// Every pair (i, j) (for `self`, i < j sharing no vertex position) whose exact squared
// distance is at most d², in rationals.
std::vector<TrianglePair> brute_force(const std::vector<Triangle>& first,
                                      const std::vector<Triangle>& second, float d, bool self) {
  const mpq_class limit = oracle::rational(d) * oracle::rational(d);
  std::vector<TrianglePair> pairs;
  for (std::size_t i = 0; i < first.size(); ++i)
    for (std::size_t j = self ? i + 1 : 0; j < second.size(); ++j) {
      if (surely_apart(first[i], second[j], d)) continue;
      if (self && share_a_vertex(first[i], second[j])) continue;
      if (oracle::squared_distance(first[i], second[j]) <= limit)
        pairs.push_back({TriangleId(i), TriangleId(j)});
    }
  return pairs;
}

void require_within_matches(const Scene& first, const Scene& second, const Transform& transform,
                            float d) {
  INFO(first.name << " against " << second.name << ", d = " << d);
  const Bvh a = build(first.soup()), b = build(second.soup());
  const std::vector<TrianglePair> expected = brute_force(
      mapped_triangles(first, Transform{}), mapped_triangles(second, transform), d, false);
  for (const unsigned threads : {1u, 2u})
    CHECK(pairs_within(a, b, d, transform, {threads}) == expected);
}

void require_self_within_matches(const Scene& scene, float d) {
  INFO(scene.name << " with itself, d = " << d);
  const std::vector<Triangle> triangles = mapped_triangles(scene, Transform{});
  const std::vector<TrianglePair> expected = brute_force(triangles, triangles, d, true);
  const Bvh bvh = build(scene.soup());
  for (const unsigned threads : {1u, 2u}) CHECK(self_pairs_within(bvh, d, {threads}) == expected);
}

Transform shift(Vec3 offset) { return {{1, 0, 0, offset.x, 0, 1, 0, offset.y, 0, 0, 1, offset.z}}; }

// Soups of `count` triangles, or a third of them in the sanitizer run.
std::size_t sized(std::size_t count) { return reduced_run() ? count / 3 : count; }

TEST_CASE("pairs within a distance equal the exact brute force", "[overlap][clearance]") {
  for (const float d : {0.0f, 0.01f, 0.1f, 0.7f}) {
    require_within_matches(random_soup(sized(400), 61), random_soup(sized(400), 62), Transform{},
                           d);
    require_within_matches(lattice_soup(sized(400), 63), lattice_soup(sized(400), 64), Transform{},
                           d);
    require_within_matches(needles(sized(200), 65), random_soup(sized(300), 66), Transform{}, d);
  }
  // A quarter turn with a shift, and an arbitrary rotation with a fractional shift.
  const Transform quarter{{0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, -1}};
  require_within_matches(lattice_soup(sized(400), 67), lattice_soup(sized(400), 68), quarter, 1.0f);
  const float c = std::cos(0.6f), s = std::sin(0.6f);
  const Transform turn{{c, -s, 0, 0.3f, s, c, 0, -0.2f, 0, 0, 1, 0.1f}};
  require_within_matches(noisy_sphere(reduced_run() ? 6 : 12, 16, 69),
                         noisy_sphere(reduced_run() ? 6 : 12, 16, 70), turn, 0.05f);
}

TEST_CASE("a pair at exactly the distance counts, one an ulp farther does not",
          "[overlap][clearance]") {
  const std::vector<Vec3> below{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const Bvh a = build(TriangleSoup{below});
  // Face to face, 0.5 apart; an edge crossing above an edge, 0.25 apart; a vertex above the
  // face's interior, 0.125 apart (each exact in float).
  const std::vector<std::vector<Vec3>> above = {
      {{0, 0, 0.5f}, {1, 0, 0.5f}, {0, 1, 0.5f}},
      {{0.25f, -1, 0.25f}, {0.25f, 1, 0.25f}, {0.25f, 0, 3}},
      {{0.25f, 0.25f, -0.125f}, {0.25f, 0.5f, -4}, {0.5f, 0.25f, -4}}};
  const float distances[] = {0.5f, 0.25f, 0.125f};
  for (std::size_t k = 0; k < above.size(); ++k) {
    INFO("case " << k);
    const Bvh b = build(TriangleSoup{above[k]});
    const float d = distances[k];
    CHECK(pairs_within(a, b, d) == std::vector<TrianglePair>{{0, 0}});
    CHECK(pairs_within(a, b, std::nextafter(d, 0.0f)).empty());
    // The same pair when the second triangle is moved into place by the transform.
    const std::vector<Vec3> lowered = {above[k][0] - Vec3(0, 0, 1), above[k][1] - Vec3(0, 0, 1),
                                       above[k][2] - Vec3(0, 0, 1)};
    const Bvh moved = build(TriangleSoup{lowered});
    CHECK(pairs_within(a, moved, d, shift({0, 0, 1})) == std::vector<TrianglePair>{{0, 0}});
    CHECK(pairs_within(a, moved, std::nextafter(d, 0.0f), shift({0, 0, 1})).empty());
  }
}

TEST_CASE("distance 0 gives the pairs that touch, overlap's answer", "[overlap][clearance]") {
  const Scene scenes[][2] = {{random_soup(1500, 71), random_soup(1500, 72)},
                             {lattice_soup(1000, 73), lattice_soup(1000, 73)},
                             {needles(600, 74), random_soup(800, 75)}};
  for (const auto& [first, second] : scenes) {
    INFO(first.name);
    const Bvh a = build(first.soup()), b = build(second.soup());
    CHECK(pairs_within(a, b, 0.0f) == collect_intersecting_pairs(a, b));
    CHECK(pairs_within(a, b, -0.0f) == collect_intersecting_pairs(a, b));
  }
}

TEST_CASE("self pairs within a distance leave neighbours out and equal the brute force",
          "[overlap][clearance]") {
  for (const float d : {0.0f, 0.05f, 0.4f}) {
    require_self_within_matches(noisy_sphere(10, 14, 81), d);
    require_self_within_matches(random_soup(sized(400), 82), d);
    require_self_within_matches(lattice_soup(sized(300), 83), d);  // degenerate triangles too
  }
}

TEST_CASE("clearance is exact at huge and tiny coordinates", "[overlap][clearance]") {
  // Scaled by powers of two, the floats and the distances scale exactly: the same pairs.
  const Scene first = random_soup(300, 91), second = random_soup(300, 92);
  const Bvh a = build(first.soup()), b = build(second.soup());
  const std::vector<TrianglePair> unscaled = pairs_within(a, b, 0.2f);
  for (const float scale : {0x1p100f, 0x1p-100f, 0x1p120f}) {
    INFO("scale " << scale);
    const Scene big_first = transformed(first, scale, Vec3(0.0f), "_scaled");
    const Scene big_second = transformed(second, scale, Vec3(0.0f), "_scaled");
    CHECK(pairs_within(build(big_first.soup()), build(big_second.soup()), 0.2f * scale) ==
          unscaled);
  }
  // Subnormal coordinates, where scaling no longer keeps every float: the brute force decides.
  require_within_matches(
      transformed(random_soup(sized(200), 93), 0x1p-140f, Vec3(0.0f), "_subnormal"),
      transformed(random_soup(sized(200), 94), 0x1p-140f, Vec3(0.0f), "_subnormal"), Transform{},
      0x1p-141f);
  // Near the largest floats, where the boxes grown by the distance reach infinity.
  require_within_matches(transformed(random_soup(sized(200), 95), 1e37f, Vec3(0.0f), "_huge"),
                         transformed(random_soup(sized(200), 96), 1e37f, Vec3(0.0f), "_huge"),
                         Transform{}, 3e38f);
}

TEST_CASE("clearance refuses bad distances and answers nothing on empty meshes",
          "[overlap][clearance]") {
  const Bvh some = build(random_soup(50, 97).soup()), empty = build(TriangleSoup{});
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(), -1.0f, -1e-40f}) {
    INFO("distance " << bad);
    CHECK_THROWS_AS(pairs_within(some, some, bad), InvalidInput);
    CHECK_THROWS_AS(self_pairs_within(some, bad), InvalidInput);
  }
  CHECK(pairs_within(empty, some, 1.0f).empty());
  CHECK(pairs_within(some, empty, 1.0f).empty());
  CHECK(self_pairs_within(empty, 1.0f).empty());
  CHECK_THROWS_AS(pairs_within(some, some, 1.0f, {}, {100000}), InvalidInput);
}

}  // namespace
}  // namespace trisect::testing
