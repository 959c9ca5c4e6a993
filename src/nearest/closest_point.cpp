// The closest point as a visitor of the ordered walk. Keys are the children's computed squared
// gaps (detail/squared_gap.hpp); the bound is `touch_threshold` of the best triangle's upper
// bound, so no child that may hold a triangle at most as far as the best (a tie with a smaller
// id included) is pruned. Triangles are compared by their exact squared distances
// (squared_distance.hpp): in double where the bounds are apart, exactly where they overlap.
#include "trisect/nearest/closest_point.hpp"

#include "geometry/separation.hpp"
#include "nearest/near_point_filter.hpp"
#include "nearest/point_query.hpp"
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
      : filter_(bvh, point, max_distance) {}

  [[nodiscard]] float bound() const noexcept { return filter_.bound(); }

  unsigned enter(const WideNode& node, float (&keys)[WideNode::width]) const noexcept {
    return filter_.enter(node, keys);
  }

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    filter_.for_each_near(begin, end, [&](TriangleId id, const Triangle& t) { consider(id, t); });
    return true;
  }

  [[nodiscard]] const std::optional<Best>& best() const noexcept { return best_; }

 private:
  void consider(TriangleId id, const Triangle& triangle) {
    const Vec3& point = filter_.point();
    if (best_ && detail::plane_gap_lower_bound(triangle, &point, 1) > best_->bounds.upper) return;
    const SquaredDistance distance = squared_distance(point, triangle);
    const DistanceBounds bounds = bounds_of(distance);
    if (filter_.beyond_limit(distance, bounds)) return;
    if (best_) {
      const int order = compare(distance, bounds, best_->distance, best_->bounds);
      if (order > 0 || (order == 0 && id > best_->id)) return;
    }
    best_ = Best{id, distance, bounds, triangle};
    filter_.keep_within(bounds.upper);
  }

  detail::NearPointFilter filter_;
  std::optional<Best> best_;
};

}  // namespace

std::optional<NearestTriangle> nearest_triangle(const Bvh& bvh, const Vec3& point,
                                                float max_distance, QueryStats* stats) {
  detail::check_point_query(point, max_distance, [] { return std::string("closest point query"); });
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
  return detail::evaluated(*nearest);
}

void closest_points(const Bvh& bvh, std::span<const Vec3> points,
                    std::span<std::optional<ClosestPoint>> answers, float max_distance) {
  if (answers.size() != points.size())
    throw InvalidInput("closest points: " + std::to_string(points.size()) +
                       " points but room for " + std::to_string(answers.size()) + " answers");
  detail::check_point_query(Vec3(0.0f), max_distance,
                            [] { return std::string("closest points: max_distance"); });
  for (std::size_t i = 0; i < points.size(); ++i)
    detail::check_point_query(points[i], max_distance,
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
