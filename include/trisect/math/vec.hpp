#pragma once
/// \file
/// Positions and directions: trisect works in single-precision `glm::vec3` throughout.

#include <glm/vec3.hpp>

#include <cmath>

namespace trisect {

/// A position or direction in 3D, single precision. All geometry in trisect is given in floats
/// and decided as exact real arithmetic on those floats would decide it.
using Vec3 = glm::vec3;

/// True when every coordinate of `v` is finite (neither NaN nor ±infinity).
[[nodiscard]] inline bool is_finite(const Vec3& v) noexcept {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

/// Smallest of three floats.
[[nodiscard]] constexpr float min3(float a, float b, float c) noexcept {
  const float ab = a < b ? a : b;
  return ab < c ? ab : c;
}

/// Largest of three floats.
[[nodiscard]] constexpr float max3(float a, float b, float c) noexcept {
  const float ab = a > b ? a : b;
  return ab > c ? ab : c;
}

}  // namespace trisect
