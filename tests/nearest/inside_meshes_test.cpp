// side_of on closed non-convex meshes (the cube sphere, subdivided, and the real meshes that
// are closed) against an exact rational ray-parity oracle along random directions (another
// direction is drawn while the ray touches an edge or a vertex), with signed_distance's sign.
#include "support/describe.hpp"
#include "support/inside_oracle.hpp"
#include "support/nearest_oracle.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/nearest/inside.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace trisect::testing {
namespace {

/// The side by the oracles: surface at exact distance 0, otherwise the parity along the first
/// random direction whose ray touches no edge or vertex.
PointSide expected_side(const Scene& scene, const Vec3& point, std::mt19937_64& random) {
  if (oracle::on_surface(scene.soup(), point)) return PointSide::surface;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const Vec3 direction(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1));
    if (direction == Vec3(0.0f)) continue;
    if (const auto odd = oracle::ray_parity(scene.soup(), point, direction))
      return *odd ? PointSide::inside : PointSide::outside;
  }
  FAIL("no ray from " << describe(point) << " avoids every edge and vertex");
  return PointSide::surface;
}

/// Points to classify: random in the padded bounds, vertices, vertices nudged by an ulp, edge
/// midpoints and centroids (rounded: on or just off the surface), and points along segments
/// between vertices (crossing the mesh).
std::vector<Vec3> mesh_points(const Scene& scene, int count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  const Aabb bounds = scene.bounds();
  const auto pick = [&] {
    return scene.triangle(std::uniform_int_distribution<std::size_t>(0, scene.size() - 1)(random));
  };
  std::vector<Vec3> points;
  while (static_cast<int>(points.size()) < count) {
    const Triangle t = pick();
    switch (lattice(random, 0, 5)) {
      case 0: {
        Vec3 p;
        for (int axis = 0; axis < 3; ++axis) {
          const float pad = 0.1f * (bounds.max[axis] - bounds.min[axis]);
          p[axis] = uniform(random, bounds.min[axis] - pad, bounds.max[axis] + pad);
        }
        points.push_back(p);
        break;
      }
      case 1:
        points.push_back(t.a);
        break;
      case 2: {
        Vec3 p = t.b;
        const int axis = lattice(random, 0, 2);
        p[axis] = std::nextafter(p[axis], lattice(random, 0, 1) == 0 ? -1e30f : 1e30f);
        points.push_back(p);
        break;
      }
      case 3:
        points.push_back(0.5f * (t.a + t.c));
        break;
      case 4:
        points.push_back((t.a + t.b + t.c) / 3.0f);
        break;
      default:
        points.push_back(t.a + uniform(random, 0, 1) * (pick().b - t.a));
        break;
    }
  }
  return points;
}

void check_against_parity(const Scene& scene, int count, std::uint64_t seed) {
  INFO("scene " << scene.name << " (" << scene.size() << " triangles)");
  REQUIRE_FALSE(find_open_edge(scene.soup()));
  const Bvh bvh = build(scene.soup());
  std::mt19937_64 random(seed);
  const std::vector<Vec3> points = mesh_points(scene, count, seed + 1);
  std::vector<PointSide> sides(points.size());
  sides_of(bvh, points, sides);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec3& point = points[i];
    INFO("point " << describe(point));
    const PointSide expected = expected_side(scene, point, random);
    INFO("expected " << to_string(expected));
    REQUIRE(to_string(side_of(bvh, point)) == std::string(to_string(expected)));
    CHECK(sides[i] == expected);
    const double distance = signed_distance(bvh, point);
    if (expected == PointSide::surface) CHECK(distance == 0.0);
    if (expected == PointSide::inside) CHECK(distance < 0);
    if (expected == PointSide::outside) CHECK(distance > 0);
  }
}

TEST_CASE("side_of on the cube sphere equals the exact ray parity", "[nearest][inside]") {
  const Scene sphere = scenes::cube_sphere("cube_sphere", 6);
  check_against_parity(sphere, 300, 501);
  check_against_parity(scenes::subdivided(sphere, "cube_sphere_subdivided"), 200, 502);
  check_against_parity(transformed(sphere, 1e-30f, Vec3(0.0f), "_1e-30"), 100, 503);
  check_against_parity(transformed(sphere, 1.0f, Vec3(1e6f, 0, -1e6f), "_far"), 100, 504);
}

TEST_CASE("side_of on the closed real meshes equals the exact ray parity", "[nearest][inside]") {
  int closed = 0;
  for (const Scene& mesh : shared_mesh_scenes()) {
    if (find_open_edge(mesh.soup())) {
      WARN(mesh.name << " is not closed: its side_of is not checked");
      continue;
    }
    ++closed;
    check_against_parity(mesh, 200, 510 + static_cast<std::uint64_t>(closed));
  }
  if (closed == 0) WARN("no closed shared mesh found: nothing checked");
}

}  // namespace
}  // namespace trisect::testing
