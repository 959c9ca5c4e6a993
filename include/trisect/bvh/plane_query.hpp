#pragma once
/// \file
/// Which triangles touch a plane.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/plane_point.hpp"
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
struct PlaneQuery {
  Plane plane;             ///< Finite, non-zero normal.
  double error_bound = 0;  ///< Valid for points inside the region given to `within`.

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
    return {plane, 4.0 * exact::unit_roundoff * magnitude};
  }

  /// Exact side of `point` (inside the region): -1, 0 or +1.
  [[nodiscard]] int side(const Vec3& point) const {
    const Vec3& n = plane.normal;
    const double value = double(n.x) * double(point.x) + double(n.y) * double(point.y) +
                         double(n.z) * double(point.z) - double(plane.d);
    if (value > error_bound) return 1;
    if (value < -error_bound) return -1;
    return static_cast<int>(classify(plane, point));
  }

  [[nodiscard]] bool may_touch(const Aabb& node) const {
    const Vec3& n = plane.normal;
    const Vec3 lowest(n.x >= 0 ? node.min.x : node.max.x, n.y >= 0 ? node.min.y : node.max.y,
                      n.z >= 0 ? node.min.z : node.max.z);
    const Vec3 highest(n.x >= 0 ? node.max.x : node.min.x, n.y >= 0 ? node.max.y : node.min.y,
                       n.z >= 0 ? node.max.z : node.min.z);
    return side(lowest) <= 0 && side(highest) >= 0;
  }

  [[nodiscard]] static constexpr bool contains(const Aabb&) noexcept { return false; }

  [[nodiscard]] bool touches(const Triangle& triangle) const {
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
