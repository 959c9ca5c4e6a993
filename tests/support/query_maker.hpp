#pragma once
/// \file
/// Seeded query shapes for the BVH query tests, drawn from a scene so that they meet it, and
/// often exactly on its vertices.

#include "support/random_cases.hpp"
#include "support/scenes.hpp"

#include <trisect/math/aabb.hpp>
#include <trisect/math/capsule.hpp>
#include <trisect/math/frustum.hpp>
#include <trisect/math/oriented_box.hpp>
#include <trisect/math/plane.hpp>
#include <trisect/math/sphere.hpp>

#include <glm/geometric.hpp>

#include <random>

namespace trisect::testing {

/// Query shapes drawn from a scene: boxes and spheres around (and with faces through) its
/// vertices, planes through its vertices with small-integer and random normals.
struct QueryMaker {
  const Scene& scene;
  std::mt19937_64 random;

  /// One of the scene's vertices, uniformly.
  Vec3 vertex() {
    return scene.positions[std::uniform_int_distribution<std::size_t>(
        0, scene.positions.size() - 1)(random)];
  }
  /// A non-zero vector with coordinates in -2..2.
  Vec3 small_integer_vector() {
    Vec3 v(0.0f);
    while (v == Vec3(0.0f))
      v = Vec3(float(lattice(random, -2, 2)), float(lattice(random, -2, 2)),
               float(lattice(random, -2, 2)));
    return v;
  }
  /// A box with faces through vertices, a slab or point on a vertex, or a box of about
  /// `size` around one.
  Aabb box(float size) {
    switch (lattice(random, 0, 3)) {
      case 0:
        return Aabb::from_corners(vertex(), vertex());  // faces through vertices
      case 1: {                                         // a slab through a vertex
        Vec3 a = vertex(), b = a + Vec3(size);
        b[lattice(random, 0, 2)] = a[lattice(random, 0, 2)];
        return Aabb::from_corners(a, b);
      }
      case 2: {
        const Vec3 p = vertex();
        return Aabb{p, p};
      }  // a point on a vertex
      default:
        return Aabb::from_center_extents(vertex(), Vec3(size * uniform(random, 0, 1)));
    }
  }
  /// A plane through a vertex (exactly, for small-integer normals).
  Plane plane() {
    const Vec3 normal =
        lattice(random, 0, 1) == 0
            ? small_integer_vector()
            : Vec3(uniform(random, -1, 1), uniform(random, -1, 1), uniform(random, -1, 1));
    const Vec3 p = vertex();
    // Through a vertex when the products are exact (small-integer normal on float vertex).
    return {normal, normal.x * p.x + normal.y * p.y + normal.z * p.z};
  }
  /// A ball about tangent to a vertex, or of radius up to `size` near one.
  Sphere sphere(float size) {
    const Vec3 center = vertex();
    if (lattice(random, 0, 1) == 0) {  // tangent-ish: radius is the distance to another vertex
      const Vec3 other = vertex();
      return {center, glm::length(other - center)};
    }
    return {center + Vec3(uniform(random, -size, size)), size * uniform(random, 0, 1)};
  }
  /// An oriented box centred on a vertex, with half extents up to `size` (one of them 0 a
  /// quarter of the time): small-integer axes (exact, so faces through other vertices happen)
  /// or a random rotation rounded to float.
  OrientedBox oriented_box(float size) {
    OrientedBox box;
    box.center = vertex();
    std::uniform_real_distribution<double> unit(-1, 1);
    do {
      if (lattice(random, 0, 1) == 0)
        for (Vec3& axis : box.axes) axis = small_integer_vector();
      else
        set_rotation(box.axes, unit(random), unit(random), unit(random), unit(random));
    } while (axes_orientation(box) == 0);
    for (int i = 0; i < 3; ++i) box.half_extents[i] = size * uniform(random, 0, 1);
    if (lattice(random, 0, 3) == 0) box.half_extents[lattice(random, 0, 2)] = 0;
    return box;
  }
  /// A camera's view frustum with its eye near a vertex, looking a random way, field of view
  /// 10 to 90 degrees, far plane at up to `size`; or the same with one side plane moved to pass
  /// exactly through another vertex (a tie: that vertex lies on the plane when the products
  /// are exact, otherwise just beside it).
  Frustum frustum(float size) {
    const Vec3 eye = vertex() + Vec3(uniform(random, -size, size), uniform(random, -size, size),
                                     uniform(random, -size, size)) *
                                    0.1f;
    Vec3 forward = vertex() - eye;  // towards another vertex, or any way when that is the eye
    if (!(glm::length(forward) > 0) || !is_finite(forward)) forward = small_integer_vector();
    Vec3 up = small_integer_vector();
    while (glm::length(glm::cross(forward, up)) < 1e-3f * glm::length(forward))
      up = small_integer_vector();
    const float fov = 0.17f + 1.4f * uniform(random, 0, 1);
    Frustum frustum = view_frustum(eye, forward, up, fov, 0.5f + uniform(random, 0, 1),
                                   0.01f * size, size * (0.2f + uniform(random, 0, 1)));
    if (lattice(random, 0, 2) == 0) {
      Plane& side = frustum.planes[lattice(random, 2, 5)];
      const Vec3 through = vertex();
      side.d = float(plane_value(Plane{side.normal, 0.0f}, through.x, through.y, through.z));
    }
    return frustum;
  }
  /// A capsule from a vertex: to another vertex (a segment through the mesh, often with radius
  /// 0 or tangent at a third vertex), or a short random axis of length and radius up to `size`.
  Capsule capsule(float size) {
    const Vec3 a = vertex();
    switch (lattice(random, 0, 3)) {
      case 0:
        return {a, vertex(), 0.0f};
      case 1: {  // tangent-ish: the radius is the distance from an end to a third vertex
        const Vec3 b = vertex();
        return {a, b, glm::length(vertex() - b)};
      }
      case 2:
        return {a, a, size * uniform(random, 0, 1)};  // a ball
      default:
        return {a,
                a + Vec3(uniform(random, -size, size), uniform(random, -size, size),
                         uniform(random, -size, size)),
                size * uniform(random, 0, 1)};
    }
  }
};

/// Length of the diagonal of the scene's bounds.
inline float scene_size(const Scene& scene) {
  Aabb bounds = Aabb::empty();
  for (const Vec3& p : scene.positions) bounds.extend(p);
  return glm::length(bounds.max - bounds.min);
}

}  // namespace trisect::testing
