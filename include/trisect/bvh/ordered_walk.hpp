#pragma once
/// \file
/// The ordered walk: the BVH's second walk (the set walk is `for_each_touching`), for queries
/// that look for the nearest answers under a bound they shrink as they find them: rays (the
/// bound is t_max), closest points (the radius), distances. Nearest child first, depth first,
/// with early exit; the query is a visitor that decides which children to enter and what a
/// leaf holds. Each walk runs to its end on its own: streams of queries run one walk after
/// another on each thread (interleaving several walks step by step was measured slower; see
/// bench/README.md).

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/detail/traverse.hpp"
#include "trisect/bvh/query_stats.hpp"

#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace trisect {

/// What the ordered walk asks of a query. A key is a lower bound of the query's measure (a
/// ray's entry parameter, a squared distance) over everything inside a child's box; the walk
/// enters a child only while its key is at most `bound()`, so a visitor that lowers its bound
/// as it finds answers prunes the rest of the tree.
///
/// - `bound()`: the current bound (may only shrink during a walk);
/// - `enter(node, keys)`: bit i set for each child i of `node` that may hold an answer
///   within the bound (bits of unused lanes are ignored), `keys[i]` its key (`keys` is
///   32-byte aligned, for a vector store);
/// - `visit_leaf(begin, end)`: tests the triangles of slots [begin, end); false stops the walk.
///
/// `Node` is the node the visitor is asked about: `WideNode` here, `RayNode` in the rays' own
/// walk over `Bvh::ray_nodes` (the same children, with float boxes).
template <class Visitor, class Node = WideNode>
concept OrderedWalkVisitor = requires(Visitor& visitor, const Node& node,
                                      float (&keys)[WideNode::width], std::uint32_t slot) {
  { visitor.bound() } -> std::convertible_to<float>;
  { visitor.enter(node, keys) } -> std::same_as<unsigned>;
  { visitor.visit_leaf(slot, slot) } -> std::same_as<bool>;
};

/// In which order the walk enters the children a visitor chose.
enum class WalkOrder {
  nearest_first,  ///< Smallest key first: for visitors that shrink their bound.
  /// Last lane first, unsorted: for visitors that stop at the first answer, where sorting
  /// costs more than it saves (measured on any-hit rays: even choosing the nearest child
  /// first was slower).
  lane_order,
};

namespace detail {

/// The lane of `mask` (not 0) a walk enters next: with `nearest_first` the one with the
/// smallest key in `keys` (the last of equals), else the last lane.
template <WalkOrder order>
[[nodiscard, gnu::always_inline]] inline int next_lane(unsigned mask, const float* keys) noexcept {
  int next = static_cast<int>(std::bit_width(mask)) - 1;
  if constexpr (order == WalkOrder::nearest_first) {
    for (unsigned bits = mask & ~(1u << next); bits != 0; bits &= bits - 1) {
      const int i = std::countr_zero(bits);
      if (keys[i] < keys[next]) next = i;
    }
  }
  return next;
}

/// Pushes `entry` (with a `key`) onto `stack` at `top`; with `nearest_first` it is inserted
/// among the entries from `base` on (those of the same node) so that they stay sorted
/// farthest first, and the nearest is popped first.
template <WalkOrder order, class Entry>
[[gnu::always_inline]] inline void push_by_key(Entry* stack, std::size_t& top, std::size_t base,
                                               const Entry& entry) noexcept {
  std::size_t at = top++;
  while (order == WalkOrder::nearest_first && at > base && stack[at - 1].key < entry.key) {
    stack[at] = stack[at - 1];
    --at;
  }
  stack[at] = entry;
}

}  // namespace detail

/// A node or leaf an ordered walk will visit: its child reference, slot range and key.
struct WalkEntry {
  std::uint32_t child;  ///< A wide node's index, or `WideNode::leaf`.
  std::uint32_t begin;  ///< First slot below it.
  std::uint32_t end;    ///< One past its last slot.
  float key;            ///< The visitor's key for it.
};

/// The stack of one ordered walk (about 11 KiB): the builder bounds the depth by
/// `max_bvh_depth` and each level adds at most seven entries.
using WalkStack = std::array<WalkEntry, (WideNode::width - 1) * (max_bvh_depth + 1) + 1>;

/// A walk in progress over `bvh` for one visitor, on a stack of the caller's (kept apart so
/// that the walk's own few values stay in registers).
template <OrderedWalkVisitor Visitor, WalkOrder order = WalkOrder::nearest_first>
class OrderedWalk {
 public:
  /// A walk that starts at the root (nothing to do when `bvh` is empty). `bvh`, `visitor` and
  /// `stack` must outlive it, and `stack` serve no other walk meanwhile.
  OrderedWalk(const Bvh& bvh, Visitor& visitor, WalkStack& stack) noexcept
      : bvh_(&bvh), visitor_(&visitor), stack_(stack.data()) {
    if (bvh.empty()) return;
    current_ = {0, 0, static_cast<std::uint32_t>(bvh.size()),
                -std::numeric_limits<float>::infinity()};
    active_ = true;
  }

  /// Walks to the end: everything within the visitor's bound visited, or the visitor stopped
  /// the walk.
  [[gnu::always_inline]] void run() {
    while (step()) {
    }
  }

  /// This walk's counts so far: wide nodes entered and triangles in the leaves visited.
  [[nodiscard]] const QueryStats& counts() const noexcept { return counts_; }

 private:
  using Entry = WalkEntry;

  // Enters one wide node or visits one leaf (or skips one the bound now excludes), and
  // prefetches what comes next. False once the walk is over.
  [[gnu::always_inline]] bool step() {
    if (!active_) return false;
    if (current_.key <= visitor_->bound()) {
      if (current_.child == WideNode::leaf) {
        counts_.triangles_tested += current_.end - current_.begin;
        if (!visitor_->visit_leaf(current_.begin, current_.end)) return stop();
      } else if (enter_node()) {
        return true;  // went straight on to one of the node's children
      }
    }
    return pop();
  }

  // Asks for the memory of a child about to be visited: for a leaf, what the visitor reads
  // first (a visitor with a true `reads_ray_leaves` reads the ray leaves when there are some).
  [[gnu::always_inline]] void prefetch(const Entry& entry) const noexcept {
    if (entry.child == WideNode::leaf) {
      if constexpr (reads_ray_leaves)
        detail::prefetch_first_ray_slots(*bvh_, entry.begin, ray_leaves_);
      else
        detail::prefetch_first_slots(*bvh_, entry.begin);
    } else
      detail::prefetch_node(*bvh_, entry.child);
  }

  // Tests the current node's children; true when the walk went on into one of them (the
  // nearest, or with `lane_order` the last lane), the others pushed (sorted by key with
  // `nearest_first`).
  [[gnu::always_inline]] bool enter_node() {
    const WideNode& node = bvh_->wide[current_.child];
    ++counts_.nodes_visited;
    alignas(32) float keys[WideNode::width];
    unsigned mask = visitor_->enter(node, keys) & node.used_mask();
    if (mask == 0) return false;
    const auto entry = [&](int i) {
      return Entry{node.child[i], node.first[i], node.child_end(i, current_.end), keys[i]};
    };
    const int next = detail::next_lane<order>(mask, keys);
    mask &= ~(1u << next);
    // The others pushed farthest first (insertion by key), so that the nearest is popped next.
    const std::size_t base = top_;
    for (; mask != 0; mask &= mask - 1) {
      const Entry child = entry(std::countr_zero(mask));
      prefetch(child);
      detail::push_by_key<order>(stack_, top_, base, child);
    }
    current_ = entry(next);
    prefetch(current_);  // the next step reads it
    return true;
  }

  bool pop() noexcept {
    active_ = top_ > 0;
    if (active_) current_ = stack_[--top_];
    return active_;
  }

  bool stop() noexcept {
    active_ = false;
    top_ = 0;
    return false;
  }

  // True for a visitor that reads the ray leaves where the tree has them.
  static constexpr bool reads_ray_leaves = requires { requires Visitor::reads_ray_leaves; };

  const Bvh* bvh_;
  Visitor* visitor_;
  bool ray_leaves_ = reads_ray_leaves && bvh_->has_ray_leaves();  // asked once a walk
  Entry current_{};
  bool active_ = false;
  WalkEntry* stack_;
  std::size_t top_ = 0;
  QueryStats counts_;
};

/// Walks `bvh` for `visitor` to the end (see `OrderedWalk`). When `stats` is given, adds the
/// walk's counts to it: `nodes_visited` the wide nodes entered, `triangles_tested` the
/// triangles of the leaves visited, `exact_fallbacks` those taken on this thread meanwhile.
template <WalkOrder order = WalkOrder::nearest_first, OrderedWalkVisitor Visitor>
[[gnu::always_inline]] inline void ordered_walk(const Bvh& bvh, Visitor& visitor,
                                                QueryStats* stats = nullptr) {
  const detail::StatsRecorder recorder(stats);
  WalkStack stack;
  OrderedWalk<Visitor, order> walk(bvh, visitor, stack);
  walk.run();
  recorder.add(walk.counts());
}

}  // namespace trisect
