#include "support/separating_axes.hpp"
#include "support/touching.hpp"

#include <trisect/geometry/aabb_triangle.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using trisect::Aabb;
using trisect::Triangle;
using trisect::Vec3;
using trisect::testing::edge_axis;
using trisect::testing::separating_axes;
using trisect::testing::touches_checked;

namespace {

const Aabb cube = Aabb::from_corners({-1, -1, -1}, {1, 1, 1});

float up(float x) { return std::nextafter(x, 2 * std::fabs(x) + 1); }

/// Cyclic coordinate permutation (x, y, z) -> (z, x, y): a rotation mapping the x axis to y, y
/// to z and z to x. The cube is invariant.
Vec3 rotate_axes(const Vec3& v) { return {v.z, v.x, v.y}; }
Triangle rotate_axes(const Triangle& t) {
  return {rotate_axes(t.a), rotate_axes(t.b), rotate_axes(t.c)};
}
/// (a, b, c) -> (c, a, b): edge m (0: a→b, 1: b→c, 2: c→a) becomes edge m + 1.
Triangle rotate_vertices(const Triangle& t) { return {t.c, t.a, t.b}; }

/// Point reflection through the origin; the cube is invariant.
Triangle mirrored(const Triangle& t) { return {-t.a, -t.b, -t.c}; }

Triangle translated(const Triangle& t, const Vec3& by) { return {t.a + by, t.b + by, t.c + by}; }

/// A case where exactly one axis separates the triangle from the cube, and the same triangle
/// moved to touch the cube exactly (the gap along that axis closed, no axis separating).
struct IsolatedAxis {
  Triangle apart, touching;
};

void check_isolated(const IsolatedAxis& c, std::size_t axis) {
  INFO("axis " << axis << ": " << trisect::testing::describe(c.apart));
  std::bitset<13> only;
  only.set(axis);
  REQUIRE(separating_axes(c.apart, cube) == only);
  // No box normal separates: the triangle's bounds overlap the cube.
  if (axis >= 3) REQUIRE(c.apart.bounds().overlaps(cube));
  CHECK_FALSE(touches_checked(c.apart, cube));
  REQUIRE(separating_axes(c.touching, cube).none());
  CHECK(touches_checked(c.touching, cube));
}

IsolatedAxis rotate_axes(const IsolatedAxis& c) {
  return {rotate_axes(c.apart), rotate_axes(c.touching)};
}
IsolatedAxis rotate_vertices(const IsolatedAxis& c) {
  return {rotate_vertices(c.apart), rotate_vertices(c.touching)};
}

}  // namespace

TEST_CASE("aabb-triangle: each box normal alone separates", "[geometry][aabb_triangle]") {
  // All x > 1; the triangle's plane cuts the cube and no other axis separates. Moved by -1/2
  // in x, vertex (1, 0, -1/2) lies on the face x = 1.
  const Triangle apart{{2, -0.5f, 0}, {1.5f, 0, -0.5f}, {3, -1, 0}};
  IsolatedAxis c{apart, translated(apart, {-0.5f, 0, 0})};
  for (std::size_t k = 0; k < 3; ++k, c = rotate_axes(c)) check_isolated(c, k);
}

TEST_CASE("aabb-triangle: the triangle normal alone separates", "[geometry][aabb_triangle]") {
  // A large triangle in x + y + z = 3.5; the cube reaches 3 at its corner (1, 1, 1). In
  // x + y + z = 3 the triangle's centroid is that corner.
  const IsolatedAxis c{Triangle{{5.5f, -1, -1}, {-1, 5.5f, -1}, {-1, -1, 5.5f}},
                       Triangle{{5, -1, -1}, {-1, 5, -1}, {-1, -1, 5}}};
  check_isolated(c, trisect::testing::triangle_normal_axis);
  check_isolated(rotate_vertices(c), trisect::testing::triangle_normal_axis);
}

TEST_CASE("aabb-triangle: each edge x axis product alone separates", "[geometry][aabb_triangle]") {
  // Edge a→b passes the cube's edge x = y = 1 on the outside: along (a→b) × z the triangle
  // lies beyond -2x - y = -3, the cube's extreme. Moved by -1/2 in x, the edge passes through
  // (1, 1, 0) on that cube edge. Rotating the axes and the vertices gives all nine products,
  // among them (c→a) × y, the axis u1 × f2 that the classic typo computes as u2 × f2.
  const Triangle apart{{1, 2, 0}, {2, 0, 0}, {3, 0, -1.5f}};
  const IsolatedAxis base{apart, translated(apart, {-0.5f, 0, 0})};
  IsolatedAxis by_edge = base;
  for (std::size_t edge = 0; edge < 3; ++edge, by_edge = rotate_vertices(by_edge)) {
    IsolatedAxis c = by_edge;
    // Rotating the axes maps z to x, then x to y.
    const std::size_t axis_order[3] = {2, 0, 1};
    for (std::size_t k : axis_order) {
      check_isolated(c, edge_axis(edge, k));
      c = rotate_axes(c);
    }
  }
}

TEST_CASE("aabb-triangle: the typo axis (c→a) × y, spelled out", "[geometry][aabb_triangle]") {
  // Edge c→a, (2, 0, 1) → (0, 0, 2), passes the cube's edge x = z = 1 outside: along
  // (c→a) × y = (-1, 0, -2) the triangle spans [-6, -4] and the cube [-3, 3]. No other axis
  // separates, so an implementation that tests (c→a) × z (u2 × f2) in place of (c→a) × y
  // (u1 × f2) answers true. Moved by -1/2 in z, the edge passes through (1, 0, 1).
  const Triangle apart{{0, 0, 2}, {0, -1.5f, 3}, {2, 0, 1}};
  check_isolated({apart, translated(apart, {0, 0, -0.5f})}, edge_axis(2, 1));
}

TEST_CASE("aabb-triangle: touching counts", "[geometry][aabb_triangle]") {
  SECTION("vertex exactly on a box face, each of the six") {
    Triangle on{{1, 0, 0}, {3, 1, 0}, {3, -1, 1}};
    Triangle off{{up(1), 0, 0}, {3, 1, 0}, {3, -1, 1}};
    for (int k = 0; k < 3; ++k, on = rotate_axes(on), off = rotate_axes(off)) {
      CHECK(touches_checked(on, cube));
      CHECK_FALSE(touches_checked(off, cube));
      CHECK(touches_checked(mirrored(on), cube));
      CHECK_FALSE(touches_checked(mirrored(off), cube));
    }
  }
  SECTION("edge exactly along a box edge") {
    CHECK(touches_checked(Triangle{{1, 1, -3}, {1, 1, 3}, {3, 3, 0}}, cube));
    CHECK_FALSE(touches_checked(Triangle{{up(1), 1, -3}, {up(1), 1, 3}, {3, 3, 0}}, cube));
    CHECK(touches_checked(Triangle{{1, 1, 0.5f}, {1, 1, 3}, {3, 3, 0}}, cube));  // overlapping
  }
  SECTION("triangle face exactly through a box corner") {
    CHECK(touches_checked(Triangle{{5, -1, -1}, {-1, 5, -1}, {-1, -1, 5}}, cube));
    CHECK_FALSE(touches_checked(Triangle{{5, -1, -1}, {-1, 5, -1}, {-1, -1, up(5)}}, cube));
  }
  SECTION("triangle in the plane of a box face") {
    CHECK(touches_checked(Triangle{{0, 0, 1}, {3, 0, 1}, {0, 3, 1}}, cube));
    CHECK(touches_checked(Triangle{{1.5f, 0.5f, 1}, {0.5f, 1.5f, 1}, {3, 3, 1}}, cube));
    CHECK_FALSE(touches_checked(Triangle{{2, 0.5f, 1}, {0.5f, 2, 1}, {3, 3, 1}}, cube));
    CHECK_FALSE(touches_checked(Triangle{{0, 0, up(1)}, {3, 0, up(1)}, {0, 3, up(1)}}, cube));
  }
  SECTION("box inside the triangle's plane region, no vertex inside") {
    CHECK(touches_checked(Triangle{{-9, -9, 0}, {9, -9, 0}, {0, 9, 0}}, cube));
  }
}

TEST_CASE("aabb-triangle: degenerate triangles are their segment or point",
          "[geometry][aabb_triangle]") {
  const auto point = [](Vec3 p) { return Triangle{p, p, p}; };
  const auto segment = [](Vec3 p, Vec3 q) { return Triangle{p, q, q}; };
  SECTION("point") {
    CHECK(touches_checked(point({0, 0, 0}), cube));
    CHECK(touches_checked(point({1, 0.5f, -1}), cube));
    CHECK_FALSE(touches_checked(point({1, 0.5f, std::nextafter(-1.0f, -2.0f)}), cube));
  }
  SECTION("segment") {
    CHECK(touches_checked(segment({-3, 0, 0}, {3, 0, 0}), cube));          // crossing
    CHECK(touches_checked(segment({-3, 1, 1}, {3, 1, 1}), cube));          // along an edge
    CHECK(touches_checked(segment({0, 2, 2}, {2, 0, 0}), cube));           // through (1, 1, 1)
    CHECK_FALSE(touches_checked(segment({0, 2, 2}, {2, 0, 0.5f}), cube));  // by (1, 1, 1.25)
    CHECK_FALSE(touches_checked(segment({-3, 1, up(1)}, {3, 1, up(1)}), cube));
    CHECK(touches_checked(Triangle{{0, 2, 2}, {0, 2, 2}, {2, 0, 0}}, cube));  // a = b
  }
  SECTION("collinear triangle") {
    CHECK(touches_checked(Triangle{{-3, -3, -3}, {3, 3, 3}, {0, 0, 0}}, cube));
    CHECK(touches_checked(Triangle{{0, 2, 2}, {2, 0, 0}, {1, 1, 1}}, cube));
    CHECK_FALSE(touches_checked(Triangle{{0, 2, 2}, {2, 0, 0.5f}, {1, 1, 1.25f}}, cube));
    CHECK_FALSE(touches_checked(Triangle{{1, 1, 1.25f}, {0, 2, 2}, {2, 0, 0.5f}}, cube));
  }
}

TEST_CASE("aabb-triangle: degenerate boxes", "[geometry][aabb_triangle]") {
  const Triangle flat{{-1, -1, 0}, {3, -1, 0}, {-1, 3, 0}};  // hypotenuse x + y = 2, z = 0
  SECTION("slab") {
    const Aabb slab = Aabb::from_corners({-1, -1, 0}, {1, 1, 0});
    CHECK(touches_checked(Triangle{{0, 0, -1}, {0, 0, 1}, {5, 5, 5}}, slab));  // crossing
    CHECK(touches_checked(Triangle{{1, 1, 0}, {2, 2, 1}, {2, 1, 1}}, slab));   // at a vertex
    CHECK_FALSE(touches_checked(Triangle{{1, 1, up(0)}, {2, 2, 1}, {2, 1, 1}}, slab));
    CHECK(touches_checked(flat, slab));  // coplanar
    CHECK_FALSE(
        touches_checked(Triangle{{2, 0.5f, 0}, {0.5f, 2, 0}, {3, 3, 0}}, slab));  // coplanar miss
  }
  SECTION("segment") {
    const Aabb pole = Aabb::from_corners({1, 1, -1}, {1, 1, 1});
    CHECK(touches_checked(flat, pole));  // (1, 1) on the hypotenuse
    CHECK_FALSE(touches_checked(flat, Aabb::from_corners({1, up(1), -1}, {1, up(1), 1})));
    CHECK_FALSE(touches_checked(translated(flat, {0, 0, 2}), pole));
    const Aabb rod = Aabb::from_corners({-5, 0.5f, 0.5f}, {5, 0.5f, 0.5f});
    CHECK(touches_checked(Triangle{{0, 0, 0}, {0, 1, 0}, {0, 0, 1}}, rod));
    CHECK_FALSE(touches_checked(Triangle{{0, 0, 0}, {0, 1, 0}, {0, 0.5f, 0.49f}}, rod));
  }
  SECTION("point") {
    CHECK(touches_checked(flat, Aabb::from_corners({0, 0, 0}, {0, 0, 0})));
    CHECK(touches_checked(flat, Aabb::from_corners({1, 1, 0}, {1, 1, 0})));
    CHECK_FALSE(touches_checked(flat, Aabb::from_corners({1, up(1), 0}, {1, up(1), 0})));
    CHECK_FALSE(touches_checked(flat, Aabb::from_corners({0, 0, up(0)}, {0, 0, up(0)})));
  }
}

TEST_CASE("aabb-triangle agrees with exact clipping on random inputs",
          "[geometry][aabb_triangle][property]") {
  using trisect::testing::CaseGenerator;
  trisect::testing::require_touching_agrees("aabb-triangle", 0x7e1a'ab00ULL, [](CaseGenerator& g) {
    const Triangle triangle = g.triangle();
    // Boxes with a corner at a vertex, or at random.
    return std::pair{triangle, g.tie(0.3) ? g.box_from(triangle.a) : g.box()};
  });
}
