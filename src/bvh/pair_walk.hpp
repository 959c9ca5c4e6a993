#pragma once
// The pair walk: the simultaneous descent of two trees, or of one tree with itself, the tree's
// third engine beside the set walk (trisect/bvh/traverse.hpp) and the ordered walk
// (trisect/bvh/ordered_walk.hpp). A side (`PairSide`, bvh/pair_side.hpp) holds one tree and an
// optional transform into the first tree's frame; the walk splits the subtree with the larger box
// (a leaf never), asks its visitor which of the child pairs may hold an answer and with what lower
// bound (its key), and hands it the pairs of leaves. Depth first (every answer: overlap, clearance)
// or best first by the key (the nearest answer: mesh distance), after the simultaneous descent of
// Gottschalk, Lin & Manocha ("OBBTree", SIGGRAPH 1996) and the best-first distance search of Larsen
// et al. ("Fast Proximity Queries with Swept Sphere Volumes", 1999). Internal to the library;
// compiled with -ffp-contract=off by its users (mapped boxes round outward, every operation once).
#include "pair_side.hpp"
#include "trisect/bvh/query_stats.hpp"

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <limits>
#include <vector>

namespace trisect::detail {

/// A subtree of each side and the visitor's lower bound for the pair (0 where it keeps none).
struct SubtreePair {
  PairSubtree first, second;
  double key = 0;
};

/// What the pair walk asks of its visitor:
/// - `bound()`: pairs whose key is above it cannot hold an answer still wanted (+inf for a
///   visitor that wants every answer); the best-first walk ends at the first such pair;
/// - `enter(boxes, box, keys)`: of the child boxes `boxes` (a node's, all eight lanes), the
///   lanes whose subtree may hold an answer with a subtree of box `box`, each lane's key (a
///   lower bound of what the pair can give, or 0) in `keys`; the walk masks unused lanes out;
/// - `visit_leaves(a, b)`: every answer of two leaves (`a` of the first side, `b` of the
///   second; for a self walk the same leaf twice, or two leaves with a.begin < b.begin);
///   false stops the walk.
/// A visitor may also have `bool wants(const SubtreePair&)`, asked of each pair the
/// best-first walk takes off its queue: false drops it (a bound the key does not express).
template <class Visitor>
concept PairWalkVisitor = requires(Visitor& visitor, const ChildBoxes& boxes, const Aabb& box,
                                   double (&keys)[WideNode::width], const PairSubtree& leaf) {
  { visitor.bound() } -> std::convertible_to<double>;
  { visitor.enter(boxes, box, keys) } -> std::same_as<unsigned>;
  { visitor.visit_leaves(leaf, leaf) } -> std::same_as<bool>;
};

/// The walk of two sides (`self`: one tree with itself, both sides the first) for `visitor`.
/// A walk serves one thread: its sides keep boxes as it goes.
template <PairWalkVisitor Visitor>
class PairWalk {
 public:
  /// `first`, `second` (unused when `self`) and `visitor` must outlive the walk.
  PairWalk(PairSide& first, PairSide& second, Visitor& visitor, bool self) noexcept
      : first_(first), second_(self ? first : second), visitor_(visitor), self_(self) {}

  /// The pair of roots, when the visitor enters it (into `root`); false otherwise.
  [[nodiscard]] bool root_pair(SubtreePair& root) {
    const PairSubtree a = first_.root(), b = self_ ? a : second_.root();
    ChildBoxes only{};
    only.set(0, a.box);
    double keys[WideNode::width] = {};
    if ((visitor_.enter(only, b.box, keys) & 1u) == 0 || keys[0] > visitor_.bound()) return false;
    root = {a, b, keys[0]};
    return true;
  }

  /// Appends to `out` the pairs `pair` splits into that the visitor enters, or `pair` itself
  /// when both are leaves. The larger box is split (a leaf never); a self pair (x, x) splits
  /// into each child with itself and with every later child it enters.
  void split(const SubtreePair& pair, std::vector<SubtreePair>& out) {
    const PairSubtree &x = pair.first, &y = pair.second;
    if (self_ && x.same_as(y)) return split_same(x, out);
    if (x.is_leaf() && y.is_leaf()) return out.push_back(pair);
    const bool split_first =
        y.is_leaf() || (!x.is_leaf() && x.box.half_area() >= y.box.half_area());
    if (split_first)
      for_each_child(first_, x, y.box, [&](const PairSubtree& child, double key) {
        out.push_back({child, y, key});
      });
    else
      for_each_child(second_, y, x.box, [&](const PairSubtree& child, double key) {
        out.push_back({x, child, key});
      });
  }

  /// Depth-first walk below `start`, the last pair found first; false when the visitor
  /// stopped it.
  bool depth_first(const SubtreePair& start) {
    stack_.clear();
    stack_.push_back(start);
    while (!stack_.empty()) {
      const SubtreePair pair = stack_.back();
      stack_.pop_back();
      if (pair.first.is_leaf() && pair.second.is_leaf()) {
        if (!visitor_.visit_leaves(pair.first, pair.second)) return false;
        continue;
      }
      split(pair, stack_);
    }
    return true;
  }

  /// Best-first walk from `start`: the pair with the smallest key next, until the smallest
  /// left is above the visitor's bound; false when the visitor stopped it. Counts the wide
  /// nodes split into `counts`.
  bool best_first(const SubtreePair& start, QueryStats& counts) {
    queue_.clear();
    queued_.clear();
    push(start);
    while (!queue_.empty()) {
      std::pop_heap(queue_.begin(), queue_.end(), farther);
      const SubtreePair pair = queued_[queue_.back().index];
      queue_.pop_back();
      if (pair.key > visitor_.bound()) break;  // every pair left is at least as far
      if constexpr (requires { visitor_.wants(pair); })
        if (!visitor_.wants(pair)) continue;
      if (pair.first.is_leaf() && pair.second.is_leaf()) {
        if (!visitor_.visit_leaves(pair.first, pair.second)) return false;
        continue;
      }
      ++counts.nodes_visited;
      scratch_.clear();
      split(pair, scratch_);
      for (const SubtreePair& child : scratch_) push(child);
    }
    return true;
  }

 private:
  // Calls `use(child, key)` for each child of wide node `x` of `side` that the visitor enters
  // with a subtree of box `box`, within its bound, in lane order.
  template <class Use>
  void for_each_child(PairSide& side, const PairSubtree& x, const Aabb& box, const Use& use) {
    const WideNode& node = side.bvh().wide[x.node];
    const ChildBoxes& boxes = side.boxes(x.node);
    double keys[WideNode::width] = {};
    const unsigned entered = visitor_.enter(boxes, box, keys) & node.used_mask();
    const double bound = visitor_.bound();
    for (unsigned mask = entered; mask != 0; mask &= mask - 1) {
      const int i = std::countr_zero(mask);
      if (keys[i] > bound) continue;
      use(PairSubtree{node.child[i], node.first[i], node.child_end(i, x.end),
                      boxes.child_bounds(i)},
          keys[i]);
    }
  }

  // The self pair (x, x): each child with itself and with every later child it enters.
  void split_same(const PairSubtree& x, std::vector<SubtreePair>& out) {
    if (x.is_leaf()) return out.push_back({x, x, 0});
    const WideNode& node = first_.bvh().wide[x.node];
    const ChildBoxes boxes = first_.boxes(x.node);
    const auto child = [&](int i) {
      return PairSubtree{node.child[i], node.first[i], node.child_end(i, x.end),
                         boxes.child_bounds(i)};
    };
    const double bound = visitor_.bound();
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int i = std::countr_zero(used);
      const PairSubtree own = child(i);
      out.push_back({own, own, 0});
      double keys[WideNode::width] = {};
      const unsigned later = visitor_.enter(boxes, own.box, keys) & used & ~(1u << i);
      for (unsigned mask = later; mask != 0; mask &= mask - 1) {
        const int j = std::countr_zero(mask);
        if (keys[j] <= bound) out.push_back({own, child(j), keys[j]});
      }
    }
  }

  // An entry of the best-first queue: a pair's key and where `queued_` holds the pair (the heap
  // moves 16 bytes, not the whole pair).
  struct QueueEntry {
    double key;
    std::uint32_t index;
  };

  static bool farther(const QueueEntry& x, const QueueEntry& y) noexcept { return x.key > y.key; }

  void push(const SubtreePair& pair) {
    queue_.push_back({pair.key, static_cast<std::uint32_t>(queued_.size())});
    queued_.push_back(pair);
    std::push_heap(queue_.begin(), queue_.end(), farther);
  }

  PairSide& first_;
  PairSide& second_;
  Visitor& visitor_;
  bool self_;
  std::vector<SubtreePair> stack_;    // depth first
  std::vector<QueueEntry> queue_;     // best first: a min-heap by key
  std::vector<SubtreePair> queued_;   // best first: every pair pushed, in order
  std::vector<SubtreePair> scratch_;  // best first: one split's pairs
};

/// Pairs of subtrees to share among threads: the pair of roots split breadth-first until there
/// are `enough`, or only leaf pairs are left (at most 8 rounds); none when the visitor does not
/// enter the roots. Each pair, walked depth first by a walk of its own, gives its answers.
template <class Visitor>
std::vector<SubtreePair> pair_walk_tasks(PairWalk<Visitor>& walk, std::size_t enough) {
  std::vector<SubtreePair> current(1), next;
  if (!walk.root_pair(current[0])) return {};
  for (int round = 0; round < 8 && current.size() < enough; ++round) {
    next.clear();
    for (const SubtreePair& pair : current) walk.split(pair, next);
    if (next.size() <= current.size()) break;  // only leaf pairs left
    current.swap(next);
  }
  return current;
}

}  // namespace trisect::detail
