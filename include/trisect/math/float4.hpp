#pragma once
/// \file
/// Four floats processed together: SSE on x86-64, plain arrays elsewhere. The one 4-lane
/// helper of the library: what the wide BVH traversals and the builder's box and bin
/// arithmetic need. Every operation rounds exactly like its scalar counterpart, so answers
/// never depend on the instruction set.

#include "trisect/math/vec.hpp"

#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace trisect {

#if defined(__SSE2__)

/// Four float lanes.
struct Float4 {
  __m128 v;

  /// Lanes p[0..3]; `p` 16-byte aligned.
  [[nodiscard]] static Float4 load(const float* p) noexcept { return {_mm_load_ps(p)}; }
  /// Lanes p[0..3]; any alignment.
  [[nodiscard]] static Float4 load_unaligned(const float* p) noexcept { return {_mm_loadu_ps(p)}; }
  /// Lanes p[0..2] and 0 in the fourth, whatever p[3] holds (such as an id whose bits would be
  /// a subnormal float and slow every operation on it); `p` 16-byte aligned.
  [[nodiscard]] static Float4 load_xyz(const float* p) noexcept {
    return {_mm_and_ps(_mm_load_ps(p), _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0)))};
  }
  /// Lanes x, y and z of `p` and 0 in the fourth; reads those three floats only.
  [[nodiscard]] static Float4 load_vec3(const Vec3& p) noexcept {
    // An unaligned 8-byte load (a Vec3 is 4-byte aligned; _mm_load_sd would want 8).
    const __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&p.x)));
    return {_mm_movelh_ps(xy, _mm_load_ss(&p.z))};
  }
  /// Lanes p[0..3] converted from unsigned bytes to floats (exactly); any alignment.
  [[nodiscard]] static Float4 from_bytes(const std::uint8_t* p) noexcept {
    std::int32_t four;
    std::memcpy(&four, p, sizeof four);
    const __m128i zero = _mm_setzero_si128();
    const __m128i words = _mm_unpacklo_epi8(_mm_cvtsi32_si128(four), zero);
    return {_mm_cvtepi32_ps(_mm_unpacklo_epi16(words, zero))};
  }
  /// `s` in every lane.
  [[nodiscard]] static Float4 splat(float s) noexcept { return {_mm_set1_ps(s)}; }
  /// Lanes a, b, c and d.
  [[nodiscard]] static Float4 lanes(float a, float b, float c, float d) noexcept {
    return {_mm_setr_ps(a, b, c, d)};
  }
  /// Lanes x, y, z and 0.
  [[nodiscard]] static Float4 xyz(float x, float y, float z) noexcept {
    return {_mm_setr_ps(x, y, z, 0.0f)};
  }
  /// Stores the four lanes at p[0..3] (any alignment).
  void store(float* p) const noexcept { _mm_storeu_ps(p, v); }
  /// Stores lanes x, y and z in `p`, writing those three floats only.
  void store_vec3(Vec3& p) const noexcept {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(&p.x), _mm_castps_si128(v));  // unaligned
    _mm_store_ss(&p.z, _mm_movehl_ps(v, v));
  }
};

inline Float4 operator+(Float4 a, Float4 b) noexcept { return {_mm_add_ps(a.v, b.v)}; }
inline Float4 operator-(Float4 a, Float4 b) noexcept { return {_mm_sub_ps(a.v, b.v)}; }
inline Float4 operator*(Float4 a, Float4 b) noexcept { return {_mm_mul_ps(a.v, b.v)}; }
/// Lane-wise max(a, b); where either is NaN, b (so a NaN in `a` is ignored).
inline Float4 max_ignoring_nan(Float4 a, Float4 b) noexcept { return {_mm_max_ps(a.v, b.v)}; }
/// Lane-wise min(a, b); where either is NaN, b (so a NaN in `a` is ignored).
inline Float4 min_ignoring_nan(Float4 a, Float4 b) noexcept { return {_mm_min_ps(a.v, b.v)}; }
/// Lane-wise |a|.
inline Float4 abs(Float4 a) noexcept {
  return {_mm_and_ps(a.v, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)))};
}
/// Bit i set where lane i of a <= b (false when either is NaN).
inline unsigned less_equal_mask(Float4 a, Float4 b) noexcept {
  return static_cast<unsigned>(_mm_movemask_ps(_mm_cmple_ps(a.v, b.v)));
}
/// Lanes a[I0], a[I1], a[I2] and a[I3].
template <int I0, int I1, int I2, int I3>
inline Float4 shuffle(Float4 a) noexcept {
  return {_mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(I3, I2, I1, I0))};
}
/// Bit i set where lane i of a < b (false when either is NaN).
inline unsigned less_mask(Float4 a, Float4 b) noexcept {
  return static_cast<unsigned>(_mm_movemask_ps(_mm_cmplt_ps(a.v, b.v)));
}
/// Bit i set where lane i of a == b (false when either is NaN; -0 equals +0).
inline unsigned equal_mask(Float4 a, Float4 b) noexcept {
  return static_cast<unsigned>(_mm_movemask_ps(_mm_cmpeq_ps(a.v, b.v)));
}
/// Lanes of `a` (each non-negative and below 2^31) truncated toward zero to integers.
inline void truncate_to_int(Float4 a, std::uint32_t (&out)[4]) noexcept {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvttps_epi32(a.v));
}
/// The 4 x 4 matrix whose rows are the four arguments, transposed in place: afterwards row r
/// holds lane r of each of the four rows before.
inline void transpose(Float4& r0, Float4& r1, Float4& r2, Float4& r3) noexcept {
  _MM_TRANSPOSE4_PS(r0.v, r1.v, r2.v, r3.v);
}

#else

/// Four float lanes.
struct Float4 {
  float v[4];

  /// Lanes p[0..3].
  [[nodiscard]] static Float4 load(const float* p) noexcept { return {{p[0], p[1], p[2], p[3]}}; }
  /// Lanes p[0..3]; any alignment.
  [[nodiscard]] static Float4 load_unaligned(const float* p) noexcept { return load(p); }
  /// Lanes p[0..2] and 0 in the fourth, whatever p[3] holds.
  [[nodiscard]] static Float4 load_xyz(const float* p) noexcept {
    return {{p[0], p[1], p[2], 0.0f}};
  }
  /// Lanes x, y and z of `p` and 0 in the fourth.
  [[nodiscard]] static Float4 load_vec3(const Vec3& p) noexcept { return {{p.x, p.y, p.z, 0.0f}}; }
  /// Lanes p[0..3] converted from unsigned bytes to floats (exactly).
  [[nodiscard]] static Float4 from_bytes(const std::uint8_t* p) noexcept {
    return {{float(p[0]), float(p[1]), float(p[2]), float(p[3])}};
  }
  /// `s` in every lane.
  [[nodiscard]] static Float4 splat(float s) noexcept { return {{s, s, s, s}}; }
  /// Lanes a, b, c and d.
  [[nodiscard]] static Float4 lanes(float a, float b, float c, float d) noexcept {
    return {{a, b, c, d}};
  }
  /// Lanes x, y, z and 0.
  [[nodiscard]] static Float4 xyz(float x, float y, float z) noexcept { return {{x, y, z, 0.0f}}; }
  /// Stores the four lanes at p[0..3].
  void store(float* p) const noexcept { std::memcpy(p, v, sizeof v); }
  /// Stores lanes x, y and z in `p`.
  void store_vec3(Vec3& p) const noexcept { p = Vec3(v[0], v[1], v[2]); }
};

namespace detail {
template <class F>
inline Float4 each_lane(Float4 a, Float4 b, F f) noexcept {
  return {{f(a.v[0], b.v[0]), f(a.v[1], b.v[1]), f(a.v[2], b.v[2]), f(a.v[3], b.v[3])}};
}
}  // namespace detail

inline Float4 operator+(Float4 a, Float4 b) noexcept {
  return detail::each_lane(a, b, [](float x, float y) { return x + y; });
}
inline Float4 operator-(Float4 a, Float4 b) noexcept {
  return detail::each_lane(a, b, [](float x, float y) { return x - y; });
}
inline Float4 operator*(Float4 a, Float4 b) noexcept {
  return detail::each_lane(a, b, [](float x, float y) { return x * y; });
}
/// Lane-wise max(a, b); where either is NaN, b (so a NaN in `a` is ignored).
inline Float4 max_ignoring_nan(Float4 a, Float4 b) noexcept {
  return detail::each_lane(a, b, [](float x, float y) { return x > y ? x : y; });
}
/// Lane-wise min(a, b); where either is NaN, b (so a NaN in `a` is ignored).
inline Float4 min_ignoring_nan(Float4 a, Float4 b) noexcept {
  return detail::each_lane(a, b, [](float x, float y) { return x < y ? x : y; });
}
/// Lane-wise |a|.
inline Float4 abs(Float4 a) noexcept {
  return detail::each_lane(a, a, [](float x, float) { return x < 0 ? -x : x; });
}
/// Lanes a[I0], a[I1], a[I2] and a[I3].
template <int I0, int I1, int I2, int I3>
inline Float4 shuffle(Float4 a) noexcept {
  return {{a.v[I0], a.v[I1], a.v[I2], a.v[I3]}};
}
/// Bit i set where lane i of a <= b (false when either is NaN).
inline unsigned less_equal_mask(Float4 a, Float4 b) noexcept {
  unsigned mask = 0;
  for (int i = 0; i < 4; ++i) mask |= (a.v[i] <= b.v[i] ? 1u : 0u) << i;
  return mask;
}
/// Bit i set where lane i of a < b (false when either is NaN).
inline unsigned less_mask(Float4 a, Float4 b) noexcept {
  unsigned mask = 0;
  for (int i = 0; i < 4; ++i) mask |= (a.v[i] < b.v[i] ? 1u : 0u) << i;
  return mask;
}
/// Bit i set where lane i of a == b (false when either is NaN; -0 equals +0).
inline unsigned equal_mask(Float4 a, Float4 b) noexcept {
  unsigned mask = 0;
  for (int i = 0; i < 4; ++i) mask |= (a.v[i] == b.v[i] ? 1u : 0u) << i;
  return mask;
}
/// Lanes of `a` (each non-negative and below 2^31) truncated toward zero to integers.
inline void truncate_to_int(Float4 a, std::uint32_t (&out)[4]) noexcept {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint32_t>(a.v[i]);
}
/// The 4 x 4 matrix whose rows are the four arguments, transposed in place: afterwards row r
/// holds lane r of each of the four rows before.
inline void transpose(Float4& r0, Float4& r1, Float4& r2, Float4& r3) noexcept {
  Float4* rows[4] = {&r0, &r1, &r2, &r3};
  for (int r = 0; r < 4; ++r)
    for (int c = r + 1; c < 4; ++c) std::swap(rows[r]->v[c], rows[c]->v[r]);
}

#endif

/// Lanes x, y and z of `a` (the fourth is dropped).
inline Vec3 to_vec3(Float4 a) noexcept {
  float lanes[4];
  a.store(lanes);
  return {lanes[0], lanes[1], lanes[2]};
}

}  // namespace trisect
