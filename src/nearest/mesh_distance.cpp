// The distance between two meshes: a depth-first walk of pairs of subtrees, nearest pair of
// boxes first, the larger box split (as the overlap descent does), pruned once the boxes are
// farther apart than the best pair of triangles so far (ties kept, for the smallest pair).
// Compiled with -ffp-contract=off: the second mesh's boxes are mapped with outward rounding.
#include "trisect/nearest/mesh_distance.hpp"

#include "math/transform_rows.hpp"
#include "math/transformed_box.hpp"

#include "trisect/bvh/detail/traverse.hpp"
#include "trisect/geometry/triangle_distance.hpp"

#include <algorithm>
#include <limits>
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

/// Two subtrees and a lower bound of the squared distance between their boxes.
struct SubtreePair {
  Subtree first, second;
  double key;
};

/// A lower bound of the squared distance between two boxes: the gaps in double are within a
/// relative 2^-53 of the exact ones (differences of floats), their squares and sum within a
/// few more roundings; lowered by 1e-12 to cover them.
double squared_gap_lower_bound(const Aabb& a, const Aabb& b) noexcept {
  double sum = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const double gap = std::max({double(a.min[axis]) - double(b.max[axis]),
                                 double(b.min[axis]) - double(a.max[axis]), 0.0});
    sum += gap * gap;
  }
  return sum * (1 - 1e-12);
}

/// The walk's state: the best pair so far and the stack.
class PairWalk {
 public:
  PairWalk(const Bvh& first, const Bvh& second, const Transform* transform)
      : first_(first), second_(second), transform_(transform) {}

  std::optional<MeshDistance> run(QueryStats& counts) {
    const Subtree a{0, 0, static_cast<std::uint32_t>(first_.size()), first_.bounds()};
    const Subtree b{0, 0, static_cast<std::uint32_t>(second_.size()), mapped(second_.bounds())};
    stack_.push_back({a, b, squared_gap_lower_bound(a.box, b.box)});
    while (!stack_.empty()) {
      const SubtreePair pair = stack_.back();
      stack_.pop_back();
      if (pair.key > threshold_) continue;
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

  [[nodiscard]] Triangle second_triangle(std::uint32_t slot) const noexcept {
    const Triangle t = second_.triangles.triangle(slot);
    if (!transform_) return t;
    return {detail::transform_point(*transform_, t.a), detail::transform_point(*transform_, t.b),
            detail::transform_point(*transform_, t.c)};
  }

  // Splits the side with the larger box (a leaf is never split), pushing the child pairs
  // within the bound farthest first, so that the nearest is taken next.
  void split(const SubtreePair& pair) {
    const bool split_first = pair.second.node == WideNode::leaf ||
                             (pair.first.node != WideNode::leaf &&
                              pair.first.box.half_area() >= pair.second.box.half_area());
    const Subtree& parent = split_first ? pair.first : pair.second;
    const Subtree& other = split_first ? pair.second : pair.first;
    const WideNode& node = (split_first ? first_ : second_).wide[parent.node];
    const std::size_t base = stack_.size();
    for (unsigned used = node.used_mask(); used != 0; used &= used - 1) {
      const int i = std::countr_zero(used);
      const Aabb box = split_first ? node.child_bounds(i) : mapped(node.child_bounds(i));
      const Subtree child{node.child[i], node.first[i], node.child_end(i, parent.end), box};
      const double key = squared_gap_lower_bound(box, other.box);
      if (key > threshold_) continue;
      stack_.push_back(split_first ? SubtreePair{child, other, key}
                                   : SubtreePair{other, child, key});
    }
    std::sort(stack_.begin() + static_cast<std::ptrdiff_t>(base), stack_.end(),
              [](const SubtreePair& x, const SubtreePair& y) { return x.key > y.key; });
  }

  // Every pair of triangles of two leaves whose boxes are within the bound; returns the pairs
  // tested exactly.
  std::uint64_t test_leaves(const Subtree& a, const Subtree& b) {
    second_cache_.clear();
    for (std::uint32_t slot = b.begin; slot < b.end; ++slot) {
      const Triangle t = second_triangle(slot);
      second_cache_.push_back({t, t.bounds()});
    }
    std::uint64_t tested = 0;
    for (std::uint32_t i = a.begin; i < a.end; ++i) {
      // Once two triangles touch, only a smaller touching pair can improve the answer.
      if (best_is_zero_ && first_.ids[i] > best_first_) continue;
      const Triangle s = first_.triangles.triangle(i);
      const Aabb s_box = s.bounds();
      for (std::uint32_t j = b.begin; j < b.end; ++j) {
        if (best_is_zero_ &&
            std::pair(first_.ids[i], second_.ids[j]) >= std::pair(best_first_, best_second_))
          continue;
        const auto& [t, t_box] = second_cache_[j - b.begin];
        if (squared_gap_lower_bound(s_box, t_box) > threshold_) continue;
        ++tested;
        consider(first_.ids[i], second_.ids[j], squared_distance(s, t));
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
  std::vector<SubtreePair> stack_;
  std::vector<std::pair<Triangle, Aabb>> second_cache_;
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
