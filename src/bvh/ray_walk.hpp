#pragma once
// The ray walk: the ordered walk (trisect/bvh/ordered_walk.hpp) specialised to the float ray
// nodes (`Bvh::ray_nodes`) above the bottom nodes and the quantised wide nodes at the bottom
// (Benthin et al., "Compressed-Leaf Bounding Volume Hierarchies", HPG 2018). Same visitors,
// same order, same answers; cheaper steps: a ray node gives each child's whole reference (a
// ray node index, a bottom node's wide index and span, or a leaf's first slot and count), so
// a stack entry is a reference and a key, and a child is pushed with two stores (Embree's
// BVH8 traversal keeps such 8-byte node references and distances on its stack; Wald et al.,
// "Embree: A Kernel Framework for Efficient CPU Ray Tracing", 2014). Internal to the library.
#include "trisect/bvh/detail/traverse.hpp"
#include "trisect/bvh/ordered_walk.hpp"

#include <bit>
#include <cstdint>
#include <limits>

namespace trisect::detail {

/// The reference the ray walk starts from: the root's ray node, or the root itself as a bottom
/// node when it holds only leaves. `bvh` must not be empty.
[[nodiscard]] inline std::uint64_t ray_root(const Bvh& bvh) noexcept {
  const WideNode& root = bvh.wide[0];
  if (RayNode::walks_as_bottom(root, bvh.size()))
    return RayNode::bottom_ref(0, static_cast<std::uint32_t>(bvh.size()));
  return 0;
}

/// Walks `bvh`'s ray nodes for `visitor` (an `OrderedWalkVisitor` of ray nodes) to the end,
/// in the order `ordered_walk` takes: the nearest child next with `nearest_first` (the others
/// pushed farthest first), the last lane next with `lane_order`. `bvh.has_ray_nodes()` must
/// hold. Adds the counts to `stats` as `ordered_walk` does. Always inlined, so that it is
/// compiled for the caller's instruction set.
template <WalkOrder order, class Visitor>
requires OrderedWalkVisitor<Visitor, RayNode>
[[gnu::always_inline]] inline void ray_walk(const Bvh& bvh, Visitor& visitor,
                                            QueryStats* stats = nullptr) {
  struct Entry {
    std::uint64_t ref;
    float key;
  };
  // The builder bounds the depth by max_bvh_depth, and each level adds at most seven entries.
  Entry stack[(RayNode::width - 1) * (max_bvh_depth + 1) + 1];
  std::size_t top = 0;
  const StatsRecorder recorder(stats);
  QueryStats counts;
  const RayNode* nodes = bvh.ray_nodes.data();
  const bool ray_leaves = bvh.has_ray_leaves();
  // Asks for the memory of a child about to be visited: its node, or its leaf's first group.
  const auto prefetch = [&](std::uint64_t child) {
    if (RayNode::is_leaf(child))
      prefetch_first_ray_slots(bvh, RayNode::index(child), ray_leaves);
    else if (RayNode::is_bottom(child))
      prefetch_node(bvh.wide.data() + RayNode::index(child));
    else
      prefetch_node(nodes + child);
  };
  std::uint64_t ref = ray_root(bvh);
  float key = -std::numeric_limits<float>::infinity();
  // The children of `mask` (with entry parameters `keys`): the next one to visit into
  // `ref` and `key`, the others pushed; `child_ref(i)` gives lane i's reference.
  const auto step = [&](unsigned mask, const float(&keys)[RayNode::width], auto&& child_ref) {
    const int next = next_lane<order>(mask, keys);
    const std::size_t base = top;
    for (mask &= ~(1u << next); mask != 0; mask &= mask - 1) {
      const int i = std::countr_zero(mask);
      const Entry child{child_ref(i), keys[i]};
      prefetch(child.ref);
      push_by_key<order>(stack, top, base, child);
    }
    ref = child_ref(next);
    key = keys[next];
    prefetch(ref);
  };
  for (;;) {
    if (key <= visitor.bound()) {
      if (RayNode::is_leaf(ref)) {
        const std::uint32_t first = RayNode::index(ref);
        const std::uint32_t count = RayNode::count(ref);
        counts.triangles_tested += count;
        if (!visitor.visit_leaf(first, first + count)) break;
      } else if (RayNode::is_bottom(ref)) {
        const WideNode& node = bvh.wide[RayNode::index(ref)];
        const std::uint32_t end = node.first[0] + RayNode::span(ref);
        ++counts.nodes_visited;
        alignas(32) float keys[RayNode::width];
        const unsigned mask = visitor.enter(node, keys) & node.used_mask();
        if (mask != 0) {
          step(mask, keys, [&](int i) {
            return RayNode::leaf_ref(node.first[i], node.child_end(i, end) - node.first[i]);
          });
          continue;
        }
      } else {
        const RayNode& node = nodes[ref];
        ++counts.nodes_visited;
        alignas(32) float keys[RayNode::width];
        const unsigned mask = visitor.enter(node, keys);
        if (mask != 0) {
          step(mask, keys, [&](int i) { return node.ref[i]; });
          continue;
        }
      }
    }
    if (top == 0) break;
    --top;
    ref = stack[top].ref;
    key = stack[top].key;
  }
  recorder.add(counts);
}

}  // namespace trisect::detail
