#pragma once
// What the queries about the triangles nearest a point share besides their walk filter
// (point_gap_filter.hpp): the check of the query point and distance limit, and the evaluation
// of an exact answer into the `ClosestPoint` users read.

#include "trisect/geometry/point_triangle_distance.hpp"
#include "trisect/math/validate.hpp"
#include "trisect/nearest/closest_point.hpp"

#include <cmath>
#include <limits>

namespace trisect::detail {

/// Throws `InvalidInput` (naming the query as `what()` says) unless the point is finite and
/// the limit is >= 0 or +inf. The name is built only for the message: checking a valid query
/// costs a few comparisons.
template <class What>
void check_point_query(const Vec3& point, float max_distance, const What& what) {
  const bool valid = std::isfinite(point.x) && std::isfinite(point.y) && std::isfinite(point.z) &&
                     max_distance >= 0;  // false for NaN
  if (valid) return;
  const bool unlimited = max_distance == std::numeric_limits<float>::infinity();
  validate(Sphere{point, unlimited ? 0.0f : max_distance}, what());
}

/// `nearest` with its distance and nearest point evaluated.
[[nodiscard]] inline ClosestPoint evaluated(const NearestTriangle& nearest) {
  return {nearest.id, distance_of(nearest.distance),
          nearest_point(nearest.distance, nearest.triangle)};
}

}  // namespace trisect::detail
