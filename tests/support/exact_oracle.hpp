#pragma once
/// \file
/// Exact oracles for trisect's geometric predicates, in GMP rational arithmetic.
///
/// Written independently of the library's formulas: no trisect predicate is called, and each
/// question is answered by the most direct construction there is (all eight box corners, explicit
/// clipping, an explicit closest point). Every float converts exactly to a rational, so each
/// answer is what exact real arithmetic on the given floats decides.

#include <trisect/math/aabb.hpp>
#include <trisect/math/frustum.hpp>
#include <trisect/math/oriented_box.hpp>
#include <trisect/math/plane.hpp>
#include <trisect/math/sphere.hpp>
#include <trisect/math/triangle.hpp>

#include <gmpxx.h>

#include <array>
#include <vector>

namespace trisect::oracle {

/// A point or vector with exact rational coordinates, indexed 0, 1, 2 for x, y, z.
using QVec3 = std::array<mpq_class, 3>;

/// The exact rational value of a float.
[[nodiscard]] mpq_class rational(float value);

/// The exact rational coordinates of a float vector.
[[nodiscard]] QVec3 rational(const Vec3& v);

[[nodiscard]] QVec3 minus(const QVec3& p, const QVec3& q);
[[nodiscard]] mpq_class dot(const QVec3& p, const QVec3& q);
[[nodiscard]] QVec3 cross(const QVec3& p, const QVec3& q);

/// Sign (-1, 0, +1) of dot(normal, point) - d.
[[nodiscard]] int side(const Plane& plane, const Vec3& point);

/// The closed box touches the plane: the values dot(normal, corner) - d over all eight corners
/// are not all strictly positive nor all strictly negative.
[[nodiscard]] bool touches(const Aabb& box, const Plane& plane);

/// The closed triangle touches the plane: its vertices are not all strictly on one side.
[[nodiscard]] bool touches(const Triangle& triangle, const Plane& plane);

/// The triangle (as the cyclic polygon a, b, c; a segment or point when degenerate) clipped by
/// Sutherland–Hodgman against the six closed half-spaces of the box, in exact arithmetic. Empty
/// exactly when the closed sets are disjoint.
[[nodiscard]] std::vector<QVec3> clip(const Triangle& triangle, const Aabb& box);

/// The closed triangle and the closed box share a point (the clipped polygon is not empty).
[[nodiscard]] bool touches(const Triangle& triangle, const Aabb& box);

/// The closed triangle and the closed oriented box share a point: the triangle mapped exactly
/// into the box's coordinates (s = M^-1 (v - center), M the matrix of the axes, by the adjugate
/// in rationals) and clipped by Sutherland–Hodgman against |s_i| <= h_i is not empty. Valid box.
[[nodiscard]] bool touches(const Triangle& triangle, const OrientedBox& box);

/// `touches(triangle, box)` with the box's centre moved to the rational point `center`.
[[nodiscard]] bool touches_box_at(const Triangle& triangle, const OrientedBox& box,
                                  const QVec3& center);

/// The closed triangle and the closed frustum share a point: the triangle clipped by
/// Sutherland–Hodgman against the six closed half-spaces n·x <= d in rationals is not empty.
[[nodiscard]] bool touches(const Triangle& triangle, const Frustum& frustum);

/// The exact squared distance from `point` to the closed triangle: the minimum over the
/// vertices, the edges (clamped projection) and, for a non-degenerate triangle, the projection
/// onto its plane when that lies inside.
[[nodiscard]] mpq_class squared_distance(const Triangle& triangle, const Vec3& point);

/// The closed triangle and the closed ball share a point: squared distance <= radius².
[[nodiscard]] bool touches(const Triangle& triangle, const Sphere& sphere);

/// The triangle `polygon` (as the cyclic polygon a, b, c; a segment or point when degenerate)
/// clipped by Sutherland–Hodgman against the closed half-spaces whose intersection is the
/// closed triangle `by` (two for its plane and three through its edges; for a zero-area
/// `by`, the half-spaces of the segment or point it spans), in exact arithmetic. Its vertices
/// span the intersection of the two closed sets: empty exactly when they are disjoint.
[[nodiscard]] std::vector<QVec3> clip(const Triangle& polygon, const Triangle& by);

/// The two closed triangles share a point (the clipped polygon is not empty).
[[nodiscard]] bool touches(const Triangle& first, const Triangle& second);

/// The self-overlap rule of `trisect overlap --self`, answered from the clipped polygon: true
/// for the same vertex multiset; otherwise true when a vertex of the intersection lies outside
/// the span of the common vertex positions (nothing, a point or a segment).
[[nodiscard]] bool touches_beyond_shared(const Triangle& first, const Triangle& second);

}  // namespace trisect::oracle
