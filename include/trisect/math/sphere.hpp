#pragma once
/// \file
/// Sphere: a closed ball.

#include "trisect/math/vec.hpp"

namespace trisect {

/// The closed ball {x : |x - center| <= radius}. A radius of 0 is the single point `center`;
/// a negative radius is invalid input (see `validate`).
struct Sphere {
  Vec3 center;       ///< Centre of the ball.
  float radius = 0;  ///< Radius, >= 0.

  friend bool operator==(const Sphere&, const Sphere&) = default;
};

}  // namespace trisect
