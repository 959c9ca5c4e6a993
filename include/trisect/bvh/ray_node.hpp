#pragma once
/// \file
/// The node the ray walk reads above the bottom of the tree: a wide node's eight child boxes as
/// plain floats, so that a ray tests them without decoding a grid (Embree's default BVH8 keeps
/// float boxes for the same reason; Wald et al., "Embree: A Kernel Framework for Efficient CPU
/// Ray Tracing", 2014). The wide nodes whose children are all leaves, most of them, keep their
/// quantised boxes for rays too (Benthin et al.'s compressed leaves). The quantised `WideNode`
/// stays the tree's node for every other query and for the file; the ray nodes are a view of
/// it, made on request (`BuildOptions::ray_nodes`, `refresh_ray_nodes`) and kept in step by
/// `refit`.

#include "trisect/bvh/wide_node.hpp"

#include <cstdint>
#include <limits>

namespace trisect {

/// A wide node's children with float boxes and one reference each, 256 bytes (four cache
/// lines, as Embree's BVH8 node). `bounds` rows are `WideNode::faces` rows decoded:
/// `bounds[2 * axis]` the lower faces, `bounds[2 * axis + 1]` the upper ones, the same floats as
/// `WideNode::face`. `ref[i]` says all a walk needs of child i, so that a walk's stack entry is
/// the reference and a key: an inner child's ray node index, a bottom node's wide node index and
/// slot span (`bottom_ref`), or a leaf's first slot and triangle count (`leaf_ref`). An unused lane
/// is an empty leaf (no triangles) whose box is empty (lower faces +inf, upper faces -inf): a ray
/// test may pass over it or not, entering it does nothing, so the ray kernels need no mask of used
/// lanes.
struct alignas(64) RayNode {
  static constexpr int width = WideNode::width;
  /// Set in the reference of a leaf.
  static constexpr std::uint64_t leaf_bit = std::uint64_t{1} << 63;
  /// Set in the reference of a bottom node: an inner child whose children are all leaves. The
  /// walk tests such a node's quantised `WideNode` boxes, not its ray node (Benthin et al.,
  /// "Compressed-Leaf Bounding Volume Hierarchies", HPG 2018: float boxes above, quantised
  /// ones just above the leaves, where most nodes are).
  static constexpr std::uint64_t bottom_bit = std::uint64_t{1} << 62;
  /// Bottom nodes span fewer slots than this (8 leaves of at most 255 triangles do).
  static constexpr std::uint32_t bottom_span_limit = std::uint32_t{1} << 30;

  float bounds[6][width];    ///< Child boxes, structure of arrays, rows as `WideNode::faces`.
  std::uint64_t ref[width];  ///< Each child's reference (see above).

  /// The reference of a leaf of `count` triangles from slot `first` on.
  [[nodiscard]] static constexpr std::uint64_t leaf_ref(std::uint32_t first,
                                                        std::uint32_t count) noexcept {
    return leaf_bit | std::uint64_t{count} << 32 | first;
  }
  /// The reference of bottom node `wide_index` (an index into `Bvh::wide`), whose slots are
  /// [first, first + span) with `first` its first child's (span < `bottom_span_limit`).
  [[nodiscard]] static constexpr std::uint64_t bottom_ref(std::uint32_t wide_index,
                                                          std::uint32_t span) noexcept {
    return bottom_bit | std::uint64_t{span} << 32 | wide_index;
  }
  /// True when the walk tests `node`, whose slots number `span`, as a bottom node: its children
  /// are all leaves and its span fits a bottom reference.
  [[nodiscard]] static bool walks_as_bottom(const WideNode& node, std::uint64_t span) noexcept {
    return node.holds_only_leaves() && span < bottom_span_limit;
  }
  /// True when `ref` is a leaf's.
  [[nodiscard]] static constexpr bool is_leaf(std::uint64_t ref) noexcept {
    return (ref & leaf_bit) != 0;
  }
  /// True when `ref` is a bottom node's.
  [[nodiscard]] static constexpr bool is_bottom(std::uint64_t ref) noexcept {
    return (ref & (leaf_bit | bottom_bit)) == bottom_bit;
  }
  /// A bottom reference's slot span.
  [[nodiscard]] static constexpr std::uint32_t span(std::uint64_t ref) noexcept {
    return static_cast<std::uint32_t>(ref >> 32) & (bottom_span_limit - 1);
  }
  /// A leaf reference's first slot, a bottom reference's wide node index, or an inner
  /// reference's ray node index.
  [[nodiscard]] static constexpr std::uint32_t index(std::uint64_t ref) noexcept {
    return static_cast<std::uint32_t>(ref);
  }
  /// A leaf reference's triangle count.
  [[nodiscard]] static constexpr std::uint32_t count(std::uint64_t ref) noexcept {
    return static_cast<std::uint32_t>(ref >> 32) & 0x7fffffffu;
  }

  /// The ray node of `node`, whose slot range ends at `end`: its boxes decoded, its unused
  /// lanes made empty leaves, its leaves' references made here, and each inner child's
  /// reference taken from `inner_refs` (a ray node index or a `bottom_ref`).
  [[nodiscard]] static RayNode of(const WideNode& node, std::uint32_t end,
                                  const std::uint64_t (&inner_refs)[width]) noexcept {
    RayNode ray;
    constexpr float infinity = std::numeric_limits<float>::infinity();
    for (int lane = 0; lane < width; ++lane) {
      const bool used = (node.used_mask() >> lane & 1) != 0;
      for (int row = 0; row < 6; ++row)
        ray.bounds[row][lane] = used ? node.face(row, lane) : (row % 2 == 0 ? infinity : -infinity);
      const std::uint32_t first = node.first[lane];
      if (!used)
        ray.ref[lane] = leaf_ref(0, 0);
      else if (node.child[lane] == WideNode::leaf)
        ray.ref[lane] = leaf_ref(first, node.child_end(lane, end) - first);
      else
        ray.ref[lane] = inner_refs[lane];
    }
    return ray;
  }
};

static_assert(sizeof(RayNode) == 256);

}  // namespace trisect
