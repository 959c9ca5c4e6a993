// The exact frustum–triangle test against the rational oracle (the triangle clipped by the six
// half-spaces): contact at a plane, an edge or a corner of the frustum, one ulp apart; triangles
// with no vertex inside that cross it; degenerate triangles; unbounded and empty frustums; a
// property test in every numeric regime; the view frustum helper.
#include "support/random_cases.hpp"
#include "support/touching.hpp"

#include <trisect/geometry/frustum_triangle.hpp>
#include <trisect/geometry/plane_point.hpp>
#include <trisect/math/validate.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

using trisect::Frustum;
using trisect::Plane;
using trisect::Triangle;
using trisect::Vec3;
using trisect::testing::CaseGenerator;
using trisect::testing::touches_checked;

namespace {

float up(float x) { return std::nextafter(x, std::numeric_limits<float>::max()); }

// The box [0, 2]^3 written as six planes, then cut by the plane x + y <= 3 in place of x <= 2
// (so it has a slanted face from (1, 2) to (2, 1) in xy).
const Frustum slanted{{Plane{{-1, 0, 0}, 0}, Plane{{1, 1, 0}, 3}, Plane{{0, -1, 0}, 0},
                       Plane{{0, 1, 0}, 2}, Plane{{0, 0, -1}, 0}, Plane{{0, 0, 1}, 2}}};

}  // namespace

TEST_CASE("triangle-frustum: contact on a face, an edge, a corner counts",
          "[geometry][frustum_triangle]") {
  SECTION("a vertex on the slanted face, the triangle outside") {
    CHECK(touches_checked(Triangle{{1.5f, 1.5f, 1}, {3, 3, 1}, {3, 2, 0}}, slanted));
    CHECK_FALSE(touches_checked(Triangle{{1.5f, up(1.5f), 1}, {3, 3, 1}, {3, 2, 0}}, slanted));
  }
  SECTION("an edge meeting the frustum's edge x + y = 3, y = 2 at one point from outside") {
    // (0, 2.5, 1)-(2, 1.5, 1) passes (1, 2, 1); the rest of the triangle is outside.
    CHECK(touches_checked(Triangle{{0, 2.5f, 1}, {2, 1.5f, 1}, {3, 3, 1}}, slanted));
    CHECK_FALSE(touches_checked(Triangle{{0, up(2.5f), 1}, {2, up(1.5f), 1}, {3, 3, 1}}, slanted));
    // An edge along the slanted face.
    CHECK(touches_checked(Triangle{{0, 3, 1}, {2, 1, 1}, {5, 5, 1}}, slanted));
  }
  SECTION("no vertex inside: the face through the middle, through the corner (0, 0, 0) only") {
    CHECK(touches_checked(Triangle{{-1, -1, 4}, {5, -1, -2}, {-1, 5, -2}}, slanted));
    CHECK(touches_checked(Triangle{{-4, -4, 8}, {8, -4, -4}, {-4, 8, -4}}, slanted));
    // The same plane x + y + z = 0 moved by -2^-20: apart.
    CHECK_FALSE(touches_checked(
        Triangle{{-4, -4, 8 - 0x1p-20f}, {8, -4, -4 - 0x1p-20f}, {-4, 8, -4 - 0x1p-20f}}, slanted));
  }
  SECTION("a big triangle through the middle, every vertex outside a different plane") {
    CHECK(touches_checked(Triangle{{-5, 1, 1}, {5, -5, 1}, {1, 5, 1}}, slanted));
  }
}

TEST_CASE("triangle-frustum: degenerate triangles, unbounded and empty frustums",
          "[geometry][frustum_triangle]") {
  CHECK(touches_checked(Triangle{{-1, 1, 1}, {5, 1, 1}, {2, 1, 1}}, slanted));  // a segment
  CHECK(touches_checked(Triangle{{2, 1, 1}, {2, 1, 1}, {2, 1, 1}}, slanted));   // a point on it
  CHECK_FALSE(touches_checked(Triangle{{up(2), 1, 1}, {up(2), 1, 1}, {up(2), 1, 1}}, slanted));
  // Six copies of z <= 0: a half-space, unbounded.
  Frustum half_space;
  for (Plane& plane : half_space.planes) plane = {{0, 0, 1}, 0};
  CHECK(touches_checked(Triangle{{1e30f, 0, 0}, {1e30f, 1, 5}, {1e30f, 2, 5}}, half_space));
  CHECK_FALSE(touches_checked(Triangle{{0, 0, 0x1p-100f}, {1, 0, 1}, {0, 1, 1}}, half_space));
  // z <= 0 and z >= 1: empty.
  Frustum empty = half_space;
  empty.planes[1] = {{0, 0, -1}, -1};
  CHECK_FALSE(touches_checked(Triangle{{0, 0, -5}, {0, 1, 5}, {1, 0, 5}}, empty));
  // z <= 0 and z >= 0: the plane z = 0.
  empty.planes[1] = {{0, 0, -1}, 0};
  CHECK(touches_checked(Triangle{{0, 0, -5}, {0, 1, 5}, {1, 0, 5}}, empty));
}

TEST_CASE("view_frustum: the camera's planes, rounded to float", "[geometry][frustum_triangle]") {
  const Frustum view =
      trisect::view_frustum({0, 0, 0}, {0, 0, -1}, {0, 1, 0}, 1.5707964f, 1.0f, 1.0f, 100.0f);
  // Looking down -z with a 90° field of view: the point (0, 0, -10) is inside, (0, 0, -0.5)
  // before the near plane, (0, 0, -101) past the far plane, (11, 0, -10) outside the right side.
  const auto behind_all = [&](const Vec3& p) {
    for (const Plane& plane : view.planes)
      if (trisect::classify(plane, p) == trisect::Side::above) return false;
    return true;
  };
  CHECK(behind_all({0, 0, -10}));
  CHECK(behind_all({9.9f, 9.9f, -10}));
  CHECK_FALSE(behind_all({0, 0, -0.5f}));
  CHECK_FALSE(behind_all({0, 0, -101}));
  CHECK_FALSE(behind_all({11, 0, -10}));
  CHECK_FALSE(behind_all({0, -11, -10}));
  trisect::validate(view);
  CHECK_THROWS_AS(trisect::view_frustum({0, 0, 0}, {0, 0, -1}, {0, 0, 1}, 1, 1, 1, 2),
                  std::invalid_argument);
  CHECK_THROWS_AS(trisect::view_frustum({0, 0, 0}, {0, 0, -1}, {0, 1, 0}, 1, 1, 2, 1),
                  std::invalid_argument);
  const Frustum endless = trisect::view_frustum({0, 0, 0}, {0, 0, -1}, {0, 1, 0}, 1, 1, 0,
                                                std::numeric_limits<float>::infinity());
  trisect::validate(endless);
}

TEST_CASE("frustums are validated with the plane named", "[geometry][frustum_triangle]") {
  Frustum bad = slanted;
  bad.planes[4].normal = Vec3(0.0f);
  CHECK_THROWS_WITH(trisect::validate(bad, "frustum 2"), "frustum 2: plane 4: normal is zero");
  bad.planes[4] = {{0, 0, 1}, std::numeric_limits<float>::quiet_NaN()};
  CHECK_THROWS_WITH(trisect::validate(bad, "frustum 2"),
                    "frustum 2: plane 4: offset d is not finite");
}

TEST_CASE("triangle-frustum agrees with the exact oracle in every regime",
          "[geometry][frustum_triangle][property]") {
  trisect::testing::require_touching_agrees(
      "triangle-frustum", 0xf705'7e57ULL,
      [](CaseGenerator& g) {
        return std::pair{g.triangle(), g.frustum()};
      },
      // The linear program and the oracle's clipping are both slow: a twentieth of the cases.
      20);
}

TEST_CASE("triangle-frustum: the answer survives scaling by 2^100 and 2^-100",
          "[geometry][frustum_triangle]") {
  // Scaling the vertices and every plane's offset by a power of two scales the solids exactly.
  CaseGenerator g(0x5ca1'f705ULL);
  int checked = 0;
  for (int k = 0; k < 2000; ++k) {
    g.begin(trisect::testing::all_regimes[static_cast<std::size_t>(k) %
                                          trisect::testing::all_regimes.size()]);
    const Triangle t = g.triangle();
    const Frustum frustum = g.frustum();
    const bool answer = trisect::intersects(t, frustum);
    for (const float scale : {0x1p100f, 0x1p-100f}) {
      const Triangle scaled_t{t.a * scale, t.b * scale, t.c * scale};
      Frustum scaled = frustum;
      bool exact =
          scaled_t.a / scale == t.a && scaled_t.b / scale == t.b && scaled_t.c / scale == t.c;
      for (Plane& plane : scaled.planes) {
        const float d = plane.d;
        plane.d *= scale;
        exact = exact && plane.d / scale == d;
      }
      if (!exact) continue;  // a value left the float range or lost bits
      INFO(trisect::testing::describe(t)
           << " " << trisect::testing::describe(frustum) << " scale " << scale);
      REQUIRE(trisect::intersects(scaled_t, scaled) == answer);
      ++checked;
    }
  }
  CHECK(checked > 2500);
}
