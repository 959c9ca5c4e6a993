#pragma once
/// \file
/// Which triangles touch a plane.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/aabb_plane.hpp"
#include "trisect/geometry/plane_point.hpp"
#include "trisect/geometry/plane_triangle.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace trisect {

/// The traversal's view of a plane n·x = d, decided exactly from vertex and corner sides (the
/// predicates of geometry/aabb_plane.hpp and geometry/plane_triangle.hpp). A plane contains no
/// box, so every candidate triangle is tested.
///
/// Fast path: `plane_value`, dot(n, p) - d in double, where each product of two floats is exact
/// and the three additions err by at most gamma_3 times the sum of the absolute terms. Over a
/// region whose coordinates are bounded by M per axis, that sum is at most
/// `plane_value_magnitude` = sum |n_i| M_i + |d|, so one bound per query decides every point in
/// it unless the value is within the bound, where exact arithmetic takes over.
///
/// Node tests of all children at once run in float: the lowest and highest box corners along
/// the normal give n·x - d with three products and three sums, each rounding by at most u (the
/// float unit roundoff), so the error stays below 6u (Higham's gamma_6, rounded up to 8u)
/// times the same magnitude bound (plus the error of products that underflow). Such a test only
/// prunes subtrees that are certainly off the plane, so it need not be exact; where float could
/// overflow it is not used.
struct PlaneQuery {
  Plane plane;             ///< Finite, non-zero normal.
  double error_bound = 0;  ///< Valid for points inside the region given to `within`.
  /// Error bound of the float child tests, or +inf when they must not be used.
  float float_error_bound = std::numeric_limits<float>::infinity();

  /// The query for `plane` over points inside `region` (the BVH's bounds).
  [[nodiscard]] static PlaneQuery within(const Plane& plane, const Aabb& region) {
    if (region.is_empty()) return {plane, 0.0};
    const double magnitude = plane_value_magnitude(plane, region);
    // 4u > gamma_3, with room for the rounding of this bound itself.
    // Plus a few of the smallest subnormals for products that underflow.
    const double float_bound = 8.0 * 0x1p-24 * magnitude + 0x1p-146;
    const bool float_safe = magnitude < 1e30;  // no product or sum can overflow
    return {plane, 4.0 * exact::unit_roundoff * magnitude,
            float_safe ? static_cast<float>(float_bound * (1 + 1e-6))
                       : std::numeric_limits<float>::infinity()};
  }

  /// False only when the closed box (inside the region) lies strictly on one side: its lowest
  /// corner along the normal is above the plane or its highest below (exact).
  [[nodiscard]] bool may_touch(const Aabb& node) const {
    return intersects(node, plane, error_bound);
  }

  /// Always false: a plane holds no whole box.
  [[nodiscard]] static constexpr bool contains(const Aabb&) noexcept { return false; }

  /// `may_touch` for all children of a wide node at once: conservative in float (see the type's
  /// comment), or child by child where float is not safe.
  [[nodiscard]] ChildMasks child_masks(const WideNode& node) const {
    if (std::isinf(float_error_bound)) {
      unsigned touching = 0;
      for (int i = 0; i < WideNode::width && node.child[i] != WideNode::unused; ++i)
        touching |= (may_touch(node.child_bounds(i)) ? 1u : 0u) << i;
      return {touching, 0};
    }
    const Float4 upper_bound = Float4::splat(float_error_bound);
    const Float4 lower_bound = Float4::splat(-float_error_bound);
    unsigned touching = 0;
    for (int group = 0; group < WideNode::groups; ++group) {
      Float4 low = Float4::splat(-plane.d), high = low;
      for (int axis = 0; axis < 3; ++axis) {
        const float n = plane.normal[axis];
        const Float4 weight = Float4::splat(n);
        const Float4 lower = Float4::load(node.bounds[2 * axis] + 4 * group);
        const Float4 upper = Float4::load(node.bounds[2 * axis + 1] + 4 * group);
        low = low + weight * (n >= 0 ? lower : upper);
        high = high + weight * (n >= 0 ? upper : lower);
      }
      // Unused lanes hold empty boxes, whose low is +inf or NaN (inf - inf): never touching.
      touching |= (less_equal_mask(low, upper_bound) & less_equal_mask(lower_bound, high))
                  << (4 * group);
    }
    return {touching, 0};
  }

  /// Exact: whether the closed triangle (inside the region) touches the plane.
  [[nodiscard]] bool touches(const Triangle& triangle) const {
    // Usually all three values are far from zero: float decides them (with the bound of the
    // child tests, valid for any point of the region), then double, then exact arithmetic.
    if (float_error_bound < std::numeric_limits<float>::infinity()) {
      if (const std::optional<bool> decided =
              touches_by_values(float_value(triangle.a), float_value(triangle.b),
                                float_value(triangle.c), float_error_bound))
        return *decided;
    }
    return intersects(triangle, plane, error_bound);
  }

 private:
  // dot(n, p) - d in float: three products and three sums, within float_error_bound.
  [[nodiscard]] float float_value(const Vec3& p) const noexcept {
    const Vec3& n = plane.normal;
    return ((n.x * p.x - plane.d) + n.y * p.y) + n.z * p.z;
  }
};

/// The query for `plane` over `bvh`; throws `InvalidInput` for a non-finite plane or a zero
/// normal.
[[nodiscard]] inline PlaneQuery make_query(const Bvh& bvh, const Plane& plane) {
  validate(plane, "plane query");
  return PlaneQuery::within(plane, bvh.bounds());
}

}  // namespace trisect
