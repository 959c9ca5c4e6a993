#pragma once
/// \file
/// Which triangles touch a plane.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/aabb_plane.hpp"
#include "trisect/geometry/plane_triangle.hpp"
#include "trisect/math/validate.hpp"

namespace trisect {

/// The traversal's view of a plane n·x = d: nodes and leaves are decided exactly from vertex
/// and corner sides. A plane contains no box, so every triangle is tested.
struct PlaneQuery {
  Plane plane;  ///< Finite, non-zero normal.

  [[nodiscard]] bool may_touch(const Aabb& node) const { return intersects(node, plane); }
  [[nodiscard]] static constexpr bool contains(const Aabb&) noexcept { return false; }
  [[nodiscard]] bool touches(const Triangle& triangle) const { return intersects(triangle, plane); }
};

/// The query for `plane`; throws `InvalidInput` for a non-finite plane or a zero normal.
[[nodiscard]] inline PlaneQuery make_query(const Plane& plane) {
  validate(plane, "plane query");
  return {plane};
}

}  // namespace trisect
