#pragma once
// A wide tree written directly by a builder, in pieces: parallel tasks each write the 8-wide
// nodes of their subtree into a piece of their own, depth first, and the pieces are then laid out
// in one array of the tree's exact size and the `Bvh` assembled around it. A piece's nodes point
// at each other by index relative to its first node; a piece may also hang whole pieces (built
// apart) under lanes of its nodes. Builders hang parts only under a piece of one node, so the
// laid-out order is the depth-first (preorder) order a single task would have written. Internal.

#include "huge_pages.hpp"
#include "quantize.hpp"
#include "trisect/bvh/bvh.hpp"

#include <tbb/parallel_for.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace trisect::detail {

/// What a builder knows of one child of a wide node when it writes the node.
struct WideChild {
  Aabb bounds;          ///< Closed box of the child's triangles.
  std::uint32_t first;  ///< First slot of the child.
  bool leaf;            ///< True when the child is one leaf over its slots.
};

/// A subtree's wide nodes, depth first, with the leaves they hold and the parts built apart.
struct WidePiece {
  std::vector<WideNode> nodes;       ///< Child indices relative to nodes[0].
  std::vector<LeafRange> leaves;     ///< The slot ranges of the leaves in `nodes`.
  std::vector<WidePiece> parts;      ///< Subtrees built apart, in slot order.
  std::vector<std::uint32_t> links;  ///< Per part: 8 * node + lane of the child it is.
  std::size_t node_total = 0;        ///< Nodes here and in every part, once `count`ed.
  std::size_t leaf_total = 0;        ///< Leaves here and in every part, once `count`ed.

  /// Sets the totals from the parts' totals (which must be set).
  void count() {
    node_total = nodes.size();
    leaf_total = leaves.size();
    for (const WidePiece& part : parts) {
      node_total += part.node_total;
      leaf_total += part.leaf_total;
    }
  }
};

/// Writes the wide node over `children[0 .. count)` (1 <= count <= 8, in slot order, the node
/// ending at slot `end`) to `node`: their quantised boxes, first slots and kinds. Inner children
/// get index `WideNode::leaf - 1` as a placeholder, for the caller to set.
inline void write_wide_node(WideNode& node, const WideChild* children, int count,
                            std::uint32_t end) {
  Aabb boxes[WideNode::width];
  for (int i = 0; i < WideNode::width; ++i) boxes[i] = children[i < count ? i : 0].bounds;
  quantize_children(node, boxes, count);
  for (int i = 0; i < WideNode::width; ++i) {
    const bool used = i < count;
    node.first[i] = used ? children[i].first : end;
    node.child[i] = !used              ? WideNode::unused
                    : children[i].leaf ? WideNode::leaf
                                       : WideNode::leaf - 1;
  }
}

/// Writes `piece` (counted) to nodes [at, at + node_total) of `nodes` and its leaves to
/// [leaf_at, leaf_at + leaf_total) of `leaves`; parts are laid out in parallel (on the calling
/// task arena) after the piece's own nodes, in order.
inline void lay_out(const WidePiece& piece, WideNode* nodes, std::size_t at, LeafRange* leaves,
                    std::size_t leaf_at) {
  const auto base = static_cast<std::uint32_t>(at);
  for (std::size_t i = 0; i < piece.nodes.size(); ++i) {
    WideNode node = piece.nodes[i];
    for (std::uint32_t& child : node.child)
      if (child < WideNode::leaf) child += base;
    nodes[at + i] = node;
  }
  std::copy(piece.leaves.begin(), piece.leaves.end(), leaves + leaf_at);
  std::vector<std::pair<std::size_t, std::size_t>> offsets;  // per part: node, leaf offset
  std::size_t next = at + piece.nodes.size(), next_leaf = leaf_at + piece.leaves.size();
  for (std::size_t p = 0; p < piece.parts.size(); ++p) {
    const std::uint32_t link = piece.links[p];
    nodes[at + link / WideNode::width].child[link % WideNode::width] =
        static_cast<std::uint32_t>(next);
    offsets.emplace_back(next, next_leaf);
    next += piece.parts[p].node_total;
    next_leaf += piece.parts[p].leaf_total;
  }
  tbb::parallel_for(std::size_t{0}, piece.parts.size(), [&](std::size_t p) {
    lay_out(piece.parts[p], nodes, offsets[p].first, leaves, offsets[p].second);
  });
}

/// The wide nodes of `root` (counted) in one array, and its leaves in the same order.
struct LaidOut {
  std::vector<WideNode> wide;
  std::vector<LeafRange> leaves;
};
inline LaidOut laid_out(const WidePiece& root) {
  LaidOut result;
  resize_on_huge_pages(result.wide, root.node_total);
  result.leaves.resize(root.leaf_total);
  lay_out(root, result.wide.data(), 0, result.leaves.data(), 0);
  return result;
}

/// The `Bvh` of the laid-out nodes `wide`, slot `s` holding triangle `ids[s]`, the triangles
/// `triangles`; `bounds` is the box of all triangles.
inline Bvh bvh_of(std::vector<WideNode> wide, std::vector<TriangleId> ids, LeafTriangles triangles,
                  const Aabb& bounds) {
  Bvh bvh;
  bvh.wide = std::move(wide);
  bvh.triangles = std::move(triangles);
  bvh.ids = std::move(ids);
  bvh.root_bounds = bounds;
  return bvh;
}

/// The `Bvh` whose wide tree is `root` (counted), whose slot `s` holds triangle `ids[s]`, and
/// whose triangles are `triangles`, every leaf written but none marked (`LeafTriangles::
/// unfilled`): marked here from the tree's leaves. `bounds` is the box of all triangles.
inline Bvh assemble(const WidePiece& root, std::vector<TriangleId> ids, LeafTriangles triangles,
                    const Aabb& bounds) {
  LaidOut tree = laid_out(root);
  triangles.mark_leaves(tree.leaves);
  return bvh_of(std::move(tree.wide), std::move(ids), std::move(triangles), bounds);
}

/// The `Bvh` over `soup` whose wide tree is `root` (counted) and whose slot `s` holds triangle
/// `ids[s]`; `bounds` is the box of all triangles. Copies the triangles (`LeafTriangles::of`).
inline Bvh assemble(const WidePiece& root, std::vector<TriangleId> ids, const TriangleSoup& soup,
                    const Aabb& bounds) {
  LaidOut tree = laid_out(root);
  LeafTriangles triangles = LeafTriangles::of(soup, ids, tree.leaves);
  return bvh_of(std::move(tree.wide), std::move(ids), std::move(triangles), bounds);
}

}  // namespace trisect::detail
