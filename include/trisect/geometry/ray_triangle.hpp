#pragma once
/// \file
/// Watertight ray–triangle intersection.

#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/triangle.hpp"

#include <cmath>
#include <optional>

namespace trisect {

/// Where a ray meets a triangle: the point is (1 - u - v)·a + u·b + v·c = origin + t·direction.
struct RayTriangleHit {
  float t;  ///< Ray parameter, within [t_min, t_max].
  float u;  ///< Barycentric weight of vertex b.
  float v;  ///< Barycentric weight of vertex c.
};

/// Per-ray constants of the watertight test: the axis permutation and shear that map the ray
/// to the z axis (Woop, Benthin & Wald, "Watertight Ray/Triangle Intersection", JCGT 2013).
/// The permutation is the cyclic one that ends on the direction's dominant axis kz; the paper
/// also swaps x and y when the direction along kz is negative, to keep front faces positive,
/// which negates every edge function exactly and so changes no answer of a two-sided test.
struct RayShear {
  int kz;            ///< The direction's dominant axis; kx = (kz + 1) % 3, ky = (kz + 2) % 3.
  float sx, sy, sz;  ///< Shear constants.

  /// Constants for `ray`; the direction must be non-zero.
  [[nodiscard]] static RayShear of(const Ray& ray) noexcept {
    const float d[3] = {ray.direction.x, ray.direction.y, ray.direction.z};  // indexable
    const Vec3 magnitude = glm::abs(ray.direction);
    const int kz = magnitude.x >= magnitude.y ? (magnitude.x >= magnitude.z ? 0 : 2)
                                              : (magnitude.y >= magnitude.z ? 1 : 2);
    const int kx = (kz + 1) % 3, ky = (kz + 2) % 3;
    // One division: shear constants scaled by the reciprocal instead of divided. Any values
    // keep the test watertight, as long as every triangle of the ray sees the same ones.
    const float reciprocal = 1.0f / d[kz];
    return {kz, d[kx] * reciprocal, d[ky] * reciprocal, reciprocal};
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

namespace detail {

/// The watertight test with the permutation fixed at compile time (kz = KZ), so that every
/// coordinate stays in a register.
template <int KZ>
[[nodiscard, gnu::always_inline]] inline std::optional<RayTriangleHit> intersect_along(
    const Ray& ray, const RayShear& shear, const Triangle& triangle) {
  constexpr int kx = (KZ + 1) % 3, ky = (KZ + 2) % 3;
  const Vec3 a = triangle.a - ray.origin, b = triangle.b - ray.origin, c = triangle.c - ray.origin;
  const float ax = a[kx] - shear.sx * a[KZ], ay = a[ky] - shear.sy * a[KZ];
  const float bx = b[kx] - shear.sx * b[KZ], by = b[ky] - shear.sy * b[KZ];
  const float cx = c[kx] - shear.sx * c[KZ], cy = c[ky] - shear.sy * c[KZ];
  float u = cx * by - cy * bx, v = ax * cy - ay * cx, w = bx * ay - by * ax;
  if (u == 0 || v == 0 || w == 0) {
    u = static_cast<float>(double(cx) * double(by) - double(cy) * double(bx));
    v = static_cast<float>(double(ax) * double(cy) - double(ay) * double(cx));
    w = static_cast<float>(double(bx) * double(ay) - double(by) * double(ax));
  }
  if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) return std::nullopt;
  const float determinant = u + v + w;
  if (determinant == 0) return std::nullopt;
  const float scaled_t = shear.sz * (u * a[KZ] + v * b[KZ] + w * c[KZ]);
  const float t = scaled_t / determinant;
  if (!(t >= ray.t_min && t <= ray.t_max)) return std::nullopt;
  if (is_parallel(triangle, ray.direction)) return std::nullopt;
  return RayTriangleHit{t, v / determinant, w / determinant};
}

}  // namespace detail

/// The hit of `ray` with `triangle` for t in the closed interval [t_min, t_max], or nothing.
/// Watertight (Woop, Benthin & Wald 2013): a ray through a shared edge or vertex of two
/// triangles hits at least one of them; the edge functions fall back to double precision when
/// a float one is exactly zero. Zero-area triangles and triangles whose plane contains the
/// ray's direction are never hit (decided exactly). Both faces count. Always inlined: it is
/// the inner loop of the ray kernels, and each kernel compiles it for its own instruction set.
[[nodiscard, gnu::always_inline]] inline std::optional<RayTriangleHit> intersect(
    const Ray& ray, const RayShear& shear, const Triangle& triangle) {
  switch (shear.kz) {  // the same branch for every triangle of a ray: predicted
    case 0:
      return detail::intersect_along<0>(ray, shear, triangle);
    case 1:
      return detail::intersect_along<1>(ray, shear, triangle);
    default:
      return detail::intersect_along<2>(ray, shear, triangle);
  }
}

/// Convenience form that computes the shear constants itself.
[[nodiscard]] inline std::optional<RayTriangleHit> intersect(const Ray& ray,
                                                             const Triangle& triangle) {
  return intersect(ray, RayShear::of(ray), triangle);
}

}  // namespace trisect
