#pragma once
/// \file
/// Exact brute-force oracles of the nearest queries (closest point, mesh distance), in GMP
/// rational arithmetic. Independent of the library's formulas: no trisect predicate is called;
/// each distance is the minimum over explicit candidates (vertices, clamped edge projections,
/// the face projection when it lies inside), each evaluated exactly on the given floats.

#include "support/exact_oracle.hpp"

#include <trisect/geometry/squared_distance.hpp>
#include <trisect/math/capsule.hpp>
#include <trisect/mesh/triangle_soup.hpp>

#include <gmpxx.h>

#include <cstddef>
#include <optional>
#include <vector>

namespace trisect::oracle {

/// |v|², exactly.
[[nodiscard]] mpq_class squared_length(const QVec3& v);

/// True when the triangle has zero area (its edge vectors' cross product is exactly 0).
[[nodiscard]] bool is_zero_area(const Triangle& triangle);

/// The point of the closed segment [u, v] nearest `p` (u when u == v): the projection
/// parameter clamped to [0, 1], exactly.
[[nodiscard]] QVec3 nearest_on_segment(const QVec3& p, const QVec3& u, const QVec3& v);

/// The point of the closed triangle nearest `point`, exactly (it is unique: the set is convex).
/// A proper triangle: Ericson's Voronoi-region walk ("Real-Time Collision Detection" §5.1.5)
/// in rationals; a zero-area one: the nearest of its three sides' nearest points.
[[nodiscard]] QVec3 nearest_point(const Triangle& triangle, const Vec3& point);

/// The exact squared distance between the closed segments [p0, p1] and [q0, q1] (either may be
/// a point): the least of the four endpoint-to-segment distances and, for non-parallel lines
/// whose mutual nearest points lie inside both segments, the distance between those points.
[[nodiscard]] mpq_class segment_squared_distance(const QVec3& p0, const QVec3& p1, const QVec3& q0,
                                                 const QVec3& q1);

/// The exact squared distance between two closed triangles (zero-area ones as the segment or
/// point they span): 0 when `touches(first, second)` (the clipping oracle), otherwise the
/// least of the six vertex-to-triangle and nine edge-to-edge distances.
[[nodiscard]] mpq_class squared_distance(const Triangle& first, const Triangle& second);

/// True when the closed triangle and the closed capsule share a point: the exact squared
/// distance between the triangle and the zero-area triangle (a, b, b), the capsule's axis, is
/// at most radius².
[[nodiscard]] bool touches(const Triangle& triangle, const Capsule& capsule);

/// The exact value of the fraction a `SquaredDistance` stands for (its `DistanceForm`); -1 when
/// the form's denominator is 0 (u == v, collinear plane points, parallel lines: not a valid form).
[[nodiscard]] mpq_class value(const SquaredDistance& distance);

/// True when the double `got` is within `relative` of the square root of `squared` (>= 0),
/// decided exactly by squaring: (1 - relative)² squared <= got² <= (1 + relative)² squared, and
/// got >= 0. So `got` must be exactly 0 when `squared` is.
[[nodiscard]] bool near_root(double got, const mpq_class& squared, const mpq_class& relative);

/// The brute-force closest triangle: the smallest id at the least exact squared distance.
struct NearestAnswer {
  TriangleId id = 0;  ///< Smallest id attaining `squared`.
  mpq_class squared;  ///< The least exact squared distance.
};

/// The closest triangle of `soup` to `point` among those at exact distance <= `max_distance`
/// (compared as squares: d² <= max_distance², +inf meaning no limit); nullopt when none counts.
[[nodiscard]] std::optional<NearestAnswer> nearest(const TriangleSoup& soup, const Vec3& point,
                                                   float max_distance);

/// The `k` triangles of `soup` nearest `point` among those at exact distance <= `max_distance`:
/// ascending exact squared distance, equal ones by ascending id; fewer when fewer count.
[[nodiscard]] std::vector<NearestAnswer> k_nearest(const TriangleSoup& soup, const Vec3& point,
                                                   std::size_t k, float max_distance);

/// The brute-force nearest pair of two meshes (`second` already mapped by any transform).
struct PairAnswer {
  TriangleId first = 0;   ///< Smallest first id among the pairs at `squared`.
  TriangleId second = 0;  ///< Then the smallest second id.
  mpq_class squared;      ///< The least exact squared distance over all pairs.
};

/// Every pair of triangles of `first` and `second` measured exactly (pairs whose double bounds
/// prove them farther than the best so far are skipped, with a wide safety margin); nullopt
/// when either soup is empty.
[[nodiscard]] std::optional<PairAnswer> nearest_pair(const TriangleSoup& first,
                                                     const TriangleSoup& second);

}  // namespace trisect::oracle
