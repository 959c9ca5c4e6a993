#pragma once
/// \file
/// Exact side of a point with respect to a plane.

#include "trisect/math/aabb.hpp"
#include "trisect/math/exact.hpp"
#include "trisect/math/plane.hpp"

#include <algorithm>
#include <cmath>

namespace trisect {

/// dot(normal, point) - d as a generic exact expression over lifted inputs (see exact.hpp);
/// `plane` and `point` must outlive the returned callable.
[[nodiscard]] inline auto plane_offset_expression(const Plane& plane, const Vec3& point) {
  return [&plane, &point](auto lift) {
    const Vec3& n = plane.normal;
    return lift(n.x) * lift(point.x) + lift(n.y) * lift(point.y) + lift(n.z) * lift(point.z) -
           lift(plane.d);
  };
}

/// The exact side of `point` relative to `plane`: the sign of dot(normal, point) - d as real
/// arithmetic on the given floats decides it (no rounding). A zero normal gives `Side::on` for
/// d = 0 and a constant side otherwise; reject it with `validate` before calling.
[[nodiscard]] inline Side classify(const Plane& plane, const Vec3& point) {
  return static_cast<Side>(exact::sign_of(plane_offset_expression(plane, point)));
}

/// dot(normal, point) - d to within a relative error of 2^-26 of the exact value (exactly 0
/// when the point is on the plane); see `exact::value_of`.
[[nodiscard]] inline double plane_offset(const Plane& plane, const Vec3& point) {
  return exact::value_of(plane_offset_expression(plane, point));
}

/// dot(normal, (x, y, z)) - d in double. Each product of two floats is exact in double; the
/// three additions round, so the error is at most gamma_3 = 3u / (1 - 3u) < 4u (u = 2^-53)
/// times the sum of the absolute terms (Higham, "Accuracy and Stability of Numerical
/// Algorithms", §3.1), which `plane_value_magnitude` bounds over a region.
[[nodiscard]] inline double plane_value(const Plane& plane, float x, float y, float z) noexcept {
  const Vec3& n = plane.normal;
  return double(n.x) * double(x) + double(n.y) * double(y) + double(n.z) * double(z) -
         double(plane.d);
}

/// sum over axes of |normal_i| max(|min_i|, |max_i|), plus |d|, computed in double: the sum
/// of the absolute terms of `plane_value` for any point of the non-empty `region`, up to the
/// rounding of this sum (a relative 2^-50 at most, which a caller's bound absorbs).
[[nodiscard]] inline double plane_value_magnitude(const Plane& plane, const Aabb& region) {
  double magnitude = std::fabs(double(plane.d));
  for (int axis = 0; axis < 3; ++axis) {
    const double extent =
        std::max(std::fabs(double(region.min[axis])), std::fabs(double(region.max[axis])));
    magnitude += std::fabs(double(plane.normal[axis])) * extent;
  }
  return magnitude;
}

/// The exact side of `point`, as `classify(plane, point)`, decided by `plane_value` when that
/// is farther from 0 than `error_bound`, and exactly otherwise. `error_bound` must bound the
/// error of `plane_value` at `point` (such as 4u times `plane_value_magnitude` over a region
/// holding it); then the answer is exact, and usually costs one double evaluation.
[[nodiscard]] inline Side classify(const Plane& plane, const Vec3& point, double error_bound) {
  const double computed = plane_value(plane, point.x, point.y, point.z);
  if (computed > error_bound) return Side::above;
  if (computed < -error_bound) return Side::below;
  return classify(plane, point);
}

}  // namespace trisect
