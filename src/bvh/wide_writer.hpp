#pragma once
// The 8-wide tree of a builder that decides its splits top down over slot ranges (the Morton
// builder's code splits, the clustering builder's binary tree): each wide node is written
// depth first into a piece (wide_pieces.hpp), large subtrees in parallel as parts of their
// own. The builder says how a range splits; the writer lays out nodes, leaves and boxes.
// Internal.

#include "wide_pieces.hpp"

#include <tbb/parallel_for.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace trisect::detail {

/// What the writer asks a builder about its subtrees, each named by a `Range` covering the
/// contiguous slots [first(r), end(r)): `halves(r)` splits an inner r into its two parts in
/// slot order; `priority(r)` says which child of a node splits next (the largest first, the
/// first of equals; negative: r stays whole); `is_leaf(r)` tells whether r is one leaf;
/// `leaf_bounds(r)` is the closed box of a leaf's triangles.
template <class S>
concept WideSource = requires(const S& source, typename S::Range range) {
  { source.halves(range) } -> std::same_as<std::pair<typename S::Range, typename S::Range>>;
  { source.priority(range) } -> std::convertible_to<double>;
  { source.is_leaf(range) } -> std::same_as<bool>;
  { source.leaf_bounds(range) } -> std::same_as<Aabb>;
  { source.first(range) } -> std::same_as<std::uint32_t>;
  { source.end(range) } -> std::same_as<std::uint32_t>;
};

/// A subtree written as a piece, and the box of its triangles.
struct WrittenPiece {
  WidePiece piece;
  Aabb bounds = Aabb::empty();
};

/// Writes the wide tree of a `WideSource`. Ranges of at least `parallel_size` slots write their
/// inner children as parts, in parallel on the calling task arena; the laid-out tree is the one
/// a single task writes, so it does not depend on the thread count.
template <WideSource Source>
class WideWriter {
 public:
  using Range = typename Source::Range;
  static constexpr std::size_t parallel_size = 4096;

  explicit WideWriter(const Source& source) : source_(source) {}

  /// The counted piece of the whole tree over `root`; a root that is one leaf gets a node of
  /// its own, with that leaf its only child.
  [[nodiscard]] WrittenPiece write(const Range& root) const {
    if (!source_.is_leaf(root)) return write_piece(root);
    WrittenPiece written;
    const WideChild only{source_.leaf_bounds(root), source_.first(root), true};
    written.piece.nodes.emplace_back();
    write_wide_node(written.piece.nodes[0], &only, 1, source_.end(root));
    written.piece.leaves.push_back({source_.first(root), source_.end(root)});
    written.piece.count();
    written.bounds = only.bounds;
    return written;
  }

 private:
  static constexpr int width = WideNode::width;

  // The children of the wide node over `range` (not a leaf), in slot order, into `children`:
  // starting from its halves, the child of highest priority is split in place while the node
  // has room and one has a priority of 0 or more. Returns their count.
  int split(const Range& range, Range (&children)[width]) const {
    std::tie(children[0], children[1]) = source_.halves(range);
    int count = 2;
    while (count < width) {
      int chosen = -1;
      double highest = -1;
      for (int i = 0; i < count; ++i) {
        const double priority = source_.priority(children[i]);
        if (priority > highest) {
          chosen = i;
          highest = priority;
        }
      }
      if (chosen < 0) break;
      for (int i = count; i > chosen + 1; --i) children[i] = children[i - 1];
      std::tie(children[chosen], children[chosen + 1]) = source_.halves(children[chosen]);
      ++count;
    }
    return count;
  }

  // Fills `children` with `ranges`' first slots and kinds, the leaves' boxes, and adds the
  // leaves to `piece`.
  void describe(const Range (&ranges)[width], int count, WideChild (&children)[width],
                WidePiece& piece) const {
    for (int i = 0; i < count; ++i) {
      children[i].first = source_.first(ranges[i]);
      children[i].leaf = source_.is_leaf(ranges[i]);
      if (children[i].leaf) {
        children[i].bounds = source_.leaf_bounds(ranges[i]);
        piece.leaves.push_back({source_.first(ranges[i]), source_.end(ranges[i])});
      }
    }
  }

  // Writes the wide node over `children` (boxes of inner children set by the caller) at
  // piece.nodes[at], with inner child i at index[i], and returns the box of all children.
  static Aabb finish_node(WidePiece& piece, std::size_t at, const WideChild* children, int count,
                          const std::uint32_t* index, std::uint32_t end) {
    write_wide_node(piece.nodes[at], children, count, end);
    Aabb box = Aabb::empty();
    for (int i = 0; i < count; ++i) {
      if (!children[i].leaf) piece.nodes[at].child[i] = index[i];
      box = box.merged(children[i].bounds);
    }
    return box;
  }

  // Appends the subtree of the wide node over `range` to `piece`, depth first, and returns its
  // box.
  Aabb write_node(const Range& range, WidePiece& piece) const {
    Range ranges[width];
    const int count = split(range, ranges);
    const std::size_t at = piece.nodes.size();
    piece.nodes.emplace_back();
    WideChild children[width];
    describe(ranges, count, children, piece);
    std::uint32_t index[width] = {};
    for (int i = 0; i < count; ++i) {
      if (children[i].leaf) continue;
      index[i] = static_cast<std::uint32_t>(piece.nodes.size());
      children[i].bounds = write_node(ranges[i], piece);
    }
    return finish_node(piece, at, children, count, index, source_.end(range));
  }

  // The subtree of the wide node over `range` (not a leaf): depth first into one piece below
  // `parallel_size`, else this node alone with its inner children written in parallel as parts.
  WrittenPiece write_piece(const Range& range) const {
    WrittenPiece written;
    WidePiece& piece = written.piece;
    if (source_.end(range) - source_.first(range) < parallel_size) {
      written.bounds = write_node(range, piece);
      piece.count();
      return written;
    }
    Range ranges[width];
    const int count = split(range, ranges);
    piece.nodes.emplace_back();
    WideChild children[width];
    describe(ranges, count, children, piece);
    int inner[width];
    int parts = 0;
    for (int i = 0; i < count; ++i)
      if (!children[i].leaf) inner[parts++] = i;
    std::vector<WrittenPiece> written_parts(static_cast<std::size_t>(parts));
    tbb::parallel_for(0, parts, [&](int p) {
      written_parts[static_cast<std::size_t>(p)] = write_piece(ranges[inner[p]]);
    });
    const std::uint32_t placeholder[width] = {};
    for (int p = 0; p < parts; ++p) {
      WrittenPiece& part = written_parts[static_cast<std::size_t>(p)];
      children[inner[p]].bounds = part.bounds;
      piece.parts.push_back(std::move(part.piece));
      piece.links.push_back(static_cast<std::uint32_t>(inner[p]));
    }
    written.bounds = finish_node(piece, 0, children, count, placeholder, source_.end(range));
    piece.count();
    return written;
  }

  const Source& source_;
};

}  // namespace trisect::detail
