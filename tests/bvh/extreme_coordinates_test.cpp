// Box, plane, sphere and ray queries where the float fast paths of the node tests underflow
// (coordinates near 1e-30, 1e-38 and subnormal) or overflow (near 1e37): the answers must be
// the exact ones, checked against the independent GMP oracle. Rays: the slab test with a
// direction whose reciprocal overflows (the float triangle test itself misses at these
// scales, which is the exact-ray issue's, not the traversal's).
#include "support/exact_oracle.hpp"
#include "support/ray_kernels.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/build.hpp>
#include <trisect/bvh/collect.hpp>
#include <trisect/geometry/ray_triangle.hpp>
#include <trisect/geometry/triangle_triangle.hpp>
#include <trisect/overlap/overlap.hpp>
#include "bvh/ray_kernels.hpp"

#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace trisect::testing {
namespace {

template <class Shape>
std::vector<TriangleId> oracle_answer(const Scene& scene, const Shape& shape) {
  std::vector<TriangleId> ids;
  for (std::size_t id = 0; id < scene.size(); ++id)
    if (oracle::touches(scene.soup().triangle(id), shape)) ids.push_back(TriangleId(id));
  return ids;
}

// Random and lattice soups scaled by a power of two (exact while results stay normal).
std::vector<Scene> extreme_scenes() {
  std::vector<Scene> scenes;
  for (const float scale : {0x1p-100f, 0x1p-126f, 0x1p-140f, 0x1p100f, 0x1p122f}) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_scaled_%g", double(scale));
    scenes.push_back(transformed(random_soup(300, 41), scale, Vec3(0.0f), suffix));
    scenes.push_back(transformed(lattice_soup(300, 42), scale, Vec3(0.0f), suffix));
  }
  return scenes;
}

struct ExtremeQueries {
  const Scene& scene;
  std::mt19937_64 random;
  float size;

  Vec3 vertex() {
    return scene.positions[std::size_t(lattice(random, 0, int(scene.positions.size()) - 1))];
  }
  float fraction() { return uniform(random, 0, 1); }
  Sphere sphere() {
    switch (lattice(random, 0, 2)) {
      case 0:
        return {vertex(), 0.0f};
      case 1:
        return {vertex(), size * fraction() * 0.1f};
      default: {  // through another vertex (tangent up to rounding)
        const Vec3 center = vertex(), other = vertex();
        const glm::dvec3 gap = glm::dvec3(other) - glm::dvec3(center);  // no float overflow
        return {center, static_cast<float>(glm::length(gap))};
      }
    }
  }
  Aabb box() {
    if (lattice(random, 0, 1) == 0) return Aabb::from_corners(vertex(), vertex());
    return Aabb::from_center_extents(vertex(), Vec3(size * fraction() * 0.05f));
  }
  Plane plane() {
    const Vec3 normal(float(lattice(random, -2, 2)), float(lattice(random, -2, 2)), 1.0f);
    const Vec3 p = vertex();
    return {normal, normal.x * p.x + normal.y * p.y + normal.z * p.z};
  }
};

float extent(const Scene& scene) {
  Aabb bounds = Aabb::empty();
  for (const Vec3& p : scene.positions) bounds.extend(p);
  return std::max(
      {bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y, bounds.max.z - bounds.min.z});
}

TEST_CASE("a ball at a vertex of tiny triangles touches only the exact ones", "[bvh]") {
  // Issue 10's mesh: the reach of triangle 1 from the origin squares to 0 in float, which the
  // sphere's float child test took for "inside a ball of radius 0".
  const std::vector<Vec3> positions{{0, 0, 0},           {1e-30f, 0, 0},      {0, 1e-30f, 0},
                                    {1e-25f, 1e-25f, 0}, {2e-25f, 1e-25f, 0}, {1e-25f, 2e-25f, 0}};
  const Bvh bvh = build(TriangleSoup{positions});
  CHECK(collect_touching(bvh, Sphere{{0, 0, 0}, 0.0f}) == std::vector<TriangleId>{0});
  CHECK(collect_touching(bvh, Sphere{{0, 0, 0}, 1e-26f}) == std::vector<TriangleId>{0});
  CHECK(collect_touching(bvh, Sphere{{1e-25f, 1e-25f, 0}, 0.0f}) == std::vector<TriangleId>{1});
  CHECK(collect_touching(bvh, Sphere{{0, 0, 0}, 1.5e-25f}) == std::vector<TriangleId>{0, 1});
}

TEST_CASE("balls, boxes and planes at extreme scales equal the exact oracle", "[bvh]") {
  for (const Scene& scene : extreme_scenes()) {
    INFO(scene.name);
    const Bvh bvh = build(scene.soup());
    ExtremeQueries make{scene, std::mt19937_64(43), extent(scene)};
    for (int q = 0; q < 40; ++q) {
      const Sphere sphere = make.sphere();
      INFO("sphere " << sphere.center.x << ' ' << sphere.center.y << ' ' << sphere.center.z << " r "
                     << sphere.radius);
      REQUIRE(collect_touching(bvh, sphere) == oracle_answer(scene, sphere));
      const Aabb box = make.box();
      REQUIRE(collect_touching(bvh, box) == oracle_answer(scene, box));
      const Plane plane = make.plane();
      INFO("plane " << plane.normal.x << ' ' << plane.normal.y << ' ' << plane.normal.z << " d "
                    << plane.d);
      REQUIRE(collect_touching(bvh, plane) == oracle_answer(scene, plane));
    }
  }
}

// Closest hits of `ray` with each kernel, on `bvh` and on it with ray leaves, and whether
// any_hit agrees.
std::vector<std::optional<float>> hits_with_each_kernel(const Bvh& bvh, const Ray& ray) {
  Bvh with_ray_leaves = bvh;
  refresh_ray_leaves(with_ray_leaves);
  std::vector<std::optional<float>> hits;
  for (const Bvh* tree : {&bvh, static_cast<const Bvh*>(&with_ray_leaves)})
    for (const detail::RayKernel kernel : ray_kernels()) {
      const auto hit = detail::closest_hit_with(kernel, *tree, ray);
      CHECK(detail::any_hit_with(kernel, *tree, ray) == hit.has_value());
      hits.push_back(hit ? std::optional<float>(hit->t) : std::nullopt);
    }
  return hits;
}

TEST_CASE("rays with a direction component whose reciprocal overflows still hit", "[bvh]") {
  {
    // A ray up the z axis drifting by 2^-130 along x meets the triangle in z = 1 at t = 1, at
    // x = 2^-130, inside its x range [2^-131, 1], which the ray enters at t = 0.5.
    const std::vector<Vec3> triangle{{0x1p-131f, -1, 1}, {1, -1, 1}, {0x1p-131f, 1, 1}};
    const Bvh bvh = build(TriangleSoup{triangle});
    const Ray ray{{0, 0, 0}, {0x1p-130f, 0, 1}};
    REQUIRE(intersect(ray, TriangleSoup{triangle}.triangle(0)).has_value());
    for (const auto& hit : hits_with_each_kernel(bvh, ray)) CHECK(hit == 1.0f);
  }
}

// Soups spanning more than 255 * 2^120 (about 3.4e38) on every axis, where the root's grid
// step must be so large that an upper face's product exceeds the float range (WideNode).
std::vector<Scene> float_range_scenes() {
  return {transformed(random_soup(300, 44), 0x1p124f, Vec3(0.0f), "_spanning"),
          transformed(lattice_soup(300, 45), 1.5f * 0x1p124f, Vec3(0.0f), "_spanning")};
}

// True when some used upper face of `bvh` has a product q * step beyond the float range.
bool has_overflowing_face(const Bvh& bvh) {
  for (const WideNode& node : bvh.wide)
    for (int axis = 0; axis < 3; ++axis)
      for (int lane = 0; lane < WideNode::width; ++lane)
        if ((node.used_mask() >> lane & 1u) != 0 &&
            double(node.faces[2 * axis + 1][lane]) * double(node.step(axis)) >
                double(std::numeric_limits<float>::max()))
          return true;
  return false;
}

TEST_CASE("queries over soups spanning the float range equal the exact oracle", "[bvh]") {
  for (const Scene& scene : float_range_scenes()) {
    INFO(scene.name);
    const TriangleSoup soup = scene.soup();
    const Bvh bvh = build(soup);
    REQUIRE_NOTHROW(validate(bvh, &soup));
    REQUIRE(has_overflowing_face(bvh));
    ExtremeQueries make{scene, std::mt19937_64(46), 1e38f};  // the extent overflows a float
    for (int q = 0; q < 40; ++q) {
      const Sphere sphere = make.sphere();  // the radius may overflow here: then not asked
      if (std::isfinite(sphere.radius))
        REQUIRE(collect_touching(bvh, sphere) == oracle_answer(scene, sphere));
      const Aabb box = make.box();
      REQUIRE(collect_touching(bvh, box) == oracle_answer(scene, box));
      const Plane plane = make.plane();  // d may overflow here: then the plane is not asked
      if (std::isfinite(plane.d))
        REQUIRE(collect_touching(bvh, plane) == oracle_answer(scene, plane));
      const Vec3 vertex = make.vertex();  // a plane along an axis through a vertex
      const Plane axis_plane{Vec3(0.0f, 1.0f, 0.0f), vertex.y};
      REQUIRE(collect_touching(bvh, axis_plane) == oracle_answer(scene, axis_plane));
      // A ray from one vertex towards another: the nearest exact hit over all triangles.
      const Vec3 from = make.vertex(), to = make.vertex();
      const Vec3 direction = to - from;
      if (!is_finite(direction) || direction == Vec3(0.0f)) continue;
      const Ray ray{from, direction};
      std::optional<float> nearest;
      for (std::size_t id = 0; id < soup.size(); ++id)
        if (const auto hit = intersect(ray, soup.triangle(id));
            hit && (!nearest || double(hit->t) < double(*nearest)))
          nearest = hit->t;
      for (const auto& hit : hits_with_each_kernel(bvh, ray)) CHECK(hit == nearest);
    }
    // Self pairs through a transform that swaps x and y (exact), against every pair.
    const Transform swap_xy{{0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0}};
    std::vector<TrianglePair> expected;
    for (std::size_t i = 0; i < soup.size(); ++i)
      for (std::size_t j = 0; j < soup.size(); ++j) {
        const Triangle t = soup.triangle(j);
        const Triangle mapped{swap_xy.apply(t.a), swap_xy.apply(t.b), swap_xy.apply(t.c)};
        if (intersects(soup.triangle(i), mapped))
          expected.push_back({TriangleId(i), TriangleId(j)});
      }
    CHECK(collect_intersecting_pairs(bvh, bvh, swap_xy) == expected);
  }
}

}  // namespace
}  // namespace trisect::testing
