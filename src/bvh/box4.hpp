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
  /// `Aabb::half_area` of this box, rounded the same way (x·y + y·z, then + z·x) but kept in
  /// registers; only meaningful for a non-empty box.
  [[nodiscard]] float half_area() const noexcept {
#if defined(__SSE2__)
    const __m128 size = _mm_sub_ps(upper.v, lower.v);
    const __m128 products =
        _mm_mul_ps(size, _mm_shuffle_ps(size, size, _MM_SHUFFLE(3, 0, 2, 1)));  // xy yz zx
    const __m128 yz = _mm_shuffle_ps(products, products, _MM_SHUFFLE(1, 1, 1, 1));
    return _mm_cvtss_f32(_mm_add_ss(_mm_add_ss(products, yz), _mm_movehl_ps(products, products)));
#else
    return to_aabb().half_area();
#endif
  }
};

}  // namespace trisect::detail
