// The distance between two meshes: a best-first walk of pairs of subtrees (a priority queue by
// the squared distance between their boxes, so the nearest pair of boxes is always taken
// next), the larger box split (as the overlap descent does), ending once the nearest pair left
// is farther apart than the best pair of triangles so far (ties kept, for the smallest pair).
// Best first expands only pairs of boxes nearer than the answer: on the bunny against a copy
// beside it, 3.1k pairs of triangles tested where depth first, nearest child first, tested 22k.
// Compiled with -ffp-contract=off: the second mesh's boxes are mapped with outward rounding.
#include "trisect/nearest/mesh_distance.hpp"

#include "bvh/checked_transform.hpp"
#include "math/transform_rows.hpp"
#include "math/transformed_box.hpp"
#include "separation.hpp"

#include "trisect/bvh/detail/traverse.hpp"
#include "trisect/geometry/triangle_distance.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <unordered_map>
#include <vector>

namespace trisect {
namespace {

/// A subtree: a wide node or a leaf (`node` == WideNode::leaf), its slot range and its box (in
/// the first mesh's frame).
struct Subtree {
  std::uint32_t node;
  std::uint32_t begin, end;
  Aabb box;
};

/// The smallest input id below each lane of a wide node (the largest id for unused lanes).
using LaneIds = std::array<TriangleId, WideNode::width>;

/// `LaneIds` of every wide node of `bvh`, in one pass up from the leaves.
std::vector<LaneIds> lane_min_ids(const Bvh& bvh) {
  std::vector<LaneIds> result(bvh.wide.size());
  const auto fill = [&](const auto& self, std::uint32_t node, std::uint32_t end) -> TriangleId {
    const WideNode& wide = bvh.wide[node];
    LaneIds& lanes = result[node];
    lanes.fill(std::numeric_limits<TriangleId>::max());
    for (unsigned used = wide.used_mask(); used != 0; used &= used - 1) {
      const int i = std::countr_zero(used);
      const std::uint32_t first = wide.first[i], last = wide.child_end(i, end);
      lanes[static_cast<std::size_t>(i)] =
          wide.child[i] == WideNode::leaf
              ? *std::min_element(bvh.ids.begin() + first, bvh.ids.begin() + last)
              : self(self, wide.child[i], last);
    }
    return *std::min_element(lanes.begin(), lanes.end());
  };
  if (!bvh.empty()) fill(fill, 0, static_cast<std::uint32_t>(bvh.size()));
  return result;
}

/// A triangle and its box.
struct Boxed {
  Triangle triangle;
  Aabb box;
};

/// Two subtrees and a lower bound of the squared distance between their boxes.
struct SubtreePair {
  Subtree first, second;
  double key;
};

/// The walk's state: the best pair so far and the stack.
class PairWalk {
 public:
  PairWalk(const Bvh& first, const Bvh& second, const Transform* transform)
      : first_(first), second_(second), transform_(transform) {}

  std::optional<MeshDistance> run(QueryStats& counts) {
    const Subtree a{0, 0, static_cast<std::uint32_t>(first_.size()), first_.bounds()};
    const Subtree b{0, 0, static_cast<std::uint32_t>(second_.size()), mapped(second_.bounds())};
    push({a, b, detail::box_gap_lower_bound(a.box, b.box)});
    while (!queue_.empty()) {
      std::pop_heap(queue_.begin(), queue_.end(), farther);
      const SubtreePair pair = queue_.back();
      queue_.pop_back();
      if (pair.key > threshold_) break;  // every pair left is at least as far
      if (best_is_zero_ && !may_hold_smaller_pair(pair)) continue;
      if (pair.first.node == WideNode::leaf && pair.second.node == WideNode::leaf) {
        counts.triangles_tested += test_leaves(pair.first, pair.second);
      } else {
        ++counts.nodes_visited;
        split(pair);
      }
    }
    if (!has_best_) return std::nullopt;
    return MeshDistance{best_first_, best_second_, distance_of(best_)};
  }

 private:
  [[nodiscard]] Aabb mapped(const Aabb& box) const noexcept {
    return transform_ ? detail::within_float_range(detail::transformed_box(*transform_, box)) : box;
  }

  /// The triangles of slots [begin, end) of `bvh` with their boxes, each vertex mapped by
  /// `transform` when it is not null.
  static void read_leaf(const Bvh& bvh, std::uint32_t begin, std::uint32_t end,
                        const Transform* transform, std::vector<Boxed>& out) {
    out.clear();
    bvh.triangles.for_each_group(begin, end, [&](std::uint32_t, const TriangleGroup& group) {
      for (int lane = 0; lane < group.count; ++lane) {
        Triangle t = group.triangle(lane);
        if (transform)
          t = {detail::transform_point(*transform, t.a), detail::transform_point(*transform, t.b),
               detail::transform_point(*transform, t.c)};
        out.push_back({t, t.bounds()});
      }
      return true;
    });
  }

  /// The second mesh's leaf starting at `begin`, mapped once per query and kept.
  const std::vector<Boxed>& second_leaf(std::uint32_t begin, std::uint32_t end) {
    if (!transform_) {
      read_leaf(second_, begin, end, nullptr, second_scratch_);
      return second_scratch_;
    }
    auto [at, is_new] = mapped_leaves_.try_emplace(begin);
    if (is_new) read_leaf(second_, begin, end, transform_, at->second);
    return at->second;
  }

  // Once two triangles touch, only pairs of subtrees holding a smaller pair (by ids) matter:
  // the smallest ids below each side bound the pairs it holds.
  bool may_hold_smaller_pair(const SubtreePair& pair) {
    if (first_min_ids_.empty()) {
      first_min_ids_ = lane_min_ids(first_);
      second_min_ids_ = lane_min_ids(second_);
    }
    const TriangleId a = subtree_min_id(first_, first_min_ids_, pair.first);
    if (a != best_first_) return a < best_first_;
    return subtree_min_id(second_, second_min_ids_, pair.second) < best_second_;
  }

  static TriangleId subtree_min_id(const Bvh& bvh, const std::vector<LaneIds>& min_ids,
                                   const Subtree& subtree) {
    if (subtree.node != WideNode::leaf)
      return *std::min_element(min_ids[subtree.node].begin(), min_ids[subtree.node].end());
    return *std::min_element(bvh.ids.begin() + subtree.begin, bvh.ids.begin() + subtree.end);
  }

  static bool farther(const SubtreePair& x, const SubtreePair& y) noexcept { return x.key > y.key; }

  void push(const SubtreePair& pair) {
    queue_.push_back(pair);
    std::push_heap(queue_.begin(), queue_.end(), farther);
  }

  // Splits the side with the larger box (a leaf is never split), queueing the child pairs
  // within the bound.
  void split(const SubtreePair& pair) {
    const bool split_first = pair.second.node == WideNode::leaf ||
                             (pair.first.node != WideNode::leaf &&
                              pair.first.box.half_area() >= pair.second.box.half_area());
    const Subtree& parent = split_first ? pair.first : pair.second;
    const Subtree& other = split_first ? pair.second : pair.first;
    const WideNode& node = (split_first ? first_ : second_).wide[parent.node];
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int i = std::countr_zero(used);
      const Aabb box = split_first ? node.child_bounds(i) : mapped(node.child_bounds(i));
      const Subtree child{node.child[i], node.first[i], node.child_end(i, parent.end), box};
      const double key = detail::box_gap_lower_bound(box, other.box);
      if (key > threshold_) continue;
      push(split_first ? SubtreePair{child, other, key} : SubtreePair{other, child, key});
    }
  }

  // Every pair of triangles of two leaves whose boxes are within the bound; returns the pairs
  // tested exactly.
  std::uint64_t test_leaves(const Subtree& a, const Subtree& b) {
    read_leaf(first_, a.begin, a.end, nullptr, first_scratch_);
    const std::vector<Boxed>& second = second_leaf(b.begin, b.end);
    std::uint64_t tested = 0;
    for (std::uint32_t i = 0; i < first_scratch_.size(); ++i) {
      const TriangleId first_id = first_.ids[a.begin + i];
      // Once two triangles touch, only a smaller touching pair can improve the answer.
      if (best_is_zero_ && first_id > best_first_) continue;
      const auto& [s, s_box] = first_scratch_[i];
      for (std::uint32_t j = 0; j < second.size(); ++j) {
        const TriangleId second_id = second_.ids[b.begin + j];
        if (best_is_zero_ && std::pair(first_id, second_id) >= std::pair(best_first_, best_second_))
          continue;
        const auto& [t, t_box] = second[j];
        if (detail::box_gap_lower_bound(s_box, t_box) > threshold_) continue;
        if (detail::separation_lower_bound(s, t) > threshold_) continue;
        ++tested;
        consider(first_id, second_id, squared_distance(s, t));
      }
    }
    return tested;
  }

  void consider(TriangleId a, TriangleId b, const SquaredDistance& distance) {
    const DistanceBounds bounds = bounds_of(distance);
    if (has_best_) {
      const int order = compare(distance, bounds, best_, best_bounds_);
      if (order > 0 || (order == 0 && std::pair(a, b) > std::pair(best_first_, best_second_)))
        return;
    }
    best_ = distance;
    best_bounds_ = bounds;
    best_first_ = a;
    best_second_ = b;
    has_best_ = true;
    best_is_zero_ = bounds.lower == 0 && is_zero(distance);
    threshold_ = std::min(threshold_, bounds.upper);
  }

  const Bvh& first_;
  const Bvh& second_;
  const Transform* transform_;
  std::vector<SubtreePair> queue_;  // a min-heap by key
  std::vector<Boxed> first_scratch_, second_scratch_;
  std::vector<LaneIds> first_min_ids_, second_min_ids_;                  // once two triangles touch
  std::unordered_map<std::uint32_t, std::vector<Boxed>> mapped_leaves_;  // by first slot
  SquaredDistance best_;
  DistanceBounds best_bounds_;
  TriangleId best_first_ = 0, best_second_ = 0;
  bool has_best_ = false;
  bool best_is_zero_ = false;
  double threshold_ = std::numeric_limits<double>::infinity();
};

}  // namespace

std::optional<MeshDistance> mesh_distance(const Bvh& first, const Bvh& second,
                                          const Transform& second_to_first, QueryStats* stats) {
  const Transform* transform = detail::checked_transform(second, second_to_first);
  if (first.empty() || second.empty()) return std::nullopt;
  const detail::StatsRecorder recorder(stats);
  QueryStats counts;
  auto answer = PairWalk(first, second, transform).run(counts);
  recorder.add(counts);
  return answer;
}

}  // namespace trisect
