#pragma once
/// \file
/// What the set walk (`for_each_touching`, traverse.hpp) asks of a query: the concepts a query
/// type satisfies, and the masks a wide query returns.

#include "trisect/bvh/wide_node.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/triangle.hpp"
#include "trisect/math/triangle_group.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <concepts>

namespace trisect {

/// A set that triangles may touch, seen by the traversal through three tests:
/// `may_touch(box)`: false only when no point of the closed box touches the set (may be
/// conservative); `contains(box)`: true only when the whole closed box lies in the set, so
/// every triangle inside it touches (may be conservative the other way); `touches(triangle)`:
/// the exact answer for one triangle. The boxes are the nodes' decoded child boxes
/// (`WideNode`): each holds the triangles below it but may stick out of `Bvh::bounds()` by a
/// grid step, and where the triangles span more than about 3.4e38 on an axis an upper face
/// may be +inf.
template <class Query>
concept TriangleQuery = requires(const Query& query, const Aabb& box, const Triangle& triangle) {
  { query.may_touch(box) } -> std::convertible_to<bool>;
  { query.contains(box) } -> std::convertible_to<bool>;
  { query.touches(triangle) } -> std::convertible_to<bool>;
};

/// Called with each touching triangle's input id; returns false to stop the query.
template <class Visit>
concept TriangleVisitor = requires(Visit& visit, TriangleId id) {
  { visit(id) } -> std::convertible_to<bool>;
};

/// Which children of a wide node a query may touch, and which lie inside it: bit i for child
/// i; `inside` is a subset of `touching`. A query's `child_masks` may set bits of unused lanes
/// (their decoded boxes are meaningless points); the traversal keeps the used ones.
struct ChildMasks {
  unsigned touching = 0;
  unsigned inside = 0;
};

/// A query that tests all children of a wide node at once (with SIMD, on the decoded faces
/// `WideNode::face_row`), with the meaning of `may_touch` and `contains` per child. Queries
/// without it are tested child by child.
template <class Query>
concept WideTriangleQuery = TriangleQuery<Query> &&
    requires(const Query& query, const WideNode& node) {
  { query.child_masks(node) } -> std::convertible_to<ChildMasks>;
};

/// A query that tests the triangles of a leaf group at once (`TriangleGroup`, with SIMD):
/// `touching_lanes(group)` has bit i set exactly when `touches(group.triangle(i))`, for
/// i < group.count, and no other bit. Queries without it are tested triangle by triangle.
template <class Query>
concept GroupTriangleQuery = TriangleQuery<Query> &&
    requires(const Query& query, const TriangleGroup& group) {
  { query.touching_lanes(group) } -> std::convertible_to<unsigned>;
};

}  // namespace trisect
