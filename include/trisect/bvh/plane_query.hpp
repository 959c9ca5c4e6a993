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
/// Triangle values in float: three products and three sums, each rounding by at most u (the
/// float unit roundoff), err by less than 6u (Higham's gamma_6, rounded up to 8u) times the
/// same magnitude bound (plus the error of products that underflow): `float_error_bound`.
///
/// Node tests of all children at once run in float on the quantised faces without decoding
/// them. A child's lowest (or highest) corner along the normal has the value
/// n·F - d = sum_a n_a F_a - d, where F_a = fl(o_a + q_a s_a) is the decoded face (origin o_a,
/// grid step s_a, a power of two, face q_a). It is computed as
/// c + sum_a (n_a s_a) q_a with the node's constant c = sum_a n_a o_a - d: seven terms, each a
/// product of at most two roundings, and six sums, so within gamma_8 of the sum of their
/// absolute values. With |o_a|, |F_a| <= M_a over the reach, |q_a s_a| <= 2 M_a (1 + u), so
/// that sum is at most 3 (1 + u) times the magnitude bound; the decode's own rounding adds
/// u times it. 32u times the magnitude covers both (25u), plus 2^-138 for products that
/// underflow (a product n_a s_a that does errs by at most 2^-150, times q_a < 2^8):
/// `node_error_bound`. Such a test only prunes subtrees that are certainly off the plane, so it
/// need not be exact; where float could overflow it is not used.
struct PlaneQuery {
  Plane plane;  ///< Finite, non-zero normal.
  /// Holds every triangle asked about; boxes are clipped to it before the exact test.
  Aabb region = Aabb::empty();
  double error_bound = 0;  ///< Valid for points inside `region`.
  /// Error bound of the float triangle values, or +inf when they must not be used.
  float float_error_bound = std::numeric_limits<float>::infinity();
  /// Error bound of the float child tests, or +inf when they must not be used.
  float node_error_bound = std::numeric_limits<float>::infinity();

  /// A box holding `bvh.bounds()` and every child box of its wide nodes with each face
  /// decoded as fl(o + q s), one rounding (the faces the node tests' bound is taken over): the
  /// bounds with each upper face raised by the root node's grid step, in float. A decoded lower
  /// face is at least its node's origin o, the lowest of its children's faces, so at least the
  /// bounds' lower face. The builder takes an upper face q with o + q s < h + s, h the child's
  /// face (it searches up from an estimate below (h - o) / s and stops at the first face that
  /// reaches h), so fl(o + q s) <= fl(h + s) <= fl(bounds.max + s). And every node's step s is
  /// at most the root's on each axis: the root's grid spans a range holding the node's, so its
  /// step also reaches the node's highest face, and the builder takes the smallest step that
  /// does at or above a start that grows with the extent. O(1): each query computes it, the
  /// tree stores nothing for it. `validate(bvh)` checks that it holds every decoded child box.
  [[nodiscard]] static Aabb reach_of(const Bvh& bvh) noexcept {
    Aabb reach = bvh.bounds();
    if (bvh.empty()) return reach;
    for (int axis = 0; axis < 3; ++axis) reach.max[axis] += bvh.wide[0].step(axis);
    return reach;
  }

  /// The query for `plane` over triangles inside `region` (the BVH's bounds) whose node boxes
  /// lie inside `reach` (`reach_of(bvh)`, which holds `region`).
  [[nodiscard]] static PlaneQuery within(const Plane& plane, const Aabb& region,
                                         const Aabb& reach) {
    if (region.is_empty()) return {plane, region, 0.0};
    // 4u > gamma_3, with room for the rounding of this bound itself.
    // Plus a few of the smallest subnormals for products that underflow.
    const double reach_magnitude = plane_value_magnitude(plane, reach);
    const bool float_safe = reach_magnitude < 1e30;  // no product or sum can overflow
    // Rounded up to float (a relative 1e-6 more than the rounding of the cast).
    const auto bound = [&](double value) {
      return float_safe ? static_cast<float>(value * (1 + 1e-6))
                        : std::numeric_limits<float>::infinity();
    };
    return {plane, region, 4.0 * exact::unit_roundoff * plane_value_magnitude(plane, region),
            bound(8.0 * 0x1p-24 * reach_magnitude + 0x1p-146),
            bound(32.0 * 0x1p-24 * reach_magnitude + 0x1p-138)};
  }

  /// False only when the closed box lies strictly on one side: the part of it inside the
  /// region has its lowest corner along the normal above the plane or its highest below
  /// (exact). Clipping changes no answer, as every triangle lies in the region, and keeps the
  /// corners finite and within `error_bound`'s reach.
  [[nodiscard]] bool may_touch(const Aabb& node) const {
    const Aabb clipped = node.intersected(region);
    return !clipped.is_empty() && intersects(clipped, plane, error_bound);
  }

  /// Always false: a plane holds no whole box.
  [[nodiscard]] static constexpr bool contains(const Aabb&) noexcept { return false; }

  /// `may_touch` for all children of a wide node at once: conservative in float (see the type's
  /// comment), or child by child where float is not safe.
  [[nodiscard]] ChildMasks child_masks(const WideNode& node) const {
    if (std::isinf(node_error_bound)) {
      unsigned touching = 0;
      for (int i = 0; i < WideNode::width && node.child[i] != WideNode::unused; ++i)
        touching |= (may_touch(node.child_bounds(i)) ? 1u : 0u) << i;
      return {touching, 0};
    }
    return {float_node_test(node), 0};
  }

  /// Exact: whether the closed triangle (inside the region) touches the plane.
  [[nodiscard]] bool touches(const Triangle& triangle) const {
    // Usually all three values are far from zero: float decides them (with the bound of the
    // values, `float_error_bound`, valid for any point of the region), then double, then exact
    // arithmetic.
    if (float_error_bound < std::numeric_limits<float>::infinity()) {
      if (const std::optional<bool> decided =
              touches_by_values(float_value(triangle.a), float_value(triangle.b),
                                float_value(triangle.c), float_error_bound))
        return *decided;
    }
    return intersects(triangle, plane, error_bound);
  }

  /// `touches` for the triangles of a leaf group: the float values of all four at once, the
  /// exact test only for a lane they leave undecided.
  [[nodiscard]] unsigned touching_lanes(const TriangleGroup& group) const {
    const unsigned lanes = group.lane_mask();
    unsigned undecided = lanes, touching = 0;
    if (float_error_bound < std::numeric_limits<float>::infinity()) {
      const Float4 upper_bound = Float4::splat(float_error_bound);
      const Float4 lower_bound = Float4::splat(-float_error_bound);
      unsigned all_above = lanes, all_below = lanes, some_above = 0, some_below = 0;
      for (int vertex = 0; vertex < 3; ++vertex) {
        const Float4 value = float_values(group, vertex);
        const unsigned above = less_mask(upper_bound, value), below = less_mask(value, lower_bound);
        all_above &= above;
        all_below &= below;
        some_above |= above;
        some_below |= below;
      }
      touching = some_above & some_below & lanes;
      undecided = lanes & ~(all_above | all_below | touching);
    }
    for (unsigned bits = undecided; bits != 0; bits &= bits - 1) {
      const int lane = std::countr_zero(bits);
      touching |= (intersects(group.triangle(lane), plane, error_bound) ? 1u : 0u) << lane;
    }
    return touching;
  }

 private:
  // The float child test (node_error_bound finite) on two groups of four lanes: bit i set
  // unless child i's box is certainly off the plane.
  [[nodiscard]] unsigned float_node_test(const WideNode& node) const {
    static_assert(WideNode::groups == 2);
    const NodeConstants constants = node_constants(node);
    Float4 low_first = Float4::splat(constants.corner), low_second = low_first;
    Float4 high_first = low_first, high_second = low_first;
    for (int axis = 0; axis < 3; ++axis) {
      const Float4 weight = Float4::splat(constants.weight[axis]);
      const std::uint8_t* low_faces = node.faces[constants.low_row[axis]];
      const std::uint8_t* high_faces = node.faces[constants.low_row[axis] ^ 1];
      low_first = low_first + weight * Float4::from_bytes(low_faces);
      low_second = low_second + weight * Float4::from_bytes(low_faces + 4);
      high_first = high_first + weight * Float4::from_bytes(high_faces);
      high_second = high_second + weight * Float4::from_bytes(high_faces + 4);
    }
    const Float4 upper_bound = Float4::splat(node_error_bound);
    const Float4 lower_bound = Float4::splat(-node_error_bound);
    const auto touching = [&](Float4 low, Float4 high) {
      return less_equal_mask(low, upper_bound) & less_equal_mask(lower_bound, high);
    };
    return touching(low_first, high_first) | touching(low_second, high_second) << 4;
  }

  // A node's constants for the float child test (see the type's comment):
  // c = sum_a n_a o_a - d, the weights n_a s_a, and for each axis the face row
  // (WideNode::faces) nearest the plane's negative side along the normal; the other face is
  // that row ^ 1.
  struct NodeConstants {
    float corner;
    float weight[3];
    int low_row[3];
  };
  [[nodiscard]] NodeConstants node_constants(const WideNode& node) const noexcept {
    const float normal[3] = {plane.normal.x, plane.normal.y, plane.normal.z};  // indexable
    NodeConstants constants{-plane.d, {}, {}};
    for (int axis = 0; axis < 3; ++axis) {
      constants.corner = constants.corner + normal[axis] * node.origin[axis];
      constants.weight[axis] = normal[axis] * node.step(axis);
      constants.low_row[axis] = 2 * axis + (normal[axis] >= 0 ? 0 : 1);
    }
    return constants;
  }

  // `float_value` of vertex `vertex` of the group's four lanes, by the same operations.
  [[nodiscard]] Float4 float_values(const TriangleGroup& group, int vertex) const noexcept {
    const Vec3& n = plane.normal;
    return ((Float4::splat(n.x) * group.lanes(vertex, 0) - Float4::splat(plane.d)) +
            Float4::splat(n.y) * group.lanes(vertex, 1)) +
           Float4::splat(n.z) * group.lanes(vertex, 2);
  }

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
  return PlaneQuery::within(plane, bvh.bounds(), PlaneQuery::reach_of(bvh));
}

}  // namespace trisect
