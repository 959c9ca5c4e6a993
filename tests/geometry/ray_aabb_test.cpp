// RaySlabs: the conservative slab test never culls a box that the ray touches for t in
// [t_min, t_max], including boxes it only grazes and axes it does not move along; and it
// rejects boxes the ray clearly misses.
#include <trisect/geometry/ray_aabb.hpp>

#include <catch2/catch.hpp>

#include <glm/common.hpp>

#include <limits>
#include <random>

namespace trisect {
namespace {

constexpr float infinity = std::numeric_limits<float>::infinity();

TEST_CASE("ray slabs: hand-checked boxes, touching faces and parallel axes", "[ray_aabb]") {
  const Aabb unit = Aabb::from_corners({0, 0, 0}, {1, 1, 1});
  float near = 0;
  // Straight through: enters at t = 1.
  CHECK(RaySlabs::of(Ray{{0.5f, 0.5f, -1}, {0, 0, 1}}).overlaps(unit, 0, infinity, near));
  CHECK(near <= 1.0f);
  CHECK(near >= 0.99f);
  // Along a face (origin on the plane x = 1, direction parallel to it): touches.
  CHECK(RaySlabs::of(Ray{{1, 0.5f, -1}, {0, 0, 1}}).overlaps(unit, 0, infinity, near));
  // Along an edge, with a negative zero direction component.
  CHECK(RaySlabs::of(Ray{{1, 1, -1}, {-0.0f, 0, 1}}).overlaps(unit, 0, infinity, near));
  // Parallel and outside.
  CHECK_FALSE(RaySlabs::of(Ray{{1.5f, 0.5f, -1}, {0, 0, 1}}).overlaps(unit, 0, infinity, near));
  // Pointing away, and stopping short (t_max = 0.5 before the box at t = 1).
  CHECK_FALSE(RaySlabs::of(Ray{{0.5f, 0.5f, -1}, {0, 0, -1}}).overlaps(unit, 0, infinity, near));
  CHECK_FALSE(RaySlabs::of(Ray{{0.5f, 0.5f, -1}, {0, 0, 1}}).overlaps(unit, 0, 0.5f, near));
  // Exactly reaching the face at t_max = 1 touches (closed interval and box).
  CHECK(RaySlabs::of(Ray{{0.5f, 0.5f, -1}, {0, 0, 1}}).overlaps(unit, 0, 1.0f, near));
  // Behind the origin, with t_min < 0.
  CHECK(RaySlabs::of(Ray{{0.5f, 0.5f, 3}, {0, 0, 1}}).overlaps(unit, -5, 0, near));
}

TEST_CASE("ray slabs never cull a box holding a point of the ray", "[ray_aabb]") {
  // Integer origins and directions and t a multiple of 1/8: the point origin + t·direction is
  // exact, so the ray truly passes through it at t, and the test must pass for t_min = t_max.
  std::mt19937_64 random(41);
  std::uniform_int_distribution<int> coordinate(-100, 100), component(-8, 8), eighths(-80, 80);
  for (int i = 0; i < 200000; ++i) {
    const Ray ray{{float(coordinate(random)), float(coordinate(random)), float(coordinate(random))},
                  {float(component(random)), float(component(random)), float(component(random))}};
    if (ray.direction == Vec3(0.0f)) continue;  // zero components stay: axes it does not move on
    const float t = float(eighths(random)) / 8;
    const Vec3 point = ray.at(t);
    // The point on a corner of the box, or (every third) on a face: the ray only grazes it.
    Vec3 other(float(coordinate(random)), float(coordinate(random)), float(coordinate(random)));
    if (i % 3 == 0) other.x = point.x;
    const Aabb box = Aabb::from_corners(glm::min(point, other), glm::max(point, other));
    float near = 0;
    INFO("ray " << i);
    REQUIRE(RaySlabs::of(ray).overlaps(box, t, t, near));
    REQUIRE(near <= t);
  }
}

}  // namespace
}  // namespace trisect
