#pragma once
/// \file
/// The bounding volume hierarchy: nodes in depth-first order plus the triangles in leaf order.

#include "trisect/bvh/wide_node.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/mesh/triangle_soup.hpp"

#include <cstdint>
#include <vector>

namespace trisect {

/// One BVH node, 32 bytes. Nodes are stored depth-first: an inner node's left child is the
/// next node, its right child is at `first`. A leaf holds `count` >= 1 triangles at slots
/// [first, first + count) of `Bvh::triangles` / `Bvh::ids`. The subtree of any node is a
/// contiguous run of nodes, and its leaves cover a contiguous run of slots.
struct BvhNode {
  Aabb bounds;              ///< Closed box containing every triangle below this node.
  std::uint32_t first = 0;  ///< Leaf: first triangle slot. Inner: index of the right child.
  std::uint32_t count = 0;  ///< Leaf: number of triangles (>= 1). Inner: 0.

  /// True for a leaf.
  [[nodiscard]] bool is_leaf() const noexcept { return count != 0; }
};

/// A built hierarchy over a triangle soup. It owns copies of the triangles, reordered for
/// locality, so the soup it was built from may go away. Built by `build` (see build.hpp);
/// holds no build logic. Empty when built over no triangles (then every query answers nothing).
struct Bvh {
  std::vector<BvhNode> nodes;       ///< Depth-first; nodes[0] is the root when not empty.
  std::vector<Triangle> triangles;  ///< Triangles in leaf-slot order.
  std::vector<TriangleId> ids;      ///< Input id of the triangle in each slot.
  /// The same tree collapsed to 8-wide nodes, which the queries traverse; wide[0] is the root
  /// (its range is every slot). Same slots and leaves as `nodes`.
  std::vector<WideNode> wide;

  /// True when the BVH holds no triangle.
  [[nodiscard]] bool empty() const noexcept { return nodes.empty(); }
  /// Number of triangles.
  [[nodiscard]] std::size_t size() const noexcept { return ids.size(); }
  /// Bounds of all triangles (the empty box when empty).
  [[nodiscard]] Aabb bounds() const noexcept { return empty() ? Aabb::empty() : nodes[0].bounds; }
};

/// Deepest node depth any built BVH has (root at depth 0); traversal stacks are sized from it.
inline constexpr int max_bvh_depth = 96;

/// Facts about a built BVH.
struct BvhStatistics {
  std::size_t node_count = 0;  ///< Inner nodes plus leaves.
  std::size_t leaf_count = 0;  ///< Leaves.
  int depth = 0;               ///< Longest root-to-leaf path in edges (0 for a single leaf).
  double sah_cost = 0;         ///< Surface area heuristic cost with the given unit costs.
  std::size_t bytes = 0;       ///< Memory held by the BVH's arrays.
};

/// Statistics of `bvh`. The SAH cost is sum over inner nodes of traversal_cost * area / root
/// area plus sum over leaves of intersection_cost * count * area / root area (MacDonald &
/// Booth, "Heuristics for ray tracing using space subdivision", 1990).
[[nodiscard]] BvhStatistics statistics(const Bvh& bvh, float traversal_cost = 1.0f,
                                       float intersection_cost = 1.0f);

/// Throws `InvalidInput` describing the first broken invariant: a node referring outside the
/// arrays, a leaf with no triangle, a child box not inside its parent's box, a triangle not
/// inside its leaf's box, a slot covered by no leaf or by two, an id used twice, or a depth
/// beyond `max_bvh_depth`; for the wide nodes, a child range or box that disagrees with the
/// binary tree's leaves. When `soup` is given, also that every slot holds exactly the input
/// triangle its id names.
void validate(const Bvh& bvh, const TriangleSoup* soup = nullptr);

}  // namespace trisect
