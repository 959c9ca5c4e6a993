// The seed cases of trisect's exact predicates (also printed by examples/seed_cases.cpp).
#include "support/exact_oracle.hpp"

#include <trisect/geometry/aabb_plane.hpp>
#include <trisect/geometry/aabb_triangle.hpp>

#include <catch2/catch.hpp>

using trisect::Aabb;
using trisect::Plane;
using trisect::Triangle;
using trisect::Vec3;

TEST_CASE("seed: plane (0, 1, 0.5), d = 0 against boxes from corners", "[geometry][seed]") {
  const Plane plane{{0, 1, 0.5f}, 0};
  struct Case {
    Vec3 a, b;
    bool expected;
  };
  const Case cases[] = {{{-2, -2, -2}, {-1, -1, -1}, false},
                        {{2, 1, 2}, {4, 3, 4}, false},
                        {{1, 0, 1}, {0, -1, 0}, true},
                        {{5, 5, 5}, {-5, -5, -5}, true}};
  for (const Case& c : cases) {
    const Aabb box = Aabb::from_corners(c.a, c.b);
    INFO("corners (" << c.a.x << ", " << c.a.y << ", " << c.a.z << ") / (" << c.b.x << ", " << c.b.y
                     << ", " << c.b.z << ")");
    CHECK(trisect::intersects(box, plane) == c.expected);
    CHECK(trisect::intersects_center_extents(box, plane) == c.expected);
    CHECK(trisect::oracle::touches(box, plane) == c.expected);
  }
}

TEST_CASE("seed: triangle (-1, 5, 0), (2, 2, -3), (5, 5, 0) against boxes centre/extents",
          "[geometry][seed]") {
  const Triangle triangle{{-1, 5, 0}, {2, 2, -3}, {5, 5, 0}};
  struct Case {
    Vec3 center, extents;
    bool expected;
  };
  const Case cases[] = {
      {{2, 4, -1}, {0.5f, 0.5f, 0.5f}, true}, {{-1, 5, 0}, {0.5f, 0.5f, 0.5f}, true},
      {{0, 0, 0}, {5, 7, 5}, true},           {{2, 3, -3}, {3, 0.5f, 2}, true},
      {{2, 2, 2}, {1, 1, 1}, false},          {{-2, -2, -2}, {1, 1, 1}, false}};
  for (const Case& c : cases) {
    const Aabb box = Aabb::from_center_extents(c.center, c.extents);
    INFO("centre (" << c.center.x << ", " << c.center.y << ", " << c.center.z << ") extents ("
                    << c.extents.x << ", " << c.extents.y << ", " << c.extents.z << ")");
    CHECK(trisect::intersects(triangle, box) == c.expected);
    CHECK(trisect::oracle::touches(triangle, box) == c.expected);
  }
}
