#pragma once
/// \file
/// The one generic traversal for "which triangles touch this set" queries.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/detail/traverse.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/bvh/triangle_query.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace trisect {

/// Calls `visit(id)` once for every triangle that touches `query`, in no particular order,
/// until `visit` returns false. Returns false when stopped early, true otherwise. Depth-first
/// over the 8-wide nodes with a fixed stack (the builder bounds the depth by `max_bvh_depth`;
/// an overflow, which that bound rules out, would throw std::logic_error rather than pass
/// silently); a child that lies inside the query reports
/// its whole slot range without testing each triangle. Const and thread-safe. When `stats` is
/// given, adds this query's counts to it (`nodes_visited` counts the root box and the wide
/// nodes entered).
template <TriangleQuery Query, TriangleVisitor Visit>
bool for_each_touching(const Bvh& bvh, const Query& query, Visit&& visit,
                       QueryStats* stats = nullptr) {
  if (bvh.empty()) return true;
  const detail::StatsRecorder recorder(stats);
  QueryStats local;
  // Depth-first work list. Nodes move from its top into a small FIFO, where they wait while
  // their memory, prefetched on the move, arrives; leaves wait likewise in their own FIFO
  // (software pipelining: queries that visit many nodes otherwise stall on every one).
  // Within the FIFOs the order is not depth-first, so the stack may hold more than seven
  // entries per level; it has room for that, and when it fills beyond `dfs_only` the FIFO
  // takes one node at a time, which is plain depth-first order and grows the stack by at most
  // seven entries per level from there.
  constexpr std::size_t in_flight = 16;
  constexpr std::size_t leaves_in_flight = 8;
  constexpr std::size_t per_level = WideNode::width - 1;
  constexpr std::size_t capacity = 4096;
  constexpr std::size_t dfs_only = capacity - per_level * (max_bvh_depth + 1 + in_flight);
  std::array<detail::NodeEntry, capacity> stack;
  std::size_t top = 0;
  detail::Fifo<detail::NodeEntry, in_flight> nodes;
  detail::Fifo<detail::SlotRange, leaves_in_flight> leaves;
  bool completed = true;
  const auto size = static_cast<std::uint32_t>(bvh.size());
  if (query.may_touch(bvh.root_bounds)) {
    ++local.nodes_visited;
    if (query.contains(bvh.root_bounds))
      completed = detail::report_slots(bvh, query, visit, 0, size, true, local);
    else
      stack[top++] = {0, size};
  }
  while (completed) {
    const std::size_t ahead = top < dfs_only ? in_flight : 1;
    while (nodes.size() < ahead && top > 0) {
      detail::prefetch_node(bvh, stack[top - 1].index);
      nodes.push(stack[--top]);
    }
    if (nodes.empty()) break;
    const detail::NodeEntry entry = nodes.pop();
    const WideNode& node = bvh.wide[entry.index];
    ++local.nodes_visited;
    const ChildMasks masks = detail::child_masks(query, node);
    detail::prefetch_leaves(bvh, node, masks.touching & ~masks.inside, entry.end);
    unsigned inner = 0;
    for (unsigned bits = masks.touching; bits != 0 && completed; bits &= bits - 1) {
      const int i = std::countr_zero(bits);
      const std::uint32_t begin = node.first[i], end = node.child_end(i, entry.end);
      if ((masks.inside >> i & 1u) != 0) {
        completed = detail::report_slots(bvh, query, visit, begin, end, true, local);
      } else if (node.child[i] != WideNode::leaf) {
        inner |= 1u << i;
      } else {
        if (leaves.size() == leaves_in_flight) {
          const detail::SlotRange oldest = leaves.pop();
          completed =
              detail::report_slots(bvh, query, visit, oldest.begin, oldest.end, false, local);
        }
        leaves.push({begin, end});
      }
    }
    // Pushed last to first, so that children are entered in slot order.
    while (inner != 0 && completed) {
      const int i = static_cast<int>(std::bit_width(inner)) - 1;
      inner &= ~(1u << i);
      if (top == capacity) throw std::logic_error("trisect: traversal stack overflow");
      stack[top++] = {node.child[i], node.child_end(i, entry.end)};
    }
  }
  while (!leaves.empty() && completed) {
    const detail::SlotRange oldest = leaves.pop();
    completed = detail::report_slots(bvh, query, visit, oldest.begin, oldest.end, false, local);
  }
  recorder.add(local);
  return completed;
}

}  // namespace trisect
