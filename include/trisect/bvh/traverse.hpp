#pragma once
/// \file
/// The one generic traversal for "which triangles touch this set" queries.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/math/exact.hpp"

#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <type_traits>

namespace trisect {

/// A set that triangles may touch, seen by the traversal through three tests:
/// `may_touch(box)`: false only when no point of the closed box touches the set (may be
/// conservative); `contains(box)`: true only when the whole closed box lies in the set, so
/// every triangle inside it touches (may be conservative the other way); `touches(triangle)`:
/// the exact answer for one triangle. The boxes are the nodes' decoded child boxes
/// (`WideNode`): each holds the triangles below it but may stick out of `Bvh::bounds()` by a
/// grid step, and where the triangles span more than about 3.4e38 on an axis an upper face
/// may be +inf.
template <class Query>
concept TriangleQuery = requires(const Query& query, const Aabb& box, const Triangle& triangle) {
  { query.may_touch(box) } -> std::convertible_to<bool>;
  { query.contains(box) } -> std::convertible_to<bool>;
  { query.touches(triangle) } -> std::convertible_to<bool>;
};

/// Called with each touching triangle's input id; returns false to stop the query.
template <class Visit>
concept TriangleVisitor = std::invocable<Visit&, TriangleId> &&
                          std::convertible_to < std::invoke_result_t<Visit&, TriangleId>,
bool > ;

/// Which children of a wide node a query may touch, and which lie inside it: bit i for child
/// i; `inside` is a subset of `touching`. A query's `child_masks` may set bits of unused lanes
/// (their decoded boxes are meaningless points); the traversal keeps the used ones.
struct ChildMasks {
  unsigned touching = 0;
  unsigned inside = 0;
};

/// A query that tests all children of a wide node at once (with SIMD, on the decoded faces
/// `WideNode::face_row`), with the meaning of `may_touch` and `contains` per child. Queries
/// without it are tested child by child.
template <class Query>
concept WideTriangleQuery = TriangleQuery<Query> &&
    requires(const Query& query, const WideNode& node) {
  { query.child_masks(node) } -> std::convertible_to<ChildMasks>;
};

/// A query that tests the triangles of a leaf group at once (`TriangleGroup`, with SIMD):
/// `touching_lanes(group)` has bit i set exactly when `touches(group.triangle(i))`, for
/// i < group.count, and no other bit. Queries without it are tested triangle by triangle.
template <class Query>
concept GroupTriangleQuery = TriangleQuery<Query> &&
    requires(const Query& query, const TriangleGroup& group) {
  { query.touching_lanes(group) } -> std::convertible_to<unsigned>;
};

namespace detail {

/// Bit i set for each lane i of `group` whose triangle touches `query`.
template <TriangleQuery Query>
[[nodiscard]] unsigned touching_lanes(const Query& query, const TriangleGroup& group) {
  if constexpr (GroupTriangleQuery<Query>) {
    return query.touching_lanes(group);
  } else {
    unsigned touching = 0;
    for (int lane = 0; lane < group.count; ++lane)
      touching |= (query.touches(group.triangle(lane)) ? 1u : 0u) << lane;
    return touching;
  }
}

/// The query's masks for the used children of `node`.
template <TriangleQuery Query>
[[nodiscard]] ChildMasks child_masks(const Query& query, const WideNode& node) {
  const unsigned used = node.used_mask();
  if constexpr (WideTriangleQuery<Query>) {
    const ChildMasks masks = query.child_masks(node);
    return {masks.touching & used, masks.inside & used};  // inside is within touching
  } else {
    ChildMasks masks;
    for (unsigned lanes = used; lanes != 0; lanes &= lanes - 1) {
      const int i = std::countr_zero(lanes);
      const Aabb box = node.child_bounds(i);
      if (!query.may_touch(box)) continue;
      masks.touching |= 1u << i;
      if (query.contains(box)) masks.inside |= 1u << i;
    }
    return masks;
  }
}

/// Asks for the triangles of the leaf children in `mask`; `end` is the end of the node's
/// slot range.
inline void prefetch_leaves(const Bvh& bvh, const WideNode& node, unsigned mask,
                            std::uint32_t end) noexcept {
  for (; mask != 0; mask &= mask - 1) {
    const int i = std::countr_zero(mask);
    if (node.child[i] != WideNode::leaf) continue;
    const char* at = static_cast<const char*>(bvh.triangles.address(node.first[i]));
    const char* last = static_cast<const char*>(bvh.triangles.address(node.child_end(i, end)));
    for (; at < last; at += 64) __builtin_prefetch(at);
    __builtin_prefetch(last - 1);
  }
}

/// A first-in first-out queue of at most `Capacity` values (a power of two).
template <class T, std::size_t Capacity>
class Fifo {
  static_assert((Capacity & (Capacity - 1)) == 0);

 public:
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  void push(const T& value) noexcept {
    values_[(head_ + count_) % Capacity] = value;
    ++count_;
  }
  T pop() noexcept {
    const T value = values_[head_];
    head_ = (head_ + 1) % Capacity;
    --count_;
    return value;
  }

 private:
  std::array<T, Capacity> values_;
  std::size_t head_ = 0, count_ = 0;
};

/// A slot range of a leaf waiting to be tested.
struct SlotRange {
  std::uint32_t begin, end;
};

/// A wide node to enter and the end of its slot range.
struct NodeEntry {
  std::uint32_t index;  // into bvh.wide
  std::uint32_t end;
};

/// Asks for a wide node's cache lines.
inline void prefetch_node(const Bvh& bvh, std::uint32_t index) noexcept {
  const char* at = reinterpret_cast<const char*>(bvh.wide.data() + index);
  for (std::size_t line = 0; line < sizeof(WideNode); line += 64) __builtin_prefetch(at + line);
}

/// Reports slots [begin, end): all of them when `inside` (in one call of `visit.append(ids)`
/// where the visitor has it: a visitor that never stops may take a whole range at once), else
/// (a leaf's range) those whose triangle touches. Returns false when `visit` stopped.
template <TriangleQuery Query, TriangleVisitor Visit>
bool report_slots(const Bvh& bvh, const Query& query, Visit& visit, std::uint32_t begin,
                  std::uint32_t end, bool inside, QueryStats& stats) {
  if (inside) {
    stats.triangles_inside += end - begin;
    if constexpr (requires(std::span<const TriangleId> ids) { visit.append(ids); }) {
      visit.append(std::span<const TriangleId>(bvh.ids.data() + begin, end - begin));
    } else {
      for (std::uint32_t slot = begin; slot < end; ++slot)
        if (!visit(bvh.ids[slot])) return false;
    }
    return true;
  }
  return bvh.triangles.for_each_group(
      begin, end, [&](std::uint32_t first, const TriangleGroup& group) {
        stats.triangles_tested += static_cast<std::uint64_t>(group.count);
        for (unsigned bits = touching_lanes(query, group); bits != 0; bits &= bits - 1)
          if (!visit(bvh.ids[first + static_cast<std::uint32_t>(std::countr_zero(bits))]))
            return false;
        return true;
      });
}

}  // namespace detail

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
  const std::uint64_t fallbacks_before = stats != nullptr ? exact::fallback_count() : 0;
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
  if (stats != nullptr) {
    stats->nodes_visited += local.nodes_visited;
    stats->triangles_tested += local.triangles_tested;
    stats->triangles_inside += local.triangles_inside;
    stats->exact_fallbacks += exact::fallback_count() - fallbacks_before;
  }
  return completed;
}

}  // namespace trisect
