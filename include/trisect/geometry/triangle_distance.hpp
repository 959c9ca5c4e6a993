#pragma once
/// \file
/// The exact squared distance between two closed triangles.

#include "trisect/geometry/squared_distance.hpp"
#include "trisect/math/aabb.hpp"
#include "trisect/math/triangle.hpp"

namespace trisect {

/// The squared distance between the closed triangles `s` and `t` (a zero-area triangle is the
/// segment or point it spans), in the form of the nearest parts, chosen exactly: 0 (a point to
/// itself) when they intersect (`intersects` of triangle_triangle.hpp); otherwise the nearest of
/// the six vertex-to-triangle distances and of the edge-to-edge distances whose nearest points
/// lie strictly inside both edges of non-parallel lines (two disjoint triangles are nearest at
/// a vertex and a point of the other triangle, or at interior points of two edges: Ericson,
/// "Real-Time Collision Detection", §5.2.6).
[[nodiscard]] SquaredDistance squared_distance(const Triangle& s, const Triangle& t);

/// The squared distance between the closed segment [p, q] (the point p when p == q) and the
/// closed triangle `t` (a zero-area one is the segment or point it spans), in the form of the
/// nearest parts, chosen exactly: 0 when they meet (`segment_meets`); otherwise the nearest of
/// the ends' distances to the triangle, the triangle's vertices' distances to the segment, and
/// the distances between the segment's line and the edges' lines whose nearest points lie
/// strictly inside both (a disjoint segment and triangle are nearest at one of those).
[[nodiscard]] SquaredDistance squared_distance(const Vec3& p, const Vec3& q, const Triangle& t);

/// True when the exact distance between the closed segment [p, q] and the closed triangle `t`
/// (as the segment `squared_distance` measures it) is at most `limit`; `segment_box` and
/// `t_box` are their bounding boxes. Decided early where double bounds settle it, as
/// `within_distance` does, exactly otherwise.
[[nodiscard]] bool segment_within_distance(const Vec3& p, const Vec3& q, const Aabb& segment_box,
                                           const Triangle& t, const Aabb& t_box,
                                           const DistanceLimit& limit);

/// True when the exact distance between the closed triangles `s` and `t` (as
/// `squared_distance` measures it) is at most `limit`. `s_box` and `t_box` are their bounding
/// boxes (`Triangle::bounds`). Decided early where double bounds settle it (the gap between the
/// boxes beyond the limit, two vertices within it, a separating plane beyond it), exactly
/// otherwise.
[[nodiscard]] bool within_distance(const Triangle& s, const Aabb& s_box, const Triangle& t,
                                   const Aabb& t_box, const DistanceLimit& limit);

}  // namespace trisect
