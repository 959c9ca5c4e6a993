#pragma once
/// \file
/// Which triangles touch a closed ball.

#include "trisect/bvh/detail/squared_gap.hpp"
#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/sphere_triangle.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace trisect {

/// The traversal's view of a closed ball. Node tests are conservative in double precision
/// (they only decide which subtrees to visit or accept whole); leaves are decided exactly.
///
/// The children of a wide node are tested together in float against two thresholds fixed per
/// query, with the error bound of detail/squared_gap.hpp. `touch_threshold` is r² raised by
/// 1e-6 relative and 8 subnormal steps (`detail::touch_threshold`), so no touching child is
/// dropped. `inside_threshold` is r² lowered by 1e-6 relative; for r² < 1e-30 it is -1, so
/// that no child is accepted whole: a computed squared reach of 0 may be an underflow (issue
/// 10: a reach of 1e-25 squares to 0), and such balls are too small for the relative margin to
/// cover the absolute error. From r² >= 1e-30 on, the margin 1e-36 exceeds 5 * 2^-150.
struct SphereQuery {
  Sphere sphere;  ///< Finite centre, finite radius >= 0.
  float touch_threshold = std::numeric_limits<float>::infinity();  ///< See above.
  float inside_threshold = -1;                                     ///< See above.

  /// The query for `sphere` (finite centre, radius >= 0, +inf allowed) with its thresholds.
  [[nodiscard]] static SphereQuery of(const Sphere& sphere) noexcept {
    const double r2 = double(sphere.radius) * double(sphere.radius);
    const double inside = r2 >= 1e-30 ? r2 * (1 - 1e-6) : -1.0;
    // Rounded outwards: up for the touch threshold, down for the inside one.
    return {sphere, detail::touch_threshold(r2), detail::float_at_most(inside)};
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
        const Float4 lower = node.face_row(2 * axis, group);
        const Float4 upper = node.face_row(2 * axis + 1, group);
        const Float4 reach = max_ignoring_nan(center - lower, upper - center);
        gap2 = gap2 + detail::squared_gap(lower, upper, center);
        reach2 = reach2 + reach * reach;
      }
      touching |= less_equal_mask(gap2, touch) << (4 * group);
      within |= less_equal_mask(reach2, inside) << (4 * group);
    }
    return {touching, within & touching};
  }

  /// Exact: `intersects(triangle, sphere)`.
  [[nodiscard]] bool touches(const Triangle& triangle) const {
    return intersects(triangle, sphere);
  }

  /// `touches` for the triangles of a leaf group, the early answers in float for all four at
  /// once with the thresholds and the error bound of `child_masks`: a lane whose triangle's
  /// bounding box is certainly farther than the radius is apart, a lane with a vertex certainly
  /// inside the ball touches (a vertex is a box of one point); the exact test decides the rest.
  [[nodiscard]] unsigned touching_lanes(const TriangleGroup& group) const {
    const unsigned lanes = group.lane_mask();
    const Float4 zero = Float4::splat(0.0f);
    Float4 gap2 = zero, distance2[3] = {zero, zero, zero};
    for (int axis = 0; axis < 3; ++axis) {
      const Float4 center = Float4::splat(sphere.center[axis]);
      const Float4 vertices[3] = {group.lanes(0, axis), group.lanes(1, axis), group.lanes(2, axis)};
      const Float4 lower =
          min_ignoring_nan(min_ignoring_nan(vertices[0], vertices[1]), vertices[2]);
      const Float4 upper =
          max_ignoring_nan(max_ignoring_nan(vertices[0], vertices[1]), vertices[2]);
      gap2 = gap2 + detail::squared_gap(lower, upper, center);
      for (int vertex = 0; vertex < 3; ++vertex) {
        const Float4 offset = vertices[vertex] - center;
        distance2[vertex] = distance2[vertex] + offset * offset;
      }
    }
    const Float4 inside = Float4::splat(inside_threshold);
    const unsigned near = less_equal_mask(gap2, Float4::splat(touch_threshold)) & lanes;
    unsigned touching =
        (less_equal_mask(distance2[0], inside) | less_equal_mask(distance2[1], inside) |
         less_equal_mask(distance2[2], inside)) &
        near;
    for (unsigned open = near & ~touching; open != 0; open &= open - 1) {
      const int lane = std::countr_zero(open);
      touching |= (touches(group.triangle(lane)) ? 1u : 0u) << lane;
    }
    return touching;
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
