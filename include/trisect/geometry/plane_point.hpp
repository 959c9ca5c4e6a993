#pragma once
/// \file
/// Exact side of a point with respect to a plane.

#include "trisect/math/exact.hpp"
#include "trisect/math/plane.hpp"

namespace trisect {

/// The exact side of `point` relative to `plane`: the sign of dot(normal, point) - d as real
/// arithmetic on the given floats decides it (no rounding). A zero normal gives `Side::on` for
/// d = 0 and a constant side otherwise; reject it with `validate` before calling.
[[nodiscard]] inline Side classify(const Plane& plane, const Vec3& point) {
  const Vec3& n = plane.normal;
  return static_cast<Side>(exact::sign_of([&](auto lift) {
    return lift(n.x) * lift(point.x) + lift(n.y) * lift(point.y) + lift(n.z) * lift(point.z) -
           lift(plane.d);
  }));
}

}  // namespace trisect
