#pragma once
/// \file
/// Watertight ray–triangle intersection.

#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/triangle.hpp"

#include <cmath>
#include <optional>
#include <utility>

namespace trisect {

/// Where a ray meets a triangle: the point is (1 - u - v)·a + u·b + v·c = origin + t·direction.
struct RayTriangleHit {
  float t;  ///< Ray parameter, within [t_min, t_max].
  float u;  ///< Barycentric weight of vertex b.
  float v;  ///< Barycentric weight of vertex c.
};

/// Per-ray constants of the watertight test: the axis permutation and shear that map the ray
/// to the +z axis (Woop, Benthin & Wald, "Watertight Ray/Triangle Intersection", JCGT 2013).
struct RayShear {
  int kx, ky, kz;    ///< Permuted axes; kz is the direction's dominant axis.
  float sx, sy, sz;  ///< Shear constants.

  /// Constants for `ray`; the direction must be non-zero.
  [[nodiscard]] static RayShear of(const Ray& ray) noexcept {
    const float d[3] = {ray.direction.x, ray.direction.y, ray.direction.z};  // indexable
    const Vec3 magnitude = glm::abs(ray.direction);
    int kz = magnitude.x >= magnitude.y ? (magnitude.x >= magnitude.z ? 0 : 2)
                                        : (magnitude.y >= magnitude.z ? 1 : 2);
    int kx = (kz + 1) % 3, ky = (kx + 1) % 3;
    if (d[kz] < 0) std::swap(kx, ky);
    return {kx, ky, kz, d[kx] / d[kz], d[ky] / d[kz], 1.0f / d[kz]};
  }
};

namespace detail {

/// Exact: the ray direction is parallel to the triangle's plane, or the triangle has zero area
/// (then its normal is zero). Either way the ray does not hit it.
[[nodiscard]] inline bool is_parallel(const Triangle& t, const Vec3& direction) {
  return exact::sign_of([&](auto lift) {
           const auto n = triangle_normal(t, lift);
           return n.x * lift(direction.x) + n.y * lift(direction.y) + n.z * lift(direction.z);
         }) == 0;
}

}  // namespace detail

/// The hit of `ray` with `triangle` for t in the closed interval [t_min, t_max], or nothing.
/// Watertight (Woop, Benthin & Wald 2013): a ray through a shared edge or vertex of two
/// triangles hits at least one of them; the edge functions fall back to double precision when
/// a float one is exactly zero. Zero-area triangles and triangles whose plane contains the
/// ray's direction are never hit (decided exactly). Both faces count.
[[nodiscard]] inline std::optional<RayTriangleHit> intersect(const Ray& ray, const RayShear& shear,
                                                             const Triangle& triangle) {
  // Vertices relative to the origin, as arrays: indexing a glm vector by a run-time axis is
  // a switch, indexing an array is one load.
  float a[3], b[3], c[3];
  for (int axis = 0; axis < 3; ++axis) {
    a[axis] = triangle.a[axis] - ray.origin[axis];
    b[axis] = triangle.b[axis] - ray.origin[axis];
    c[axis] = triangle.c[axis] - ray.origin[axis];
  }
  const float ax = a[shear.kx] - shear.sx * a[shear.kz], ay = a[shear.ky] - shear.sy * a[shear.kz];
  const float bx = b[shear.kx] - shear.sx * b[shear.kz], by = b[shear.ky] - shear.sy * b[shear.kz];
  const float cx = c[shear.kx] - shear.sx * c[shear.kz], cy = c[shear.ky] - shear.sy * c[shear.kz];
  float u = cx * by - cy * bx, v = ax * cy - ay * cx, w = bx * ay - by * ax;
  if (u == 0 || v == 0 || w == 0) {
    u = static_cast<float>(double(cx) * double(by) - double(cy) * double(bx));
    v = static_cast<float>(double(ax) * double(cy) - double(ay) * double(cx));
    w = static_cast<float>(double(bx) * double(ay) - double(by) * double(ax));
  }
  if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) return std::nullopt;
  const float determinant = u + v + w;
  if (determinant == 0) return std::nullopt;
  const float scaled_t = shear.sz * (u * a[shear.kz] + v * b[shear.kz] + w * c[shear.kz]);
  const float t = scaled_t / determinant;
  if (!(t >= ray.t_min && t <= ray.t_max)) return std::nullopt;
  if (detail::is_parallel(triangle, ray.direction)) return std::nullopt;
  return RayTriangleHit{t, v / determinant, w / determinant};
}

/// Convenience form that computes the shear constants itself.
[[nodiscard]] inline std::optional<RayTriangleHit> intersect(const Ray& ray,
                                                             const Triangle& triangle) {
  return intersect(ray, RayShear::of(ray), triangle);
}

}  // namespace trisect
