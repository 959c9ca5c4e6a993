#pragma once
/// \file
/// Exact ray–triangle intersection.

#include "trisect/geometry/detail/ray_parameter.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/triangle.hpp"
#include "trisect/math/triangle_group.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>

namespace trisect {

/// Where a ray meets a triangle: the point is (1 - u - v)·a + u·b + v·c = origin + t·direction.
struct RayTriangleHit {
  double t;        ///< Ray parameter, within [t_min, t_max] exactly.
  double t_error;  ///< |t - exact t| <= t_error = 2^-24·|t| (0 when the exact t is 0).
  float u;         ///< Barycentric weight of vertex b.
  float v;         ///< Barycentric weight of vertex c.
};

/// Per-ray constants of the test: the axis permutation and shear that map the ray to the z
/// axis (Woop, Benthin & Wald, "Watertight Ray/Triangle Intersection", JCGT 2013), in double.
struct RayShear {
  int kz;         ///< The direction's dominant axis; kx = (kz + 1) % 3, ky = (kz + 2) % 3.
  double sx, sy;  ///< d[kx] / d[kz] and d[ky] / d[kz], each rounded once; at most 1 in size.
  double along;   ///< d[kz], exactly.
  float float_sx, float_sy;  ///< sx and sy rounded to float, for the float pre-test.

  /// Constants for `ray`; the direction must be non-zero (any finite size: no reciprocal of
  /// a component is taken, so a direction of 1e-40 works like one of 1).
  [[nodiscard]] static RayShear of(const Ray& ray) noexcept {
    const float d[3] = {ray.direction.x, ray.direction.y, ray.direction.z};  // indexable
    const Vec3 magnitude = glm::abs(ray.direction);
    const int kz = magnitude.x >= magnitude.y ? (magnitude.x >= magnitude.z ? 0 : 2)
                                              : (magnitude.y >= magnitude.z ? 1 : 2);
    const int kx = (kz + 1) % 3, ky = (kz + 2) % 3;
    const double along = d[kz];
    const double sx = double(d[kx]) / along, sy = double(d[ky]) / along;
    return {kz, sx, sy, along, static_cast<float>(sx), static_cast<float>(sy)};
  }
};

namespace detail {

/// The exact test, for the triangles where the double fast path cannot decide (the ray
/// within a rounding error of an edge or a vertex, or t within one of a bound or of 0).
[[gnu::noinline, gnu::cold]] inline std::optional<RayTriangleHit> intersect_exactly(
    const Ray& ray, const Triangle& triangle) {
  const int u =
      exact::sign_of([&](auto lift) { return edge_function(ray, triangle.b, triangle.c, lift); });
  const int v =
      exact::sign_of([&](auto lift) { return edge_function(ray, triangle.c, triangle.a, lift); });
  const int w =
      exact::sign_of([&](auto lift) { return edge_function(ray, triangle.a, triangle.b, lift); });
  if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) return std::nullopt;
  // U + V + W = D: zero for a zero-area triangle and for a direction parallel to its plane.
  const double denominator = exact::value_of(
      [&](auto lift) { return hit_parameter_terms(ray, triangle, lift).denominator; });
  if (denominator == 0) return std::nullopt;
  const double t = exact_hit_parameter(ray, triangle);
  const double error = std::fabs(t) * hit_parameter_tolerance;
  if (!within_bounds(ray, triangle, t, error)) return std::nullopt;
  const double weight_b =
      exact::value_of([&](auto lift) { return edge_function(ray, triangle.c, triangle.a, lift); });
  const double weight_c =
      exact::value_of([&](auto lift) { return edge_function(ray, triangle.a, triangle.b, lift); });
  return RayTriangleHit{t, error, static_cast<float>(weight_b / denominator),
                        static_cast<float>(weight_c / denominator)};
}

/// `f(std::integral_constant<int, kz>{})`: the ray's dominant axis as a compile-time constant,
/// so that every coordinate of a test stays in a register. The same branch for every
/// triangle of a ray: predicted.
template <class F>
[[gnu::always_inline]] inline decltype(auto) along_axis(int kz, F&& f) {
  switch (kz) {
    case 0:
      return f(std::integral_constant<int, 0>{});
    case 1:
      return f(std::integral_constant<int, 1>{});
    default:
      return f(std::integral_constant<int, 2>{});
  }
}

/// The float pre-test: true when the ray's line certainly passes outside the triangle. The
/// same computation as `intersect_along` in float, with the same error bound for float's unit
/// roundoff. Float keeps every term of the bound normal only for m within [2^-40, 2^40];
/// outside it, the pre-test declines. Most triangles a ray's leaves hold are clear misses, and
/// this settles them at float speed.
template <int KZ>
[[nodiscard, gnu::always_inline]] inline bool clearly_misses(const Ray& ray, const RayShear& shear,
                                                             const Triangle& triangle) {
  constexpr int kx = (KZ + 1) % 3, ky = (KZ + 2) % 3;
  const Vec3 a = triangle.a - ray.origin, b = triangle.b - ray.origin, c = triangle.c - ray.origin;
  const float asx = a[kx] - shear.float_sx * a[KZ], asy = a[ky] - shear.float_sy * a[KZ];
  const float bsx = b[kx] - shear.float_sx * b[KZ], bsy = b[ky] - shear.float_sy * b[KZ];
  const float csx = c[kx] - shear.float_sx * c[KZ], csy = c[ky] - shear.float_sy * c[KZ];
  const float u = csx * bsy - csy * bsx, v = asx * csy - asy * csx, w = bsx * asy - bsy * asx;
  const Vec3 largest = glm::max(glm::max(glm::abs(a), glm::abs(b)), glm::abs(c));
  const float m = std::max({largest.x, largest.y, largest.z});
  const float sheared = std::max({std::fabs(asx), std::fabs(asy), std::fabs(bsx), std::fabs(bsy),
                                  std::fabs(csx), std::fabs(csy)});
  const float bound = 0x1p-19f * (m + sheared) * sheared + 0x1p-40f * (m * m);
  const bool some_below = u < -bound || v < -bound || w < -bound;
  const bool some_above = u > bound || v > bound || w > bound;
  return some_below && some_above && m >= 0x1p-40f && m <= 0x1p40f;
}

/// `clearly_misses` for the triangles of `group` at once: bit i set when triangle i is
/// certainly missed. Lane for lane the same float operations in the same order, so every bit
/// is what `clearly_misses` answers for its triangle; lanes past the group's count are clear.
template <int KZ>
[[nodiscard, gnu::always_inline]] inline unsigned clearly_missed(const Ray& ray,
                                                                 const RayShear& shear,
                                                                 const TriangleGroup& group) {
  constexpr int kx = (KZ + 1) % 3, ky = (KZ + 2) % 3;
  // Coordinate `axis` of one vertex of the four triangles, relative to the origin.
  const auto relative = [&](int vertex, int axis) {
    return group.lanes(vertex, axis) - Float4::splat(ray.origin[axis]);
  };
  const Float4 ax = relative(0, kx), ay = relative(0, ky), az = relative(0, KZ);
  const Float4 bx = relative(1, kx), by = relative(1, ky), bz = relative(1, KZ);
  const Float4 cx = relative(2, kx), cy = relative(2, ky), cz = relative(2, KZ);
  const Float4 shear_x = Float4::splat(shear.float_sx), shear_y = Float4::splat(shear.float_sy);
  const Float4 asx = ax - shear_x * az, asy = ay - shear_y * az;
  const Float4 bsx = bx - shear_x * bz, bsy = by - shear_y * bz;
  const Float4 csx = cx - shear_x * cz, csy = cy - shear_y * cz;
  const Float4 u = csx * bsy - csy * bsx, v = asx * csy - asy * csx, w = bsx * asy - bsy * asx;
  const auto largest = [](Float4 p, Float4 q, Float4 r) {
    return max_ignoring_nan(max_ignoring_nan(abs(p), abs(q)), abs(r));
  };
  const Float4 m = max_ignoring_nan(max_ignoring_nan(largest(ax, ay, az), largest(bx, by, bz)),
                                    largest(cx, cy, cz));
  const Float4 sheared = max_ignoring_nan(max_ignoring_nan(largest(asx, asy, bsx), abs(bsy)),
                                          largest(csx, csy, Float4::splat(0)));
  const Float4 bound =
      Float4::splat(0x1p-19f) * (m + sheared) * sheared + Float4::splat(0x1p-40f) * (m * m);
  const Float4 minus_bound = Float4::splat(0) - bound;
  const unsigned some_below =
      less_mask(u, minus_bound) | less_mask(v, minus_bound) | less_mask(w, minus_bound);
  const unsigned some_above = less_mask(bound, u) | less_mask(bound, v) | less_mask(bound, w);
  const unsigned in_range =
      less_equal_mask(Float4::splat(0x1p-40f), m) & less_equal_mask(m, Float4::splat(0x1p40f));
  return some_below & some_above & in_range & group.lane_mask();
}

/// The test with the permutation fixed at compile time (kz = KZ), so that every coordinate
/// stays in a register. In double: the vertices relative to the origin, sheared, give the
/// edge functions u, v, w of Woop et al. (the exact ones times 1 / d[kz]). With m the largest
/// coordinate of a vertex relative to the origin and S the largest sheared one, each sheared
/// coordinate errs by at most 4·eps·m + eps·S and each edge function by 16·eps·m·S + 8·eps·S²
/// + 64·eps²·m² (a forward error analysis, eps the unit roundoff); the bound used is twice
/// that, or more. Float inputs keep every value far from double underflow and overflow. Signs
/// that bound decides settle most triangles; the rest go to the exact test.
template <int KZ>
[[nodiscard, gnu::always_inline]] inline std::optional<RayTriangleHit> intersect_in_double(
    const Ray& ray, const RayShear& shear, const Triangle& triangle) {
  constexpr int kx = (KZ + 1) % 3, ky = (KZ + 2) % 3;
  const glm::dvec3 o(ray.origin), a = glm::dvec3(triangle.a) - o, b = glm::dvec3(triangle.b) - o,
                                  c = glm::dvec3(triangle.c) - o;
  const double ax = a[kx], ay = a[ky], az = a[KZ];
  const double bx = b[kx], by = b[ky], bz = b[KZ];
  const double cx = c[kx], cy = c[ky], cz = c[KZ];
  const double asx = ax - shear.sx * az, asy = ay - shear.sy * az;
  const double bsx = bx - shear.sx * bz, bsy = by - shear.sy * bz;
  const double csx = cx - shear.sx * cz, csy = cy - shear.sy * cz;
  const double u = csx * bsy - csy * bsx, v = asx * csy - asy * csx, w = bsx * asy - bsy * asx;
  const double m =
      std::max({std::fabs(ax), std::fabs(ay), std::fabs(az), std::fabs(bx), std::fabs(by),
                std::fabs(bz), std::fabs(cx), std::fabs(cy), std::fabs(cz)});
  const double sheared = std::max({std::fabs(asx), std::fabs(asy), std::fabs(bsx), std::fabs(bsy),
                                   std::fabs(csx), std::fabs(csy)});
  const double bound = 0x1p-48 * (m + sheared) * sheared + 0x1p-98 * (m * m);
  const bool some_below = u < -bound || v < -bound || w < -bound;
  const bool some_above = u > bound || v > bound || w > bound;
  if (some_below && some_above) return std::nullopt;  // the line passes outside, exactly
  const bool all_below = u < -bound && v < -bound && w < -bound;
  const bool all_above = u > bound && v > bound && w > bound;
  if (!all_below && !all_above) return intersect_exactly(ray, triangle);
  // Strictly inside: the determinant, with all three signs alike, cannot cancel.
  const double determinant = u + v + w;
  const double numerator = u * az + v * bz + w * cz;
  const double magnitude = std::fabs(determinant);
  const double numerator_error = m * (3 * bound + 0x1p-50 * magnitude);
  const double determinant_error = 3 * bound + 0x1p-52 * magnitude;
  // Near-cancelling terms (t near 0, a glancing ray): the exact test gives t and the weights.
  if (numerator_error > 0x1p-26 * std::fabs(numerator) || determinant_error > 0x1p-26 * magnitude)
    return intersect_exactly(ray, triangle);
  const double t = numerator / (determinant * shear.along);
  const double error = std::fabs(t) * hit_parameter_tolerance;
  if (!within_bounds(ray, triangle, t, error)) return std::nullopt;
  return RayTriangleHit{t, error, static_cast<float>(v / determinant),
                        static_cast<float>(w / determinant)};
}

/// The float pre-test, then the double test and the exact one where needed.
template <int KZ>
[[nodiscard, gnu::always_inline]] inline std::optional<RayTriangleHit> intersect_along(
    const Ray& ray, const RayShear& shear, const Triangle& triangle) {
  if (clearly_misses<KZ>(ray, shear, triangle)) return std::nullopt;
  return intersect_in_double<KZ>(ray, shear, triangle);
}

}  // namespace detail

/// The hit of `ray` with `triangle` for t in the closed interval [t_min, t_max], or nothing,
/// exactly as real arithmetic on the floats decides: the closed triangle (edges and vertices
/// included, so a ray through a shared edge or vertex hits there: watertight), the closed
/// interval, both faces. Zero-area triangles and triangles whose plane is parallel to the
/// direction (the ray in that plane too) are never hit. t is the exact parameter to within
/// 2^-24 of it (0 when it is 0); u and v are the weights of b and c, rounded. A double fast
/// path with a proven error bound decides almost every triangle; exact arithmetic the rest.
/// Always inlined: it is the inner loop of the ray kernels, compiled for each instruction set.
[[nodiscard, gnu::always_inline]] inline std::optional<RayTriangleHit> intersect(
    const Ray& ray, const RayShear& shear, const Triangle& triangle) {
  return detail::along_axis(
      shear.kz, [&](auto kz) { return detail::intersect_along<kz()>(ray, shear, triangle); });
}

/// For the triangles of `group`, four at a time: bit i set when triangle i may be hit, that is
/// when the float pre-test of `intersect` cannot rule it out. The triangles of a bit then go
/// to `intersect_possible`; together the two answer exactly as `intersect` does, triangle by
/// triangle.
[[nodiscard, gnu::always_inline]] inline unsigned possible_hits(const Ray& ray,
                                                                const RayShear& shear,
                                                                const TriangleGroup& group) {
  return detail::along_axis(shear.kz, [&](auto kz) {
    return group.lane_mask() & ~detail::clearly_missed<kz()>(ray, shear, group);
  });
}

/// `intersect` for a triangle whose bit `possible_hits` set (its pre-test is not repeated).
[[nodiscard, gnu::always_inline]] inline std::optional<RayTriangleHit> intersect_possible(
    const Ray& ray, const RayShear& shear, const Triangle& triangle) {
  return detail::along_axis(
      shear.kz, [&](auto kz) { return detail::intersect_in_double<kz()>(ray, shear, triangle); });
}

/// Convenience form that computes the shear constants itself.
[[nodiscard]] inline std::optional<RayTriangleHit> intersect(const Ray& ray,
                                                             const Triangle& triangle) {
  return intersect(ray, RayShear::of(ray), triangle);
}

}  // namespace trisect
