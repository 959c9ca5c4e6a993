// intersects(triangle, capsule) against the exact rational oracle: tangent at a face, an edge
// and a vertex (touching at exactly the radius, apart one float step below it), segments
// (radius 0) through faces, edges and vertices, degenerate capsules and triangles, and a
// property test over every regime of the case generator.
#include "support/nearest_oracle.hpp"
#include "support/touching.hpp"

#include <trisect/geometry/capsule_triangle.hpp>
#include <trisect/geometry/sphere_triangle.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <utility>

using trisect::Capsule;
using trisect::Sphere;
using trisect::Triangle;
using trisect::Vec3;
using trisect::testing::CaseGenerator;
using trisect::testing::touches_checked;

namespace {

float down(float x) { return std::nextafter(x, 0.0f); }

const Triangle right{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};  // in z = 0, hypotenuse x + y = 4

}  // namespace

TEST_CASE("triangle-capsule: tangent to the face, an edge or a vertex counts",
          "[geometry][capsule_triangle]") {
  SECTION("axis parallel above the face, at height 2") {
    CHECK(touches_checked(right, Capsule{{1, 1, 2}, {2, 1, 2}, 2}));
    CHECK_FALSE(touches_checked(right, Capsule{{1, 1, 2}, {2, 1, 2}, down(2)}));
  }
  SECTION("axis parallel to the edge y = 0, 3 away in the plane") {
    CHECK(touches_checked(right, Capsule{{1, -3, 0}, {3, -3, 0}, 3}));
    CHECK_FALSE(touches_checked(right, Capsule{{1, -3, 0}, {3, -3, 0}, down(3)}));
  }
  SECTION("axis crossing above the edge y = 0 at height 1 (edge to edge)") {
    CHECK(touches_checked(right, Capsule{{2, -1, 1}, {2, 1, 1}, 1}));
    CHECK_FALSE(touches_checked(right, Capsule{{2, -1, 1}, {2, 1, 1}, down(1)}));
  }
  SECTION("an end nearest the vertex (4, 0, 0), 5 away") {
    CHECK(touches_checked(right, Capsule{{7, -4, 0}, {10, -8, 0}, 5}));
    CHECK_FALSE(touches_checked(right, Capsule{{7, -4, 0}, {10, -8, 0}, down(5)}));
  }
  SECTION("the axis passes the hypotenuse's midpoint (2, 2, 0) at distance 3") {
    CHECK(touches_checked(right, Capsule{{5, 5, -1}, {5, 5, 1}, std::sqrt(18.0f)}) ==
          (double(std::sqrt(18.0f)) * double(std::sqrt(18.0f)) >= 18.0));
    CHECK(touches_checked(right, Capsule{{4, 4, 1}, {4, 4, 5}, 3}));
    CHECK_FALSE(touches_checked(right, Capsule{{4, 4, 1}, {4, 4, 5}, down(3)}));
  }
}

TEST_CASE("triangle-capsule: radius 0 is the segment", "[geometry][capsule_triangle]") {
  CHECK(touches_checked(right, Capsule{{1, 1, -1}, {1, 1, 1}, 0}));        // through the face
  CHECK(touches_checked(right, Capsule{{2, 2, -1}, {2, 2, 1}, 0}));        // through the hypotenuse
  CHECK(touches_checked(right, Capsule{{5, 0, -1}, {3, 0, 1}, 0}));        // through the vertex
  CHECK(touches_checked(right, Capsule{{1, 1, 0}, {1, 1, 5}, 0}));         // starts on the face
  CHECK_FALSE(touches_checked(right, Capsule{{5, 1, -1}, {3, 1, 1}, 0}));  // (4, 1, 0) is outside
  CHECK_FALSE(touches_checked(right, Capsule{{1, 1, 0x1p-20f}, {1, 1, 5}, 0}));  // ends above
  // Lying in the plane, crossing the triangle: the segment meets it along a piece.
  CHECK(touches_checked(right, Capsule{{-1, 1, 0}, {5, 1, 0}, 0}));
  CHECK_FALSE(touches_checked(right, Capsule{{-1, 5, 0}, {5, 5, 0}, 0}));
}

TEST_CASE("triangle-capsule: degenerate capsules and triangles", "[geometry][capsule_triangle]") {
  // a == b: the ball.
  for (const Sphere ball : {Sphere{{1, 1, 2}, 2}, Sphere{{2, -3, 0}, 3}, Sphere{{6, 6, 0}, 2.5f},
                            Sphere{{2, -3, 0}, down(3)}})
    CHECK(touches_checked(right, Capsule{ball.center, ball.center, ball.radius}) ==
          trisect::intersects(right, ball));
  // A zero-area triangle is its segment; a point triangle its point.
  const Triangle segment{{0, 0, 0}, {4, 0, 0}, {2, 0, 0}};
  CHECK(touches_checked(segment, Capsule{{2, -1, 3}, {2, 1, 3}, 3}));
  CHECK_FALSE(touches_checked(segment, Capsule{{2, -1, 3}, {2, 1, 3}, down(3)}));
  const Triangle point{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
  CHECK(touches_checked(point, Capsule{{0, 2, 3}, {5, 2, 3}, 0}));
  CHECK_FALSE(touches_checked(point, Capsule{{0, 2, 3}, {0.5f, 2, 3}, 0.25f}));
  CHECK(touches_checked(point, Capsule{{0, 2, 3}, {0.5f, 2, 3}, 0.5f}));
}

TEST_CASE("triangle-capsule agrees with the exact oracle in every regime",
          "[geometry][capsule_triangle][property]") {
  trisect::testing::require_touching_agrees(
      "triangle-capsule", 0xca95'01e5ULL,
      [](CaseGenerator& g) {
        const Triangle triangle = g.triangle();
        Capsule capsule{g.point(), g.point(), g.chance(0.2) ? 0.0f : g.radius()};
        if (g.tie(0.5)) {
          // Tangent-prone: the axis through a vertex or an edge's midpoint, moved by the radius
          // along an axis (touching exactly when that point is the nearest).
          const Sphere near = g.sphere_near(triangle);
          capsule = {near.center, near.center + (g.point() - triangle.a), near.radius};
          if (g.chance(0.5)) capsule.b = near.center;
        }
        return std::pair{triangle, capsule};
      },
      // The oracle measures fifteen candidate distances in rationals: a hundredth of the cases.
      100);
}
