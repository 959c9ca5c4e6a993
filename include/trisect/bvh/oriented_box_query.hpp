#pragma once
/// \file
/// Which triangles touch an oriented box.

#include "trisect/bvh/box_query.hpp"
#include "trisect/geometry/oriented_box_triangle.hpp"
#include "trisect/math/oriented_box.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/math/validate.hpp"

#include <bit>

namespace trisect {

/// The traversal's view of a closed oriented box. A node must meet `reach`, the box's bounds
/// rounded outward (exact comparisons), and must not lie beyond one of the box's face planes;
/// a node inside the box is reported whole. Both node tests are conservative in double with
/// the proven bound of `detail::OrientedBoxFrame::classify`. Leaves are decided exactly.
struct OrientedBoxQuery {
  OrientedBox box;                 ///< Valid (see `validate`).
  detail::OrientedBoxFrame frame;  ///< The box's coordinates and certificates.
  BoxQuery reach;                  ///< `bounds(box)`.

  /// The query for a valid `box`.
  [[nodiscard]] static OrientedBoxQuery of(const OrientedBox& box) noexcept {
    return {box, detail::OrientedBoxFrame::of(box), BoxQuery{bounds(box)}};
  }

  [[nodiscard]] bool may_touch(const Aabb& node) const noexcept {
    return reach.may_touch(node) && frame.classify(node) >= 0;
  }
  [[nodiscard]] bool contains(const Aabb& node) const noexcept { return frame.classify(node) > 0; }
  /// The children that meet `reach` (exact, eight at once), then each of those against the
  /// face planes; `inside` holds the children inside the box.
  [[nodiscard]] ChildMasks child_masks(const WideNode& node) const noexcept {
    ChildMasks masks{reach.child_masks(node).touching, 0u};
    for (unsigned open = masks.touching; open != 0; open &= open - 1) {
      const int child = std::countr_zero(open);
      const int place = frame.classify(node.child_bounds(child));
      if (place < 0) masks.touching &= ~(1u << child);
      if (place > 0) masks.inside |= 1u << child;
    }
    return masks;
  }
  /// Exact: `intersects(triangle, box)`.
  [[nodiscard]] bool touches(const Triangle& triangle) const {
    return detail::intersects(triangle, box, frame);
  }
  /// `touches` for the triangles of a leaf group: lanes whose bounding box misses `reach` are
  /// apart (exact comparisons, four at once); the others are decided by `touches`.
  [[nodiscard]] unsigned touching_lanes(const TriangleGroup& group) const {
    unsigned touching = 0;
    for (unsigned open = group.lane_mask() & ~reach.apart_lanes(group); open != 0;
         open &= open - 1) {
      const int lane = std::countr_zero(open);
      touching |= (touches(group.triangle(lane)) ? 1u : 0u) << lane;
    }
    return touching;
  }
};

/// The query for `box`. Throws `InvalidInput` for a value that is not finite, a zero axis, a
/// negative half extent or linearly dependent axes.
[[nodiscard]] inline OrientedBoxQuery make_query(const Bvh&, const OrientedBox& box) {
  validate(box, "oriented box query");
  return OrientedBoxQuery::of(box);
}

}  // namespace trisect
