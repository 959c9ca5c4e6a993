#pragma once
/// \file
/// The one generic traversal for "which triangles touch this set" queries.

#include "trisect/bvh/bvh.hpp"
#include "trisect/math/exact.hpp"

#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace trisect {

/// What a query did, for tests and benchmarks. Counters add up over calls that share it.
struct QueryStats {
  std::uint64_t nodes_visited = 0;     ///< Nodes entered (see each query for which).
  std::uint64_t triangles_tested = 0;  ///< Exact leaf tests run.
  std::uint64_t triangles_inside = 0;  ///< Triangles reported untested (node inside the query).
  std::uint64_t exact_fallbacks = 0;   ///< Exact-arithmetic fallbacks taken by this query.
};

/// A set that triangles may touch, seen by the traversal through three tests:
/// `may_touch(box)`: false only when no point of the closed box touches the set (may be
/// conservative); `contains(box)`: true only when the whole closed box lies in the set, so
/// every triangle inside it touches (may be conservative the other way); `touches(triangle)`:
/// the exact answer for one triangle.
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
/// i. Only used lanes may have bits set, and `inside` is a subset of `touching`.
struct ChildMasks {
  unsigned touching = 0;
  unsigned inside = 0;
};

/// A query that tests all children of a wide node at once (with SIMD), with the meaning
/// of `may_touch` and `contains` per child. Queries without it are tested child by child.
template <class Query>
concept WideTriangleQuery = TriangleQuery<Query> &&
    requires(const Query& query, const WideNode& node) {
  { query.child_masks(node) } -> std::convertible_to<ChildMasks>;
};

namespace detail {

template <TriangleQuery Query>
[[nodiscard]] ChildMasks child_masks(const Query& query, const WideNode& node) {
  if constexpr (WideTriangleQuery<Query>) {
    return query.child_masks(node);
  } else {
    ChildMasks masks;
    for (int i = 0; i < WideNode::width && node.child[i] != WideNode::unused; ++i) {
      const Aabb box = node.child_bounds(i);
      if (!query.may_touch(box)) continue;
      masks.touching |= 1u << i;
      if (query.contains(box)) masks.inside |= 1u << i;
    }
    return masks;
  }
}

/// Asks for the memory of the children in `mask`: a wide node's cache lines, a leaf's
/// first triangles. Queries that visit many nodes (planes above all) otherwise wait on memory
/// for most of their time.
inline void prefetch_children(const Bvh& bvh, const WideNode& node, unsigned mask) noexcept {
  for (; mask != 0; mask &= mask - 1) {
    const int i = std::countr_zero(mask);
    const std::uint32_t child = node.child[i];
    if (child == WideNode::unused) continue;
    if (child == WideNode::leaf) {
      const char* at = reinterpret_cast<const char*>(bvh.triangles.data() + node.first[i]);
      __builtin_prefetch(at);
      __builtin_prefetch(at + 64);
      continue;
    }
    const char* at = reinterpret_cast<const char*>(bvh.wide.data() + child);
    for (std::size_t line = 0; line < sizeof(WideNode); line += 64) __builtin_prefetch(at + line);
  }
}

/// A first-in first-out queue of a few leaves' slot ranges.
class LeafQueue {
 public:
  struct Range {
    std::uint32_t begin, end;
  };
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] bool full() const noexcept { return count_ == capacity; }
  void push(Range range) noexcept {
    ranges_[(head_ + count_) % capacity] = range;
    ++count_;
  }
  Range pop() noexcept {
    const Range range = ranges_[head_];
    head_ = (head_ + 1) % capacity;
    --count_;
    return range;
  }

 private:
  static constexpr std::size_t capacity = 8;  // a power of two
  std::array<Range, capacity> ranges_;
  std::size_t head_ = 0, count_ = 0;
};

/// Reports slots [begin, end): all of them when `inside`, else those whose triangle touches.
/// Returns false when `visit` stopped.
template <TriangleQuery Query, TriangleVisitor Visit>
bool report_slots(const Bvh& bvh, const Query& query, Visit& visit, std::uint32_t begin,
                  std::uint32_t end, bool inside, QueryStats& stats) {
  if (inside) {
    stats.triangles_inside += end - begin;
    for (std::uint32_t slot = begin; slot < end; ++slot)
      if (!visit(bvh.ids[slot])) return false;
    return true;
  }
  for (std::uint32_t slot = begin; slot < end; ++slot) {
    ++stats.triangles_tested;
    if (query.touches(bvh.triangles[slot]) && !visit(bvh.ids[slot])) return false;
  }
  return true;
}

}  // namespace detail

/// Calls `visit(id)` once for every triangle that touches `query`, in no particular order,
/// until `visit` returns false. Returns false when stopped early, true otherwise. Depth-first
/// over the 8-wide nodes with a fixed stack (the builder bounds the depth by `max_bvh_depth`,
/// and each level adds at most seven entries); a child that lies inside the query reports
/// its whole slot range without testing each triangle. Const and thread-safe. When `stats` is
/// given, adds this query's counts to it (`nodes_visited` counts the root box and the wide
/// nodes entered).
template <TriangleQuery Query, TriangleVisitor Visit>
bool for_each_touching(const Bvh& bvh, const Query& query, Visit&& visit,
                       QueryStats* stats = nullptr) {
  if (bvh.empty()) return true;
  const std::uint64_t fallbacks_before = exact::fallback_count();
  QueryStats local;
  struct Entry {
    std::uint32_t index;  // into bvh.wide
    std::uint32_t end;    // end of its slot range
  };
  std::array<Entry, WideNode::width*(max_bvh_depth + 1)> stack;
  std::size_t top = 0;
  bool completed = true;
  // Leaves to test wait in a small queue while their triangles, prefetched when their parent
  // was entered, arrive from memory; the traversal meanwhile goes on (software pipelining).
  detail::LeafQueue pending;
  const auto size = static_cast<std::uint32_t>(bvh.size());
  if (query.may_touch(bvh.nodes[0].bounds)) {
    ++local.nodes_visited;
    if (query.contains(bvh.nodes[0].bounds))
      completed = detail::report_slots(bvh, query, visit, 0, size, true, local);
    else
      stack[top++] = {0, size};
  }
  while (top > 0 && completed) {
    const Entry entry = stack[--top];
    const WideNode& node = bvh.wide[entry.index];
    ++local.nodes_visited;
    const ChildMasks masks = detail::child_masks(query, node);
    detail::prefetch_children(bvh, node, masks.touching);
    unsigned inner = 0;
    for (unsigned bits = masks.touching; bits != 0 && completed; bits &= bits - 1) {
      const int i = std::countr_zero(bits);
      if (node.child[i] == WideNode::unused) continue;  // a query's mask is not trusted here
      const std::uint32_t begin = node.first[i], end = node.child_end(i, entry.end);
      if ((masks.inside >> i & 1u) != 0) {
        completed = detail::report_slots(bvh, query, visit, begin, end, true, local);
      } else if (node.child[i] != WideNode::leaf) {
        inner |= 1u << i;
      } else {
        if (pending.full()) {
          const auto oldest = pending.pop();
          completed =
              detail::report_slots(bvh, query, visit, oldest.begin, oldest.end, false, local);
        }
        pending.push({begin, end});
      }
    }
    // Pushed last to first, so that children are entered in slot order.
    while (inner != 0 && completed) {
      const int i = static_cast<int>(std::bit_width(inner)) - 1;
      inner &= ~(1u << i);
      stack[top++] = {node.child[i], node.child_end(i, entry.end)};
    }
  }
  while (!pending.empty() && completed) {
    const auto oldest = pending.pop();
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
