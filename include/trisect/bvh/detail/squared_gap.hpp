#pragma once
/// \file
/// Conservative squared distances from a point to boxes in float, four boxes at a time: the
/// node and leaf pre-tests of the sphere query and of the nearest queries. Not part of the API
/// (installed because the sphere query is inline).
///
/// Each float difference, square and sum rounds by at most u = 2^-24 (relative) in the normal
/// range, and by at most half the smallest subnormal 2^-150 (absolute) where it underflows (a
/// difference or sum that lands there is exact), so a computed squared distance is within 5u
/// (relative) plus 5 * 2^-150 of the exact one. An overflow gives +inf, which is above every
/// finite threshold, while the exact value is then above FLT_MAX² / 4 too.

#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/float4.hpp"

namespace trisect::detail {

/// The square of the distance from `center` to [lower, upper] along one axis (0 within it),
/// lane by lane.
[[nodiscard]] inline Float4 squared_gap(Float4 lower, Float4 upper, Float4 center) noexcept {
  const Float4 gap =
      max_ignoring_nan(max_ignoring_nan(lower - center, center - upper), Float4::splat(0.0f));
  return gap * gap;
}

/// A float threshold no computed squared gap (above) exceeds when the exact squared distance
/// is at most `squared_distance`: raised by 1e-6 relative and 8 subnormal steps, rounded up.
[[nodiscard]] inline float touch_threshold(double squared_distance) noexcept {
  return float_at_least(squared_distance * (1 + 1e-6) + 8 * 0x1p-149);
}

}  // namespace trisect::detail
