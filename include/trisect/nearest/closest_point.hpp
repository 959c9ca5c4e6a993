#pragma once
/// \file
/// The point of a mesh nearest a query point: which triangle (chosen exactly, ties to the
/// smallest id), how far, and where on it.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/geometry/squared_distance.hpp"
#include "trisect/math/vec.hpp"

#include <limits>
#include <optional>
#include <span>

namespace trisect {

/// The answer of `closest_point`.
struct ClosestPoint {
  /// The smallest input id among the triangles at the smallest exact distance.
  TriangleId id = 0;
  /// That distance, to within a relative 2^-24; exactly 0 when the point lies on the triangle.
  double distance = 0;
  /// The point of triangle `id` nearest the query point, each coordinate within 1e-6 × (the
  /// largest absolute coordinate of the triangle and the query point) of the exact one.
  Vec3 point{0.0f};
};

/// The nearest triangle as an exact squared distance (for queries built on this one).
struct NearestTriangle {
  TriangleId id = 0;         ///< As `ClosestPoint::id`.
  SquaredDistance distance;  ///< Exact: from the query point to triangle `id`'s nearest part.
  Triangle triangle;         ///< Triangle `id`'s vertices.
};

/// The triangle of `bvh` nearest `point`: the smallest id among those at the smallest exact
/// Euclidean distance from it (triangles are closed; a zero-area one is the segment or point
/// it spans), counting only triangles at exact distance <= `max_distance`. `nullopt` when
/// none counts (or the tree is empty). A visitor of the ordered walk: children nearest first,
/// keyed by their boxes' squared distance, pruned once farther than the best triangle so far
/// (ties kept, for the smallest id). Throws `InvalidInput` for a non-finite point or a
/// `max_distance` that is NaN or negative (+inf, the default, means no limit).
[[nodiscard]] std::optional<NearestTriangle> nearest_triangle(
    const Bvh& bvh, const Vec3& point, float max_distance = std::numeric_limits<float>::infinity(),
    QueryStats* stats = nullptr);

/// `nearest_triangle` with its distance and nearest point evaluated.
[[nodiscard]] std::optional<ClosestPoint> closest_point(
    const Bvh& bvh, const Vec3& point, float max_distance = std::numeric_limits<float>::infinity(),
    QueryStats* stats = nullptr);

/// `answers[i] = closest_point(bvh, points[i], max_distance)` for every i, split among TBB's
/// threads (the same answers for any thread count). Every point is validated first: a bad one
/// throws `InvalidInput` naming its index before any answer is written; so does a size
/// mismatch or a bad `max_distance`.
void closest_points(const Bvh& bvh, std::span<const Vec3> points,
                    std::span<std::optional<ClosestPoint>> answers,
                    float max_distance = std::numeric_limits<float>::infinity());

}  // namespace trisect
