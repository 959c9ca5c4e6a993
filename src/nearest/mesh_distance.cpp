// The distance between two meshes: a visitor of the pair walk's best-first order
// (bvh/pair_walk.hpp), keyed by a lower bound of the squared distance between two subtrees'
// boxes, so the nearest pair of boxes is always taken next, ending once the nearest pair left
// is farther apart than the best pair of triangles so far (ties kept, for the smallest pair).
// Best first expands only pairs of boxes nearer than the answer: on the bunny against a copy
// beside it, 3.1k pairs of triangles tested where depth first, nearest child first, tested 22k.
// Compiled with -ffp-contract=off: the second mesh's boxes are mapped with outward rounding.
#include "trisect/nearest/mesh_distance.hpp"

#include "bvh/checked_transform.hpp"
#include "bvh/pair_walk.hpp"
#include "geometry/separation.hpp"

#include "trisect/bvh/detail/traverse.hpp"
#include "trisect/geometry/triangle_distance.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <unordered_map>
#include <vector>

namespace trisect {
namespace {

using detail::PairSide;
using detail::PairSubtree;
using detail::SubtreePair;

/// The smallest input id below each subtree of one tree met so far, each found once, when first
/// asked, as the least id of its slot range (a subtree's slots are contiguous).
class SubtreeMinIds {
 public:
  explicit SubtreeMinIds(const Bvh& bvh) : bvh_(bvh) {}

  [[nodiscard]] TriangleId of(const PairSubtree& subtree) {
    if (subtree.is_leaf()) return least(subtree);
    if (known_.empty()) known_.assign(bvh_.wide.size(), unknown);
    TriangleId& known = known_[subtree.node];
    if (known == unknown) known = least(subtree);
    return known;
  }

 private:
  static constexpr TriangleId unknown = std::numeric_limits<TriangleId>::max();

  [[nodiscard]] TriangleId least(const PairSubtree& subtree) const {
    return *std::min_element(bvh_.ids.begin() + subtree.begin, bvh_.ids.begin() + subtree.end);
  }

  const Bvh& bvh_;
  std::vector<TriangleId> known_;  // by wide node; `unknown` until asked
};

/// A triangle and its box.
struct Boxed {
  Triangle triangle;
  Aabb box;
};

/// The pair walk's visitor for the nearest pair of triangles: keys are lower bounds of the
/// squared distance between boxes, the bound is the best pair's upper bound so far.
class NearestPair {
 public:
  NearestPair(const PairSide& first, const PairSide& second) : first_(first), second_(second) {}

  [[nodiscard]] double bound() const noexcept { return threshold_; }
  [[nodiscard]] unsigned enter(const ChildBoxes& boxes, const Aabb& box,
                               double (&keys)[WideNode::width]) const noexcept {
    unsigned within = 0;
    for (int i = 0; i < WideNode::width; ++i) {
      keys[i] = detail::box_gap_lower_bound(boxes.child_bounds(i), box);
      within |= (keys[i] <= threshold_ ? 1u : 0u) << i;
    }
    return within;
  }
  // Once two triangles touch, only pairs of subtrees holding a smaller pair (by ids) matter.
  [[nodiscard]] bool wants(const SubtreePair& pair) {
    return !best_is_zero_ || may_hold_smaller_pair(pair);
  }
  bool visit_leaves(const PairSubtree& a, const PairSubtree& b) {
    counts_.triangles_tested += test_leaves(a, b);
    return true;
  }

  /// The nearest pair found.
  [[nodiscard]] std::optional<MeshDistance> result() const {
    if (!has_best_) return std::nullopt;
    return MeshDistance{best_first_, best_second_, distance_of(best_)};
  }
  /// The counts of the walk: the triangle pairs tested exactly (the walk adds the nodes).
  [[nodiscard]] QueryStats& counts() noexcept { return counts_; }

 private:
  /// The triangles of `leaf` of `side` with their boxes, mapped.
  static void read_leaf(const PairSide& side, const PairSubtree& leaf, std::vector<Boxed>& out) {
    out.clear();
    side.for_each_mapped(leaf, [&](std::uint32_t, const Triangle& t) {
      out.push_back({t, t.bounds()});
    });
  }

  /// The second mesh's leaf `leaf`, mapped once per query and kept.
  const std::vector<Boxed>& second_leaf(const PairSubtree& leaf) {
    if (!second_.is_transformed()) {
      read_leaf(second_, leaf, second_scratch_);
      return second_scratch_;
    }
    auto [at, is_new] = mapped_leaves_.try_emplace(leaf.begin);
    if (is_new) read_leaf(second_, leaf, at->second);
    return at->second;
  }

  // Once two triangles touch, only pairs of subtrees holding a smaller pair (by ids) matter:
  // the smallest ids below each side bound the pairs it holds.
  bool may_hold_smaller_pair(const SubtreePair& pair) {
    const TriangleId a = first_min_ids_.of(pair.first);
    if (a != best_first_) return a < best_first_;
    return second_min_ids_.of(pair.second) < best_second_;
  }

  // Every pair of triangles of two leaves whose boxes are within the bound; returns the pairs
  // tested exactly.
  std::uint64_t test_leaves(const PairSubtree& a, const PairSubtree& b) {
    read_leaf(first_, a, first_scratch_);
    const std::vector<Boxed>& second = second_leaf(b);
    const Bvh &first_bvh = first_.bvh(), &second_bvh = second_.bvh();
    std::uint64_t tested = 0;
    for (std::uint32_t i = 0; i < first_scratch_.size(); ++i) {
      const TriangleId first_id = first_bvh.ids[a.begin + i];
      // Once two triangles touch, only a smaller touching pair can improve the answer.
      if (best_is_zero_ && first_id > best_first_) continue;
      const auto& [s, s_box] = first_scratch_[i];
      for (std::uint32_t j = 0; j < second.size(); ++j) {
        const TriangleId second_id = second_bvh.ids[b.begin + j];
        if (best_is_zero_ && std::pair(first_id, second_id) >= std::pair(best_first_, best_second_))
          continue;
        const auto& [t, t_box] = second[j];
        if (detail::box_gap_lower_bound(s_box, t_box) > threshold_) continue;
        if (detail::directions_show_farther(s, t, threshold_)) continue;
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

  const PairSide& first_;
  const PairSide& second_;
  QueryStats counts_;
  std::vector<Boxed> first_scratch_, second_scratch_;
  SubtreeMinIds first_min_ids_{first_.bvh()}, second_min_ids_{second_.bvh()};
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
  PairSide first_side(first, nullptr), second_side(second, transform);
  NearestPair nearest(first_side, second_side);
  detail::PairWalk<NearestPair> walk(first_side, second_side, nearest, false);
  SubtreePair root;
  if (walk.root_pair(root)) walk.best_first(root, nearest.counts());
  recorder.add(nearest.counts());
  return nearest.result();
}

}  // namespace trisect
