#pragma once
/// \file
/// The one generic traversal for "which triangles touch this set" queries.

#include "trisect/bvh/bvh.hpp"
#include "trisect/math/exact.hpp"

#include <array>
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace trisect {

/// What a query did, for tests and benchmarks. Counters add up over calls that share it.
struct QueryStats {
  std::uint64_t nodes_visited = 0;     ///< Nodes whose box passed the query's node test.
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

namespace detail {

/// Slots [begin, end) covered by the leaves below node `index` (contiguous by construction).
[[nodiscard]] inline std::pair<std::uint32_t, std::uint32_t> subtree_slots(const Bvh& bvh,
                                                                           std::uint32_t index) {
  std::uint32_t leftmost = index, rightmost = index;
  while (!bvh.nodes[leftmost].is_leaf()) ++leftmost;
  while (!bvh.nodes[rightmost].is_leaf()) rightmost = bvh.nodes[rightmost].first;
  return {bvh.nodes[leftmost].first, bvh.nodes[rightmost].first + bvh.nodes[rightmost].count};
}

}  // namespace detail

/// Calls `visit(id)` once for every triangle that touches `query`, in no particular order,
/// until `visit` returns false. Returns false when stopped early, true otherwise. Depth-first
/// over the BVH with a fixed stack (the builder bounds the depth by `max_bvh_depth`); a node
/// that lies inside the query reports its whole subtree without testing each triangle.
/// Const and thread-safe. When `stats` is given, adds this query's counts to it.
template <TriangleQuery Query, TriangleVisitor Visit>
bool for_each_touching(const Bvh& bvh, const Query& query, Visit&& visit,
                       QueryStats* stats = nullptr) {
  if (bvh.empty()) return true;
  const std::uint64_t fallbacks_before = exact::fallback_count();
  QueryStats local;
  std::array<std::uint32_t, max_bvh_depth + 1> stack;
  std::size_t top = 0;
  bool completed = true;
  std::uint32_t index = 0;
  bool have_node = query.may_touch(bvh.nodes[0].bounds);
  while (have_node) {
    const BvhNode& node = bvh.nodes[index];
    ++local.nodes_visited;
    const bool inside = query.contains(node.bounds);
    if (inside || node.is_leaf()) {
      const auto [begin, end] = inside ? detail::subtree_slots(bvh, index)
                                       : std::pair{node.first, node.first + node.count};
      for (std::uint32_t slot = begin; slot < end && completed; ++slot) {
        if (!inside) ++local.triangles_tested;
        if (inside || query.touches(bvh.triangles[slot])) completed = visit(bvh.ids[slot]);
      }
      if (inside) local.triangles_inside += end - begin;
      if (!completed || top == 0) break;
      index = stack[--top];
      continue;
    }
    const std::uint32_t left = index + 1, right = node.first;
    const bool go_left = query.may_touch(bvh.nodes[left].bounds);
    const bool go_right = query.may_touch(bvh.nodes[right].bounds);
    if (go_left) {
      if (go_right) stack[top++] = right;
      index = left;
    } else if (go_right) {
      index = right;
    } else if (top > 0) {
      index = stack[--top];
    } else {
      have_node = false;
    }
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
