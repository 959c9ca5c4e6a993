#pragma once
/// \file
/// The k triangles of a mesh nearest a query point, nearest first, chosen exactly.

#include "trisect/bvh/bvh.hpp"
#include "trisect/bvh/query_stats.hpp"
#include "trisect/nearest/closest_point.hpp"

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace trisect {

/// The `k` triangles of `bvh` nearest `point`, nearest first: ordered by their exact Euclidean
/// distance from it (triangles are closed; a zero-area one is the segment or point it spans),
/// equal distances by ascending id, counting only triangles at exact distance <= `max_distance`.
/// Fewer than `k` answers when fewer triangles count (none for an empty tree). Each answer is
/// as `closest_point` gives it (distance within a relative 2^-24, exactly 0 on the triangle;
/// the triangle's nearest point), and the first is `closest_point`'s answer. A visitor of the
/// ordered walk, pruning once k candidates are held by the k-th one's distance. Throws
/// `InvalidInput` for `k` = 0, a non-finite point or a `max_distance` that is NaN or negative
/// (+inf, the default, means no limit).
[[nodiscard]] std::vector<ClosestPoint> k_nearest(
    const Bvh& bvh, const Vec3& point, std::size_t k,
    float max_distance = std::numeric_limits<float>::infinity(), QueryStats* stats = nullptr);

/// `result[i] = k_nearest(bvh, points[i], k, max_distance)` for every i, split among TBB's
/// threads (the same answers for any thread count). `k` and `max_distance`, then every point,
/// are checked first: a bad one throws `InvalidInput` (a point named by its index) before any
/// work is done.
[[nodiscard]] std::vector<std::vector<ClosestPoint>> k_nearest_batch(
    const Bvh& bvh, std::span<const Vec3> points, std::size_t k,
    float max_distance = std::numeric_limits<float>::infinity());

}  // namespace trisect
