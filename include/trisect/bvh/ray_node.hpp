#pragma once
/// \file
/// The node the ray walk reads: a wide node's eight child boxes as plain floats, so that a ray
/// tests them without decoding a grid (Embree's default BVH8 keeps float boxes for the same
/// reason; Wald et al., "Embree: A Kernel Framework for Efficient CPU Ray Tracing", 2014). The
/// quantised `WideNode` stays the tree's node for every other query and for the file; the ray
/// nodes are a view of it, node for node, made on request (`BuildOptions::ray_nodes`,
/// `refresh_ray_nodes`) and kept in step by `refit`.

#include "trisect/bvh/wide_node.hpp"

#include <cstdint>
#include <limits>

namespace trisect {

/// Wide node i's children with float boxes and one reference each, 256 bytes (four cache
/// lines, as Embree's BVH8 node). `bounds` rows are `WideNode::faces` rows decoded:
/// `bounds[2 * axis]` the lower faces, `bounds[2 * axis + 1]` the upper ones, the same floats as
/// `WideNode::face`. `ref[i]` says all a walk needs of child i, so that a walk's stack entry is
/// the reference and a key: an inner child's ray node index, or a leaf's first slot and
/// triangle count (`leaf_ref`). An unused lane is an empty leaf (no triangles) whose box is
/// empty (lower faces +inf, upper faces -inf): a ray test may pass over it or not, entering it
/// does nothing, so the ray kernels need no mask of used lanes.
struct alignas(64) RayNode {
  static constexpr int width = WideNode::width;
  /// Set in the reference of a leaf.
  static constexpr std::uint64_t leaf_bit = std::uint64_t{1} << 63;

  float bounds[6][width];    ///< Child boxes, structure of arrays, rows as `WideNode::faces`.
  std::uint64_t ref[width];  ///< Each child's reference (see above).

  /// The reference of a leaf of `count` triangles from slot `first` on.
  [[nodiscard]] static constexpr std::uint64_t leaf_ref(std::uint32_t first,
                                                        std::uint32_t count) noexcept {
    return leaf_bit | std::uint64_t{count} << 32 | first;
  }
  /// True when `ref` is a leaf's.
  [[nodiscard]] static constexpr bool is_leaf(std::uint64_t ref) noexcept {
    return (ref & leaf_bit) != 0;
  }
  /// A leaf reference's first slot, or an inner reference's node index.
  [[nodiscard]] static constexpr std::uint32_t index(std::uint64_t ref) noexcept {
    return static_cast<std::uint32_t>(ref);
  }
  /// A leaf reference's triangle count.
  [[nodiscard]] static constexpr std::uint32_t count(std::uint64_t ref) noexcept {
    return static_cast<std::uint32_t>(ref >> 32) & 0x7fffffffu;
  }

  /// The ray node of `node`, whose slot range ends at `end`: its boxes decoded, its unused
  /// lanes made empty leaves.
  [[nodiscard]] static RayNode of(const WideNode& node, std::uint32_t end) noexcept {
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
        ray.ref[lane] = node.child[lane];
    }
    return ray;
  }
};

static_assert(sizeof(RayNode) == 256);

}  // namespace trisect
