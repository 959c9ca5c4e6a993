#pragma once
// A builder's binary tree made in pieces by parallel tasks and then laid out in one array of
// exactly its node count, depth first (finish.hpp's `BinaryNode` layout: left child next).
// Reserving each subtree its largest possible region instead (2 c - 1 nodes for c triangles)
// leaves holes in every page, so that a build and the collapse's per-node tables touch about
// three times the memory the tree needs, and clearing fresh pages costs more than laying the
// pieces out.

#include "finish.hpp"

#include <tbb/parallel_invoke.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace trisect::detail {

/// A subtree: either whole, its nodes depth first with the right children's indices counted
/// from its first node (`nodes` alone), or its root (`nodes[0]`, an inner node whose `first`
/// is not yet set) above two pieces built apart.
struct TreePiece {
  std::vector<BinaryNode> nodes;
  std::unique_ptr<TreePiece> left, right;
  std::size_t size = 0;  ///< Nodes in the subtree.

  /// A leaf or a whole subtree.
  static TreePiece whole(std::vector<BinaryNode> nodes) {
    TreePiece piece;
    piece.size = nodes.size();
    piece.nodes = std::move(nodes);
    return piece;
  }
  /// The inner node over `bounds` above `left` and `right`.
  static TreePiece joined(const Aabb& bounds, TreePiece left, TreePiece right) {
    TreePiece piece;
    piece.nodes.push_back({bounds, 0, 0});
    piece.size = 1 + left.size + right.size;
    piece.left = std::make_unique<TreePiece>(std::move(left));
    piece.right = std::make_unique<TreePiece>(std::move(right));
    return piece;
  }
};

/// Writes `piece` to nodes [at, at + piece.size) of `out`, depth first; pieces of at least
/// `parallel_size` nodes lay out their two halves in parallel (on the calling task arena).
inline void lay_out(const TreePiece& piece, BinaryNode* out, std::size_t at,
                    std::size_t parallel_size) {
  if (!piece.left) {
    for (std::size_t i = 0; i < piece.nodes.size(); ++i) {
      out[at + i] = piece.nodes[i];
      if (!out[at + i].is_leaf()) out[at + i].first += static_cast<std::uint32_t>(at);
    }
    return;
  }
  const std::size_t right_at = at + 1 + piece.left->size;
  out[at] = {piece.nodes[0].bounds, static_cast<std::uint32_t>(right_at), 0};
  const auto left = [&] { lay_out(*piece.left, out, at + 1, parallel_size); };
  const auto right = [&] { lay_out(*piece.right, out, right_at, parallel_size); };
  if (piece.size >= parallel_size) {
    tbb::parallel_invoke(left, right);
  } else {
    left();
    right();
  }
}

}  // namespace trisect::detail
