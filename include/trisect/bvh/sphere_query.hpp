#pragma once
/// \file
/// Which triangles touch a closed ball.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/sphere_triangle.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>

namespace trisect {

/// The traversal's view of a closed ball. Node tests are conservative in double precision
/// (they only decide which subtrees to visit or accept whole); leaves are decided exactly.
struct SphereQuery {
  Sphere sphere;  ///< Finite centre, finite radius >= 0.

  /// False only when the box is certainly farther than the radius. The squared distance in
  /// double has relative error below 8u; the slack 1e-12 covers it.
  [[nodiscard]] bool may_touch(const Aabb& node) const noexcept {
    double distance2 = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const double c = sphere.center[axis];
      const double gap = std::max({double(node.min[axis]) - c, 0.0, c - double(node.max[axis])});
      distance2 += gap * gap;
    }
    return distance2 <= radius2() * (1.0 + 1e-12);
  }

  /// True only when every corner of the box is certainly within the radius.
  [[nodiscard]] bool contains(const Aabb& node) const noexcept {
    double distance2 = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const double c = sphere.center[axis];
      const double reach = std::max(c - double(node.min[axis]), double(node.max[axis]) - c);
      distance2 += reach * reach;
    }
    return distance2 * (1.0 + 1e-12) <= radius2();
  }

  [[nodiscard]] bool touches(const Triangle& triangle) const {
    return intersects(triangle, sphere);
  }

 private:
  [[nodiscard]] double radius2() const noexcept {
    return double(sphere.radius) * double(sphere.radius);  // exact: 48 bits
  }
};

/// The query for `sphere`. A radius of +inf is accepted: the ball is all of space and every
/// triangle touches it (the traversal then reports the root whole, testing nothing). Throws
/// `InvalidInput` for a non-finite centre, a NaN or negative radius.
[[nodiscard]] inline SphereQuery make_query(const Bvh&, const Sphere& sphere) {
  validate(Sphere{sphere.center, std::isinf(sphere.radius) ? 0.0f : sphere.radius}, "sphere query");
  if (sphere.radius < 0) validate(sphere, "sphere query");
  return {sphere};
}

}  // namespace trisect
