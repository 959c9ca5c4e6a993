#pragma once
// The finishing step every builder shares: from a builder's binary tree and leaf order to the
// one layout a `Bvh` holds (triangles copied in slot order, 8-wide nodes). Internal.

#include "trisect/bvh/bvh.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace trisect::detail {

/// A node of a builder's binary tree. The nodes live in one array with the root at index 0:
/// an inner node's left child is the next entry and its right child is at `first`; a leaf
/// covers positions [first, first + count) of the leaf order. The array may hold unreachable
/// entries (holes), as the parallel SAH builder leaves them. No default initialisation, so
/// that a builder can allocate a large array of them without zeroing it.
struct BinaryNode {
  Aabb bounds;          ///< Closed box containing every triangle below this node.
  std::uint32_t first;  ///< Leaf: first position in the leaf order. Inner: the right child.
  std::uint32_t count;  ///< Leaf: number of triangles (>= 1). Inner: 0.

  /// True for a leaf.
  [[nodiscard]] bool is_leaf() const noexcept { return count != 0; }
};

/// Unit costs of the collapse's surface area heuristic, and the largest leaf it may make.
struct CollapseCosts {
  float traversal = 1.0f;           ///< Cost of one wide node visited.
  float intersection = 1.0f;        ///< Cost of one lane of a leaf group tested.
  std::uint32_t max_leaf_size = 8;  ///< Triangles in one leaf at most (binary leaves fit).
};

/// The 8-wide form of the binary tree rooted at `nodes[0]` (`nodes` has `slot_count`
/// entries): the children of every wide node are a cut of 2 to 8 binary nodes below it, and a
/// binary subtree of at most `costs.max_leaf_size` triangles may become one leaf, chosen by
/// dynamic programming so that the wide tree's SAH cost (as `statistics` counts it, with
/// these costs, except that a leaf counts its triangles rounded up to a multiple of 4: the
/// lanes of its groups of four, tested together) is the least of all such trees (Ylitie, Karras &
/// Laine, "Efficient Incoherent Ray Traversal on GPUs Through Compressed Wide BVHs", HPG 2017).
/// Children stay in leaf order; wide nodes are stored depth-first, in one allocation of their exact
/// count. A root that is cheapest as one leaf gives one wide node with that leaf as its only child.
/// Runs in parallel on the calling task arena; the result depends on nothing but the tree.
[[nodiscard]] std::vector<WideNode> collapse_to_wide(const BinaryNode* nodes,
                                                     std::size_t slot_count,
                                                     const CollapseCosts& costs);

/// The slot ranges of the leaves of the wide tree `wide` over `slot_count` slots, in no
/// particular order.
[[nodiscard]] std::vector<LeafRange> leaf_ranges(std::span<const WideNode> wide,
                                                 std::uint32_t slot_count);

/// The `Bvh` over `soup` whose tree is the binary tree rooted at `nodes[0]` and whose slots
/// are the leaf order: `leaf_order[position]` is the input id at that position, and the leaves,
/// left to right, cover positions [0, leaf_order.size()) in order, so positions become slots.
/// Collapses the tree (`collapse_to_wide` with `costs`), copies the triangles grouped by its
/// leaves (`LeafTriangles::of`) and takes the root's box as `Bvh::bounds()`. `leaf_order` must not
/// be empty.
[[nodiscard]] Bvh finish(const BinaryNode* nodes, std::vector<TriangleId> leaf_order,
                         const TriangleSoup& soup, const CollapseCosts& costs);

}  // namespace trisect::detail
