// Clearance: a visitor of the pair walk (bvh/pair_walk.hpp) that enters the pairs of boxes
// within the distance on every axis and tests the pairs of leaves with cheap lower bounds of
// the squared distance first, then exactly. Compiled with -ffp-contract=off: the second mesh's
// boxes are mapped with outward rounding and the boxes grow with outward rounding.
#include "trisect/overlap/clearance.hpp"

#include "bvh/checked_transform.hpp"
#include "bvh/pair_walk.hpp"
#include "geometry/separation.hpp"
#include "pair_collector.hpp"
#include "trisect/bvh/box_query.hpp"
#include "trisect/detail/thread_fallback.hpp"
#include "trisect/geometry/squared_distance.hpp"
#include "trisect/geometry/triangle_distance.hpp"
#include "trisect/math/detail/float_rounding.hpp"
#include "trisect/math/validate.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace trisect {
namespace {

using detail::PairSide;
using detail::PairSubtree;
using detail::SubtreePair;

/// A triangle and its box.
struct Boxed {
  Triangle triangle;
  Aabb box;
};

/// True when two corners of `s` and `t` have exactly equal coordinates.
bool share_a_vertex(const Triangle& s, const Triangle& t) noexcept {
  const Vec3 ours[3] = {s.a, s.b, s.c}, theirs[3] = {t.a, t.b, t.c};
  for (const Vec3& p : ours)
    for (const Vec3& q : theirs)
      if (p == q) return true;
  return false;
}

/// The pair walk's visitor for clearance: boxes grown by the distance on every axis (outward
/// rounding), then per pair of triangles the gap between their boxes (out when beyond), the
/// nearest two vertices (in when within), the gaps along two directions (out when beyond,
/// `directions_show_farther`), and the exact
/// squared distance against the squared distance (exact in double: a float's square).
class PairsWithinDistance {
 public:
  PairsWithinDistance(const PairSide& first, const PairSide& second, float distance, bool self)
      : first_(first),
        second_(second),
        distance_(distance),
        limit_(DistanceLimit::of(distance)),
        self_(self) {}

  [[nodiscard]] static double bound() noexcept { return std::numeric_limits<double>::infinity(); }
  [[nodiscard]] unsigned enter(const ChildBoxes& boxes, const Aabb& box,
                               double (&)[WideNode::width]) const noexcept {
    return BoxQuery{grown(box)}.child_masks(boxes).touching;
  }
  bool visit_leaves(const PairSubtree& x, const PairSubtree& y) {
    const std::vector<Boxed>& xs = first_leaf_.of(first_, x, boxed);
    if (self_ && x.same_as(y)) {
      for (std::uint32_t i = 0; i < xs.size(); ++i)
        for (std::uint32_t j = i + 1; j < xs.size(); ++j)
          test(x.begin + i, xs[i], y.begin + j, xs[j]);
      return true;
    }
    const std::vector<Boxed>& ys = second_leaf_.of(second_, y, boxed);
    for (std::uint32_t i = 0; i < xs.size(); ++i)
      for (std::uint32_t j = 0; j < ys.size(); ++j) test(x.begin + i, xs[i], y.begin + j, ys[j]);
    return true;
  }

  /// The pairs found.
  [[nodiscard]] std::vector<TrianglePair>& found() noexcept { return found_; }

 private:
  static Boxed boxed(const Triangle& t) noexcept { return {t, t.bounds()}; }

  // `box` grown by the distance on every side, rounded outward.
  [[nodiscard]] Aabb grown(const Aabb& box) const noexcept {
    Aabb result;
    for (int axis = 0; axis < 3; ++axis) {
      result.min[axis] = detail::float_at_most(double(box.min[axis]) - double(distance_));
      result.max[axis] = detail::float_at_least(double(box.max[axis]) + double(distance_));
    }
    return result;
  }

  // Slot `i` (triangle s) of the first side against slot `j` (triangle t) of the second.
  void test(std::uint32_t i, const Boxed& s, std::uint32_t j, const Boxed& t) {
    if (detail::box_gap_lower_bound(s.box, t.box) > limit_.squared) return;
    if (self_ && share_a_vertex(s.triangle, t.triangle)) return;
    if (!within_distance(s.triangle, s.box, t.triangle, t.box, limit_)) return;
    TriangleId a = first_.bvh().ids[i], b = second_.bvh().ids[j];
    if (self_ && b < a) std::swap(a, b);
    found_.push_back({a, b});
  }

  const PairSide& first_;
  const PairSide& second_;
  float distance_;
  DistanceLimit limit_;
  bool self_;
  detail::LastLeaf<Boxed> first_leaf_, second_leaf_;
  std::vector<TrianglePair> found_;
};

/// One thread's clearance query: its sides, its visitor and the walk over them.
class ClearanceFinder {
 public:
  ClearanceFinder(const Bvh& first, const Bvh& second, const Transform* transform, float distance,
                  bool self)
      : first_(first, nullptr, self),
        second_(second, transform),
        pairs_(first_, self ? first_ : second_, distance, self),
        walk_(first_, second_, pairs_, self) {}
  ClearanceFinder(const ClearanceFinder&) = delete;
  ClearanceFinder& operator=(const ClearanceFinder&) = delete;

  [[nodiscard]] detail::PairWalk<PairsWithinDistance>& walk() noexcept { return walk_; }
  [[nodiscard]] std::vector<TrianglePair>& found() noexcept { return pairs_.found(); }
  void walk_all() {
    SubtreePair root;
    if (walk_.root_pair(root)) walk_.depth_first(root);
  }

 private:
  PairSide first_, second_;
  PairsWithinDistance pairs_;
  detail::PairWalk<PairsWithinDistance> walk_;
};

// `distance`, checked: finite and >= 0, with -0 made 0.
float checked_distance(float distance) {
  if (!std::isfinite(distance) || distance < 0)
    throw InvalidInput("clearance distance " + std::to_string(distance) +
                       " must be finite and >= 0");
  return distance == 0 ? 0.0f : distance;
}

std::vector<TrianglePair> collect(const Bvh& first, const Bvh& second, const Transform* transform,
                                  float distance, bool self, const OverlapOptions& options) {
  validate_thread_count(options.threads, "overlap options");
  if (first.empty() || second.empty()) return {};
  return detail::with_thread_fallback(static_cast<int>(options.threads), [&] {
    return detail::collect_sorted_pairs<ClearanceFinder>(first, second, transform, distance, self);
  });
}

}  // namespace

std::vector<TrianglePair> pairs_within(const Bvh& first, const Bvh& second, float distance,
                                       const Transform& second_to_first,
                                       const OverlapOptions& options) {
  const float checked = checked_distance(distance);
  return collect(first, second, detail::checked_transform(second, second_to_first), checked, false,
                 options);
}

std::vector<TrianglePair> self_pairs_within(const Bvh& bvh, float distance,
                                            const OverlapOptions& options) {
  return collect(bvh, bvh, nullptr, checked_distance(distance), true, options);
}

}  // namespace trisect
