#pragma once
/// \file
/// Which triangles touch a frustum.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/aabb_plane.hpp"
#include "trisect/geometry/frustum_triangle.hpp"
#include "trisect/math/frustum.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/math/validate.hpp"

#include <bit>

namespace trisect {

/// The traversal's view of a closed frustum. A node is skipped when its box lies certainly in
/// front of one plane, and reported whole when it lies certainly behind all six: each plane's
/// value at the box's lowest or highest corner (`plane_value`, double) beyond its error bound
/// (4u times `plane_value_magnitude` over the box, with u = 2^-53; the 2^-40 slack covers the
/// rounding of the bound itself). The classic plane–box culling of Haines & Wallace (1991),
/// conservative. Leaves are decided exactly (`intersects`).
struct FrustumQuery {
  Frustum frustum;  ///< Valid (see `validate`).

  /// 1 when the box is certainly behind every plane, -1 when certainly in front of one, else 0.
  [[nodiscard]] int classify(const Aabb& node) const noexcept {
    bool inside = true;
    for (const Plane& plane : frustum.planes) {
      const double bound = 0x1p-51 * (1 + 0x1p-40) * plane_value_magnitude(plane, node);
      const Vec3 low = lowest_corner(node, plane.normal), high = highest_corner(node, plane.normal);
      if (plane_value(plane, low.x, low.y, low.z) > bound) return -1;
      inside = inside && plane_value(plane, high.x, high.y, high.z) < -bound;
    }
    return inside ? 1 : 0;
  }
  [[nodiscard]] bool may_touch(const Aabb& node) const noexcept { return classify(node) >= 0; }
  [[nodiscard]] bool contains(const Aabb& node) const noexcept { return classify(node) > 0; }
  /// `may_touch` and `contains` child by child.
  [[nodiscard]] ChildMasks child_masks(const WideNode& node) const noexcept {
    ChildMasks masks;
    for (unsigned open = node.used_mask(); open != 0; open &= open - 1) {
      const int child = std::countr_zero(open);
      const int place = classify(node.child_bounds(child));
      masks.touching |= unsigned(place >= 0) << child;
      masks.inside |= unsigned(place > 0) << child;
    }
    return masks;
  }
  /// Exact: `intersects(triangle, frustum)`.
  [[nodiscard]] bool touches(const Triangle& triangle) const {
    return intersects(triangle, frustum);
  }
  /// `touches` lane by lane.
  [[nodiscard]] unsigned touching_lanes(const TriangleGroup& group) const {
    unsigned touching = 0;
    for (unsigned open = group.lane_mask(); open != 0; open &= open - 1) {
      const int lane = std::countr_zero(open);
      touching |= (touches(group.triangle(lane)) ? 1u : 0u) << lane;
    }
    return touching;
  }
};

/// The query for `frustum`. Throws `InvalidInput` for a plane with a value that is not finite
/// or a zero normal.
[[nodiscard]] inline FrustumQuery make_query(const Bvh&, const Frustum& frustum) {
  validate(frustum, "frustum query");
  return FrustumQuery{frustum};
}

}  // namespace trisect
