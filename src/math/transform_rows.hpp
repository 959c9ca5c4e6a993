#pragma once
// The `Transform` rounding rule, inline for the files that apply it in bulk. Every includer
// must be compiled with -ffp-contract=off (see CMakeLists.txt): a fused multiply-add would
// round differently.

#include "trisect/math/transform.hpp"

namespace trisect::detail {

/// Row `r` of `transform` applied to `point` in double, rounded per operation.
[[nodiscard]] inline double transform_row(const Transform& transform, int r,
                                          const Vec3& point) noexcept {
  const float* row = transform.rows.data() + 4 * r;
  return ((double(row[0]) * double(point.x) + double(row[1]) * double(point.y)) +
          double(row[2]) * double(point.z)) +
         double(row[3]);
}

/// `Transform::apply`, inline.
[[nodiscard]] inline Vec3 transform_point(const Transform& transform, const Vec3& point) noexcept {
  return {static_cast<float>(transform_row(transform, 0, point)),
          static_cast<float>(transform_row(transform, 1, point)),
          static_cast<float>(transform_row(transform, 2, point))};
}

}  // namespace trisect::detail
