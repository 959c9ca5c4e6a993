// The k nearest triangles as a visitor of the ordered walk, the closest point's walk
// (closest_point.cpp) with k candidates held instead of one: until k are held the filter
// (near_point_filter.hpp) keeps what the distance limit allows; from then on what may be as
// near as the k-th candidate, so no child that may hold a triangle that ties or beats it is
// pruned.
// Candidates are ordered by exact squared distance (squared_distance.hpp), then by id.
#include "trisect/nearest/k_nearest.hpp"

#include "geometry/separation.hpp"
#include "nearest/near_point_filter.hpp"
#include "nearest/point_query.hpp"
#include "trisect/bvh/ordered_walk.hpp"
#include "trisect/detail/thread_fallback.hpp"
#include "trisect/geometry/point_triangle_distance.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace trisect {
namespace {

struct Candidate {
  TriangleId id;
  SquaredDistance distance;
  DistanceBounds bounds;
  Triangle triangle;
};

// True when `a` comes before `b`: nearer, or as near with a smaller id.
bool before(const Candidate& a, const Candidate& b) {
  const int order = compare(a.distance, a.bounds, b.distance, b.bounds);
  return order < 0 || (order == 0 && a.id < b.id);
}

class KNearestVisitor {
 public:
  KNearestVisitor(const Bvh& bvh, const Vec3& point, std::size_t k, float max_distance)
      : filter_(bvh, point, max_distance), k_(k) {
    held_.reserve(std::min<std::size_t>(k, 64));
  }

  [[nodiscard]] float bound() const noexcept { return filter_.bound(); }

  unsigned enter(const WideNode& node, float (&keys)[WideNode::width]) const noexcept {
    return filter_.enter(node, keys);
  }

  bool visit_leaf(std::uint32_t begin, std::uint32_t end) {
    filter_.for_each_near(begin, end, [&](TriangleId id, const Triangle& t) { consider(id, t); });
    return true;
  }

  /// The candidates held, nearest first.
  [[nodiscard]] const std::vector<Candidate>& held() const noexcept { return held_; }

 private:
  [[nodiscard]] bool full() const noexcept { return held_.size() == k_; }

  void consider(TriangleId id, const Triangle& triangle) {
    const Vec3& point = filter_.point();
    if (full() && detail::plane_gap_lower_bound(triangle, &point, 1) > held_.back().bounds.upper)
      return;
    Candidate candidate{id, squared_distance(point, triangle), {}, triangle};
    candidate.bounds = bounds_of(candidate.distance);
    if (filter_.beyond_limit(candidate.distance, candidate.bounds)) return;
    if (full() && !before(candidate, held_.back())) return;
    if (full()) held_.pop_back();
    held_.insert(std::upper_bound(held_.begin(), held_.end(), candidate, before), candidate);
    if (full()) filter_.keep_within(held_.back().bounds.upper);
  }

  detail::NearPointFilter filter_;
  std::size_t k_;
  std::vector<Candidate> held_;
};

void check_k(std::size_t k, const char* what) {
  if (k == 0) throw InvalidInput(std::string(what) + ": k is 0 (it must be at least 1)");
}

std::vector<ClosestPoint> answer(const Bvh& bvh, const Vec3& point, std::size_t k,
                                 float max_distance, QueryStats* stats) {
  KNearestVisitor visitor(bvh, point, k, max_distance);
  ordered_walk(bvh, visitor, stats);
  std::vector<ClosestPoint> result;
  result.reserve(visitor.held().size());
  for (const Candidate& c : visitor.held())
    result.push_back(detail::evaluated(NearestTriangle{c.id, c.distance, c.triangle}));
  return result;
}

}  // namespace

std::vector<ClosestPoint> k_nearest(const Bvh& bvh, const Vec3& point, std::size_t k,
                                    float max_distance, QueryStats* stats) {
  check_k(k, "k nearest query");
  detail::check_point_query(point, max_distance, [] { return std::string("k nearest query"); });
  return answer(bvh, point, k, max_distance, stats);
}

std::vector<std::vector<ClosestPoint>> k_nearest_batch(const Bvh& bvh, std::span<const Vec3> points,
                                                       std::size_t k, float max_distance) {
  check_k(k, "k nearest batch");
  detail::check_point_query(Vec3(0.0f), max_distance,
                            [] { return std::string("k nearest batch: max_distance"); });
  for (std::size_t i = 0; i < points.size(); ++i)
    detail::check_point_query(points[i], max_distance,
                              [i] { return "k nearest batch: point " + std::to_string(i); });
  std::vector<std::vector<ClosestPoint>> result(points.size());
  constexpr std::size_t points_per_task = 32;
  detail::with_thread_fallback(0, [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), points_per_task),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i < range.end(); ++i)
                          result[i] = answer(bvh, points[i], k, max_distance, nullptr);
                      });
  });
  return result;
}

}  // namespace trisect
