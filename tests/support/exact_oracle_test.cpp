// Tests of the test oracles themselves: known exact answers, and agreement of their quick paths
// with the full constructions.
#include "support/exact_oracle.hpp"
#include "support/describe.hpp"
#include "support/random_cases.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using trisect::Aabb;
using trisect::Plane;
using trisect::Sphere;
using trisect::Triangle;
using trisect::Vec3;
using trisect::oracle::QVec3;
using trisect::oracle::rational;

namespace {

QVec3 q(int x, int y, int z) { return {mpq_class(x), mpq_class(y), mpq_class(z)}; }

bool contains(const std::vector<QVec3>& polygon, const QVec3& p) {
  return std::find(polygon.begin(), polygon.end(), p) != polygon.end();
}

const Aabb cube = Aabb::from_corners({-1, -1, -1}, {1, 1, 1});

}  // namespace

TEST_CASE("oracle: floats convert exactly", "[support][oracle]") {
  CHECK(rational(0.1f) == mpq_class(13421773, 134217728));
  CHECK(rational(-0x1p-149f) == mpq_class(-1) / (mpz_class(1) << 149));
  CHECK(rational(1e6f + 0.0625f) == mpq_class(16000001, 16));
}

TEST_CASE("oracle: plane side and box-plane", "[support][oracle]") {
  CHECK(trisect::oracle::side(Plane{{1, 1, 1}, 0}, {0x1p60f, 0x1p-60f, -0x1p60f}) == 1);
  CHECK(trisect::oracle::side(Plane{{1, 2, 3}, 14}, {1, 2, 3}) == 0);
  CHECK(trisect::oracle::side(Plane{{1, 2, 3}, 14}, {1, 2, 2}) == -1);
  CHECK(trisect::oracle::touches(cube, Plane{{1, 1, 1}, 3}));
  CHECK_FALSE(trisect::oracle::touches(cube, Plane{{1, 1, 1}, 3.5f}));
  CHECK_FALSE(trisect::oracle::touches(cube, Plane{{1, -1, 1}, -3.5f}));
}

TEST_CASE("oracle: clipping a triangle by a box", "[support][oracle]") {
  using trisect::oracle::clip;
  SECTION("inside: unchanged") {
    const auto polygon = clip(Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, cube);
    CHECK(polygon == std::vector<QVec3>{q(0, 0, 0), q(1, 0, 0), q(0, 1, 0)});
  }
  SECTION("crossing the face x = 1: a quadrilateral with exact crossing points") {
    const auto polygon = clip(Triangle{{0, 0, 0}, {3, 0, 0}, {0, 1, 0}}, cube);
    REQUIRE(polygon.size() == 4);
    CHECK(contains(polygon, q(1, 0, 0)));
    CHECK(contains(polygon, {mpq_class(1), mpq_class(2, 3), mpq_class(0)}));
  }
  SECTION("touching at a vertex only: that point") {
    const auto polygon = clip(Triangle{{1, 1, 1}, {3, 1, 1}, {2, 2, 2}}, cube);
    REQUIRE_FALSE(polygon.empty());
    for (const QVec3& p : polygon) CHECK(p == q(1, 1, 1));
  }
  SECTION("missing") {
    CHECK(clip(Triangle{{2, 0.5f, 1}, {0.5f, 2, 1}, {3, 3, 1}}, cube).empty());
    CHECK(clip(Triangle{{0, 2, 2}, {2, 0, 0.5f}, {2, 0, 0.5f}}, cube).empty());
  }
  SECTION("degenerate: a point and a segment") {
    CHECK(clip(Triangle{{1, 0, 0}, {1, 0, 0}, {1, 0, 0}}, cube).size() == 3);
    const auto segment = clip(Triangle{{-3, 0, 0}, {3, 0, 0}, {3, 0, 0}}, cube);
    CHECK(contains(segment, q(-1, 0, 0)));
    CHECK(contains(segment, q(1, 0, 0)));
  }
}

TEST_CASE("oracle: squared distance to a triangle", "[support][oracle]") {
  using trisect::oracle::squared_distance;
  const Triangle right{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
  CHECK(squared_distance(right, {1, 1, 2}) == 4);     // face
  CHECK(squared_distance(right, {2, -3, 4}) == 25);   // edge
  CHECK(squared_distance(right, {4, 4, 1}) == 9);     // hypotenuse at (2, 2, 0)
  CHECK(squared_distance(right, {-3, -4, 0}) == 25);  // vertex
  CHECK(squared_distance(right, {6, -1, 0}) == 5);    // vertex (4, 0, 0)
  CHECK(squared_distance(right, {1, 1, 0}) == 0);     // on the face
  CHECK(squared_distance(right, {0.5f, 0.5f, 0.5f}) == mpq_class(1, 4));
  const Triangle segment{{0, 0, 0}, {4, 0, 0}, {4, 0, 0}};
  CHECK(squared_distance(segment, {2, 3, 4}) == 25);
  CHECK(squared_distance(segment, {7, 0, 0}) == 9);
  const Triangle point{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
  CHECK(squared_distance(point, {1, 2, 8}) == 25);
}

TEST_CASE("oracle: quick paths agree with the full constructions", "[support][oracle]") {
  using namespace trisect::testing;
  CaseGenerator g(0x0a'c1e0ULL);
  for (int k = 0; k < 60'000; ++k) {
    g.begin(all_regimes[static_cast<std::size_t>(k) % all_regimes.size()]);
    const Triangle triangle = g.triangle();
    const Aabb box = g.chance(0.3) ? g.box_from(triangle.a) : g.box();
    const Sphere sphere = g.chance(0.5) ? g.sphere_near(triangle) : g.sphere();
    const mpq_class r = rational(sphere.radius);
    const bool box_touches = trisect::oracle::touches(triangle, box);
    const bool clipped = !trisect::oracle::clip(triangle, box).empty();
    const bool sphere_touches = trisect::oracle::touches(triangle, sphere);
    const bool near = trisect::oracle::squared_distance(triangle, sphere.center) <= r * r;
    INFO(describe(triangle) << " " << describe(box) << " " << describe(sphere));
    REQUIRE(box_touches == clipped);
    REQUIRE(sphere_touches == near);
  }
}
