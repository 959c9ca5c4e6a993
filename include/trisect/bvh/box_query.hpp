#pragma once
/// \file
/// Which triangles touch a closed axis-aligned box.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/aabb_triangle.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace trisect {

/// The traversal's view of a closed box: node boxes are compared exactly, a node inside the
/// box reports its subtree untested, leaves use the exact 13-axis SAT.
struct BoxQuery {
  Aabb box;  ///< Closed, non-empty, finite.

  [[nodiscard]] bool may_touch(const Aabb& node) const noexcept { return box.overlaps(node); }
  [[nodiscard]] bool contains(const Aabb& node) const noexcept {
    return box.contains(node.min) & box.contains(node.max);  // nodes are never empty
  }
  /// `may_touch` and `contains` for all children of a wide node at once, or of any boxes
  /// with the node's `face_row` (such as `ChildBoxes`); the same exact comparisons.
  template <class Faces>
  [[nodiscard]] ChildMasks child_masks(const Faces& node) const noexcept {
    // Axis by axis, both groups of four lanes: each axis's constants are splat once.
    unsigned group_touching[WideNode::groups], group_inside[WideNode::groups];
    for (int group = 0; group < WideNode::groups; ++group)
      group_touching[group] = group_inside[group] = 0xfu;
    for (int axis = 0; axis < 3; ++axis) {
      const Float4 query_min = Float4::splat(box.min[axis]);
      const Float4 query_max = Float4::splat(box.max[axis]);
      for (int group = 0; group < WideNode::groups; ++group) {
        const Float4 lower = node.face_row(2 * axis, group);
        const Float4 upper = node.face_row(2 * axis + 1, group);
        group_touching[group] &=
            less_equal_mask(lower, query_max) & less_equal_mask(query_min, upper);
        group_inside[group] &=
            less_equal_mask(query_min, lower) & less_equal_mask(upper, query_max);
      }
    }
    unsigned touching = 0, inside = 0;
    for (int group = 0; group < WideNode::groups; ++group) {
      touching |= group_touching[group] << (4 * group);
      inside |= group_inside[group] << (4 * group);
    }
    return {touching, inside & touching};
  }
  /// Exact: `intersects(triangle, box)`, where a vertex inside the box decides at once.
  [[nodiscard]] bool touches(const Triangle& triangle) const { return intersects(triangle, box); }
  /// The lanes of a leaf group whose triangle's bounding box misses the box (exact
  /// comparisons, four at once): the shapes that filter by a bounding box start from these.
  [[nodiscard]] unsigned apart_lanes(const TriangleGroup& group) const noexcept {
    unsigned apart = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const Float4 low = Float4::splat(box.min[axis]), high = Float4::splat(box.max[axis]);
      const Float4 a = group.lanes(0, axis), b = group.lanes(1, axis), c = group.lanes(2, axis);
      apart |= less_mask(max_ignoring_nan(max_ignoring_nan(a, b), c), low) |
               less_mask(high, min_ignoring_nan(min_ignoring_nan(a, b), c));
    }
    return apart & group.lane_mask();
  }
  /// `touches` for the triangles of a leaf group: the early answers of
  /// `detail::vertices_against_box` (a vertex inside the box, or a box face plane separating)
  /// for all four at once, exact comparisons; the full test only for a lane they leave open.
  [[nodiscard]] unsigned touching_lanes(const TriangleGroup& group) const {
    const unsigned lanes = group.lane_mask();
    unsigned vertex_inside[3] = {lanes, lanes, lanes}, apart = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const Float4 low = Float4::splat(box.min[axis]), high = Float4::splat(box.max[axis]);
      const Float4 a = group.lanes(0, axis), b = group.lanes(1, axis), c = group.lanes(2, axis);
      vertex_inside[0] &= less_equal_mask(low, a) & less_equal_mask(a, high);
      vertex_inside[1] &= less_equal_mask(low, b) & less_equal_mask(b, high);
      vertex_inside[2] &= less_equal_mask(low, c) & less_equal_mask(c, high);
      apart |= less_mask(max_ignoring_nan(max_ignoring_nan(a, b), c), low) |
               less_mask(high, min_ignoring_nan(min_ignoring_nan(a, b), c));
    }
    unsigned touching = vertex_inside[0] | vertex_inside[1] | vertex_inside[2];
    for (unsigned open = lanes & ~(touching | apart); open != 0; open &= open - 1) {
      const int lane = std::countr_zero(open);
      touching |= (intersects(group.triangle(lane), box) ? 1u : 0u) << lane;
    }
    return touching;
  }
};

/// The query for `box` over `bvh`. Infinite bounds are accepted (half-spaces, slabs, all of
/// space): since every triangle lies inside the BVH's bounds, an infinite side is replaced by
/// the BVH's bound on that axis, which changes no answer; a box that then misses the bounds
/// becomes the empty box and touches nothing. Throws `InvalidInput` for NaN or min > max.
[[nodiscard]] inline BoxQuery make_query(const Bvh& bvh, const Aabb& box) {
  for (int axis = 0; axis < 3; ++axis)
    if (std::isnan(box.min[axis]) || std::isnan(box.max[axis]) || box.min[axis] > box.max[axis])
      validate(box, "box query");  // throws with the details
  const Aabb bounds = bvh.bounds();
  Aabb finite = box;
  for (int axis = 0; axis < 3; ++axis) {
    if (std::isinf(finite.min[axis]))
      finite.min[axis] = std::max(finite.min[axis], bounds.min[axis]);
    if (std::isinf(finite.max[axis]))
      finite.max[axis] = std::min(finite.max[axis], bounds.max[axis]);
  }
  if (finite.is_empty() || !is_finite(finite.min) || !is_finite(finite.max)) return {Aabb::empty()};
  return {finite};
}

}  // namespace trisect
