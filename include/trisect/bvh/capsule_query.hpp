#pragma once
/// \file
/// Which triangles touch a capsule (and, with radius 0, which a segment meets).

#include "trisect/bvh/box_query.hpp"
#include "trisect/bvh/sphere_query.hpp"
#include "trisect/geometry/capsule_triangle.hpp"
#include "trisect/math/capsule.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/math/validate.hpp"

#include <bit>

namespace trisect {

/// The traversal's view of a closed capsule. Nodes are compared exactly with `reach`, the
/// capsule's bounding box rounded outward (every point of the capsule lies in it); a node is
/// reported whole only at the root, when it lies inside the ball of either end (the sphere
/// query's conservative test). Leaves are decided exactly (`intersects`), after the same exact
/// box comparison per triangle.
struct CapsuleQuery {
  Capsule capsule;      ///< Finite ends, finite radius >= 0.
  Aabb axis_box;        ///< The box of the axis segment [a, b].
  BoxQuery reach;       ///< The capsule's bounding box, rounded outward.
  DistanceLimit limit;  ///< The radius.
  SphereQuery end_a, end_b;

  /// The query for `capsule` (valid, see `validate`).
  [[nodiscard]] static CapsuleQuery of(const Capsule& capsule) noexcept {
    const Aabb axis_box = Aabb::from_corners(capsule.a, capsule.b);
    Aabb reach;
    for (int a = 0; a < 3; ++a) {
      reach.min[a] = detail::float_at_most(double(axis_box.min[a]) - double(capsule.radius));
      reach.max[a] = detail::float_at_least(double(axis_box.max[a]) + double(capsule.radius));
    }
    return {capsule,
            axis_box,
            BoxQuery{reach},
            DistanceLimit::of(capsule.radius),
            SphereQuery::of({capsule.a, capsule.radius}),
            SphereQuery::of({capsule.b, capsule.radius})};
  }

  [[nodiscard]] bool may_touch(const Aabb& node) const noexcept { return reach.may_touch(node); }
  [[nodiscard]] bool contains(const Aabb& node) const noexcept {
    return end_a.contains(node) || end_b.contains(node);
  }
  /// Children whose boxes meet `reach`; none reported whole (`inside` is empty).
  [[nodiscard]] ChildMasks child_masks(const WideNode& node) const noexcept {
    return {reach.child_masks(node).touching, 0u};
  }
  /// Exact: `intersects(triangle, capsule)`.
  [[nodiscard]] bool touches(const Triangle& triangle) const {
    return segment_within_distance(capsule.a, capsule.b, axis_box, triangle, triangle.bounds(),
                                   limit);
  }
  /// `touches` for the triangles of a leaf group: lanes whose bounding box misses `reach` are
  /// apart (exact comparisons, four at once); the others are decided by `touches`.
  [[nodiscard]] unsigned touching_lanes(const TriangleGroup& group) const {
    const unsigned apart = reach.apart_lanes(group);
    unsigned touching = 0;
    for (unsigned open = group.lane_mask() & ~apart; open != 0; open &= open - 1) {
      const int lane = std::countr_zero(open);
      touching |= (touches(group.triangle(lane)) ? 1u : 0u) << lane;
    }
    return touching;
  }
};

/// The query for `capsule`. Throws `InvalidInput` for a non-finite end, a NaN, infinite or
/// negative radius.
[[nodiscard]] inline CapsuleQuery make_query(const Bvh&, const Capsule& capsule) {
  validate(capsule, "capsule query");
  return CapsuleQuery::of(capsule);
}

}  // namespace trisect
