// The SAH builder: 8-wide nodes written directly, top down (no binary tree collapsed
// afterwards). Each wide node starts as one child, its range of references, and grows by
// splitting (binned SAH, sah_binning.hpp, after Wald 2007) the child with the largest box
// until it has 8 children or no split pays, as Embree's wide builders do (Wald et al., "Embree:
// A Kernel Framework for Efficient CPU Ray Tracing", 2014; the wide SAH itself as in Wald,
// Benthin & Boulos, "Getting Rid of Packets: Efficient SIMD Single-Ray Traversal using
// Multi-branching BVHs", 2008). Splitting a child costs no traversal while the node has room;
// a child that may be a leaf is one unless a wide node of its own over its best split costs
// less. The nodes are quantised and written depth first as they are made (wide_pieces.hpp).
//
// Determinism: every decision depends only on the node's range of references (reductions over
// it combine exact operations), and which subtrees are built as parallel tasks depends only on
// their sizes, so the tree does not depend on the thread count.
#include "trisect/bvh/build.hpp"

#include "huge_pages.hpp"
#include "mesh/checked_soup.hpp"
#include "morton_build.hpp"
#include "ploc_build.hpp"
#include "sah_binning.hpp"
#include "sah_partition.hpp"
#include "sah_reference.hpp"
#include "trisect/math/validate.hpp"
#include "wide_pieces.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>
#include "trisect/detail/thread_fallback.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trisect {
namespace {

using detail::BinMapping;
using detail::Partition;
using detail::RangeBounds;
using detail::Reference;
using detail::Split;
using detail::WideChild;
using detail::WidePiece;

// Wide nodes over at least this many references build their inner children as parallel tasks,
// each into a piece of its own; smaller subtrees are built depth first into one piece.
constexpr std::size_t parallel_subtree_threshold = 4096;
// Wide nodes at this depth or deeper split at the object median, which at least halves every
// child, so the depth stays under max_bvh_depth for any 32-bit triangle count.
constexpr int sah_depth_limit = max_bvh_depth - 40;
constexpr int width = WideNode::width;

// A range of references that is, or may become, one child of the wide node being grown.
struct Candidate {
  std::size_t begin = 0, end = 0;
  RangeBounds range;
  BinMapping mapping;  // with `split`, once evaluated
  Split split;
  bool evaluated = false;
  bool leaf = false;  // decided: one leaf

  [[nodiscard]] std::size_t size() const { return end - begin; }
  [[nodiscard]] float area() const { return range.bounds.half_area(); }
};

class Builder {
 public:
  // The references are made in the pass that validates the triangles (`detail::read_checked`),
  // into an array left uninitialised until then: the soup's shape must be valid; throws as
  // `validate(soup)` does when a triangle is not.
  Builder(const TriangleSoup& soup, const BuildOptions& options)
      : options_(options), size_(soup.size()), references_(new Reference[soup.size()]) {
    detail::advise_huge_pages(references_.get(), size_ * sizeof(Reference));
    std::atomic<bool> invalid = false;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, soup.size(), 4096), [&](const auto& r) {
      Triangle triangle;
      for (std::size_t id = r.begin(); id != r.end(); ++id) {
        if (!detail::read_checked(soup, id, triangle)) {
          invalid.store(true, std::memory_order_relaxed);
          return;
        }
        references_[id] = Reference::of(triangle.bounds(), static_cast<TriangleId>(id));
      }
    });
    if (invalid.load()) validate(soup);  // throws, naming the first invalid triangle
  }

  // The BVH. The references' order becomes the slot order; they are freed before the
  // triangles are copied.
  [[nodiscard]] Bvh build(const TriangleSoup& soup) && {
    Candidate root;
    root.end = size_;
    root.range = detail::bounds_of(references_.get(), 0, size_);
    evaluate(root, 0);
    WidePiece tree;
    // A root that is one leaf is still one wide node, with that leaf as its only child: the
    // root's traversal is paid either way.
    if (root.size() <= options_.max_leaf_size &&
        (root.split.axis < 0 || leaf_cost(root) <= sibling_cost(root))) {
      tree.nodes.emplace_back();
      const WideChild only{root.range.bounds.to_aabb(), 0, true};
      detail::write_wide_node(tree.nodes[0], &only, 1, static_cast<std::uint32_t>(size_));
      tree.leaves.push_back({0, static_cast<std::uint32_t>(size_)});
      tree.count();
    } else {
      tree = build_piece(root, 0);
    }
    std::vector<TriangleId> ids;
    detail::resize_on_huge_pages(ids, size_);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, size_, 4096), [&](const auto& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i) ids[i] = references_[i].id();
    });
    references_.reset();
    return detail::assemble(tree, std::move(ids), soup, root.range.bounds.to_aabb());
  }

 private:
  // Cost of a leaf of `count` triangles and box half area `area`: the intersection cost per
  // lane of its groups of four (`LeafTriangles`), which are tested together, so that a leaf of
  // 1 to 4 triangles costs as much as one of 4.
  [[nodiscard]] float leaf_cost(std::size_t count, float area) const {
    const std::size_t lanes =
        (count + TriangleGroup::width - 1) / TriangleGroup::width * TriangleGroup::width;
    return options_.intersection_cost * static_cast<float>(lanes) * area;
  }
  [[nodiscard]] float leaf_cost(const Candidate& c) const { return leaf_cost(c.size(), c.area()); }
  // True when `c` (evaluated, at most `max_leaf_size` references) costs less as one leaf than
  // as a wide node of its own over its two halves.
  [[nodiscard]] bool leaf_pays(const Candidate& c) const {
    return c.split.axis < 0 || leaf_cost(c) <= options_.traversal_cost * c.area() + sibling_cost(c);
  }
  // Cost of `c` split in two by its evaluated split, both sides leaves of the same wide node.
  [[nodiscard]] float sibling_cost(const Candidate& c) const {
    return leaf_cost(c.split.left_count, c.split.left_area) +
           leaf_cost(c.size() - c.split.left_count, c.split.right_area);
  }

  // Finds the best binned SAH split of `c`, a child of a wide node at `depth`; none when its
  // centroids coincide or at the depth limit (then a split must be at the median).
  void evaluate(Candidate& c, int depth) const {
    c.evaluated = true;
    const std::size_t count = c.size();
    if (count == 1) return;
    // Small ranges need no more bins than references.
    const auto bins = static_cast<std::uint32_t>(
        std::min<std::size_t>(options_.bin_count, std::max<std::size_t>(count, 4)));
    c.mapping = BinMapping(c.range.centroids, bins);
    if (c.mapping.all_coincide() || depth >= sah_depth_limit) return;
    if (count == 2) {
      c.split = pair_split(c.begin, c.mapping);
      return;
    }
    detail::Binning binning(bins);
    detail::bin(references_.get(), c.begin, c.end, c.mapping, binning);
    c.split = detail::best_split(binning, c.mapping);
  }

  // What `best_split` finds for the two references at `begin`, without binning them (many
  // ranges the build weighs have two references): along every axis where their centroids
  // differ they fall in the first and the last bin, so every such axis separates them at the
  // same cost (x + y = y + x in floats) and the first one wins.
  [[nodiscard]] Split pair_split(std::size_t begin, const BinMapping& mapping) const {
    for (int axis = 0; axis < 3; ++axis)
      if (mapping.scale_by_axis[axis] != 0) {
        const float left = references_[begin].box().half_area();
        const float right = references_[begin + 1].box().half_area();
        return {axis, 0, left + right, left, right, 1};
      }
    return {};
  }

  // Splits `c` (evaluated, more than one reference) by its split, or at the object median when
  // it has none.
  std::pair<Candidate, Candidate> split(const Candidate& c) {
    const Partition cut =
        c.split.axis >= 0
            ? detail::cut(references_.get(), c.begin, c.end, c.mapping, c.split)
            : detail::median_partition(references_.get(), c.begin, c.end, c.range.centroids);
    std::pair<Candidate, Candidate> halves;
    halves.first.begin = c.begin;
    halves.first.end = cut.middle;
    halves.first.range = cut.left;
    halves.second.begin = cut.middle;
    halves.second.end = c.end;
    halves.second.range = cut.right;
    halves.first.leaf = halves.first.size() == 1;
    halves.second.leaf = halves.second.size() == 1;
    return halves;
  }

  // The children of the wide node over `node` (which must be split) at `depth`, in slot order:
  // the child with the largest box is split while there is room and the split pays (always
  // when the child is larger than a leaf may be). Then each child is marked a leaf or not.
  int grow(const Candidate& node, int depth, Candidate (&children)[width]) {
    children[0] = node;
    int count = 1;
    for (bool first = true; count < width; first = false) {
      int chosen = -1;
      float largest = -std::numeric_limits<float>::infinity();
      for (int i = 0; i < count; ++i)
        if (!children[i].leaf && children[i].area() > largest) {
          chosen = i;
          largest = children[i].area();
        }
      if (chosen < 0) break;
      Candidate& c = children[chosen];
      if (!c.evaluated) evaluate(c, depth);
      const bool must_split = c.size() > options_.max_leaf_size;
      if (!first && !must_split && (c.split.axis < 0 || sibling_cost(c) >= leaf_cost(c))) {
        c.leaf = true;
        continue;
      }
      auto [left, right] = split(c);
      for (int i = count; i > chosen + 1; --i) children[i] = children[i - 1];
      children[chosen] = left;
      children[chosen + 1] = right;
      ++count;
    }
    // A child that may be a leaf is one unless a wide node of its own pays for its traversal.
    for (int i = 0; i < count; ++i) {
      Candidate& c = children[i];
      if (c.leaf || c.size() > options_.max_leaf_size) continue;
      if (!c.evaluated) evaluate(c, depth + 1);
      c.leaf = leaf_pays(c);
    }
    return count;
  }

  // Grows the wide node over `node` and writes it to `piece` (returning its index there),
  // its leaves added to `piece.leaves`.
  std::size_t write_node(const Candidate& node, int depth, Candidate (&children)[width], int& count,
                         WidePiece& piece) {
    count = grow(node, depth, children);
    WideChild written[width];
    for (int i = 0; i < count; ++i) {
      written[i] = {children[i].range.bounds.to_aabb(),
                    static_cast<std::uint32_t>(children[i].begin), children[i].leaf};
      if (children[i].leaf)
        piece.leaves.push_back({static_cast<std::uint32_t>(children[i].begin),
                                static_cast<std::uint32_t>(children[i].end)});
    }
    const std::size_t at = piece.nodes.size();
    piece.nodes.emplace_back();
    detail::write_wide_node(piece.nodes[at], written, count, static_cast<std::uint32_t>(node.end));
    return at;
  }

  // Appends the subtree of the wide node over `node` to `piece`, depth first.
  void build_node(const Candidate& node, int depth, WidePiece& piece) {
    Candidate children[width];
    int count = 0;
    const std::size_t at = write_node(node, depth, children, count, piece);
    for (int i = 0; i < count; ++i) {
      if (children[i].leaf) continue;
      piece.nodes[at].child[i] = static_cast<std::uint32_t>(piece.nodes.size());
      build_node(children[i], depth + 1, piece);
    }
  }

  // The subtree of the wide node over `node`: depth first into one piece below the parallel
  // threshold, else this node alone with its inner children built in parallel as parts.
  WidePiece build_piece(const Candidate& node, int depth) {
    WidePiece piece;
    if (node.size() < parallel_subtree_threshold) {
      build_node(node, depth, piece);
    } else {
      Candidate children[width];
      int count = 0;
      write_node(node, depth, children, count, piece);
      int inner[width];
      int parts = 0;
      for (int i = 0; i < count; ++i)
        if (!children[i].leaf) inner[parts++] = i;
      piece.parts.resize(static_cast<std::size_t>(parts));
      for (int p = 0; p < parts; ++p) piece.links.push_back(static_cast<std::uint32_t>(inner[p]));
      tbb::parallel_for(0, parts, [&](int p) {
        piece.parts[static_cast<std::size_t>(p)] = build_piece(children[inner[p]], depth + 1);
      });
    }
    piece.count();
    return piece;
  }

  const BuildOptions& options_;
  std::size_t size_;
  std::unique_ptr<Reference[]> references_;
};

void check(const BuildOptions& options) {
  if (options.max_leaf_size < 1 || options.max_leaf_size > 255)
    throw InvalidInput("build options: max_leaf_size " + std::to_string(options.max_leaf_size) +
                       " is outside [1, 255]");
  if (options.bin_count < 2 || options.bin_count > detail::max_bins)
    throw InvalidInput("build options: bin_count " + std::to_string(options.bin_count) +
                       " is outside [2, 64]");
  if (!(options.traversal_cost >= 0) || !(options.intersection_cost > 0) ||
      !std::isfinite(options.traversal_cost) || !std::isfinite(options.intersection_cost))
    throw InvalidInput(
        "build options: costs must be finite, traversal_cost >= 0 and "
        "intersection_cost > 0");
  validate_thread_count(options.threads, "build options");
}

Bvh build_in_arena(const TriangleSoup& soup, const BuildOptions& options) {
  if (options.method == BuildMethod::morton) return detail::build_morton(soup, options);
  if (options.method == BuildMethod::ploc) return detail::build_ploc(soup, options);
  return Builder(soup, options).build(soup);
}

}  // namespace

Bvh build(const TriangleSoup& soup, const BuildOptions& options) {
  check(options);
  // The builders check the triangles in their first pass over them.
  if (!detail::soup_shape_is_valid(soup) || soup.empty()) validate(soup);
  if (soup.empty()) return {};
  return detail::with_thread_fallback(static_cast<int>(options.threads), [&] {
    Bvh bvh = build_in_arena(soup, options);
    if (options.ray_nodes) refresh_ray_nodes(bvh);
    if (options.ray_leaves) refresh_ray_leaves(bvh);
    return bvh;
  });
}

}  // namespace trisect
