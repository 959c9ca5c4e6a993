#pragma once
/// \file
/// Outward rounding of a double to a float: the one home of the conversion that float filters
/// use to turn a bound proven in double into a float bound that still holds (the sphere query's
/// thresholds, the ray's culling distance, the mapped boxes of the mesh–mesh overlap).
/// Not part of the API (installed because the public sphere query is inline; no stability
/// promised).

#include <bit>
#include <cstdint>
#include <limits>

namespace trisect {
namespace detail {

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "outward rounding assumes IEEE 754 binary32 and binary64");

// Both functions convert x to float, which gives one of the two floats next to x (x itself
// when it is one; beyond the float range, ±FLT_MAX or ±inf, the infinities being floats), and
// step one float outwards when that one lies on the wrong side of x: the answer does not
// depend on which of the two the conversion picks (IEEE 754 picks the nearer). The step is
// +1 or -1 on the bits, without a branch, as whether x is a float is as good as random for
// the faces of the overlap's mapped boxes. A zero is never stepped the wrong way: x rounds to
// -0 only when x <= 0 and to +0 only when x >= 0 (the sign survives an underflow).

/// The smallest float >= `x`: `x` itself when it is a float, otherwise the float above it.
/// Beyond the float range: +inf for every `x` > FLT_MAX, -FLT_MAX for a finite `x` < -FLT_MAX,
/// -inf for -inf. NaN gives NaN. A constant expression for `x` within the float range.
[[nodiscard]] constexpr float float_at_least(double x) noexcept {
  const float nearest = static_cast<float>(x);
  const auto bits = std::bit_cast<std::uint32_t>(nearest);
  // Below x: +1 on the bits of a float >= +0, -1 on those of a negative one (-inf included).
  const std::uint32_t step = std::uint32_t(double(nearest) < x) * (1u - 2u * (bits >> 31));
  return std::bit_cast<float>(bits + step);
}

/// The largest float <= `x`: `x` itself when it is a float, otherwise the float below it.
/// Beyond the float range: -inf for every `x` < -FLT_MAX, FLT_MAX for a finite `x` > FLT_MAX,
/// +inf for +inf. NaN gives NaN. A constant expression for `x` within the float range. For
/// every `x` but NaN, -float_at_least(-x).
[[nodiscard]] constexpr float float_at_most(double x) noexcept {
  const float nearest = static_cast<float>(x);
  const auto bits = std::bit_cast<std::uint32_t>(nearest);
  // Above x: -1 on the bits of a float > +0 (+inf included), +1 on those of -0 or below.
  const std::uint32_t step = std::uint32_t(double(nearest) > x) * (2u * (bits >> 31) - 1u);
  return std::bit_cast<float>(bits + step);
}

}  // namespace detail
}  // namespace trisect
