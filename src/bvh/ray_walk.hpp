#pragma once
// The ray walk: the ordered walk (trisect/bvh/ordered_walk.hpp) specialised to the float ray
// nodes (`Bvh::ray_nodes`). Same visitors, same order, same answers; cheaper steps: a ray node
// gives each child's whole reference (a node index, or a leaf's first slot and count), so a
// stack entry is a reference and a key, and a child is pushed with two stores (Embree's BVH8
// traversal keeps such 8-byte node references and distances on its stack; Wald et al.,
// "Embree: A Kernel Framework for Efficient CPU Ray Tracing", 2014). Internal to the library.
#include "trisect/bvh/detail/traverse.hpp"
#include "trisect/bvh/ordered_walk.hpp"

#include <bit>
#include <cstdint>
#include <limits>

namespace trisect::detail {

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
  // Asks for the memory of a child about to be visited: its node, or its leaf's first group.
  const auto prefetch = [&](std::uint64_t child) {
    if (RayNode::is_leaf(child))
      prefetch_first_slots(bvh, RayNode::index(child));
    else
      prefetch_node(nodes + child);
  };
  std::uint64_t ref = 0;  // the root, node 0
  float key = -std::numeric_limits<float>::infinity();
  for (;;) {
    if (key <= visitor.bound()) {
      if (RayNode::is_leaf(ref)) {
        const std::uint32_t first = RayNode::index(ref);
        const std::uint32_t count = RayNode::count(ref);
        counts.triangles_tested += count;
        if (!visitor.visit_leaf(first, first + count)) break;
      } else {
        const RayNode& node = nodes[ref];
        ++counts.nodes_visited;
        alignas(32) float keys[RayNode::width];
        unsigned mask = visitor.enter(node, keys);
        if (mask != 0) {
          int next = static_cast<int>(std::bit_width(mask)) - 1;
          if constexpr (order == WalkOrder::nearest_first) {
            for (unsigned bits = mask & ~(1u << next); bits != 0; bits &= bits - 1) {
              const int i = std::countr_zero(bits);
              if (keys[i] < keys[next]) next = i;
            }
          }
          const std::size_t base = top;
          for (mask &= ~(1u << next); mask != 0; mask &= mask - 1) {
            const int i = std::countr_zero(mask);
            const Entry child{node.ref[i], keys[i]};
            prefetch(child.ref);
            std::size_t at = top++;
            while (order == WalkOrder::nearest_first && at > base &&
                   stack[at - 1].key < child.key) {
              stack[at] = stack[at - 1];
              --at;
            }
            stack[at] = child;
          }
          ref = node.ref[next];
          key = keys[next];
          prefetch(ref);
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
