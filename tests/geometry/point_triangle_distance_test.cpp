// squared_distance(point, triangle) and nearest_point (point_triangle_distance.hpp) against the
// exact rational distance and nearest point, in every numeric regime of the predicate cases
// and scaled to subnormal and near-FLT_MAX coordinates.
#include "support/describe.hpp"
#include "support/nearest_oracle.hpp"
#include "support/random_cases.hpp"

#include <trisect/geometry/point_triangle_distance.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

namespace trisect::testing {
namespace {

/// How closely `nearest_point` is checked.
enum class Precision {
  /// closest_point's contract: per coordinate within 1e-6 × (the largest absolute coordinate
  /// of the triangle and the query point), or the smallest subnormal when that is larger.
  closest_point,
  /// nearest_point_of's own, stronger contract: per coordinate within a relative 2^-24 of the
  /// exact one before rounding to float, so within 2^-23 (plus half the smallest subnormal)
  /// after; exact when the nearest point is a vertex.
  nearest_point_of,
};

/// The exact squared distance of the returned form, the nearest point to within `precision`
/// and inside the triangle's bounds.
void check_point(const Triangle& triangle, const Vec3& point, Precision precision) {
  INFO("triangle " << describe(triangle) << " point " << describe(point));
  const SquaredDistance distance = squared_distance(point, triangle);
  const mpq_class exact = oracle::squared_distance(triangle, point);
  INFO("form " << static_cast<int>(distance.form) << ", exact squared ~" << exact.get_d());
  REQUIRE(oracle::value(distance) == exact);
  CHECK(distance.points[0] == point);
  CHECK(is_zero(distance) == (sgn(exact) == 0));
  const oracle::QVec3 nearest = oracle::nearest_point(triangle, point);
  REQUIRE(oracle::squared_length(oracle::minus(nearest, oracle::rational(point))) == exact);
  const Vec3 got = trisect::nearest_point(distance, triangle);
  INFO("nearest point " << describe(got));
  if (distance.form == DistanceForm::point_point) CHECK(got == distance.points[1]);
  float largest = 0;
  for (const Vec3& v : {triangle.a, triangle.b, triangle.c, point})
    for (int axis = 0; axis < 3; ++axis) largest = std::max(largest, std::fabs(v[axis]));
  const mpq_class absolute =
      std::max(mpq_class(oracle::rational(largest) / 1000000), oracle::rational(FLT_TRUE_MIN));
  const mpq_class relative = mpq_class(1, 1 << 23) + oracle::rational(0x1p-47f);
  const Aabb bounds = triangle.bounds();
  for (int axis = 0; axis < 3; ++axis) {
    const auto i = static_cast<std::size_t>(axis);
    INFO("axis " << axis << " exact ~" << nearest[i].get_d());
    const mpq_class error = abs(oracle::rational(got[axis]) - nearest[i]);
    if (precision == Precision::closest_point)
      CHECK(error <= absolute);
    else
      CHECK(error <= relative * abs(nearest[i]) + oracle::rational(FLT_TRUE_MIN) / 2);
    CHECK(bounds.min[axis] <= got[axis]);
    CHECK(got[axis] <= bounds.max[axis]);
  }
}

/// Query points for one triangle: random, on its vertices and edges (rounded), near-tangent
/// sphere centres, nudged vertices.
std::vector<Vec3> points_near(CaseGenerator& generate, const Triangle& t) {
  return {generate.point(),
          generate.point(),
          t.a,
          t.c,
          0.5f * (t.a + t.b),
          (t.a + t.b + t.c) / 3.0f,
          generate.sphere_near(t).center,
          generate.sphere_near(t).center,
          generate.nudged(t.b),
          t.a + 2.0f * (t.b - t.a)};
}

/// Triangles of every regime of the predicate cases, with points near them.
void check_regimes(Precision precision) {
  CaseGenerator generate(201);
  for (const Regime regime : all_regimes) {
    INFO("regime " << regime_name(regime));
    for (int k = 0; k < 300; ++k) {
      generate.begin(regime);
      const Triangle t = generate.triangle();
      for (const Vec3& point : points_near(generate, t))
        if (is_finite(point)) check_point(t, point, precision);
    }
  }
}

/// Cases scaled by powers of two, from subnormal to near FLT_MAX.
void check_scaled(Precision precision) {
  CaseGenerator generate(202);
  for (const int exponent : {-146, -140, -126, -90, 90, 120, 124}) {
    INFO("scaled by 2^" << exponent);
    const auto scaled = [&](Vec3 v) {
      for (int axis = 0; axis < 3; ++axis) v[axis] = std::ldexp(v[axis], exponent);
      return v;
    };
    for (const Regime regime : {Regime::lattice, Regime::near_ties, Regime::generic}) {
      for (int k = 0; k < 120; ++k) {
        generate.begin(regime);
        const Triangle t = generate.triangle();
        const Triangle s{scaled(t.a), scaled(t.b), scaled(t.c)};
        if (!is_finite(s.a) || !is_finite(s.b) || !is_finite(s.c)) continue;
        for (const Vec3& point : points_near(generate, t))
          if (is_finite(scaled(point))) check_point(s, scaled(point), precision);
      }
    }
  }
}

/// Vertices and points at +-FLT_MAX, 3e38 and the smallest subnormal.
void check_extremes(Precision precision) {
  const float max = FLT_MAX, big = 3e38f, tiny = FLT_TRUE_MIN;
  const std::vector<Triangle> triangles = {
      {{-max, -max, -max}, {max, -max, -max}, {-max, max, max}},
      {{-max, 0, 0}, {max, 0, 0}, {0, max, 0}},
      {{-max, -max, 0}, {max, max, 0}, {0, 0, 0}},
      {{big, big, -big}, {big, big, -big}, {big, big, -big}},
      {{-big, 0, big}, {big, 0, -big}, {0, tiny, 0}},
      {{tiny, 0, 0}, {0, tiny, 0}, {0, 0, tiny}},
      {{-big, -big, 0}, {-big, -big, 0}, {big, big, 0}},
  };
  const std::vector<Vec3> points = {
      {0, 0, 0},          {max, max, max}, {-max, max, -max}, {big, -big, big}, {0, 0, tiny},
      {tiny, tiny, tiny}, {max, 0, 0},     {0, -max, max},    {1, 1, 1},        {-big, big, 0},
  };
  for (const Triangle& t : triangles)
    for (const Vec3& p : points) check_point(t, p, precision);
}

TEST_CASE("point-triangle squared distance and nearest point equal the exact ones",
          "[nearest][point_triangle]") {
  check_regimes(Precision::closest_point);
}

TEST_CASE("point-triangle distance at subnormal and near-FLT_MAX scales",
          "[nearest][point_triangle]") {
  check_scaled(Precision::closest_point);
}

TEST_CASE("point-triangle distance with coordinates at +-FLT_MAX", "[nearest][point_triangle]") {
  check_extremes(Precision::closest_point);
}

TEST_CASE("nearest_point is within a relative 2^-24 before rounding, as nearest_point_of says",
          "[nearest][nearest_point_of]") {
  check_regimes(Precision::nearest_point_of);
  check_scaled(Precision::nearest_point_of);
  check_extremes(Precision::nearest_point_of);
}

}  // namespace
}  // namespace trisect::testing
