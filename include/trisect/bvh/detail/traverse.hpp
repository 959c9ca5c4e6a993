#pragma once
/// \file
/// The pieces of the two walks (`for_each_touching`, traverse.hpp; `OrderedWalk`,
/// ordered_walk.hpp): per-query dispatch of the set walk's child and lane tests, prefetching,
/// the set walk's queues, and the statistics both report. Not part of the API (installed
/// because the walk is an inline template; no stability promised).

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/bvh/triangle_query.hpp"
#include "trisect/math/exact.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace trisect {

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

/// Asks for the triangles of the leaf slots [begin, end) (begin < end).
[[gnu::always_inline]] inline void prefetch_slots(const Bvh& bvh, std::uint32_t begin,
                                                  std::uint32_t end) noexcept {
  const char* at = static_cast<const char*>(bvh.triangles.address(begin));
  const char* last = static_cast<const char*>(bvh.triangles.address(end));
  for (; at < last; at += 64) __builtin_prefetch(at);
  __builtin_prefetch(last - 1);
}

/// Asks for the cache lines of a whole group of four triangles from slot `begin` on (a leaf's
/// first group: its 144 bytes span three lines unless they start a line).
[[gnu::always_inline]] inline void prefetch_first_slots(const Bvh& bvh,
                                                        std::uint32_t begin) noexcept {
  constexpr std::size_t group_bytes = 9 * sizeof(float) * TriangleGroup::width;
  const char* at = static_cast<const char*>(bvh.triangles.address(begin));
  __builtin_prefetch(at);
  __builtin_prefetch(at + 64);
  __builtin_prefetch(at + group_bytes - 1);
}

/// What a ray reads first of the leaf starting at slot `begin`: its first edge group (192
/// bytes, up to four lines) when `ray_leaves` (the tree has ray leaves: `Bvh::has_ray_leaves`,
/// asked once a walk), else its first group of vertices.
[[gnu::always_inline]] inline void prefetch_first_ray_slots(const Bvh& bvh, std::uint32_t begin,
                                                            bool ray_leaves) noexcept {
  if (!ray_leaves) return prefetch_first_slots(bvh, begin);
  const char* at =
      reinterpret_cast<const char*>(bvh.ray_leaves.group(begin, begin + EdgeGroup::width).values);
  constexpr std::size_t group_bytes = EdgeGroup::rows * sizeof(float) * EdgeGroup::width;
  for (std::size_t offset = 0; offset < group_bytes; offset += 64) __builtin_prefetch(at + offset);
  __builtin_prefetch(at + group_bytes - 1);
}

/// Asks for the triangles of the leaf children in `mask`; `end` is the end of the node's
/// slot range.
[[gnu::always_inline]] inline void prefetch_leaves(const Bvh& bvh, const WideNode& node,
                                                   unsigned mask, std::uint32_t end) noexcept {
  for (; mask != 0; mask &= mask - 1) {
    const int i = std::countr_zero(mask);
    if (node.child[i] == WideNode::leaf) prefetch_slots(bvh, node.first[i], node.child_end(i, end));
  }
}

/// Adds one walk's counts to the caller's `QueryStats`, if any, with the exact fallbacks this
/// thread took between the recorder's construction and `add`.
class StatsRecorder {
 public:
  explicit StatsRecorder(QueryStats* stats) noexcept
      : stats_(stats), fallbacks_before_(stats != nullptr ? exact::fallback_count() : 0) {}
  /// Adds `counts` (nodes, triangles tested and inside) and the fallbacks since construction.
  void add(const QueryStats& counts) const noexcept {
    if (stats_ == nullptr) return;
    stats_->nodes_visited += counts.nodes_visited;
    stats_->triangles_tested += counts.triangles_tested;
    stats_->triangles_inside += counts.triangles_inside;
    stats_->exact_fallbacks += exact::fallback_count() - fallbacks_before_;
  }

 private:
  QueryStats* stats_;
  std::uint64_t fallbacks_before_;
};

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

/// Asks for the cache lines of the node at `node` (a wide node or a ray node).
template <class Node>
[[gnu::always_inline]] inline void prefetch_node(const Node* node) noexcept {
  const char* at = reinterpret_cast<const char*>(node);
  for (std::size_t line = 0; line < sizeof(Node); line += 64) __builtin_prefetch(at + line);
}

/// Asks for wide node `index`'s cache lines.
[[gnu::always_inline]] inline void prefetch_node(const Bvh& bvh, std::uint32_t index) noexcept {
  prefetch_node(bvh.wide.data() + index);
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

}  // namespace trisect
