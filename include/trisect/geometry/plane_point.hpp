#pragma once
/// \file
/// Exact side of a point with respect to a plane.

#include "trisect/math/exact.hpp"
#include "trisect/math/plane.hpp"

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

}  // namespace trisect
