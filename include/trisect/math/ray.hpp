#pragma once
/// \file
/// Ray: the segment origin + t·direction for t in the closed interval [t_min, t_max].

#include "trisect/math/vec.hpp"

#include <limits>

namespace trisect {

/// The points origin + t·direction with t_min <= t <= t_max (closed at both ends). `direction`
/// need not be unit length; t is measured in multiples of it. A zero direction is invalid input.
/// t_min > t_max is valid and describes an empty ray that hits nothing.
struct Ray {
  Vec3 origin;                                           ///< Start point (t = 0).
  Vec3 direction;                                        ///< Non-zero direction vector.
  float t_min = 0;                                       ///< Smallest accepted t.
  float t_max = std::numeric_limits<float>::infinity();  ///< Largest accepted t (may be +inf).

  /// The point origin + t·direction, rounded to float.
  [[nodiscard]] Vec3 at(float t) const noexcept { return origin + t * direction; }

  friend bool operator==(const Ray&, const Ray&) = default;
};

}  // namespace trisect
