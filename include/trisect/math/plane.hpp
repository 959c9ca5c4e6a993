#pragma once
/// \file
/// Plane n·x = d.

#include "trisect/math/vec.hpp"

namespace trisect {

/// The plane {x : dot(normal, x) = d}, the convention of `dot(n, c) - d` in the classic
/// AABB–plane test. `normal` need not be unit length (it is never normalised, so no rounding is
/// introduced); a zero normal is invalid input (see `validate`).
struct Plane {
  Vec3 normal;  ///< Any non-zero vector perpendicular to the plane.
  float d = 0;  ///< Offset: the plane holds the points whose dot product with `normal` is d.

  friend bool operator==(const Plane&, const Plane&) = default;
};

/// Which side of a plane a point lies on, decided exactly.
enum class Side : int {
  below = -1,  ///< dot(normal, x) < d
  on = 0,      ///< dot(normal, x) = d exactly
  above = 1,   ///< dot(normal, x) > d
};

}  // namespace trisect
