#pragma once
/// \file
/// Which triangles touch a plane.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/plane_point.hpp"
#include "trisect/math/float4.hpp"
#include "trisect/math/validate.hpp"

#include <algorithm>
#include <cmath>

namespace trisect {

/// The traversal's view of a plane n·x = d, decided exactly from vertex and corner sides. A
/// plane contains no box, so every candidate triangle is tested.
///
/// Fast path: dot(n, p) - d in double, where each product of two floats is exact and the three
/// additions err by at most gamma_3 times the sum of the absolute terms. Over a region whose
/// coordinates are bounded by M per axis, that sum is at most sum |n_i| M_i + |d|, so one bound
/// per query decides every point in it unless the value is within the bound, where `classify`
/// takes over exactly.
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
    double magnitude = std::fabs(double(plane.d));
    for (int axis = 0; axis < 3; ++axis) {
      const double extent =
          std::max(std::fabs(double(region.min[axis])), std::fabs(double(region.max[axis])));
      magnitude += std::fabs(double(plane.normal[axis])) * extent;
    }
    // 4u > gamma_3, with room for the rounding of this bound itself.
    // Plus a few of the smallest subnormals for products that underflow.
    const double float_bound = 8.0 * 0x1p-24 * magnitude + 0x1p-146;
    const bool float_safe = magnitude < 1e30;  // no product or sum can overflow
    return {plane, 4.0 * exact::unit_roundoff * magnitude,
            float_safe ? static_cast<float>(float_bound * (1 + 1e-6))
                       : std::numeric_limits<float>::infinity()};
  }

  /// Exact side of `point` (inside the region): -1, 0 or +1.
  [[nodiscard]] int side(const Vec3& point) const {
    return decide(value(point.x, point.y, point.z), point);
  }

  /// False only when the closed box lies strictly on one side: its lowest corner along the
  /// normal is above the plane or its highest below (exact).
  [[nodiscard]] bool may_touch(const Aabb& node) const {
    const Vec3& n = plane.normal;
    const float low_x = n.x >= 0 ? node.min.x : node.max.x,
                high_x = n.x >= 0 ? node.max.x : node.min.x;
    const float low_y = n.y >= 0 ? node.min.y : node.max.y,
                high_y = n.y >= 0 ? node.max.y : node.min.y;
    const float low_z = n.z >= 0 ? node.min.z : node.max.z,
                high_z = n.z >= 0 ? node.max.z : node.min.z;
    const double low = value(low_x, low_y, low_z), high = value(high_x, high_y, high_z);
    if (low > error_bound || high < -error_bound) return false;
    if (low < -error_bound && high > error_bound) return true;
    return decide(low, Vec3(low_x, low_y, low_z)) <= 0 &&
           decide(high, Vec3(high_x, high_y, high_z)) >= 0;
  }

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

  [[nodiscard]] bool touches(const Triangle& triangle) const {
    // Usually all three values are far from zero: float decides them (with the bound of the
    // child tests, valid for any point of the region), then double, then exact arithmetic.
    if (float_error_bound < std::numeric_limits<float>::infinity()) {
      const float bound = float_error_bound;
      const float a = float_value(triangle.a), b = float_value(triangle.b),
                  c = float_value(triangle.c);
      if ((a > bound && b > bound && c > bound) || (a < -bound && b < -bound && c < -bound))
        return false;
      if ((a > bound || b > bound || c > bound) && (a < -bound || b < -bound || c < -bound))
        return true;
    }
    return touches_in_double(triangle);
  }

 private:
  // dot(n, p) - d in float: three products and three sums, within float_error_bound.
  [[nodiscard]] float float_value(const Vec3& p) const noexcept {
    const Vec3& n = plane.normal;
    return ((n.x * p.x - plane.d) + n.y * p.y) + n.z * p.z;
  }

  [[nodiscard]] bool touches_in_double(const Triangle& triangle) const {
    const double a = value(triangle.a.x, triangle.a.y, triangle.a.z);
    const double b = value(triangle.b.x, triangle.b.y, triangle.b.z);
    const double c = value(triangle.c.x, triangle.c.y, triangle.c.z);
    if ((a > error_bound && b > error_bound && c > error_bound) ||
        (a < -error_bound && b < -error_bound && c < -error_bound))
      return false;
    if ((a > error_bound || b > error_bound || c > error_bound) &&
        (a < -error_bound || b < -error_bound || c < -error_bound))
      return true;
    return touches_near_plane(triangle);
  }

  // dot(n, p) - d in double: the products are exact, three roundings in the sum.
  [[nodiscard]] double value(float x, float y, float z) const {
    const Vec3& n = plane.normal;
    return double(n.x) * double(x) + double(n.y) * double(y) + double(n.z) * double(z) -
           double(plane.d);
  }

  [[nodiscard]] int decide(double computed, const Vec3& point) const {
    if (computed > error_bound) return 1;
    if (computed < -error_bound) return -1;
    return static_cast<int>(classify(plane, point));
  }

  // Some vertex is within the error bound of the plane: exact sides for those.
  [[gnu::noinline]] bool touches_near_plane(const Triangle& triangle) const {
    const int a = side(triangle.a);
    if (a == 0) return true;
    const int b = side(triangle.b);
    return b != a || side(triangle.c) != a;
  }
};

/// The query for `plane` over `bvh`; throws `InvalidInput` for a non-finite plane or a zero
/// normal.
[[nodiscard]] inline PlaneQuery make_query(const Bvh& bvh, const Plane& plane) {
  validate(plane, "plane query");
  return PlaneQuery::within(plane, bvh.bounds());
}

}  // namespace trisect
