#pragma once
/// \file
/// The exact squared distance between two closed triangles.

#include "trisect/geometry/squared_distance.hpp"
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

}  // namespace trisect
