#pragma once
/// \file
/// Which triangles touch a closed ball.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/sphere_triangle.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace trisect {

/// The traversal's view of a closed ball. Node tests are conservative in double precision
/// (they only decide which subtrees to visit or accept whole); leaves are decided exactly.
///
/// The children of a wide node are tested together in float against two thresholds fixed per
/// query. Each float difference, square and sum rounds by at most u = 2^-24, so a computed
/// squared distance is within 5u (relative) of the exact one, plus a few subnormal steps when
/// it underflows: `touch_threshold` is r² raised by 1e-6 relative and 8 subnormal steps, so no
/// touching child is dropped; `inside_threshold` is r² lowered by 1e-6 relative, and is 0 (no
/// child accepted whole) for balls so small that squares could underflow.
struct SphereQuery {
  Sphere sphere;  ///< Finite centre, finite radius >= 0.
  float touch_threshold = std::numeric_limits<float>::infinity();  ///< See above.
  float inside_threshold = 0;                                      ///< See above.

  /// The query for `sphere` (finite centre, radius >= 0, +inf allowed) with its thresholds.
  [[nodiscard]] static SphereQuery of(const Sphere& sphere) noexcept {
    const double r2 = double(sphere.radius) * double(sphere.radius);
    const double touch = r2 * (1 + 1e-6) + 8 * 0x1p-149;
    const double inside = r2 >= 1e-30 ? r2 * (1 - 1e-6) : 0.0;
    const float infinity = std::numeric_limits<float>::infinity();
    // Rounded outwards: up for the touch threshold, down for the inside one.
    float touch_float = static_cast<float>(touch);
    if (double(touch_float) < touch) touch_float = std::nextafter(touch_float, infinity);
    float inside_float = static_cast<float>(inside);
    if (double(inside_float) > inside) inside_float = std::nextafter(inside_float, 0.0f);
    return {sphere, touch_float, inside_float};
  }

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

  /// `may_touch` and `contains` for all children of a wide node at once (conservative, in
  /// float; see the type's comment).
  [[nodiscard]] ChildMasks child_masks(const WideNode& node) const noexcept {
    const Float4 zero = Float4::splat(0.0f);
    const Float4 touch = Float4::splat(touch_threshold), inside = Float4::splat(inside_threshold);
    unsigned touching = 0, within = 0;
    for (int group = 0; group < WideNode::groups; ++group) {
      Float4 gap2 = zero, reach2 = zero;
      for (int axis = 0; axis < 3; ++axis) {
        const Float4 center = Float4::splat(sphere.center[axis]);
        const Float4 lower = Float4::load(node.bounds[2 * axis] + 4 * group);
        const Float4 upper = Float4::load(node.bounds[2 * axis + 1] + 4 * group);
        const Float4 below = lower - center, above = center - upper;
        const Float4 gap = max_ignoring_nan(max_ignoring_nan(below, above), zero);
        const Float4 reach = max_ignoring_nan(center - lower, upper - center);
        gap2 = gap2 + gap * gap;
        reach2 = reach2 + reach * reach;
      }
      touching |= less_equal_mask(gap2, touch) << (4 * group);
      within |= less_equal_mask(reach2, inside) << (4 * group);
    }
    return {touching, within & touching};
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
  return SphereQuery::of(sphere);
}

}  // namespace trisect
