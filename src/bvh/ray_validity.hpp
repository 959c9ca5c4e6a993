#pragma once
// The ray check every ray query makes first, with the valid case decided inline: a ray is cheap
// to answer, and building `validate`'s message costs as much as a short traversal. Internal to
// the library.
#include "trisect/math/ray.hpp"
#include "trisect/math/validate.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cmath>

namespace trisect::detail {

/// True when `validate(ray)` would not throw: finite origin and direction, a non-zero
/// direction, t_min and t_max not NaN.
[[nodiscard]] inline bool is_valid(const Ray& ray) noexcept {
#if defined(__SSE2__)
  // The ray's eight floats in two registers: origin and direction must have exponent bits
  // that are not all ones (finite), t_min and t_max must be ordered (not NaN), and the
  // direction must have a non-zero lane.
  static_assert(sizeof(Ray) == 8 * sizeof(float));
  const float* values = &ray.origin.x;
  const __m128 low = _mm_loadu_ps(values);       // ox oy oz dx
  const __m128 high = _mm_loadu_ps(values + 4);  // dy dz t_min t_max
  const __m128i exponent = _mm_set1_epi32(0x7f800000);
  const auto all_ones = [&](__m128 v) {
    return _mm_movemask_ps(
        _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(v), exponent), exponent)));
  };
  const __m128 zero = _mm_setzero_ps();
  const int not_finite = all_ones(low) | (all_ones(high) & 0b0011);
  const int nan_t = _mm_movemask_ps(_mm_cmpunord_ps(high, high)) & 0b1100;
  const int zero_direction = (_mm_movemask_ps(_mm_cmpeq_ps(low, zero)) & 0b1000) |
                             (_mm_movemask_ps(_mm_cmpeq_ps(high, zero)) & 0b0011);
  return not_finite == 0 && nan_t == 0 && zero_direction != 0b1011;
#else
  return is_finite(ray.origin) && is_finite(ray.direction) && ray.direction != Vec3(0.0f) &&
         !std::isnan(ray.t_min) && !std::isnan(ray.t_max);
#endif
}

/// Throws like `validate(ray, what)` (`what` names the ray in the message); `what` is built
/// only for an invalid ray.
template <class What>
void require_valid(const Ray& ray, What&& what) {
  if (is_valid(ray)) [[likely]]
    return;
  validate(ray, what());
}

}  // namespace trisect::detail
