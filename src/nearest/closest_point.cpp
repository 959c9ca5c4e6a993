// The closest point as a visitor of the ordered walk. Keys are the children's computed squared
// gaps (detail/squared_gap.hpp); the bound is `touch_threshold` of the best triangle's upper
// bound, so no child that may hold a triangle at most as far as the best (a tie with a smaller
// id included) is pruned. Triangles are compared by their exact squared distances
// (squared_distance.hpp): in double where the bounds are apart, exactly where they overlap.
#include "trisect/nearest/closest_point.hpp"

#include "geometry/separation.hpp"
#include "trisect/bvh/detail/squared_gap.hpp"
#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/geometry/point_triangle_distance.hpp"
#include "trisect/math/validate.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include "trisect/detail/thread_fallback.hpp"

#include <bit>
#include <cmath>
#include <string>

namespace trisect {
namespace {

/// The candidate the walk keeps.
struct Best {
  TriangleId id;
  SquaredDistance distance;
  DistanceBounds bounds;
  Triangle triangle;
};

class ClosestPointVisitor {
 public:
  ClosestPointVisitor(const Bvh& bvh, const Vec3& point, float max_distance) noexcept
      : bvh_(&bvh), point_(point), has_limit_(!std::isinf(max_distance)) {
    for (int axis = 0; axis < 3; ++axis) center_[axis] = Float4::splat(point[axis]);
    if (has_limit_) {
      limit_ = SquaredDistance::of_radius(max_distance);
      limit_bounds_ = bounds_of(limit_);
      threshold_ = detail::touch_threshold(limit_bounds_.upper);
    }
  }

  [[nodiscard]] float bound() const noexcept { return threshold_; }

  unsigned enter(const WideNode& node, float (&keys)[WideNode::width]) const noexcept {
    unsigned mask = 0;
    for (int group = 0; group < WideNode::groups; ++group) {
      Float4 gap2 = Float4::splat(0.0f);
      for (int axis = 0; axis < 3; ++axis)
        gap2 = gap2 + detail::squared_gap(node.face_row(2 * axis, group),
                                          node.face_row(2 * axis + 1, group), center_[axis]);
      gap2.store(keys + 4 * group);
      mask |= less_equal_mask(gap2, Float4::splat(threshold_)) << (4 * group);
    }
    return mask;
  }

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    bvh_->triangles.for_each_group(
        begin, end, [&](std::uint32_t first, const TriangleGroup& group) {
          for (unsigned lanes = near_lanes(group); lanes != 0; lanes &= lanes - 1) {
            const int lane = std::countr_zero(lanes);
            consider(bvh_->ids[first + static_cast<std::uint32_t>(lane)], group.triangle(lane));
          }
          return true;
        });
    return true;
  }

  [[nodiscard]] const std::optional<Best>& best() const noexcept { return best_; }

 private:
  // Lanes whose triangle's bounding box may be within the bound.
  [[nodiscard]] unsigned near_lanes(const TriangleGroup& group) const noexcept {
    Float4 gap2 = Float4::splat(0.0f);
    for (int axis = 0; axis < 3; ++axis) {
      const Float4 v0 = group.lanes(0, axis), v1 = group.lanes(1, axis), v2 = group.lanes(2, axis);
      gap2 =
          gap2 + detail::squared_gap(min_ignoring_nan(min_ignoring_nan(v0, v1), v2),
                                     max_ignoring_nan(max_ignoring_nan(v0, v1), v2), center_[axis]);
    }
    return less_equal_mask(gap2, Float4::splat(threshold_)) & group.lane_mask();
  }

  void consider(TriangleId id, const Triangle& triangle) {
    if (best_ && detail::plane_gap_lower_bound(triangle, &point_, 1) > best_->bounds.upper) return;
    const SquaredDistance distance = squared_distance(point_, triangle);
    const DistanceBounds bounds = bounds_of(distance);
    if (has_limit_ && compare(distance, bounds, limit_, limit_bounds_) > 0) return;
    if (best_) {
      const int order = compare(distance, bounds, best_->distance, best_->bounds);
      if (order > 0 || (order == 0 && id > best_->id)) return;
    }
    best_ = Best{id, distance, bounds, triangle};
    threshold_ = std::min(threshold_, detail::touch_threshold(bounds.upper));
  }

  const Bvh* bvh_;
  Vec3 point_;
  Float4 center_[3];
  bool has_limit_;
  SquaredDistance limit_;
  DistanceBounds limit_bounds_;
  float threshold_ = std::numeric_limits<float>::infinity();
  std::optional<Best> best_;
};

/// Throws `InvalidInput` (naming the query as `what()` says) unless the point is finite and
/// the limit is >= 0 or +inf. The name is built only for the message: checking a valid query
/// costs a few comparisons.
template <class What>
void check_query(const Vec3& point, float max_distance, const What& what) {
  const bool valid = std::isfinite(point.x) && std::isfinite(point.y) && std::isfinite(point.z) &&
                     max_distance >= 0;  // false for NaN
  if (valid) return;
  const bool unlimited = max_distance == std::numeric_limits<float>::infinity();
  validate(Sphere{point, unlimited ? 0.0f : max_distance}, what());
}

ClosestPoint evaluate(const NearestTriangle& nearest) {
  return {nearest.id, distance_of(nearest.distance),
          nearest_point(nearest.distance, nearest.triangle)};
}

}  // namespace

std::optional<NearestTriangle> nearest_triangle(const Bvh& bvh, const Vec3& point,
                                                float max_distance, QueryStats* stats) {
  check_query(point, max_distance, [] { return std::string("closest point query"); });
  ClosestPointVisitor visitor(bvh, point, max_distance);
  ordered_walk(bvh, visitor, stats);
  if (!visitor.best()) return std::nullopt;
  const Best& best = *visitor.best();
  return NearestTriangle{best.id, best.distance, best.triangle};
}

std::optional<ClosestPoint> closest_point(const Bvh& bvh, const Vec3& point, float max_distance,
                                          QueryStats* stats) {
  const auto nearest = nearest_triangle(bvh, point, max_distance, stats);
  if (!nearest) return std::nullopt;
  return evaluate(*nearest);
}

void closest_points(const Bvh& bvh, std::span<const Vec3> points,
                    std::span<std::optional<ClosestPoint>> answers, float max_distance) {
  if (answers.size() != points.size())
    throw InvalidInput("closest points: " + std::to_string(points.size()) +
                       " points but room for " + std::to_string(answers.size()) + " answers");
  check_query(Vec3(0.0f), max_distance, [] { return std::string("closest points: max_distance"); });
  for (std::size_t i = 0; i < points.size(); ++i)
    check_query(points[i], max_distance,
                [i] { return "closest points: point " + std::to_string(i); });
  constexpr std::size_t points_per_task = 64;
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), points_per_task),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i < range.end(); ++i)
                          answers[i] = closest_point(bvh, points[i], max_distance);
                      });
  });
}

}  // namespace trisect
