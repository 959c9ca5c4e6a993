#pragma once
/// \file
/// Which triangles touch a closed axis-aligned box.

#include "trisect/bvh/traverse.hpp"
#include "trisect/geometry/aabb_triangle.hpp"
#include "trisect/math/validate.hpp"

namespace trisect {

/// The traversal's view of a closed box: node boxes are compared exactly, a node inside the
/// box reports its subtree untested, leaves use the exact 13-axis SAT.
struct BoxQuery {
  Aabb box;  ///< Closed, non-empty, finite.

  [[nodiscard]] bool may_touch(const Aabb& node) const noexcept { return box.overlaps(node); }
  [[nodiscard]] bool contains(const Aabb& node) const noexcept { return box.contains(node); }
  /// Exact; a vertex inside the box decides at once, the SAT decides the rest.
  [[nodiscard]] bool touches(const Triangle& triangle) const {
    return box.contains(triangle.a) || box.contains(triangle.b) || box.contains(triangle.c) ||
           intersects(triangle, box);
  }
};

/// The query for `box`; throws `InvalidInput` for a non-finite or empty box.
[[nodiscard]] inline BoxQuery make_query(const Bvh&, const Aabb& box) {
  validate(box, "box query");
  return {box};
}

}  // namespace trisect
