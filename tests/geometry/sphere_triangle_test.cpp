#include "support/touching.hpp"

#include <trisect/geometry/sphere_triangle.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using trisect::Sphere;
using trisect::Triangle;
using trisect::Vec3;
using trisect::testing::touches_checked;

namespace {

float down(float x) { return std::nextafter(x, 0.0f); }
float up(float x) { return std::nextafter(x, 2 * x + 1); }

const Triangle right{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};  // in z = 0, hypotenuse x + y = 4

}  // namespace

TEST_CASE("triangle-sphere: tangent to the face, an edge or a vertex counts",
          "[geometry][sphere_triangle]") {
  SECTION("face interior, closest point (1, 1, 0)") {
    CHECK(touches_checked(right, Sphere{{1, 1, 2}, 2}));
    CHECK_FALSE(touches_checked(right, Sphere{{1, 1, 2}, down(2)}));
    CHECK(touches_checked(right, Sphere{{1, 1, -2}, 2}));
  }
  SECTION("edge interior, closest point (2, 0, 0)") {
    CHECK(touches_checked(right, Sphere{{2, -3, 0}, 3}));
    CHECK_FALSE(touches_checked(right, Sphere{{2, -3, 0}, down(3)}));
    CHECK(touches_checked(right, Sphere{{2, -3, 4}, 5}));
    CHECK_FALSE(touches_checked(right, Sphere{{2, -3, 4}, down(5)}));
  }
  SECTION("hypotenuse, closest point (2, 2, 0) at distance 3") {
    CHECK(touches_checked(right, Sphere{{4, 4, 1}, 3}));
    CHECK_FALSE(touches_checked(right, Sphere{{4, 4, 1}, down(3)}));
  }
  SECTION("vertex, closest point (0, 0, 0)") {
    CHECK(touches_checked(right, Sphere{{-3, -4, 0}, 5}));
    CHECK_FALSE(touches_checked(right, Sphere{{-3, -4, 0}, down(5)}));
  }
  SECTION("distance 3 + 2^-40 in the last bits") {
    // Squared distance 9 + 2^-40: between 3^2 and (3 + 2^-22)^2.
    CHECK_FALSE(touches_checked(right, Sphere{{2, -3, 0x1p-20f}, 3}));
    CHECK(touches_checked(right, Sphere{{2, -3, 0x1p-20f}, up(3)}));
  }
  SECTION("near 1e6") {
    const Triangle far{
        {1e6f - 1, 1e6f - 1, 1e6f}, {1e6f + 2, 1e6f - 1, 1e6f}, {1e6f - 1, 1e6f + 2, 1e6f}};
    CHECK(touches_checked(far, Sphere{{1e6f, 1e6f, 1e6f + 3}, 3}));
    CHECK_FALSE(touches_checked(far, Sphere{{1e6f, 1e6f, 1e6f + 3}, down(3)}));
    CHECK(touches_checked(far, Sphere{{1e6f + 0.5f, 1e6f + 0.5f, 1e6f + 0.0625f}, 0.0625f}));
  }
}

TEST_CASE("triangle-sphere: crossing, containing and missing", "[geometry][sphere_triangle]") {
  CHECK(touches_checked(right, Sphere{{1, 1, 0.5f}, 1}));  // cuts the face, no vertex inside
  CHECK(touches_checked(right, Sphere{{1, 1, 0}, 100}));   // contains the triangle
  CHECK_FALSE(touches_checked(right, Sphere{{5, 5, 0.5f}, 1}));
  CHECK_FALSE(touches_checked(right, Sphere{{1, 1, 3}, 2}));  // above the face
  // The ball reaches the triangle's plane only outside the triangle.
  CHECK_FALSE(touches_checked(right, Sphere{{-2, 1, 0.5f}, 1.5f}));
}

TEST_CASE("triangle-sphere: zero radius is a point", "[geometry][sphere_triangle]") {
  CHECK(touches_checked(right, Sphere{{1, 1, 0}, 0}));
  CHECK(touches_checked(right, Sphere{{2, 2, 0}, 0}));  // on the hypotenuse
  CHECK(touches_checked(right, Sphere{{4, 0, 0}, 0}));  // a vertex
  CHECK_FALSE(touches_checked(right, Sphere{{2, up(2), 0}, 0}));
  CHECK_FALSE(touches_checked(right, Sphere{{1, 1, 0x1p-149f}, 0}));
}

TEST_CASE("triangle-sphere: degenerate triangles are their segment or point",
          "[geometry][sphere_triangle]") {
  const Vec3 p(1, 2, 3);
  CHECK(touches_checked(Triangle{p, p, p}, Sphere{{1, 2, 8}, 5}));
  CHECK_FALSE(touches_checked(Triangle{p, p, p}, Sphere{{1, 2, 8}, down(5)}));
  // Segment (0,0,0)-(4,0,0): tangent at its interior point (2, 0, 0).
  const Triangle segment{{0, 0, 0}, {4, 0, 0}, {4, 0, 0}};
  CHECK(touches_checked(segment, Sphere{{2, 3, 4}, 5}));
  CHECK_FALSE(touches_checked(segment, Sphere{{2, 3, 4}, down(5)}));
  CHECK_FALSE(touches_checked(segment, Sphere{{7, 0, 0}, down(3)}));
  CHECK(touches_checked(segment, Sphere{{7, 0, 0}, 3}));
  // Collinear with the middle vertex last: the span is still (0,0,0)-(4,0,0).
  const Triangle collinear{{0, 0, 0}, {4, 0, 0}, {1, 0, 0}};
  CHECK(touches_checked(collinear, Sphere{{3, 3, 4}, 5}));
  CHECK_FALSE(touches_checked(collinear, Sphere{{3, 3, 4}, down(5)}));
}

TEST_CASE("triangle-sphere agrees with exact distances on random inputs",
          "[geometry][sphere_triangle][property]") {
  using trisect::testing::CaseGenerator;
  trisect::testing::require_touching_agrees(
      "triangle-sphere", 0x5bee'e7e1ULL, [](CaseGenerator& g) {
        const Triangle triangle = g.triangle();
        return std::pair{triangle, g.tie(0.5) ? g.sphere_near(triangle) : g.sphere()};
      });
}
