#pragma once
/// \file
/// Checks of the nearest queries against the exact oracles (support/nearest_oracle.hpp), and
/// the query points they are checked at.

#include "support/nearest_oracle.hpp"
#include "support/random_cases.hpp"
#include "support/scenes.hpp"

#include <trisect/bvh/bvh.hpp>
#include <trisect/nearest/closest_point.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace trisect::testing {

/// Seeded query points for `scene`, rich in exact ties: its vertices, edge midpoints and face
/// centroids (rounded to float), points near them, points of the lattice of spacing `step`
/// through its vertices (when `step` > 0), random points around it, and points far away.
[[nodiscard]] std::vector<Vec3> nearest_query_points(const Scene& scene, int count,
                                                     std::uint64_t seed, float step = 0.0f);

/// REQUIREs that `got` (a `closest_point` answer for `point`) is the brute-force one: the same
/// id (the smallest at the least exact distance) or both none; `distance` within a relative
/// 1e-6 of the exact one (exactly 0 when it is 0); `point` within 1e-6 × (the largest absolute
/// coordinate of triangle id and the query point) of the exact nearest point in each
/// coordinate, or within the smallest subnormal float when that is larger (a float point cannot
/// be nearer an exact point whose coordinates lie between subnormals).
void check_closest_answer(const Scene& scene, const Vec3& point,
                          const std::optional<ClosestPoint>& got,
                          const std::optional<oracle::NearestAnswer>& expected);

/// `closest_point` and `nearest_triangle` of `bvh` (built over `scene`) at `point` checked
/// against the brute-force oracle; `nearest_triangle`'s exact distance must equal the least
/// exact squared distance and its triangle must be triangle id's vertices.
void check_closest(const Scene& scene, const Bvh& bvh, const Vec3& point,
                   float max_distance = std::numeric_limits<float>::infinity());

/// Eight unit squares' triangles around the origin, four in the plane z = 0 and their copies
/// in z = 2 (ids 0-7 below, 8-15 above): the origin is a vertex of the lower eight, and
/// half-lattice points are equidistant from many of them (exact ties).
[[nodiscard]] Scene square_ties_scene();

/// A scene of `count` triangles from the predicate-case generator (random_cases.hpp) in
/// `regime`: about a quarter degenerate (repeated or collinear vertices, a point) or needles in
/// the non-generic regimes.
[[nodiscard]] Scene regime_scene(Regime regime, std::size_t count, std::uint64_t seed);

}  // namespace trisect::testing
