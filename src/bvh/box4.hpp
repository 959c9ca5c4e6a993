#pragma once
// A box held in two 4-lane float vectors (x, y, z, unused lane), for the builder's inner loops:
// extending by another box is one min and one max. SSE2 on x86-64, plain arrays elsewhere.

#include "trisect/math/aabb.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace trisect::detail {

#if defined(__SSE2__)
using Lanes = __m128;
inline Lanes lanes(float x, float y, float z) { return _mm_setr_ps(x, y, z, 0.0f); }
inline Lanes splat(float v) { return _mm_set1_ps(v); }
inline Lanes load(const float* p) { return _mm_load_ps(p); }
inline Lanes min(Lanes a, Lanes b) { return _mm_min_ps(a, b); }
inline Lanes max(Lanes a, Lanes b) { return _mm_max_ps(a, b); }  // b when a is NaN
inline Lanes add(Lanes a, Lanes b) { return _mm_add_ps(a, b); }
inline Lanes sub(Lanes a, Lanes b) { return _mm_sub_ps(a, b); }
inline Lanes mul(Lanes a, Lanes b) { return _mm_mul_ps(a, b); }
inline void store(float* p, Lanes a) { _mm_storeu_ps(p, a); }
/// Lanes x, y, z of `p`, and 0 in the fourth (which may hold other data, such as an id whose
/// bits would be a subnormal float and slow every arithmetic operation on it).
inline Lanes load_xyz(const float* p) {
  return _mm_and_ps(_mm_load_ps(p), _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)));
}
/// Lanes of `a` (non-negative, finite) truncated to integers.
inline void truncate_to_int(Lanes a, std::uint32_t (&out)[4]) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvttps_epi32(a));
}
#else
struct Lanes {
  float v[4];
};
inline Lanes lanes(float x, float y, float z) { return {{x, y, z, 0.0f}}; }
inline Lanes splat(float s) { return {{s, s, s, s}}; }
inline Lanes load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
template <class F>
inline Lanes each(Lanes a, Lanes b, F f) {
  return {{f(a.v[0], b.v[0]), f(a.v[1], b.v[1]), f(a.v[2], b.v[2]), f(a.v[3], b.v[3])}};
}
inline Lanes min(Lanes a, Lanes b) {
  return each(a, b, [](float x, float y) { return x < y ? x : y; });
}
inline Lanes max(Lanes a, Lanes b) {
  return each(a, b, [](float x, float y) { return x > y ? x : y; });
}
inline Lanes add(Lanes a, Lanes b) {
  return each(a, b, [](float x, float y) { return x + y; });
}
inline Lanes sub(Lanes a, Lanes b) {
  return each(a, b, [](float x, float y) { return x - y; });
}
inline Lanes mul(Lanes a, Lanes b) {
  return each(a, b, [](float x, float y) { return x * y; });
}
inline void store(float* p, Lanes a) { std::memcpy(p, a.v, sizeof a.v); }
inline Lanes load_xyz(const float* p) { return {{p[0], p[1], p[2], 0.0f}}; }
inline void truncate_to_int(Lanes a, std::uint32_t (&out)[4]) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint32_t>(a.v[i]);
}
#endif

/// The three used lanes of `a`.
inline Vec3 to_vec3(Lanes a) {
  float v[4];
  store(v, a);
  return {v[0], v[1], v[2]};
}

/// A closed box in lanes; empty() has lower = +inf, upper = -inf.
struct Box4 {
  Lanes lower, upper;

  static Box4 empty() {
    return {splat(std::numeric_limits<float>::infinity()),
            splat(-std::numeric_limits<float>::infinity())};
  }
  void extend(const Box4& other) {
    lower = min(lower, other.lower);
    upper = max(upper, other.upper);
  }
  void extend(Lanes point) {
    lower = min(lower, point);
    upper = max(upper, point);
  }
  [[nodiscard]] Aabb to_aabb() const { return {to_vec3(lower), to_vec3(upper)}; }
  /// Half the surface area; only meaningful for a non-empty box.
  [[nodiscard]] float half_area() const {
    const Vec3 size = to_vec3(sub(upper, lower));
    return size.x * size.y + size.y * size.z + size.z * size.x;
  }
};

}  // namespace trisect::detail
