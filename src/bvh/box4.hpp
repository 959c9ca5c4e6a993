#pragma once
// A box held in two 4-lane vectors (x, y, z, unused lane), for the builder's inner loops:
// extending by another box is one min and one max.

#include "trisect/math/aabb.hpp"
#include "trisect/math/float4.hpp"

#include <limits>

namespace trisect::detail {

/// A closed box in lanes; empty() has lower = +inf, upper = -inf.
struct Box4 {
  Float4 lower, upper;

  /// The box containing nothing.
  static Box4 empty() noexcept {
    return {Float4::splat(std::numeric_limits<float>::infinity()),
            Float4::splat(-std::numeric_limits<float>::infinity())};
  }
  /// Grows this box to contain `other`.
  void extend(const Box4& other) noexcept {
    lower = min_ignoring_nan(lower, other.lower);
    upper = max_ignoring_nan(upper, other.upper);
  }
  /// Grows this box to contain `point`.
  void extend(Float4 point) noexcept {
    lower = min_ignoring_nan(lower, point);
    upper = max_ignoring_nan(upper, point);
  }
  /// The same box as an `Aabb`.
  [[nodiscard]] Aabb to_aabb() const noexcept { return {to_vec3(lower), to_vec3(upper)}; }
  /// `Aabb::half_area` of this box; only meaningful for a non-empty box.
  [[nodiscard]] float half_area() const noexcept { return to_aabb().half_area(); }
};

}  // namespace trisect::detail
