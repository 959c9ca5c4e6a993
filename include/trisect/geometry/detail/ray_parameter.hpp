#pragma once
/// \file
/// The exact pieces of the ray–triangle test, used where the double fast path of
/// ray_triangle.hpp cannot decide: the edge functions as triple products, the hit parameter
/// t = N / D, its comparison with the ray's bounds and with another triangle's t. Not part of
/// the API (installed because the public test is inline; no stability promised).
///
/// With A = a - o, B = b - o, C = c - o (o the ray's origin, d its direction) the line
/// o + t·d meets the closed triangle exactly when U = d·(B×C), V = d·(C×A), W = d·(A×B) have
/// no two of strictly opposite signs; U + V + W = D = n·d with n = (b - a)×(c - a), and the
/// point is (U·a + V·b + W·c) / D at t = N / D with N = n·A (Möller & Trumbore, "Fast, Minimum
/// Storage Ray/Triangle Intersection", 1997, in its triple-product form). All are polynomials
/// in the input floats, evaluated by `exact::sign_of` / `exact::value_of`.

#include "trisect/geometry/triangle_normal.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/ray.hpp"
#include "trisect/math/triangle.hpp"

#include <cmath>

namespace trisect::detail {

/// The expressions N = n·(a - o) and D = n·d of the ray's line and a triangle, generic over
/// the lifted number type: the line meets the triangle's plane at t = N / D.
template <class Lift>
[[nodiscard]] auto hit_parameter_terms(const Ray& ray, const Triangle& t, const Lift& lift) {
  const auto n = triangle_normal(t, lift);
  const auto n_dot_a = n.x * (lift(t.a.x) - lift(ray.origin.x)) +
                       n.y * (lift(t.a.y) - lift(ray.origin.y)) +
                       n.z * (lift(t.a.z) - lift(ray.origin.z));
  const auto n_dot_d =
      n.x * lift(ray.direction.x) + n.y * lift(ray.direction.y) + n.z * lift(ray.direction.z);
  struct Terms {
    decltype(n_dot_a) numerator;
    decltype(n_dot_d) denominator;
  };
  return Terms{n_dot_a, n_dot_d};
}

/// d·((p - o)×(q - o)): the exact edge function of the ray for the edge from p to q, up to a
/// factor common to a triangle's three edges.
template <class Lift>
[[nodiscard]] auto edge_function(const Ray& ray, const Vec3& p, const Vec3& q, const Lift& lift) {
  const auto px = lift(p.x) - lift(ray.origin.x), py = lift(p.y) - lift(ray.origin.y),
             pz = lift(p.z) - lift(ray.origin.z);
  const auto qx = lift(q.x) - lift(ray.origin.x), qy = lift(q.y) - lift(ray.origin.y),
             qz = lift(q.z) - lift(ray.origin.z);
  return lift(ray.direction.x) * (py * qz - pz * qy) + lift(ray.direction.y) * (pz * qx - px * qz) +
         lift(ray.direction.z) * (px * qy - py * qx);
}

/// Relative error bound of every t this test reports: |t - exact t| <= 2^-24·|t|.
inline constexpr double hit_parameter_tolerance = 0x1p-24;

/// t = N / D to within a relative 2^-25 (exactly +0 when N is 0, never -0); D must be non-zero.
[[nodiscard]] inline double exact_hit_parameter(const Ray& ray, const Triangle& triangle) {
  const double numerator = exact::value_of(
      [&](auto lift) { return hit_parameter_terms(ray, triangle, lift).numerator; });
  const double denominator = exact::value_of(
      [&](auto lift) { return hit_parameter_terms(ray, triangle, lift).denominator; });
  return numerator / denominator + 0.0;  // 0 / -D is -0; adding +0 makes it +0
}

/// Exact: bound <= N / D when `lower`, N / D <= bound otherwise, for a finite `bound` and a
/// triangle whose D is non-zero.
[[nodiscard]] inline bool exactly_within(const Ray& ray, const Triangle& triangle, float bound,
                                         bool lower) {
  const int denominator_sign = exact::sign_of(
      [&](auto lift) { return hit_parameter_terms(ray, triangle, lift).denominator; });
  const int difference_sign = exact::sign_of([&](auto lift) {  // sign of N - bound·D
    const auto terms = hit_parameter_terms(ray, triangle, lift);
    return terms.numerator - lift(bound) * terms.denominator;
  });
  const int side = difference_sign * denominator_sign;  // sign of N / D - bound
  return lower ? side >= 0 : side <= 0;
}

/// Exact: t_min <= N / D <= t_max, given t, an approximation of N / D with |t - N / D| <=
/// `error`. Only when a bound lies within `error` of t is the comparison made exactly (an
/// infinite bound never does).
[[nodiscard]] inline bool within_bounds(const Ray& ray, const Triangle& triangle, double t,
                                        double error) {
  const double t_min = ray.t_min, t_max = ray.t_max;
  if (t + error < t_min || t - error > t_max) return false;
  if (t - error < t_min && !exactly_within(ray, triangle, ray.t_min, true)) return false;
  if (t + error > t_max && !exactly_within(ray, triangle, ray.t_max, false)) return false;
  return true;
}

/// The exact sign of N2 / D2 - N1 / D1: which of two triangles the ray's line meets first.
/// Both D must be non-zero. Cold: called only when the two approximations of t overlap.
[[gnu::noinline, gnu::cold]] inline int compare_exact_parameters(const Ray& ray,
                                                                 const Triangle& first,
                                                                 const Triangle& second) {
  const auto denominator_sign = [&](const Triangle& t) {
    return exact::sign_of([&](auto lift) { return hit_parameter_terms(ray, t, lift).denominator; });
  };
  const int cross_sign = exact::sign_of([&](auto lift) {  // N2·D1 - N1·D2
    const auto one = hit_parameter_terms(ray, first, lift);
    const auto two = hit_parameter_terms(ray, second, lift);
    return two.numerator * one.denominator - one.numerator * two.denominator;
  });
  return cross_sign * denominator_sign(first) * denominator_sign(second);
}

}  // namespace trisect::detail
