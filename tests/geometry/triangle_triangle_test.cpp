#include "support/touching.hpp"

#include <trisect/geometry/self_overlap.hpp>
#include <trisect/geometry/triangle_triangle.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using trisect::Triangle;
using trisect::Vec3;
using trisect::testing::CaseGenerator;
using trisect::testing::touches_checked;

namespace {

float up(float x) { return std::nextafter(x, std::numeric_limits<float>::max()); }

/// The self-overlap rule, checked symmetric and against the exact oracle.
bool self_checked(const Triangle& s, const Triangle& t) {
  INFO(trisect::testing::describe(s) << " " << trisect::testing::describe(t));
  const bool answer = trisect::intersects_beyond_shared_vertices(s, t);
  CHECK(trisect::intersects_beyond_shared_vertices(t, s) == answer);
  CHECK(trisect::oracle::touches_beyond_shared(s, t) == answer);
  return answer;
}

const Triangle flat{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};  // in z = 0

}  // namespace

TEST_CASE("triangle-triangle: coplanar", "[geometry][triangle_triangle]") {
  SECTION("overlapping") {
    CHECK(touches_checked(flat, Triangle{{1, 1, 0}, {5, 1, 0}, {1, 5, 0}}));
  }
  SECTION("one inside the other") {
    CHECK(touches_checked(flat, Triangle{{1, 1, 0}, {2, 1, 0}, {1, 2, 0}}));
  }
  SECTION("touching at a vertex, along an edge, a vertex on an edge") {
    CHECK(touches_checked(flat, Triangle{{4, 0, 0}, {6, 0, 0}, {6, 2, 0}}));
    CHECK(touches_checked(flat, Triangle{{0, 0, 0}, {4, 0, 0}, {2, -3, 0}}));
    CHECK(touches_checked(flat, Triangle{{2, 2, 0}, {5, 5, 0}, {5, 3, 0}}));
  }
  SECTION("apart by one ulp, and crossing edges") {
    CHECK_FALSE(touches_checked(flat, Triangle{{up(2), up(2), 0}, {5, 5, 0}, {5, 3, 0}}));
    CHECK(touches_checked(flat, Triangle{{3, -1, 0}, {3, 5, 0}, {6, 2, 0}}));
  }
  SECTION("parallel planes") {
    CHECK_FALSE(touches_checked(flat, Triangle{{0, 0, 1}, {4, 0, 1}, {0, 4, 1}}));
  }
}

TEST_CASE("triangle-triangle: crossing planes", "[geometry][triangle_triangle]") {
  SECTION("a vertex on the face") {
    CHECK(touches_checked(flat, Triangle{{1, 1, 0}, {1, 1, 3}, {2, 2, 3}}));
    CHECK_FALSE(touches_checked(flat, Triangle{{1, 1, up(0)}, {1, 1, 3}, {2, 2, 3}}));
  }
  SECTION("a vertex on an edge and at a vertex") {
    CHECK(touches_checked(flat, Triangle{{2, 0, 0}, {2, -1, 3}, {2, 1, 3}}));
    CHECK(touches_checked(flat, Triangle{{4, 0, 0}, {5, -1, 3}, {5, 1, 3}}));
  }
  SECTION("edge on edge, crossing") {
    CHECK(touches_checked(flat, Triangle{{2, -1, 0}, {2, 1, 0}, {2, 0, 3}}));
    CHECK(touches_checked(flat, Triangle{{1, -1, 0}, {3, 1, 0}, {2, 0, -3}}));
    CHECK_FALSE(touches_checked(flat, Triangle{{1, -1, up(0)}, {3, 1, up(0)}, {2, 0, 3}}));
  }
  SECTION("one triangle piercing the other") {
    CHECK(touches_checked(flat, Triangle{{1, 1, -1}, {1, 1, 1}, {9, 9, 0}}));
    CHECK(touches_checked(flat, Triangle{{1, 1, -1}, {2, 1, 1}, {1, 2, 1}}));
    CHECK_FALSE(touches_checked(flat, Triangle{{3, 3, -1}, {3, 3, 1}, {9, 9, 0}}));
  }
  SECTION("an edge lying in the other's plane") {
    CHECK(touches_checked(flat, Triangle{{-1, 1, 0}, {5, 1, 0}, {2, 1, 4}}));
    CHECK_FALSE(touches_checked(flat, Triangle{{3, 3, 0}, {5, 3, 0}, {4, 3, 4}}));
  }
}

TEST_CASE("triangle-triangle: zero-area triangles are their segment or point",
          "[geometry][triangle_triangle]") {
  SECTION("segment against a triangle") {
    CHECK(touches_checked(flat, Triangle{{1, 1, -1}, {1, 1, 1}, {1, 1, 1}}));  // piercing
    CHECK(touches_checked(flat, Triangle{{1, 1, 0}, {1, 1, 1}, {1, 1, 2}}));   // end on face
    CHECK(touches_checked(flat, Triangle{{-1, 2, 0}, {5, 2, 0}, {2, 2, 0}}));  // in the plane
    CHECK_FALSE(touches_checked(flat, Triangle{{3, 3, -1}, {3, 3, 1}, {3, 3, 0}}));
    CHECK_FALSE(touches_checked(flat, Triangle{{5, 0, 0}, {6, 0, 0}, {7, 0, 0}}));
  }
  SECTION("point against a triangle") {
    CHECK(touches_checked(flat, Triangle{{1, 1, 0}, {1, 1, 0}, {1, 1, 0}}));
    CHECK(touches_checked(flat, Triangle{{2, 2, 0}, {2, 2, 0}, {2, 2, 0}}));
    CHECK(touches_checked(flat, Triangle{{4, 0, 0}, {4, 0, 0}, {4, 0, 0}}));
    CHECK_FALSE(touches_checked(flat, Triangle{{1, 1, up(0)}, {1, 1, up(0)}, {1, 1, up(0)}}));
  }
  SECTION("segments and points against each other") {
    const Triangle segment{{0, 0, 0}, {2, 2, 2}, {0, 0, 0}};
    CHECK(touches_checked(segment, Triangle{{0, 2, 0}, {2, 0, 2}, {2, 0, 2}}));        // crossing
    CHECK_FALSE(touches_checked(segment, Triangle{{0, 2, 0}, {2, 0, 3}, {2, 0, 3}}));  // skew
    CHECK(touches_checked(segment, Triangle{{2, 2, 2}, {3, 3, 3}, {4, 4, 4}}));        // end to end
    CHECK(touches_checked(segment, Triangle{{1, 1, 1}, {5, 5, 5}, {5, 5, 5}}));  // overlapping
    CHECK_FALSE(touches_checked(segment, Triangle{{3, 3, 3}, {5, 5, 5}, {4, 4, 4}}));
    CHECK_FALSE(touches_checked(segment, Triangle{{1, 0, 0}, {3, 2, 2}, {3, 2, 2}}));  // parallel
    CHECK(touches_checked(segment, Triangle{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}));
    CHECK_FALSE(touches_checked(segment, Triangle{{1, 1, up(1)}, {1, 1, up(1)}, {1, 1, up(1)}}));
    const Triangle point{{2, 2, 2}, {2, 2, 2}, {2, 2, 2}};
    CHECK(touches_checked(point, point));
    CHECK_FALSE(touches_checked(point, Triangle{{2, 2, up(2)}, {2, 2, up(2)}, {2, 2, up(2)}}));
  }
}

TEST_CASE("self-overlap rule: only contact outside the shared vertices counts",
          "[geometry][triangle_triangle]") {
  SECTION("no shared vertex: any contact") {
    CHECK(self_checked(flat, Triangle{{4, 0, 0}, {6, 0, 0}, {6, 2, 0}}) == false);
    CHECK(self_checked(flat, Triangle{{up(4), 0, 0}, {6, 0, 0}, {6, 2, 0}}) == false);
    CHECK(self_checked(flat, Triangle{{2, 0, 0}, {2, -1, 3}, {2, 1, 3}}));
  }
  SECTION("a shared edge") {
    CHECK_FALSE(self_checked(flat, Triangle{{4, 0, 0}, {0, 4, 0}, {4, 4, 0}}));   // flat quad
    CHECK_FALSE(self_checked(flat, Triangle{{4, 0, 0}, {0, 4, 0}, {4, 4, 3}}));   // a crease
    CHECK(self_checked(flat, Triangle{{4, 0, 0}, {0, 4, 0}, {1, 1, 0}}));         // a fold
    CHECK(self_checked(flat, Triangle{{0, 4, 0}, {4, 0, 0}, {3, -1, 0}}));        // overlap across
    CHECK_FALSE(self_checked(flat, Triangle{{0, 4, 0}, {4, 0, 0}, {8, -4, 0}}));  // a segment
  }
  SECTION("a shared vertex") {
    CHECK_FALSE(self_checked(flat, Triangle{{0, 0, 0}, {-4, 0, 0}, {0, -4, 0}}));
    CHECK_FALSE(self_checked(flat, Triangle{{0, 0, 0}, {-4, 0, 1}, {0, -4, 3}}));
    CHECK(self_checked(flat, Triangle{{0, 0, 0}, {2, 2, -1}, {2, 2, 1}}));  // through the face
    CHECK(self_checked(flat, Triangle{{0, 0, 0}, {2, 1, 0}, {1, 2, 0}}));   // coplanar inside
  }
  SECTION("the same vertex positions always count") {
    CHECK(self_checked(flat, Triangle{flat.c, flat.a, flat.b}));
    const Triangle segment{{0, 0, 0}, {1, 1, 1}, {1, 1, 1}};
    CHECK(self_checked(segment, Triangle{{1, 1, 1}, {0, 0, 0}, {1, 1, 1}}));
    CHECK_FALSE(self_checked(segment, Triangle{{1, 1, 1}, {0, 0, 0}, {0, 0, 0}}));
  }
  SECTION("zero-area triangles on a shared edge") {
    const Triangle on_edge{{0, 0, 0}, {4, 0, 0}, {2, 0, 0}};
    CHECK_FALSE(self_checked(flat, on_edge));
    const Triangle beyond{{0, 0, 0}, {4, 0, 0}, {6, 0, 0}};
    CHECK_FALSE(self_checked(flat, beyond));
    CHECK(self_checked(beyond, Triangle{{0, 0, 0}, {4, 0, 0}, {5, 0, 0}}));
    CHECK_FALSE(self_checked(beyond, Triangle{{0, 0, 0}, {4, 0, 0}, {-1, 0, 0}}));
  }
}

namespace {

/// A vertex for the second triangle of a pair: often a vertex, an edge midpoint or a lattice
/// combination of the first triangle's vertices (in its plane), or one of those nudged.
Vec3 related_vertex(CaseGenerator& g, const Triangle& s) {
  const Vec3 v[3] = {s.a, s.b, s.c};
  const Vec3& p = v[g.integer(0, 2)];
  const Vec3& q = v[g.integer(0, 2)];
  switch (g.integer(0, 6)) {
    case 0:
      return p;
    case 1:
      return 0.5f * (p + q);
    case 2:
      return g.nudged(p);
    case 3:
      return p + static_cast<float>(g.integer(-1, 2)) * (q - p);
    case 4: {
      Vec3 x = 0.5f * (p + q);
      x[g.integer(0, 2)] += 0.5f * (q - p)[g.integer(0, 2)];
      return x;
    }
    default:
      return g.point();
  }
}

std::pair<Triangle, Triangle> triangle_pair(CaseGenerator& g) {
  const Triangle s = g.triangle();
  Triangle t = g.triangle();
  if (g.tie(0.7)) {
    t.a = related_vertex(g, s);
    t.b = related_vertex(g, s);
    if (g.chance(0.7)) t.c = related_vertex(g, s);
    if (g.chance(0.1)) t.c = t.b;
  }
  return {s, t};
}

}  // namespace

TEST_CASE("triangle-triangle agrees with exact clipping on random inputs",
          "[geometry][triangle_triangle][property]") {
  trisect::testing::require_touching_agrees("triangle-triangle", 0x7717'0001ULL, triangle_pair);
}

TEST_CASE("self-overlap rule agrees with exact clipping on random inputs",
          "[geometry][triangle_triangle][property]") {
  using Input = std::pair<Triangle, Triangle>;
  const auto result = trisect::testing::compare_with_oracle(
      0x7717'0002ULL,
      [](CaseGenerator& g) {
        auto pair = triangle_pair(g);  // then often one or two vertices in common
        if (g.chance(0.5)) pair.second.a = pair.first.b;
        if (g.chance(0.3)) pair.second.b = pair.first.a;
        return pair;
      },
      [](const Input& in) {
        return trisect::intersects_beyond_shared_vertices(in.first, in.second);
      },
      [](const Input& in) { return trisect::oracle::touches_beyond_shared(in.first, in.second); },
      [](const Input& in) {
        return trisect::testing::describe(in.first) + " " + trisect::testing::describe(in.second);
      });
  trisect::testing::require_agreement("self-overlap", result);
}
