#pragma once
/// \file
/// Triangle: the closed convex hull of three points.

#include "trisect/math/aabb.hpp"

namespace trisect {

/// The closed convex hull of `a`, `b`, `c`. A zero-area triangle (collinear or repeated
/// vertices) is the segment or point it spans; box, plane, sphere and overlap predicates still
/// treat it as that set.
struct Triangle {
  Vec3 a;  ///< First vertex.
  Vec3 b;  ///< Second vertex.
  Vec3 c;  ///< Third vertex.

  /// The tightest closed box containing the triangle.
  [[nodiscard]] Aabb bounds() const noexcept {
    return {Vec3(min3(a.x, b.x, c.x), min3(a.y, b.y, c.y), min3(a.z, b.z, c.z)),
            Vec3(max3(a.x, b.x, c.x), max3(a.y, b.y, c.y), max3(a.z, b.z, c.z))};
  }

  friend bool operator==(const Triangle&, const Triangle&) = default;
};

}  // namespace trisect
