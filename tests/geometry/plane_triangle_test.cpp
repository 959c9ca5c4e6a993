#include "support/touching.hpp"

#include <trisect/geometry/plane_triangle.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using trisect::Plane;
using trisect::Triangle;
using trisect::Vec3;
using trisect::testing::touches_checked;

namespace {

const Plane ground{{0, 0, 1}, 0};  // z = 0

}  // namespace

TEST_CASE("triangle-plane: crossing, touching and missing", "[geometry][plane_triangle]") {
  CHECK(touches_checked(Triangle{{0, 0, -1}, {1, 0, 1}, {0, 1, 1}}, ground));
  CHECK(touches_checked(Triangle{{0, 0, 0}, {1, 0, 1}, {0, 1, 1}}, ground));   // vertex on
  CHECK(touches_checked(Triangle{{1, 0, 1}, {0, 1, 1}, {0, 0, 0}}, ground));   // any vertex
  CHECK(touches_checked(Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, -1}}, ground));  // edge on
  CHECK(touches_checked(Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, ground));   // in the plane
  CHECK_FALSE(touches_checked(Triangle{{0, 0, 0x1p-149f}, {1, 0, 1}, {0, 1, 1}}, ground));
  CHECK_FALSE(touches_checked(Triangle{{0, 0, -1}, {1, 0, -0x1p-149f}, {0, 1, -1}}, ground));
}

TEST_CASE("triangle-plane: exact near-ties", "[geometry][plane_triangle]") {
  // Vertex (2^60, 2^-60, -2^60) on x + y + z = 2^-60 only in exact arithmetic.
  const Plane plane{{1, 1, 1}, 0x1p-60f};
  const Vec3 far_above(8, 8, 8);
  CHECK(touches_checked(Triangle{{0x1p60f, 0x1p-60f, -0x1p60f}, far_above, far_above}, plane));
  CHECK_FALSE(
      touches_checked(Triangle{{0x1p60f, 0x1p-59f, -0x1p60f}, far_above, far_above}, plane));
  // Near 1e6: vertices 1/16 apart straddle or touch x + y = 2e6 + 1/8.
  const Plane offset{{1, 1, 0}, 2e6f + 0.125f};
  CHECK(touches_checked(Triangle{{1e6f, 1e6f + 0.125f, 0}, {1e6f, 1e6f, 5}, {0, 0, 0}}, offset));
  CHECK_FALSE(
      touches_checked(Triangle{{1e6f, 1e6f + 0.0625f, 0}, {1e6f, 1e6f, 5}, {0, 0, 0}}, offset));
}

TEST_CASE("triangle-plane: degenerate triangles are their segment or point",
          "[geometry][plane_triangle]") {
  const Vec3 p(3, 4, 0), q(3, 4, 2), r(3, 4, -2);
  CHECK(touches_checked(Triangle{p, p, p}, ground));
  CHECK_FALSE(touches_checked(Triangle{q, q, q}, ground));
  CHECK(touches_checked(Triangle{q, r, q}, ground));  // segment crossing
  CHECK(touches_checked(Triangle{q, p, q}, ground));  // segment ending on the plane
  CHECK_FALSE(touches_checked(Triangle{q, q + Vec3(1, 0, 0), q + Vec3(2, 0, 0)}, ground));
  CHECK(touches_checked(Triangle{r, q, Vec3(3, 4, 1)}, ground));  // collinear, crossing
}

TEST_CASE("triangle-plane agrees with exact rationals on random inputs",
          "[geometry][plane_triangle][property]") {
  using trisect::testing::CaseGenerator;
  trisect::testing::require_touching_agrees("triangle-plane", 0x91a7'e7e1ULL, [](CaseGenerator& g) {
    const Triangle triangle = g.triangle();
    // Planes through a vertex (exactly, when n·p is exact) or at random.
    return std::pair{triangle, g.tie(0.5) ? g.plane_through(triangle.b) : g.plane()};
  });
}
