#pragma once
/// \file
/// Capsule: the points within a distance of a segment.

#include "trisect/math/vec.hpp"

namespace trisect {

/// The closed set {x : distance(x, [a, b]) <= radius}, [a, b] the closed segment between the
/// two ends (a == b: the ball around a). Radius 0 is the segment itself (or the point a), so a
/// capsule of radius 0 asks which triangles a segment meets. Ends finite, radius finite and
/// >= 0 (see `validate`).
struct Capsule {
  Vec3 a{0.0f};      ///< One end of the axis segment.
  Vec3 b{0.0f};      ///< The other end.
  float radius = 0;  ///< Distance from the segment, >= 0.

  friend bool operator==(const Capsule&, const Capsule&) = default;
};

}  // namespace trisect
